//! The playground's database and checks, as the page sees them: the database itself lives in
//! the worker (see `workers`); the page keeps its name and tables, and builds the worker's
//! tasks from its state.

use qeval_core::Language;
use qeval_sqlite::Table;
use qeval_worker::protocol::{PairRequest, Task};

use crate::playground::state::Playground;

/// The loaded database, shared by the components that show or use it. `generation` tells two
/// loads of databases with the same name apart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadedDb {
    pub name: String,
    pub tables: Vec<Table>,
    /// The SQL it was built from; empty for a file.
    pub sql: String,
    generation: u64,
}

/// The name of a database built from pasted SQL.
pub const BUILT_FROM_SQL: &str = "built from SQL";

impl LoadedDb {
    pub fn new(name: String, tables: Vec<Table>, sql: String) -> LoadedDb {
        thread_local! {
            static LOADS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        }
        let generation = LOADS.with(|loads| {
            loads.set(loads.get() + 1);
            loads.get()
        });
        LoadedDb {
            name,
            tables,
            sql,
            generation,
        }
    }

    pub fn is_loaded(&self) -> bool {
        self.generation > 0
    }
}

/// Both queries on the loaded database (an empty one is not run).
pub fn execute_task(state: &Playground, db: &LoadedDb, seconds: f64) -> Option<Task> {
    db.is_loaded().then(|| Task::Execute {
        expected: state.expected.clone(),
        generated: state.generated.clone(),
        time_limit_s: seconds,
    })
}

/// Test-suite checking of the state's two queries on the loaded database, when asked for.
pub fn suite_task(state: &Playground, db: &LoadedDb, seconds: f64) -> Option<Task> {
    (db.is_loaded() && state.suite > 0 && both_queries(state))
        .then(|| Task::Suite(check_of(state, seconds)))
}

/// The equivalence check without a database, when no database is loaded and there are two SQL
/// queries to check (the worker, and SQLite with it, is not started for less).
pub fn equivalence_task(state: &Playground, db: &LoadedDb) -> Option<Task> {
    (!db.is_loaded() && state.checks > 0 && both_queries(state) && state.language == Language::Sql)
        .then(|| Task::Equivalence(check_of(state, 10.0)))
}

fn both_queries(state: &Playground) -> bool {
    !state.expected.trim().is_empty() && !state.generated.trim().is_empty()
}

fn check_of(state: &Playground, seconds: f64) -> PairRequest {
    PairRequest {
        expected: state.expected.clone(),
        generated: state.generated.clone(),
        language: state.language,
        dialect: state.dialect,
        mode: state.mode,
        // Table and column names alone (JSON) serve schema validity; the check infers its schema.
        schema: if state.schema.trim_start().starts_with(['{', '[']) {
            String::new()
        } else {
            state.schema.clone()
        },
        checks: state.checks,
        suite: state.suite,
        seed: state.seed,
        time_limit_s: seconds,
    }
}
