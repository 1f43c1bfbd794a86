//! The worker's work: one open database and the tasks the page sends. Nothing here knows about
//! messages, so the same code runs in the browser's worker and in native tests.

use qeval_core::{Language, Mode, Schema, SqlDialect};
use qeval_sqlite::{
    Database, EquivalenceOptions, Limits, SchemaChoice, check_equivalence, sqlite_version,
};

use crate::protocol::{Answer, Checked, DatabaseForm, Executed, PairRequest, Task};

/// Rows a query in the page may return before the result is cut.
const MAX_ROWS: usize = 100_000;

#[derive(Debug, Default)]
pub struct Jobs {
    database: Option<Database>,
    /// Told (databases checked, databases in all) as a check goes.
    progress: Option<fn(usize, usize)>,
}

impl Jobs {
    /// Jobs whose checks tell `progress` how far they are.
    pub fn with_progress(progress: fn(usize, usize)) -> Jobs {
        Jobs {
            database: None,
            progress: Some(progress),
        }
    }

    /// What the worker says when it has started.
    pub fn ready() -> Answer {
        Answer::Ready {
            sqlite_version: Some(sqlite_version().to_string()),
        }
    }

    /// Does one task; `bytes` is the database file that came with an `Open` of a file.
    pub fn run(&mut self, task: Task, bytes: Option<&[u8]>) -> Answer {
        match task {
            Task::Open { name, source } => Answer::Opened(self.open(&name, source, bytes)),
            Task::Execute {
                expected,
                generated,
                time_limit_s,
            } => Answer::Executed(self.execute(&expected, &generated, time_limit_s)),
            Task::Suite(check) => Answer::Suite(self.suite(&check)),
            Task::Equivalence(check) => Answer::Checked(equivalence(&check, self.progress)),
            Task::RunJob(job) => Answer::JobDone(self.run_job(&job)),
            scoring => crate::scoring::run(scoring),
        }
    }

    fn open(
        &mut self,
        name: &str,
        source: DatabaseForm,
        bytes: Option<&[u8]>,
    ) -> Result<Vec<qeval_sqlite::Table>, String> {
        let opened = match source {
            DatabaseForm::File => Database::open_bytes(bytes.unwrap_or_default())
                .map_err(|err| format!("{name}: {err}")),
            DatabaseForm::Csv(files) => Database::from_csv(&files).map_err(|err| err.to_string()),
            DatabaseForm::Script(script) => {
                Database::from_script(&script).map_err(|err| err.to_string())
            }
        };
        // A database that fails to open leaves the one before it in place.
        let database = opened?;
        let tables = database.tables().to_vec();
        self.database = Some(database);
        Ok(tables)
    }

    fn execute(&mut self, expected: &str, generated: &str, seconds: f64) -> Executed {
        let limits = limits(seconds);
        let mut run = |sql: &str| {
            let database = self.database.as_mut()?;
            (!sql.trim().is_empty()).then(|| database.query(sql, &limits))
        };
        Executed {
            expected: run(expected),
            generated: run(generated),
        }
    }

    fn suite(&mut self, check: &PairRequest) -> Option<qeval_core::Metric> {
        let database = self.database.as_mut()?;
        if check.suite == 0 || check.expected.trim().is_empty() || check.generated.trim().is_empty()
        {
            return None;
        }
        let options = EquivalenceOptions {
            databases: check.suite as usize,
            limits: limits(check.time_limit_s),
            ..options_of(check, self.progress)
        };
        Some(
            check_equivalence(
                &check.expected,
                &check.generated,
                SchemaChoice::Database(database),
                &options,
            )
            .metric(),
        )
    }

    /// A job of the run pipeline on the open database; without one, every query in it fails
    /// and says so.
    fn run_job(&mut self, job: &qeval_core::Job) -> qeval_core::JobAnswer {
        match self.database.as_mut() {
            Some(database) => job.run(database),
            None => job.run(&mut NoDatabase),
        }
    }
}

/// The runner when no database is open.
struct NoDatabase;

impl qeval_core::Runner for NoDatabase {
    fn query(
        &mut self,
        _: &str,
        _: &qeval_core::QuerySettings,
    ) -> Result<qeval_core::QueryRows, qeval_sqlite::QueryError> {
        Err(qeval_sqlite::QueryError::Failed(
            "no database is open".into(),
        ))
    }

    fn suite(&mut self, _: &qeval_core::SuiteCheck) -> qeval_core::Metric {
        qeval_core::Metric::failed(qeval_core::MetricError {
            metric: qeval_core::MetricName::TestSuite.as_str().into(),
            message: "no database is open".into(),
            inputs: Default::default(),
            at: None,
        })
    }
}

/// The equivalence check without a database: both queries on databases generated from the
/// user's schema, or from one inferred from the queries. `None` when there is nothing to check.
fn equivalence(check: &PairRequest, progress: Option<fn(usize, usize)>) -> Option<Checked> {
    if check.language != Language::Sql
        || check.checks == 0
        || check.expected.trim().is_empty()
        || check.generated.trim().is_empty()
    {
        return None;
    }
    let schema = if check.schema.trim().is_empty() {
        SchemaChoice::Infer
    } else {
        SchemaChoice::Written(&check.schema)
    };
    let options = options_of(check, progress);
    let started = (options.limits.now)();
    let report = check_equivalence(&check.expected, &check.generated, schema, &options);
    let millis = (options.limits.now)() - started;
    // The report writes its schema as SQLite `CREATE TABLE`s, whatever the schema was given in.
    let names = Schema::from_sql(&report.schema, SqlDialect::Sqlite)
        .map(|schema| {
            schema
                .tables
                .into_iter()
                .map(|table| {
                    let columns = table.columns.into_iter().map(|c| c.name).collect();
                    (table.name, columns)
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Checked {
        report,
        millis,
        names,
    })
}

/// The options the CLI would use for the same state (`qeval score --seed N --suite K`).
fn options_of(check: &PairRequest, progress: Option<fn(usize, usize)>) -> EquivalenceOptions {
    EquivalenceOptions {
        databases: check.checks as usize,
        seed: check.seed,
        mode: check.mode.unwrap_or(Mode::Bag),
        dialect: check.dialect,
        progress,
        ..EquivalenceOptions::default()
    }
}

/// The time limit of one query, and the page's row cap.
fn limits(seconds: f64) -> Limits {
    Limits {
        time_ms: seconds.clamp(0.1, 600.0) * 1000.0,
        max_rows: MAX_ROWS,
        ..Limits::default()
    }
}
