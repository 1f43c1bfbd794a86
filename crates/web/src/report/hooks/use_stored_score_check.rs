use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use qeval_core::{Disagreement, EvaluationRecord, recheck_record};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::report::Shared;

/// Records checked between two pauses, so a 100,000-record run never freezes the page.
const BATCH: usize = 2_000;
/// Stop listing after this many: a run this wrong needs its scorer fixed, not a longer list.
pub const FLAG_LIMIT: usize = 1_000;

#[derive(Debug, Clone, PartialEq)]
pub enum Recheck {
    Running { done: usize, total: usize },
    Done(Rc<Vec<(String, Disagreement)>>),
}

/// Rechecks every record's stored scores against its own data, in the background, batch by
/// batch; a newer run supersedes an older check still going.
#[hook]
pub fn use_stored_score_check(records: Shared<Vec<EvaluationRecord>>) -> Recheck {
    let check = use_state(|| Recheck::Done(Rc::new(Vec::new())));
    let generation = use_mut_ref(|| 0u64);
    {
        let check = check.clone();
        use_effect_with(records, move |records| {
            let mine = *generation.borrow();
            let (records, running) = (records.clone(), generation.clone());
            spawn_local(async move {
                let mut flags = Vec::new();
                let total = records.len();
                for (start, batch) in records
                    .chunks(BATCH)
                    .enumerate()
                    .map(|(i, b)| (i * BATCH, b))
                {
                    if *running.borrow() != mine {
                        return;
                    }
                    check.set(Recheck::Running { done: start, total });
                    TimeoutFuture::new(0).await;
                    for record in batch {
                        flags.extend(
                            recheck_record(record)
                                .into_iter()
                                .map(|d| (record.key(), d)),
                        );
                    }
                    if flags.len() >= FLAG_LIMIT {
                        break;
                    }
                }
                if *running.borrow() == mine {
                    check.set(Recheck::Done(Rc::new(flags)));
                }
            });
            // Another run, or the view gone: the check under way stops at its next batch.
            move || *generation.borrow_mut() += 1
        });
    }
    (*check).clone()
}
