//! The messages between the page and its database worker. Each travels as JSON text; a database
//! file's bytes travel beside the text, transferred rather than copied.

use qeval_core::Language;
use qeval_core::Metric;
use qeval_core::results::compare::Mode;
use qeval_core::sql::SqlDialect;
use qeval_sqlite::{EquivalenceReport, QueryError, QueryOutput, Table};
use serde::{Deserialize, Serialize};

/// A job for the worker. The answer carries the same `job` number.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub job: u64,
    pub task: Task,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Task {
    /// Opens a database, replacing the one open before.
    Open { name: String, source: Source },
    /// Runs both queries on the open database (an empty query is not run).
    Execute {
        expected: String,
        generated: String,
        time_limit_s: f64,
    },
    /// Test-suite checking on the open database: both queries on databases generated from its
    /// schema.
    Suite(Check),
    /// The equivalence check without a database.
    Equivalence(Check),
    /// Runs the queries of a test that lacks results, as `qeval run --db` does.
    Fill(Fill),
}

/// Where a database comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Source {
    /// A SQLite file: its bytes travel beside the message.
    File,
    /// CSV files, one table each: (file name, text).
    Csv(Vec<(String, String)>),
    /// `CREATE TABLE` and `INSERT` statements.
    Script(String),
}

/// The playground's state that a check depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub expected: String,
    pub generated: String,
    pub language: Language,
    pub dialect: SqlDialect,
    pub mode: Option<Mode>,
    /// `CREATE TABLE` statements; empty: inferred from the queries.
    pub schema: String,
    /// Databases for the equivalence check.
    pub checks: u32,
    /// Databases for test-suite checking.
    pub suite: u32,
    pub seed: u64,
    pub time_limit_s: f64,
}

/// The queries of one test whose results are missing.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fill {
    /// Present when the expected result is missing.
    pub expected_sql: Option<String>,
    /// Present when the generated result (and error) is missing.
    pub generated_sql: Option<String>,
    pub time_limit_s: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Response {
    pub job: u64,
    pub answer: Answer,
}

// One answer per job, built once and moved: the size of the largest is no cost worth boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// Sent once, unasked (job 0), when the worker has started.
    Ready {
        sqlite_version: String,
    },
    Opened(Result<Vec<Table>, String>),
    Executed(Executed),
    /// `None`: nothing to check (no database open, or a query is empty).
    Suite(Option<Metric>),
    Checked(Option<Checked>),
    Filled(Filled),
    /// Sent while a check runs (test suite or equivalence), at most every 100 ms; the job's
    /// answer comes after.
    Progress {
        done: usize,
        total: usize,
    },
    /// The request could not be read.
    Refused(String),
}

/// What running both queries gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Executed {
    pub expected: Option<Result<QueryOutput, QueryError>>,
    pub generated: Option<Result<QueryOutput, QueryError>>,
}

/// An equivalence report and how long the worker took to make it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    pub report: EquivalenceReport,
    pub millis: f64,
}

/// The results a test lacked, as `{columns, rows}` JSON, or the generated query's error.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Filled {
    pub expected_result: Option<serde_json::Value>,
    pub generated_result: Option<serde_json::Value>,
    pub generated_error: Option<String>,
}
