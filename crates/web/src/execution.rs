//! The playground's database: loaded once per page, both queries run on it whenever they change.

use std::cell::RefCell;
use std::rc::Rc;

use qeval_core::results::compare::Mode;
use qeval_core::{Language, Metric};
use qeval_sqlite::{
    Database, EquivalenceOptions, EquivalenceReport, Limits, QueryError, QueryOutput, SchemaChoice,
    Table, check_equivalence,
};

use crate::state::Playground;

/// The loaded database, shared by the components that show or use it. Compared by identity.
#[derive(Clone, Default)]
pub struct LoadedDb {
    pub name: String,
    pub tables: Vec<Table>,
    database: Option<Rc<RefCell<Database>>>,
}

impl PartialEq for LoadedDb {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && match (&self.database, &other.database) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl LoadedDb {
    pub fn new(name: String, database: Database) -> LoadedDb {
        LoadedDb {
            name,
            tables: database.tables().to_vec(),
            database: Some(Rc::new(RefCell::new(database))),
        }
    }

    pub fn is_loaded(&self) -> bool {
        self.database.is_some()
    }

    /// Fills the results a pair lacks by running its queries here (see qeval-sqlite).
    pub fn fill(&self, pair: &mut qeval_core::PairInput, limits: &Limits) {
        if let Some(database) = &self.database {
            database.borrow_mut().fill_results(pair, limits);
        }
    }

    /// Runs both queries (an empty one is not run).
    pub fn execute(&self, expected: &str, generated: &str, limits: &Limits) -> Option<Executed> {
        let database = self.database.as_ref()?;
        let mut database = database.borrow_mut();
        let mut run = |sql: &str| (!sql.trim().is_empty()).then(|| database.query(sql, limits));
        Some(Executed {
            expected: run(expected),
            generated: run(generated),
        })
    }
}

impl LoadedDb {
    /// Test-suite checking of the state's two queries, when asked for and both ran here.
    pub fn suite(&self, state: &Playground, limits: &Limits) -> Option<Metric> {
        let database = self.database.as_ref()?;
        if state.suite == 0 || state.expected.trim().is_empty() || state.generated.trim().is_empty()
        {
            return None;
        }
        let options = EquivalenceOptions {
            databases: state.suite as usize,
            limits: *limits,
            ..check_options(state)
        };
        Some(
            check_equivalence(
                &state.expected,
                &state.generated,
                SchemaChoice::Database(&mut database.borrow_mut()),
                &options,
            )
            .metric(),
        )
    }
}

/// The options the CLI would use for the same state (`qeval score --seed N --suite K`).
fn check_options(state: &Playground) -> EquivalenceOptions {
    EquivalenceOptions {
        databases: state.checks as usize,
        seed: state.seed,
        mode: state.mode.unwrap_or(Mode::Bag),
        dialect: state.dialect,
        limits: Limits {
            now: js_sys::Date::now,
            ..EquivalenceOptions::default().limits
        },
        ..EquivalenceOptions::default()
    }
}

/// An equivalence report and how long the page took to make it.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub report: EquivalenceReport,
    pub millis: f64,
}

/// The equivalence check without a database: both queries on databases generated from the
/// user's schema, or from one inferred from the queries. `None` when there is nothing to check.
pub fn equivalence(state: &Playground) -> Option<Checked> {
    if state.language != Language::Sql
        || state.checks == 0
        || state.expected.trim().is_empty()
        || state.generated.trim().is_empty()
    {
        return None;
    }
    let schema = if state.schema.trim().is_empty() {
        SchemaChoice::Infer
    } else {
        SchemaChoice::Written(&state.schema)
    };
    let started = js_sys::Date::now();
    let report = check_equivalence(
        &state.expected,
        &state.generated,
        schema,
        &check_options(state),
    );
    Some(Checked {
        report,
        millis: js_sys::Date::now() - started,
    })
}

/// What running both queries gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Executed {
    pub expected: Option<Result<QueryOutput, QueryError>>,
    pub generated: Option<Result<QueryOutput, QueryError>>,
}

/// Time limit of one query in the page.
pub fn limits(seconds: f64) -> Limits {
    Limits {
        time_ms: seconds.clamp(0.1, 600.0) * 1000.0,
        max_rows: 100_000,
        now: js_sys::Date::now,
    }
}
