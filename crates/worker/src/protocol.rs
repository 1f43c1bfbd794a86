//! The messages between the page and its workers. Each travels as JSON text; a database file's
//! bytes travel beside the text, transferred rather than copied.

use std::collections::BTreeMap;

use qeval_core::{
    EvaluationRecord, Job, JobAnswer, JudgeOutcome, Judging, Language, Metric, MetricName, Mode,
    PairInput, Profile, ProfileName, ScoreOptions, Scorecard, SqlDialect,
};
use qeval_sqlite::{EquivalenceReport, QueryError, QueryOutput, Table};
use serde::{Deserialize, Serialize};

/// A job for the worker. The answer carries the same `job` number.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub job: u64,
    pub task: Task,
}

// One task per job, built once and moved: the size of the largest is no cost worth boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Task {
    /// Opens a database, replacing the one open before.
    Open { name: String, source: DatabaseForm },
    /// Runs both queries on the open database (an empty query is not run).
    Execute {
        expected: String,
        generated: String,
        time_limit_s: f64,
    },
    /// Test-suite checking on the open database: both queries on databases generated from its
    /// schema.
    Suite(PairRequest),
    /// The equivalence check without a database.
    Equivalence(PairRequest),
    /// A job of the run pipeline on the open database (results a run's tests lack, their
    /// test-suite checks), as `qeval run --db` does them.
    RunJob(Job),
    /// Scores one pair (the playground). Both workers do the scoring tasks.
    Score(ScorePair),
    /// The judgings the LLM judge would be asked for.
    JudgeTasks { pair: PairInput, scoring: Scoring },
    /// Scores tests of a run into evaluation records, as `qeval run` does.
    ScoreTests {
        tests: Vec<TestToScore>,
        scoring: Scoring,
    },
    /// Spider's hardness level of each expected query (records scored elsewhere lack it).
    Hardness(Vec<Option<String>>),
}

/// The scoring options the page offers; the rest are the CLI's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scoring {
    pub profile: ProfileName,
    pub mode: Option<Mode>,
    /// Stamped on error records: the worker's clock is the page's, but the core has none.
    pub evaluated_at: Option<String>,
    /// The LLM judge's prompt version, and the schema it is shown (version 2).
    #[serde(default)]
    pub judge_prompt: qeval_judge::PromptVersion,
    #[serde(default)]
    pub schema: Option<String>,
}

impl Scoring {
    pub fn options(&self) -> ScoreOptions {
        ScoreOptions {
            profile: Profile::preset(self.profile),
            mode: self.mode,
            evaluated_at: self.evaluated_at.clone(),
            judge_prompt: self.judge_prompt,
            schema: self.schema.clone(),
            ..ScoreOptions::default()
        }
    }
}

/// A pair and what is known about it beyond its own fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScorePair {
    pub pair: PairInput,
    pub scoring: Scoring,
    /// The LLM judge's verdicts, by metric; empty: the structural judge decides.
    pub judged: BTreeMap<String, JudgeOutcome>,
    /// Equivalence checks that reached the page (`test_suite`, `equivalence`) and their metric.
    pub checks: Vec<(MetricName, Metric)>,
}

/// One test of a run, with its pair already filled from a database when one is loaded (the
/// run pipeline's, so the scoring worker scores it as `qeval run` does).
pub use qeval_core::TestToScore;

/// Where a database comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum DatabaseForm {
    /// A SQLite file: its bytes travel beside the message.
    File,
    /// CSV files, one table each: (file name, text).
    Csv(Vec<(String, String)>),
    /// `CREATE TABLE` and `INSERT` statements.
    Script(String),
}

/// The playground's state that a check depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRequest {
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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Response {
    pub job: u64,
    pub answer: Answer,
}

// One answer per job, built once and moved: the size of the largest is no cost worth boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// Sent once, unasked (job 0), when the worker has started. The scoring worker has no
    /// SQLite.
    Ready {
        sqlite_version: Option<String>,
    },
    Opened(Result<Vec<Table>, String>),
    Executed(Executed),
    /// `None`: nothing to check (no database open, or a query is empty).
    Suite(Option<Metric>),
    Checked(Option<Checked>),
    JobDone(JobAnswer),
    Scored(Scorecard),
    JudgeTasks(Vec<Judging>),
    Records(Vec<EvaluationRecord>),
    /// The level of each query of a `Hardness` task, in order; none for one that is not SQL
    /// that parses.
    Hardness(Vec<Option<String>>),
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
    /// The schema's table and column names (`{"orders": ["id", "total"]}`), which the query
    /// editors complete from; empty when the schema does not read.
    #[serde(default)]
    pub names: BTreeMap<String, Vec<String>>,
}
