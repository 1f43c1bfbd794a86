use std::cell::Cell;
use std::rc::Rc;

use qeval_worker::protocol::{Answer, Task};
use yew::prelude::*;

use crate::workers::{Reply, TaskKind, Workers};

/// A job's state as the page shows it. Answers are shared, not copied: a result can hold
/// 100,000 rows, and the page re-renders on every keystroke.
#[derive(Debug, Clone)]
pub enum JobState {
    /// Nothing to do for the current input.
    Idle,
    /// With the answer for the input before, to show (marked as being redone) meanwhile.
    Running(Option<Rc<Answer>>),
    Done(Rc<Answer>),
    Cancelled,
}

/// Answers compare by identity: the same answer is the same job's, and comparing two large
/// results value by value on every render would cost what sharing them saves.
impl PartialEq for JobState {
    fn eq(&self, other: &JobState) -> bool {
        let same = |a: &Rc<Answer>, b: &Rc<Answer>| Rc::ptr_eq(a, b);
        match (self, other) {
            (JobState::Idle, JobState::Idle) | (JobState::Cancelled, JobState::Cancelled) => true,
            (JobState::Running(a), JobState::Running(b)) => match (a, b) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            },
            (JobState::Done(a), JobState::Done(b)) => same(a, b),
            _ => false,
        }
    }
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

/// Runs the task `make` builds from `key` in the worker for `kind` whenever `key` changes, and
/// gives the answer for the current key (answers to earlier keys are dropped).
#[hook]
pub fn use_worker_job<K, F>(kind: TaskKind, key: K, make: F) -> JobState
where
    K: PartialEq + Clone + 'static,
    F: FnOnce(&K) -> Option<Task> + 'static,
{
    let worker = use_context::<Workers>()
        .unwrap_or_default()
        .of(kind)
        .clone();
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
                                Reply::Answer(answer) => JobState::Done(Rc::new(answer)),
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
