//! Scoring a run of raw results in the page, as `qeval run` does, with progress and Cancel.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::database::LoadedDb;
use crate::judge::JudgeChoices;
use crate::report::LoadedRun;
use crate::report::score::{RunScoring, score_run};
use crate::report::state::{ReportAction, ReportState, Work};
use crate::workers::Workers;

/// Starts scoring the shown run, and stops the scoring under way.
pub struct ScoringControls {
    pub on_score: Callback<MouseEvent>,
    pub on_cancel: Callback<MouseEvent>,
}

/// `run`'s raw results scored under `scoring` with the judge `settings`; the tests without
/// results run on `db` when one is loaded (and its test-suite databases, when asked).
#[hook]
pub fn use_run_scoring(
    dispatch: UseReducerDispatcher<ReportState>,
    run: Option<Rc<LoadedRun>>,
    scoring: RunScoring,
    settings: JudgeChoices,
    db: LoadedDb,
) -> ScoringControls {
    let workers = use_context::<Workers>().unwrap_or_default();
    // Set to cancel the scoring under way; each scoring gets its own flag.
    let cancel = use_mut_ref(|| Rc::new(Cell::new(false)));
    let on_score = {
        let cancel = cancel.clone();
        Callback::from(move |_| {
            let Some(loaded) = run.clone() else { return };
            let Some(raw) = loaded.raw.clone() else {
                return;
            };
            let flag = Rc::new(Cell::new(false));
            *cancel.borrow_mut() = flag.clone();
            let (dispatch, settings, db, workers) = (
                dispatch.clone(),
                settings.clone(),
                db.clone(),
                workers.clone(),
            );
            dispatch.dispatch(ReportAction::Started(Work::Scoring {
                done: 0,
                total: raw.tests.len(),
            }));
            spawn_local(async move {
                let progress = {
                    let dispatch = dispatch.clone();
                    move |done, total| {
                        dispatch.dispatch(ReportAction::Progress(Work::Scoring { done, total }))
                    }
                };
                let records =
                    score_run(&raw, scoring, &settings, &db, &workers, flag, progress).await;
                dispatch.dispatch(ReportAction::Scored {
                    of: loaded,
                    records,
                });
            });
        })
    };
    let on_cancel = Callback::from(move |_| cancel.borrow().set(true));
    ScoringControls {
        on_score,
        on_cancel,
    }
}
