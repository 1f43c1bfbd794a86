use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::judge::{JudgeChoices, JudgeRun, VerdictCache, judge_all, judge_from_cache};
use qeval_worker::protocol::Answer;

use crate::playground::scoring::judge_tasks_task;
use crate::playground::state::Playground;
use crate::workers::{Reply, TaskKind, Workers};

/// Where the LLM judging of the current pair stands.
#[derive(Debug, Clone, PartialEq)]
pub enum JudgeStatus {
    /// The structural judge is in use.
    Off,
    /// The settings are incomplete.
    Blocked(String),
    /// Calls in flight for this many judgings.
    Asking(usize),
    /// Verdicts not all in the cache, and the user has not acted since the page opened (a link
    /// or a reload): nothing is sent to a paid endpoint until they do.
    Waiting,
    /// The verdicts for `state`.
    Done {
        state: Box<Playground>,
        run: Rc<JudgeRun>,
    },
}

impl JudgeStatus {
    /// The run, when it was for `state`: verdicts of an older state are never shown as current.
    pub fn run_for(&self, state: &Playground) -> Option<Rc<JudgeRun>> {
        match self {
            JudgeStatus::Done { state: judged, run } if **judged == *state => Some(run.clone()),
            _ => None,
        }
    }
}

/// Asks the LLM judge about `state` whenever it or the settings change (once they are done
/// changing: the caller debounces). A newer request supersedes an older one still in flight.
/// Until `armed` (the user edited something or pressed "Ask the LLM judge"), only the verdict
/// cache is read.
#[hook]
pub fn use_llm_judge(state: &Playground, settings: &JudgeChoices, armed: bool) -> JudgeStatus {
    let scorer = use_context::<Workers>().unwrap_or_default().scorer;
    let status = use_state_eq(|| JudgeStatus::Off);
    let generation = use_mut_ref(|| 0u64);
    {
        let status = status.clone();
        use_effect_with(
            (state.clone(), settings.clone(), armed),
            move |(state, settings, armed)| {
                *generation.borrow_mut() += 1;
                let mine = *generation.borrow();
                if !settings.enabled {
                    status.set(JudgeStatus::Off);
                    return;
                }
                if let Some(problem) = settings.problem() {
                    status.set(JudgeStatus::Blocked(problem));
                    return;
                }
                let task = judge_tasks_task(state, settings.prompt);
                let armed = *armed;
                let (state, settings) = (state.clone(), settings.clone());
                spawn_local(async move {
                    // Which judgings the pair needs is the scoring worker's to say (identical
                    // queries need none).
                    let tasks = match task {
                        Some(task) => match scorer.ask(TaskKind::JudgeTasks, task).await {
                            Reply::Answer(Answer::JudgeTasks(tasks)) => tasks,
                            _ => return,
                        },
                        None => Vec::new(),
                    };
                    if *generation.borrow() != mine {
                        return;
                    }
                    if armed {
                        status.set(JudgeStatus::Asking(tasks.len()));
                    }
                    let cache = VerdictCache::shared();
                    let run = if armed {
                        judge_all(tasks, &settings, &cache).await
                    } else {
                        match judge_from_cache(&tasks, &settings, &cache).await {
                            Some(run) => run,
                            None => {
                                if *generation.borrow() == mine {
                                    status.set(JudgeStatus::Waiting);
                                }
                                return;
                            }
                        }
                    };
                    if *generation.borrow() == mine {
                        status.set(JudgeStatus::Done {
                            state: Box::new(state),
                            run: Rc::new(run),
                        });
                    }
                });
            },
        );
    }
    (*status).clone()
}
