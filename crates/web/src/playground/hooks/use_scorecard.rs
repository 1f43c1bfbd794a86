use std::cell::Cell;
use std::rc::Rc;

use qeval_core::Scorecard;
use qeval_worker::protocol::{Answer, Task};
use yew::prelude::*;

use crate::playground::state::Playground;
use crate::workers::{Reply, TaskKind, Workers};

/// A scorecard with the playground state it was made for.
#[derive(Debug, PartialEq)]
pub struct ScoredPlayground {
    pub state: Playground,
    pub card: Rc<Scorecard>,
}

/// Asks the scoring worker for the scorecard of what `make` builds from `key` whenever `key`
/// changes, and gives the newest scorecard answered (with its state) until a newer one comes:
/// the page shows a scorecard and the text it was made from together, so a parse error never
/// points into text typed since.
#[hook]
pub fn use_scorecard<K, F>(key: K, make: F) -> Option<Rc<ScoredPlayground>>
where
    K: PartialEq + Clone + 'static,
    F: FnOnce(&K) -> (Playground, Task) + 'static,
{
    let scorer = use_context::<Workers>().unwrap_or_default().scorer;
    let scored = use_state(|| None::<Rc<ScoredPlayground>>);
    {
        let scored = scored.clone();
        use_effect_with(key, move |key| {
            let current = Rc::new(Cell::new(true));
            let (state, task) = make(key);
            let still = current.clone();
            scorer.send(TaskKind::Score, task, move |reply| {
                if let Reply::Answer(Answer::Scored(card)) = reply
                    && still.get()
                {
                    scored.set(Some(Rc::new(ScoredPlayground {
                        state,
                        card: Rc::new(card),
                    })));
                }
            });
            move || current.set(false)
        });
    }
    (*scored).clone()
}
