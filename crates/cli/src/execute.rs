//! `--db FILE.sqlite`: results that a pair does not carry come from running its queries on the
//! database, read-only (see qeval-sqlite).

use std::path::{Path, PathBuf};

use qeval_core::{Metric, PairInput};
use qeval_sqlite::{Database, Limits, SuiteOptions, suite_metric};

/// The database flags shared by `qeval score` and `qeval run`.
#[derive(Debug, clap::Args)]
pub struct DbArgs {
    /// A SQLite database: run the queries on it to get results a line does not give (the file
    /// is read once into memory, never written).
    #[arg(long, value_name = "FILE", help_heading = "Execution")]
    pub db: Option<PathBuf>,
    /// Seconds a query may run before it is interrupted.
    #[arg(
        long,
        default_value_t = 10.0,
        value_name = "SECONDS",
        help_heading = "Execution"
    )]
    pub time_limit: f64,
    /// Rows kept of a result; more are cut and the cut is reported.
    #[arg(
        long,
        default_value_t = 100_000,
        value_name = "N",
        help_heading = "Execution"
    )]
    pub max_rows: usize,
    /// Test-suite checking: also run both queries on N databases generated from the schema, and
    /// add the `test_suite` metric (1.0 only if they agree on all).
    #[arg(long, value_name = "N", help_heading = "Execution")]
    pub suite: Option<usize>,
    /// The seed the test-suite databases are generated from (same seed, same databases).
    #[arg(long, default_value_t = 1, help_heading = "Execution")]
    pub seed: u64,
}

/// An open database and its limits.
pub struct Executor {
    database: Database,
    limits: Limits,
    suite: Option<SuiteOptions>,
    pub truncated: usize,
}

impl Executor {
    pub fn open(args: &DbArgs) -> Result<Option<Executor>, String> {
        let Some(path) = &args.db else {
            return Ok(None);
        };
        let database = open(path)?;
        eprintln!(
            "qeval: {}: {} tables ({})",
            path.display(),
            database.tables().len(),
            database
                .tables()
                .iter()
                .map(|t| format!("{} {} rows", t.name, t.rows))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(Some(Executor {
            database,
            limits: Limits {
                time_ms: args.time_limit * 1000.0,
                max_rows: args.max_rows,
                ..Limits::default()
            },
            suite: args.suite.map(|databases| SuiteOptions {
                databases,
                seed: args.seed,
                ..SuiteOptions::default()
            }),
            truncated: 0,
        }))
    }

    /// Fills the results the pair lacks from the database.
    pub fn fill(&mut self, pair: &mut PairInput) {
        self.truncated += self.database.fill_results(pair, &self.limits);
    }
}

impl Executor {
    /// With `--suite`: the `test_suite` metric of a pair with both queries, when the generated
    /// query ran.
    pub fn suite_metric(&mut self, pair: &PairInput) -> Option<Metric> {
        let options = self.suite?;
        let expected = pair.expected_sql.as_deref()?;
        if pair.generated_error.is_some() || pair.generated_sql.trim().is_empty() {
            return None;
        }
        Some(suite_metric(
            &mut self.database,
            expected,
            &pair.generated_sql,
            &options,
            &self.limits,
        ))
    }
}

fn open(path: &Path) -> Result<Database, String> {
    let bytes =
        std::fs::read(path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    Database::open_bytes(&bytes).map_err(|err| format!("{}: {err}", path.display()))
}
