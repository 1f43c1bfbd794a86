//! What the database worker is doing, with a Cancel button that stops it at once, and what was
//! cancelled afterwards.

use yew::prelude::*;

use crate::workers::{TaskKind, WorkerStatus, Workers};

fn doing(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::Open => "Opening the database",
        TaskKind::Execute => "Running both queries on the database",
        TaskKind::Suite => "Checking on test-suite databases",
        TaskKind::Equivalence => "Checking on generated databases",
        TaskKind::RunJob => "Running the run's queries on the database",
        TaskKind::Score | TaskKind::JudgeTasks | TaskKind::ScoreTests | TaskKind::Hardness => {
            "Scoring"
        }
    }
}

/// What the page is like after a Cancel: a check without a database leaves none to reload.
fn after_cancel(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::Equivalence => "Edit a query to check again.",
        _ => "The database is loaded again; edit a query to run it again.",
    }
}

#[component]
pub fn JobStatus() -> Html {
    let worker = use_context::<Workers>().unwrap_or_default().database;
    let status = use_context::<WorkerStatus>().unwrap_or_default();
    // What the last Cancel stopped and after how long; cleared when the next job starts.
    let cancelled = use_state_eq(|| None::<(TaskKind, f64)>);
    {
        let cancelled = cancelled.clone();
        use_effect_with(
            status.running.map(|(_, since)| since.to_bits()),
            move |running| {
                if running.is_some() {
                    cancelled.set(None);
                }
            },
        );
    }
    let on_cancel = {
        let (worker, cancelled, running) = (worker.clone(), cancelled.clone(), status.running);
        Callback::from(move |_| {
            if let (Some((kind, _)), Some(ran)) = (running, worker.cancel()) {
                cancelled.set(Some((kind, ran)));
            }
        })
    };
    html! {
        <>
            if let Some(error) = &status.error {
                <p class="error-text" role="alert" data-testid="worker-error">{ format!("SQLite could not be used: {error}") }</p>
            }
            if let Some((kind, _)) = status.running.filter(|(kind, _)| *kind != TaskKind::Open) {
                <p class="job-status" role="status" data-testid="job-status">
                    <span class="boot-spinner small" aria-hidden="true"></span>
                    { match status.progress {
                        Some((done, total)) => format!("{}: {done} of {total} databases…", doing(kind)),
                        None => format!("{}…", doing(kind)),
                    } }
                    <button type="button" id="cancel-job" onclick={on_cancel}>{ "Cancel" }</button>
                </p>
            } else if let Some((kind, ran)) = *cancelled {
                <p class="notice" role="status" data-testid="job-cancelled">
                    { format!("Cancelled after {:.1} s: {} was stopped. {}", ran / 1000.0, doing(kind).to_lowercase(), after_cancel(kind)) }
                </p>
            }
        </>
    }
}
