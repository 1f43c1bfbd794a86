//! `--db FILE.sqlite`: results that a pair does not carry come from running its queries on the
//! database, read-only (see qeval-sqlite). Without a database, the equivalence check runs both
//! queries on databases generated from a schema inferred from them (or given with `--schema`).

use crate::output::say;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use qeval_core::{DatabaseUse, Metric, PairInput, QuerySettings, ScoreOptions, SuiteSettings};
use qeval_native::jobs::DatabaseSource;
use qeval_sqlite::{Database, EquivalenceOptions, Limits, PairCheck};

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
        value_parser = crate::parse_seconds,
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
    /// Generated databases to check equivalence on. Without --db: N databases from the schema
    /// inferred from the two queries (default 40; the `equivalence` metric). With --db: also run
    /// both queries on N databases generated from its schema (the `test_suite` metric).
    #[arg(long, value_name = "N", help_heading = "Execution")]
    pub suite: Option<usize>,
    /// The seed the generated databases come from (same seed, same databases).
    #[arg(long, default_value_t = 1, help_heading = "Execution")]
    pub seed: u64,
    /// `CREATE TABLE` statements to generate databases from, instead of the schema inferred
    /// from each pair's queries (constraints such as PRIMARY KEY and NOT NULL are kept), or JSON
    /// table and column names (`{"orders": ["id", "total"]}`). Either way the generated queries
    /// are checked against it for unknown tables and columns (`schema_validity`).
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Execution",
        conflicts_with = "db"
    )]
    pub schema: Option<PathBuf>,
    /// Skip the equivalence check on generated databases when no --db is given.
    #[arg(long, help_heading = "Execution")]
    pub no_equivalence: bool,
    /// Seconds the equivalence or test-suite check of one pair may take in all (each query
    /// keeps its own limit); past it the pair gets no verdict, saying so.
    #[arg(
        long,
        default_value_t = 10.0,
        value_name = "SECONDS",
        value_parser = crate::parse_seconds,
        help_heading = "Execution"
    )]
    pub check_budget: f64,
    /// Databases the boundary search may build once every generated database agrees, each a
    /// few edits away, aimed at the boundaries of the queries' comparisons (0: no search).
    #[arg(
        long,
        value_name = "N",
        default_value_t = qeval_sqlite::BoundarySearch::DEFAULT_TRIES,
        help_heading = "Execution"
    )]
    pub search: usize,
}

/// The text of `--schema`, checked: a file that is no schema (no table in it, or neither
/// `CREATE TABLE` statements nor table-name JSON) is an error naming it.
pub fn schema_text(args: &DbArgs) -> Result<Option<String>, String> {
    let Some(path) = &args.schema else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    // Read in the generic dialect, the widest: the check is that this is a schema at all; each
    // use reads it again in its own dialect and says so per pair if that fails.
    qeval_core::KnownNames::check(&text, qeval_core::SqlDialect::Generic)
        .map_err(|err| format!("--schema {} is not a schema: {err}", path.display()))?;
    Ok(Some(text))
}

/// Without `--db`: the `equivalence` metric of each pair with two SQL queries, as the flags ask.
pub fn equivalence_check(args: &DbArgs) -> Result<Option<PairCheck>, String> {
    if args.db.is_some() || args.no_equivalence {
        return Ok(None);
    }
    let databases = args.suite.unwrap_or(40);
    if databases == 0 || databases > PairCheck::MAX_DATABASES {
        return Err(format!(
            "--suite takes 1 to {} databases, not {databases}",
            PairCheck::MAX_DATABASES
        ));
    }
    let search = search_tries(args)?;
    Ok(Some(PairCheck {
        schema: schema_text(args)?,
        databases,
        seed: args.seed,
        budget_ms: args.check_budget * 1000.0,
        search,
    }))
}

/// `--search`, checked against its limit.
fn search_tries(args: &DbArgs) -> Result<usize, String> {
    let most = qeval_sqlite::BoundarySearch::MAX_TRIES;
    if args.search > most {
        return Err(format!(
            "--search takes 0 to {most} databases, not {}",
            args.search
        ));
    }
    Ok(args.search)
}

/// An open database and its limits. Work on it runs on every core: each worker takes its own
/// in-memory copy of the file (a connection serves one thread at a time), kept for the next
/// job, so at most one copy per core is ever made.
pub struct Executor {
    bytes: Arc<Vec<u8>>,
    /// The database's table and column names (JSON): what `schema_validity` checks against.
    pub schema: String,
    copies: Mutex<Vec<Database>>,
    limits: Limits,
    suite: Option<EquivalenceOptions>,
    truncated: AtomicUsize,
}

impl Executor {
    pub fn open(args: &DbArgs) -> Result<Option<Executor>, String> {
        let Some(path) = &args.db else {
            return Ok(None);
        };
        let bytes = Database::read_file(path)?;
        let database =
            Database::open_bytes(&bytes).map_err(|err| format!("{}: {err}", path.display()))?;
        say!(
            "qeval: {}: {} tables ({})",
            path.display(),
            database.tables().len(),
            database
                .tables()
                .iter()
                .map(|t| format!(
                    "{} {}",
                    t.name,
                    qeval_core::counted(usize::try_from(t.rows).unwrap_or(usize::MAX), "row")
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let schema = qeval_sqlite::schema_names(database.tables());
        Ok(Some(Executor {
            bytes: Arc::new(bytes),
            schema,
            copies: Mutex::new(vec![database]),
            limits: Limits {
                time_ms: args.time_limit * 1000.0,
                max_rows: args.max_rows,
                ..Limits::default()
            },
            suite: match args.suite {
                Some(databases) if databases > PairCheck::MAX_DATABASES => {
                    return Err(format!(
                        "--suite takes 1 to {} databases, not {databases}",
                        PairCheck::MAX_DATABASES
                    ));
                }
                Some(databases) => Some(EquivalenceOptions {
                    databases,
                    seed: args.seed,
                    search: search_tries(args)?,
                    budget_ms: args.check_budget * 1000.0,
                    ..EquivalenceOptions::default()
                }),
                None => None,
            },
            truncated: AtomicUsize::new(0),
        }))
    }

    /// Results cut at `--max-rows` so far.
    pub fn truncated(&self) -> usize {
        self.truncated.load(Ordering::Relaxed)
    }

    /// The database for the run pipeline's jobs: the file's bytes, read once.
    pub fn source(&self) -> DatabaseSource {
        DatabaseSource::Bytes(self.bytes.clone())
    }

    /// How a run uses the database: `--time-limit`, `--max-rows`, and `--suite`/`--seed`.
    pub fn database_use(&self) -> DatabaseUse {
        DatabaseUse {
            settings: QuerySettings {
                time_limit_ms: self.limits.time_ms,
                max_rows: self.limits.max_rows,
                ..QuerySettings::default()
            },
            suite: self.suite.map(|suite| SuiteSettings {
                databases: suite.databases,
                seed: suite.seed,
                search: suite.search,
            }),
        }
    }

    /// Says how many results the row cap cut, when it cut any.
    pub fn report_truncated(&self, cut: usize) {
        if cut > 0 {
            say!(
                "qeval: {cut} result{} cut at --max-rows {}",
                qeval_core::plural(cut),
                self.limits.max_rows
            );
        }
    }

    /// Runs `work` on a copy of the database no other thread is using.
    fn with_copy<R>(&self, work: impl FnOnce(&mut Database) -> R) -> Option<R> {
        let spare = self.copies.lock().ok().and_then(|mut copies| copies.pop());
        // The file opened once already, so another copy opens too.
        let mut database = match spare {
            Some(database) => database,
            None => Database::open_bytes(&self.bytes).ok()?,
        };
        let result = work(&mut database);
        if let Ok(mut copies) = self.copies.lock() {
            copies.push(database);
        }
        Some(result)
    }

    /// Fills the results the pair lacks from the database.
    pub fn fill(&self, pair: &mut PairInput) {
        if let Some(cut) = self.with_copy(|database| database.fill_results(pair, &self.limits)) {
            self.truncated.fetch_add(cut, Ordering::Relaxed);
        }
    }

    /// Fills every pair's missing results, on every core, with progress on standard error.
    pub fn fill_all<'a>(&self, pairs: impl IntoIterator<Item = &'a mut PairInput>) {
        // Each pair in its own lock, so workers can fill different pairs at once.
        let cells: Vec<Mutex<&mut PairInput>> = pairs.into_iter().map(Mutex::new).collect();
        crate::pool::with_progress("running queries on the database", &cells, |cell| {
            if let Ok(mut pair) = cell.lock() {
                self.fill(&mut pair);
            }
        });
    }

    /// With `--suite`: the `test_suite` metric of a pair with both queries, when the generated
    /// query ran.
    pub fn suite_metric(&self, pair: &PairInput, options: &ScoreOptions) -> Option<Metric> {
        let suite = EquivalenceOptions {
            limits: self.limits,
            ..self.suite?
        };
        self.with_copy(|database| qeval_sqlite::suite_metric(database, pair, options, &suite))
            .flatten()
    }

    /// Whether `--suite` asked for test-suite checking.
    pub fn checks_suites(&self) -> bool {
        self.suite.is_some()
    }
}
