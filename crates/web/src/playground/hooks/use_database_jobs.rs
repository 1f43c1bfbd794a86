//! The database worker's jobs for the settled playground: both queries run on the loaded
//! database (and its test suite), or, without one, the equivalence check on databases generated
//! from the queries' schema.

use yew::prelude::*;

use super::{JobState, use_worker_job};
use crate::database::{LoadedDb, equivalence_task, execute_task, suite_task};
use crate::playground::state::Playground;
use crate::workers::TaskKind;

/// Where each job stands.
pub struct DatabaseJobs {
    /// Both queries on the loaded database.
    pub executed: JobState,
    /// Both queries on its test-suite databases.
    pub suite: JobState,
    /// The equivalence check.
    pub checked: JobState,
    /// The untouched example the page opens with, not yet checked: SQLite loads on the first
    /// database action, so its equivalence check waits to be asked for.
    pub pristine: bool,
    /// Asks for the example's check.
    pub on_check_example: Callback<()>,
}

#[hook]
pub fn use_database_jobs(settled: &Playground, db: &LoadedDb, time_limit: f64) -> DatabaseJobs {
    let running_key = (settled.clone(), db.clone(), time_limit);
    let executed = use_worker_job(
        TaskKind::Execute,
        running_key.clone(),
        |(state, db, seconds)| execute_task(state, db, *seconds),
    );
    let suite = use_worker_job(TaskKind::Suite, running_key, |(state, db, seconds)| {
        suite_task(state, db, *seconds)
    });
    let example_checked = use_state_eq(|| false);
    let pristine = !*example_checked && *settled == Playground::example();
    let checked = use_worker_job(
        TaskKind::Equivalence,
        (settled.clone(), db.clone(), pristine),
        |(state, db, pristine)| (!pristine).then(|| equivalence_task(state, db)).flatten(),
    );
    DatabaseJobs {
        executed,
        suite,
        checked,
        pristine,
        on_check_example: Callback::from(move |()| example_checked.set(true)),
    }
}
