//! `qeval`: the command line. Reads files and flags, hands them to qeval-core, prints the results.

mod commands;
mod execute;
mod langfuse;
mod output;
mod pool;
mod progress;

use std::path::PathBuf;
use std::sync::LazyLock;

use output::say;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use qeval_core::{SqlDialect, TableMatch};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `qeval --version`: ours and the SQLite library's, which the page also shows.
static LONG_VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} (SQLite {})",
        env!("CARGO_PKG_VERSION"),
        qeval_sqlite::sqlite_version()
    )
});

/// Score LLM-generated SQL and KQL queries against expected ones.
///
/// Exit status: 0 when everything was read and scored, 1 when some input was rejected (the rest is
/// still scored and printed) or a query failed its check, 2 when the command could not run at all
/// (bad flags, unreadable file).
#[derive(Debug, Parser)]
#[command(name = "qeval", version, long_version = LONG_VERSION.as_str(), about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the base tables a query reads, one per line.
    ///
    /// CTE names are not tables, aliases resolve to their base table, names are lowercased and
    /// unquoted. A query that does not parse prints its error with line and column, and exits 1.
    Tables {
        /// The query. Use `-` or leave it out to read it from standard input.
        query: Option<String>,
        #[command(flatten)]
        language: LanguageArgs,
        /// Print a JSON array instead of one name per line.
        #[arg(long)]
        json: bool,
    },
    /// Score every pair of a JSON Lines file; print one JSON scorecard per line.
    ///
    /// Each input line is an object with `generated_sql` (required) and at least one of
    /// `expected_sql`, `expected_tables` (array of names) and `expected_result`; optional:
    /// `id`, `question`, `dialect`, `language` (sql, kql), `generated_result`,
    /// `generated_error`, `expected_answer_type` (number, integer, string, boolean, date, list,
    /// table), `profile`, `mode`, `query_category` (for the defog mode). Results may be any JSON
    /// shape qeval reads (array of objects, {columns, rows}, array of arrays, scalar, Kusto,
    /// pandas split/records).
    ///
    /// A line that cannot be read becomes `{"line": N, "error": {...}}` naming the line and the
    /// field, and the other lines are still scored. Blank lines, a byte-order mark and CRLF line
    /// ends are accepted. A summary goes to standard error.
    Score(Box<ScoreArgs>),
    /// Score a run folder: its `test-results.jsonl` into `evaluation-results.jsonl`.
    ///
    /// Each line of `test-results.jsonl` is one test: `test_id`, `generated_sql`,
    /// `actual_results`, and optionally `question`, `agent_used`, `difficulty`, `error`. The
    /// expectation (`expected_sql`, `expected_results`, `expected_answer_type`) comes from the
    /// questions file (`--questions`, or `test_questions_answers.json` / `questions.json` in the
    /// folder or its parent), matched by test id, or from the line itself. A folder with only
    /// `evaluation-results.jsonl` is checked instead: every stored score that the record's own
    /// data contradicts is reported. A summary goes to standard error.
    Run(Box<RunArgs>),
    /// Write a run's report as one self-contained HTML page (opens from file://, no server).
    Report {
        /// The run folder (its evaluation-results.jsonl) or the records file itself.
        run: PathBuf,
        /// The page to write.
        #[arg(long, short, value_name = "FILE", default_value = "report.html")]
        output: PathBuf,
        /// Another run of the same tests (a run folder or its records file): the page then says
        /// how this run compares with it, as `qeval compare-runs OTHER RUN` does.
        #[arg(long, value_name = "RUN")]
        compare: Option<PathBuf>,
    },
    /// Compare two result sets (JSON files) and print the comparison as JSON.
    Compare {
        /// The expected result (JSON file, `-` for standard input).
        expected: PathBuf,
        /// The generated result (JSON file).
        generated: PathBuf,
        #[command(flatten)]
        compare: CompareArgs,
        /// Row order counts (for `bag` and `subset`); by default it does not.
        #[arg(long)]
        order_matters: bool,
        #[command(flatten)]
        context: QueryContextArgs,
    },
    /// Compare two scored runs of the same tests, matched by test id.
    ///
    /// Prints both pass rates over the tests scored in both, their difference with a 95% paired
    /// bootstrap interval (2,000 resamples from seed 1), McNemar's exact p-value over the tests
    /// that flipped, the tests that flipped each way, and the tests only one run has. Each run is
    /// a run folder (its evaluation-results.jsonl) or the records file itself.
    CompareRuns {
        /// The first run (before the change).
        before: PathBuf,
        /// The second run (after the change).
        after: PathBuf,
        /// Print the whole comparison as JSON, every matched test included.
        #[arg(long)]
        json: bool,
    },
    /// Score a model's predictions on a public benchmark (Spider, BIRD) from the benchmark's
    /// own files, as its official script scores them.
    ///
    /// Prints the official table on standard output; writes one record per example with
    /// `--output` (the run-record format `qeval report` and `qeval compare-runs` read) and the
    /// summary with `--json`. Queries run on every core, each database read once per thread and
    /// opened read-only in memory, each under a time limit that interrupts it.
    #[command(subcommand)]
    Bench(commands::bench::BenchCommand),
    /// Check a query against the read-only policy; exit 1 when it is unsafe.
    Safety {
        /// The query. Use `-` or leave it out to read it from standard input.
        query: Option<String>,
        #[command(flatten)]
        language: LanguageArgs,
    },
}

#[derive(Debug, clap::Args)]
struct LanguageArgs {
    /// SQL dialect: generic, sqlite, postgres, mysql, mssql, bigquery, snowflake, duckdb, ansi.
    /// In a pairs file, a line's own `dialect` field wins.
    #[arg(long, short, default_value = "generic", value_parser = parse_dialect)]
    dialect: SqlDialect,
    /// Query language. In a pairs file, a line's own `language` field wins.
    #[arg(long, value_enum, default_value_t = LanguageArg::Sql)]
    language: LanguageArg,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// How result sets are compared: f1 (default), seed, bag (Spider), set (BIRD EX), subset
    /// (Spider 2.0 style), soft-f1 (BIRD mini-dev), defog (defog sql-eval's compare_df, else
    /// subset_df). Default: seed for the kql-batch profile, f1 otherwise. A line's own `mode` wins.
    #[arg(long, value_parser = parse_mode)]
    mode: Option<qeval_core::Mode>,
    /// Relative tolerance for numbers in result tables.
    #[arg(long, default_value_t = 1e-9, value_parser = parse_tolerance)]
    tolerance: f64,
    /// Compare text in results ignoring case.
    #[arg(long)]
    ignore_case: bool,
}

/// What the `defog` mode reads beside the results (a pairs line's `question`, `query_category`,
/// `expected_sql` and `generated_sql`).
#[derive(Debug, clap::Args)]
struct QueryContextArgs {
    /// The question (defog mode: the words "order", "sort" or "arrange" keep the query's order).
    #[arg(long, default_value = "")]
    question: String,
    /// sql-eval's query category (defog mode: `order_by` keeps the query's order).
    #[arg(long, default_value = "")]
    query_category: String,
    /// The expected query's text (defog mode: its ORDER BY decides the gold side's order).
    #[arg(long)]
    expected_sql: Option<String>,
    /// The generated query's text (defog mode: its ORDER BY decides the generated side's order).
    #[arg(long)]
    generated_sql: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The pairs file (JSON Lines). Use `-` to read standard input.
    #[arg(long, value_name = "FILE")]
    pairs: PathBuf,
    #[command(flatten)]
    language: LanguageArgs,
    #[command(flatten)]
    compare: CompareArgs,
    /// How scores add up to a total and a pass: qas (default; 40% semantic + 40% execution + 20%
    /// datatype), kql-batch (50% similarity + 50% results match), sql-metrics (query correctness
    /// and safety), agent (workflow and answer quality). A line's own `profile` wins.
    #[arg(long, value_parser = parse_profile, default_value = "qas", conflicts_with = "profile_file")]
    profile: qeval_core::ProfileName,
    /// A custom profile: JSON with `weights` (metric name -> weight), `threshold`, and optionally
    /// `require_execution`, `require_perfect`, `label`.
    #[arg(long, value_name = "FILE")]
    profile_file: Option<PathBuf>,
    /// Relative tolerance for a single number in execution similarity (default 1%).
    #[arg(long, default_value_t = 0.01, value_parser = parse_tolerance)]
    numeric_tolerance: f64,
    /// How table names are matched for table accuracy.
    #[arg(long, value_enum, default_value_t = TableMatchArg::Name)]
    table_match: TableMatchArg,
    /// Write the scorecards to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    db: execute::DbArgs,
    #[command(flatten)]
    judge: JudgeArgs,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The run folder, e.g. reports/evaluation-runs/run-2025-01-31T10-00-00.
    run_dir: PathBuf,
    /// The questions file (JSON array, {"questions": [...]}, or JSON Lines).
    #[arg(long, value_name = "FILE")]
    questions: Option<PathBuf>,
    /// How scores add up: qas (default; 40% semantic + 40% execution + 20% datatype), kql-batch,
    /// sql-metrics.
    #[arg(long, value_parser = parse_profile, default_value = "qas")]
    profile: qeval_core::ProfileName,
    /// How result tables are compared (see `qeval score --help`).
    #[arg(long, value_parser = parse_mode)]
    mode: Option<qeval_core::Mode>,
    #[command(flatten)]
    language: LanguageArgs,
    /// Exit 1 when the pass rate is under this (0.8 or 80 both mean 80%).
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    fail_under: Option<f64>,
    /// Where to write the records (default: RUN_DIR/evaluation-results.jsonl).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Human verdicts on some tests, `{"test_id", "human_label"}` per line (default:
    /// RUN_DIR/human-labels.jsonl when there is one; labels in the records themselves count
    /// too): each judge's agreement with them, Cohen's kappa and the disagreeing tests.
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Score (or check) only the first N tests of the file.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Also give the pass rate by this field of the records (repeatable): any field, such as
    /// `tags` or `meta.db_id`. Difficulty, agent, SQL hardness, db_id, dialect and tags are
    /// shown whenever the records carry them.
    #[arg(long = "by", value_name = "FIELD")]
    by: Vec<String>,
    /// Write the records as CSV, one row per test (- for standard output).
    #[arg(long, value_name = "FILE", help_heading = "Exports")]
    csv: Option<PathBuf>,
    /// Write JUnit XML, one test case per record, failures with their explanations.
    #[arg(long, value_name = "FILE", help_heading = "Exports")]
    junit: Option<PathBuf>,
    /// Write a Markdown summary for a pull-request comment.
    #[arg(long, value_name = "FILE", help_heading = "Exports")]
    markdown: Option<PathBuf>,
    #[command(flatten)]
    db: execute::DbArgs,
    #[command(flatten)]
    judge: JudgeArgs,
}

/// An LLM judge in place of the structural judge, for the metrics the profile weighs.
#[derive(Debug, clap::Args)]
pub struct JudgeArgs {
    /// LLM judge: openai (OpenAI-compatible: also Azure OpenAI, Ollama, vLLM, LM Studio,
    /// OpenRouter), anthropic or gemini. Without it the structural judge scores.
    #[arg(long, value_parser = parse_provider, help_heading = "LLM judge")]
    judge: Option<qeval_judge::Provider>,
    /// The judge's base URL (default: the provider's public API; e.g. http://localhost:11434/v1
    /// for Ollama).
    #[arg(long, value_name = "URL", help_heading = "LLM judge")]
    judge_url: Option<String>,
    /// The model to ask.
    #[arg(long, value_name = "MODEL", help_heading = "LLM judge")]
    judge_model: Option<String>,
    /// The environment variable holding the API key (default: OPENAI_API_KEY,
    /// ANTHROPIC_API_KEY, or GEMINI_API_KEY and then GOOGLE_API_KEY). Keys are never read from
    /// flags.
    #[arg(long, value_name = "NAME", help_heading = "LLM judge")]
    judge_key_env: Option<String>,
    /// The header that carries the key, when not the provider's usual one (Azure: api-key).
    #[arg(long, value_name = "HEADER", help_heading = "LLM judge")]
    judge_key_header: Option<String>,
    /// A query string for every call (Azure: api-version=2024-10-21).
    #[arg(long, value_name = "QUERY", help_heading = "LLM judge")]
    judge_query: Option<String>,
    /// Seconds to wait for a verdict; past it the judging fails ("LLM judge timeout") and the structural judge's score stands.
    #[arg(
        long,
        default_value_t = 30.0,
        value_name = "SECONDS",
        value_parser = parse_seconds,
        help_heading = "LLM judge"
    )]
    judge_timeout: f64,
    /// The judge's prompt version: v2 (default) shows it the schema and, when the queries ran,
    /// both results; v1 the question and both queries only.
    #[arg(long, value_name = "VERSION", default_value = "v2", value_parser = parse_prompt_version, help_heading = "LLM judge")]
    judge_prompt: qeval_judge::PromptVersion,
    /// Judge calls (and Langfuse posts) in flight at once.
    #[arg(long, default_value_t = 4, help_heading = "LLM judge")]
    concurrency: usize,
    /// Where verdicts are cached (default: $XDG_CACHE_HOME/qeval/judge or ~/.cache/qeval/judge).
    #[arg(long, value_name = "DIR", help_heading = "LLM judge")]
    cache_dir: Option<PathBuf>,
    /// How long a cached verdict is reused.
    #[arg(
        long,
        default_value = "24h",
        value_name = "DURATION",
        help_heading = "LLM judge"
    )]
    cache_ttl: humantime::Duration,
    /// Do not read or write the on-disk cache (the run still reuses its own verdicts).
    #[arg(long, help_heading = "LLM judge")]
    no_cache: bool,
    /// Send every metric as a Langfuse score to this host, on the pair's `trace_id` (or `id`);
    /// keys from LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY.
    #[arg(long, value_name = "URL", help_heading = "Langfuse")]
    langfuse_host: Option<String>,
}

/// A number of seconds: finite and above 0 (`NaN`, `inf` and `0` would each mean "no limit" or
/// "no time" somewhere down the line, silently).
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("takes a number of seconds above 0, not `{text}`")),
    }
}

/// A relative tolerance: finite and not negative (`NaN` compares unequal to everything).
fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!("takes a finite number of 0 or more, not `{text}`")),
    }
}

/// A pass rate: 0..1, or a percentage 0..100.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        _ => Err(format!(
            "takes a rate from 0 to 1 or a percentage from 0 to 100, not `{text}`"
        )),
    }
}

fn parse_prompt_version(text: &str) -> Result<qeval_judge::PromptVersion, String> {
    text.parse()
}

fn parse_provider(name: &str) -> Result<qeval_judge::Provider, String> {
    name.parse()
}

fn parse_dialect(name: &str) -> Result<SqlDialect, String> {
    name.parse()
        .map_err(|err: qeval_core::UnknownDialect| err.to_string())
}

fn parse_mode(name: &str) -> Result<qeval_core::Mode, String> {
    name.parse()
}

fn parse_profile(name: &str) -> Result<qeval_core::ProfileName, String> {
    name.parse()
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LanguageArg {
    Sql,
    Kql,
}

impl From<LanguageArg> for qeval_core::Language {
    fn from(arg: LanguageArg) -> Self {
        match arg {
            LanguageArg::Sql => qeval_core::Language::Sql,
            LanguageArg::Kql => qeval_core::Language::Kql,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TableMatchArg {
    /// Match on the table's own name: `sales.orders` matches `orders`.
    Name,
    /// Match on the full name: `sales.orders` matches only `sales.orders`.
    Qualified,
}

impl From<TableMatchArg> for TableMatch {
    fn from(arg: TableMatchArg) -> Self {
        match arg {
            TableMatchArg::Name => TableMatch::Name,
            TableMatchArg::Qualified => TableMatch::Qualified,
        }
    }
}

fn main() -> ExitCode {
    output::quiet_on_closed_pipe();
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Tables {
            query,
            language,
            json,
        } => commands::tables::run(
            query.as_deref(),
            language.language.into(),
            language.dialect,
            json,
        ),
        Command::Score(args) => commands::score::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Report {
            run,
            output,
            compare,
        } => commands::report::run(&run, &output, compare.as_deref()),
        Command::Compare {
            expected,
            generated,
            compare,
            order_matters,
            context,
        } => commands::compare::run(&expected, &generated, &compare, order_matters, &context),
        Command::CompareRuns {
            before,
            after,
            json,
        } => commands::compare_runs::run(&before, &after, json),
        Command::Bench(command) => commands::bench::run(&command),
        Command::Safety { query, language } => {
            commands::safety::run(query.as_deref(), language.language.into(), language.dialect)
        }
    };
    match outcome {
        Ok(commands::Completion::Clean) => ExitCode::SUCCESS,
        Ok(commands::Completion::SomeInputRejected) => ExitCode::from(1),
        Err(message) => {
            say!("qeval: {message}");
            ExitCode::from(2)
        }
    }
}
