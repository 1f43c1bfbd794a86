use std::cell::Cell;
use std::rc::Rc;

use qeval_worker::protocol::{Answer, Task};
use yew::prelude::*;

use crate::db_worker::{DbWorker, Kind, Reply};

/// A job's state as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Nothing to do for the current input.
    Idle,
    /// With the answer for the input before, to show (marked as being redone) meanwhile.
    Running(Option<Answer>),
    Done(Answer),
    Cancelled,
}

impl JobState {
    /// The answer for the current input.
    pub fn answer(&self) -> Option<&Answer> {
        match self {
            JobState::Done(answer) => Some(answer),
            _ => None,
        }
    }

    /// The answer for the current input, or while it is worked out, the one before.
    pub fn latest(&self) -> Option<&Answer> {
        match self {
            JobState::Done(answer) | JobState::Running(Some(answer)) => Some(answer),
            _ => None,
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self, JobState::Running(_))
    }
}

/// Runs the task `make` builds from `key` in the database worker whenever `key` changes, and
/// gives the answer for the current key (answers to earlier keys are dropped).
#[hook]
pub fn use_worker_job<K, F>(kind: Kind, key: K, make: F) -> JobState
where
    K: PartialEq + Clone + 'static,
    F: FnOnce(&K) -> Option<Task> + 'static,
{
    let worker = use_context::<DbWorker>().unwrap_or_default();
    let state = use_state_eq(|| JobState::Idle);
    {
        let state = state.clone();
        use_effect_with(key, move |key| {
            let current = Rc::new(Cell::new(true));
            match make(key) {
                Some(task) => {
                    let previous = match &*state {
                        JobState::Done(answer) | JobState::Running(Some(answer)) => {
                            Some(answer.clone())
                        }
                        _ => None,
                    };
                    state.set(JobState::Running(previous));
                    let (state, current) = (state.clone(), current.clone());
                    worker.send(kind, task, move |reply| {
                        if current.get() {
                            state.set(match reply {
                                Reply::Answer(answer) => JobState::Done(answer),
                                Reply::Cancelled => JobState::Cancelled,
                            });
                        }
                    });
                }
                None => state.set(JobState::Idle),
            }
            move || current.set(false)
        });
    }
    (*state).clone()
}
