//! `qeval bench spider` and `qeval bench bird`: a model's predictions scored on a public
//! benchmark from the benchmark's own files, as its official script scores them. The official
//! table goes to standard output; what the script does not say (golds that cannot pass, failed
//! predictions by kind, files out of order) and progress go to standard error.

use std::path::PathBuf;
use std::time::Instant;

use qeval_core::{
    BenchSummary, BirdOptions, GoldIssue, Spider2Options, SpiderOptions, bird::BirdMetric, counted,
    plural, spider::Etype, spider2::PredictionForm, spider2::Variant, spider2::correct_ids_csv,
};
use qeval_native::bench::{BirdRequest, ScoredBenchmark, Spider2Request, SpiderRequest};

use super::{Completion, Failure};
use crate::output::say;

/// `qeval bench`'s benchmarks.
#[derive(Debug, clap::Subcommand)]
pub enum BenchCommand {
    /// Spider, SParC or CoSQL, as test-suite-sql-eval's `evaluation.py --etype exec` scores
    /// them: execution accuracy when each `db_id` folder holds one database, test-suite
    /// accuracy when it holds several. The official spellings of the flags are accepted
    /// (`--keep_distinct`, `--plug_value`...).
    Spider(Box<SpiderArgs>),
    /// BIRD dev or mini-dev, as BIRD's `evaluation_ex.py`, `evaluation_f1.py` and
    /// `evaluation_ves.py` score it. Predictions are matched to golds by their key, not their
    /// place in the file. The official spellings of the flags are accepted
    /// (`--predicted_sql_path`, `--ground_truth_path`, `--db_root_path`...).
    Bird(Box<BirdArgs>),
    /// Spider 2.0-lite or -snow, as `evaluation_suite/evaluate.py` scores it: each gold
    /// column must equal some predicted column (names ignored), numbers within 0.01. In
    /// `exec_result` mode the predictions are CSVs; in `sql` mode SQL files, run on the local
    /// SQLite databases (cloud tasks are listed as not scored). The official spellings of the
    /// flags are accepted (`--result_dir`, `--gold_dir`, `--max_workers`...).
    Spider2(Box<Spider2Args>),
}

/// Where the records and the summary go, for both benchmarks.
#[derive(Debug, clap::Args)]
pub struct BenchOutput {
    /// Write the records of each prediction file (`evaluation-results.jsonl` lines), one
    /// `--output` per `--pred`, in the same order.
    #[arg(long, short, value_name = "FILE")]
    output: Vec<PathBuf>,
    /// Write the summary as JSON: the table's numbers, the golds that cannot pass and the
    /// ceiling they set, failed predictions by kind (an array with several prediction files).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Threads to run queries on (default: every core).
    #[arg(long = "num-cpus", alias = "num_cpus", value_name = "N")]
    num_cpus: Option<usize>,
    /// Rows a result may hold before it is cut (a cut result gives no verdict).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    max_rows: usize,
}

#[derive(Debug, clap::Args)]
pub struct SpiderArgs {
    /// The gold file: `SQL<TAB>db_id` per line; a blank line ends an interaction (SParC,
    /// CoSQL).
    #[arg(long, value_name = "FILE")]
    gold: PathBuf,
    /// A prediction file: one query per line (the first tab-separated field), interactions
    /// separated as in the gold file. Repeat to score several models against one run of each
    /// gold.
    #[arg(long, value_name = "FILE", required = true)]
    pred: Vec<PathBuf>,
    /// The database folder: each example runs on every `*.sqlite` file of `DIR/<db_id>/`.
    #[arg(long, value_name = "DIR")]
    db: PathBuf,
    /// `tables.json`: the foreign keys exact set match reads (needed by `--etype match` and
    /// `all`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// The evaluation: `exec` (execution or test-suite accuracy), `match` (exact set match,
    /// with its partial matching tables) or `all` (both).
    #[arg(long, default_value = "exec", value_name = "TYPE")]
    etype: String,
    /// Keep `DISTINCT` in both queries (Spider removes every one by default).
    #[arg(long = "keep-distinct", alias = "keep_distinct")]
    keep_distinct: bool,
    /// Also try the prediction with the gold's values put into its value slots, every way
    /// (for models that predict no values).
    #[arg(long = "plug-value", alias = "plug_value")]
    plug_value: bool,
    /// Most `--plug-value` variants tried per prediction (Spider tries them all).
    #[arg(long, default_value_t = qeval_core::spider::MAX_VARIANTS, value_name = "N")]
    plug_value_limit: usize,
    /// Accepted for the official command line; progress is always shown on a terminal.
    #[arg(
        long = "progress-bar-for-each-datapoint",
        alias = "progress_bar_for_each_datapoint"
    )]
    progress_bar_for_each_datapoint: bool,
    /// Seconds a query may run before it is interrupted (Spider's `TIMEOUT`).
    #[arg(long, default_value_t = qeval_core::spider::TIMEOUT_SECONDS, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    time_limit: f64,
    /// Also give qeval's strict verdict, with the official evaluator's documented errors fixed
    /// (docs/benchmarks.md, "Strict verdicts"): printed after the official table, in each
    /// record's `benchmark.strict` with the rule that changed it.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    output: BenchOutput,
}

#[derive(Debug, clap::Args)]
pub struct BirdArgs {
    /// The predictions: a JSON object from question index to `SQL\t----- bird -----\tdb_id`.
    /// Repeat to score several models against one run of each gold.
    #[arg(
        long,
        alias = "predicted_sql_path",
        value_name = "FILE",
        required = true
    )]
    pred: Vec<PathBuf>,
    /// The gold file: `SQL<TAB>db_id` per line.
    #[arg(long, alias = "ground_truth_path", value_name = "FILE")]
    gold: PathBuf,
    /// The database folder: `<db_id>/<db_id>.sqlite` in it.
    #[arg(long = "db-root", alias = "db_root_path", value_name = "DIR")]
    db_root: PathBuf,
    /// The difficulty file, by position: a JSON list (`dev.json`) or JSON Lines
    /// (`mini_dev_sqlite.jsonl`).
    #[arg(long, alias = "diff_json_path", value_name = "FILE")]
    diff: Option<PathBuf>,
    /// The metric: ex, soft-f1 or ves; repeat for several (the first is the records' score).
    #[arg(long, default_value = "ex", value_parser = parse_metric, value_name = "METRIC")]
    metric: Vec<BirdMetric>,
    /// Seconds the prediction and its gold may take together.
    #[arg(long = "meta-time-out", alias = "meta_time_out", default_value_t = qeval_core::bird::TIMEOUT_SECONDS, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    meta_time_out: f64,
    /// The dialect of the queries: SQLite (the only one whose databases are files).
    #[arg(long = "sql-dialect", alias = "sql_dialect", default_value = "SQLite")]
    sql_dialect: String,
    /// Append each metric's table to this file, as BIRD's scripts do.
    #[arg(
        long = "output-log-path",
        alias = "output_log_path",
        value_name = "FILE"
    )]
    output_log_path: Option<PathBuf>,
    /// Timed runs of each query for R-VES (BIRD's scripts make 100).
    #[arg(long, default_value_t = qeval_core::bird::VES_ITERATIONS, value_name = "N")]
    ves_iterations: usize,
    /// Also give qeval's strict verdict, with the official evaluator's documented errors fixed
    /// (docs/benchmarks.md, "Strict verdicts"): printed after the official table, in each
    /// record's `benchmark.strict` with the rule that changed it.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    output: BenchOutput,
}

#[derive(Debug, clap::Args)]
pub struct Spider2Args {
    /// `exec_result` (`<instance_id>.csv` predictions) or `sql` (`<instance_id>.sql`, run on
    /// the local SQLite databases).
    #[arg(long, default_value = "exec_result", value_name = "MODE")]
    mode: String,
    /// The prediction folder.
    #[arg(long = "result-dir", alias = "result_dir", value_name = "DIR")]
    result_dir: PathBuf,
    /// The gold folder: `spider2lite_eval.jsonl` (or `spider2snow_eval.jsonl`) and
    /// `exec_result/`.
    #[arg(long = "gold-dir", alias = "gold_dir", value_name = "DIR")]
    gold_dir: PathBuf,
    /// `lite` or `snow` (default: the one whose gold configuration the gold folder holds).
    #[arg(long, value_name = "VARIANT")]
    variant: Option<String>,
    /// `sql` mode: the instance file naming each instance's database (default:
    /// `spider2-lite.jsonl` two folders above the gold folder, as the official layout has it).
    #[arg(long, value_name = "FILE")]
    instances: Option<PathBuf>,
    /// `sql` mode: the folder of `<db>.sqlite` files (default: `resource/databases` two
    /// folders above the gold folder, where the official script reads them).
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// `sql` mode: seconds a query may run before it is interrupted and listed as not scored
    /// (the official script accepts `--timeout` and sets no limit; qeval's default is a day).
    #[arg(long, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    timeout: Option<f64>,
    /// Write the ids scored 1 as the official `<result_dir>-ids.csv` (`bq`, `ga`, `local` ids
    /// as `sf_<id>`).
    #[arg(long = "ids-csv", value_name = "FILE")]
    ids_csv: Option<PathBuf>,
    /// Write each scored instance's `instance_id`, `score`, `pred_sql` and `error_info`, the
    /// list the official script computes (it never writes it).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Threads (the official `--max_workers`; default: every core).
    #[arg(long = "max-workers", alias = "max_workers", value_name = "N")]
    max_workers: Option<usize>,
    /// Accepted for the official command line; unused there too.
    #[arg(long = "is-sql-debug", alias = "is_sql_debug")]
    is_sql_debug: bool,
    /// Accepted for the official command line; qeval writes no temporary files.
    #[arg(long = "temp-dir", alias = "temp_dir", value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    /// Also give qeval's strict verdict, with the official evaluator's documented errors fixed
    /// (docs/benchmarks.md, "Strict verdicts"): printed after the official table, in each
    /// record's `benchmark.strict` with the rule that changed it.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    output: BenchOutput,
}

fn parse_metric(text: &str) -> Result<BirdMetric, String> {
    text.parse()
}

/// A time in seconds from the command line: above 0 and finite.
pub fn run(command: &BenchCommand) -> Result<Completion, Failure> {
    match command {
        BenchCommand::Spider(args) => spider(args),
        BenchCommand::Bird(args) => bird(args),
        BenchCommand::Spider2(args) => spider2(args),
    }
}

fn check_outputs(output: &BenchOutput, predictions: usize) -> Result<(), Failure> {
    if !output.output.is_empty() && output.output.len() != predictions {
        return Err(format!(
            "{} for {}: give one --output per --pred, in the same order",
            counted(output.output.len(), "--output"),
            counted(predictions, "--pred")
        ));
    }
    if output.num_cpus == Some(0) {
        return Err("--num-cpus takes 1 or more".into());
    }
    Ok(())
}

fn spider(args: &SpiderArgs) -> Result<Completion, Failure> {
    let Some(etype) = Etype::parse(&args.etype) else {
        return Err(format!(
            "--etype {}: use exec (execution or test-suite accuracy), match (exact set match) or all",
            args.etype
        ));
    };
    check_outputs(&args.output, args.pred.len())?;
    let mut options = SpiderOptions {
        keep_distinct: args.keep_distinct,
        plug_value: args.plug_value,
        plug_limit: args.plug_value_limit,
        etype,
        strict: args.strict,
        ..SpiderOptions::default()
    };
    options.settings.time_limit_ms = args.time_limit * 1000.0;
    options.settings.max_rows = args.output.max_rows;
    let request = SpiderRequest {
        gold: args.gold.clone(),
        predictions: args.pred.clone(),
        db: args.db.clone(),
        table: args.table.clone(),
        options,
    };
    let planned = qeval_native::bench::plan_spider(&request)?;
    finish(planned, &args.output, "SQLite", None).map(|_| Completion::Clean)
}

fn bird(args: &BirdArgs) -> Result<Completion, Failure> {
    if !args.sql_dialect.eq_ignore_ascii_case("sqlite") {
        return Err(format!(
            "--sql-dialect {}: only SQLite is scored here (BIRD's MySQL and PostgreSQL databases are servers, not files)",
            args.sql_dialect
        ));
    }
    check_outputs(&args.output, args.pred.len())?;
    let mut metrics = Vec::new();
    for metric in &args.metric {
        if !metrics.contains(metric) {
            metrics.push(*metric);
        }
    }
    let limit = args.meta_time_out * 1000.0;
    let mut options = BirdOptions {
        metrics,
        ves_iterations: args.ves_iterations,
        time_limit_ms: limit,
        dialect: args.sql_dialect.clone(),
        strict: args.strict,
        ..BirdOptions::default()
    };
    options.settings.time_limit_ms = limit;
    options.settings.max_rows = args.output.max_rows;
    let request = BirdRequest {
        gold: args.gold.clone(),
        predictions: args.pred.clone(),
        db_root: args.db_root.clone(),
        difficulties: args.diff.clone(),
        options,
    };
    let planned = qeval_native::bench::plan_bird(&request)?;
    finish(
        planned,
        &args.output,
        &args.sql_dialect,
        args.output_log_path.as_ref(),
    )
    .map(|_| Completion::Clean)
}

fn spider2(args: &Spider2Args) -> Result<Completion, Failure> {
    let Some(mode) = PredictionForm::parse(&args.mode) else {
        return Err(format!(
            "--mode {}: use exec_result (predicted CSVs) or sql (predicted SQL)",
            args.mode
        ));
    };
    let variant = match &args.variant {
        None => None,
        Some(text) => Some(
            Variant::parse(text).ok_or_else(|| format!("--variant {text}: use lite or snow"))?,
        ),
    };
    check_outputs(&args.output, 1)?;
    let mut options = Spider2Options {
        mode,
        strict: args.strict,
        ..Spider2Options::default()
    };
    if let Some(seconds) = args.timeout {
        options.settings.time_limit_ms = seconds * 1000.0;
    }
    options.settings.max_rows = args.output.max_rows;
    let request = Spider2Request {
        gold_dir: args.gold_dir.clone(),
        result_dir: args.result_dir.clone(),
        variant,
        instances: args.instances.clone(),
        db: args.db.clone(),
        options,
    };
    let planned = qeval_native::bench::plan_spider2(&request)?;
    let mut output = BenchOutput {
        output: args.output.output.clone(),
        json: args.output.json.clone(),
        num_cpus: args.max_workers.or(args.output.num_cpus),
        max_rows: args.output.max_rows,
    };
    if output.num_cpus == Some(0) {
        output.num_cpus = Some(1);
    }
    let scored = finish(planned, &output, "SQLite", None)?;
    if let Some(path) = &args.results {
        std::fs::write(path, qeval_native::bench::spider2_results_json(&scored))
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        say!(
            "qeval: wrote the per-instance results to {}",
            path.display()
        );
    }
    if let (Some(path), Some(scores)) = (
        &args.ids_csv,
        scored.summaries.first().and_then(|s| s.spider2.as_ref()),
    ) {
        std::fs::write(path, correct_ids_csv(&scores.scores))
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        say!("qeval: wrote the correct ids to {}", path.display());
    }
    Ok(Completion::Clean)
}

/// Runs a planned benchmark and writes what it gave.
fn finish(
    planned: qeval_native::bench::Planned,
    output: &BenchOutput,
    dialect: &str,
    log: Option<&PathBuf>,
) -> Result<ScoredBenchmark, Failure> {
    let started = Instant::now();
    let examples = planned.pipeline.examples.len();
    let scored = run_planned(planned, output);
    write_outputs(&scored, output, dialect, log)?;
    say!(
        "qeval: scored {} in {:.2} s",
        counted(examples, "example"),
        started.elapsed().as_secs_f64()
    );
    Ok(scored)
}

/// Runs a planned benchmark's jobs on every core, with progress.
fn run_planned(planned: qeval_native::bench::Planned, output: &BenchOutput) -> ScoredBenchmark {
    for note in &planned.notes {
        say!("qeval: {note}");
    }
    let workers = output.num_cpus.unwrap_or_else(qeval_native::pool::cores);
    let examples = planned.pipeline.examples.len();
    let databases = planned.pipeline.databases().len();
    say!(
        "qeval: {} on {} with {}",
        counted(examples, "example"),
        counted(databases, "database"),
        counted(workers, "thread")
    );
    let mut progress = crate::progress::Progress::new("running queries");
    let lock = std::sync::Mutex::new(&mut progress);
    let scored = qeval_native::bench::score(planned, workers, |done, total| {
        if let Ok(mut progress) = lock.lock() {
            progress.tick_of(done, total);
        }
    });
    progress.finish();
    scored
}

fn write_outputs(
    scored: &ScoredBenchmark,
    output: &BenchOutput,
    dialect: &str,
    log: Option<&PathBuf>,
) -> Result<(), Failure> {
    let several = scored.summaries.len() > 1;
    for summary in &scored.summaries {
        if several {
            println!("predictions: {}", summary.predictions);
        }
        print!("{}", summary.table(dialect));
        if let Some(strict) = summary.strict_table() {
            print!("{strict}");
        }
        for line in describe(summary) {
            say!("qeval: {line}");
        }
    }
    qeval_native::bench::write_records(scored, &output.output)?;
    for path in &output.output {
        say!("qeval: wrote records to {}", path.display());
    }
    if let Some(path) = log {
        qeval_native::bench::append_log(scored, path)?;
    }
    if let Some(path) = &output.json {
        std::fs::write(path, qeval_native::bench::summary_json(scored))
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        say!("qeval: wrote the summary to {}", path.display());
    }
    Ok(())
}

/// Gold issues a line each, the first ten.
fn issue_lines(issues: &[&GoldIssue]) -> Vec<String> {
    let mut lines: Vec<String> = issues
        .iter()
        .take(10)
        .map(|issue| match &issue.instance_id {
            Some(id) => format!("  {id}: {}: {}", issue.kind, issue.message),
            None => format!(
                "  test {} (gold line {}, {}): {}: {}",
                issue.test_id, issue.line, issue.db_id, issue.kind, issue.message
            ),
        })
        .collect();
    if issues.len() > 10 {
        lines.push(format!("  ... and {} more (see --json)", issues.len() - 10));
    }
    lines
}

/// Spider 2.0: the scores of 0 by error kind, and the instances not scored.
fn spider2_lines(spider2: &qeval_core::Spider2Scores) -> Vec<String> {
    let mut lines = Vec::new();
    if !spider2.error_kinds.is_empty() {
        let kinds: Vec<String> = spider2
            .error_kinds
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        lines.push(format!(
            "scores of 0 by official error kind: {}",
            kinds.join(", ")
        ));
    }
    if !spider2.not_scored.is_empty() {
        lines.push(format!(
            "{} not scored (left out of \"Final score\"; the official script would score them):",
            counted(spider2.not_scored.len(), "instance")
        ));
        for (id, why) in spider2.not_scored.iter().take(10) {
            lines.push(format!("  {id}: {why}"));
        }
        if spider2.not_scored.len() > 10 {
            lines.push(format!(
                "  ... and {} more (see --json)",
                spider2.not_scored.len() - 10
            ));
        }
    }
    lines
}

/// What the summary says beyond the official table, a line each.
fn describe(summary: &BenchSummary) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {} of {} passed ({})",
        summary.predictions,
        summary.passed,
        counted(summary.examples, "example"),
        summary.measure
    )];
    let (blocking, doubtful): (Vec<&GoldIssue>, Vec<&GoldIssue>) =
        summary.gold_issues.iter().partition(|issue| issue.blocks());
    if !blocking.is_empty() {
        let n = blocking.len();
        let golds = match (summary.spider2.is_some(), n == 1) {
            (true, true) => "gold answer",
            (true, false) => "gold answers",
            (false, true) => "gold query",
            (false, false) => "gold queries",
        };
        lines.push(format!(
            "{n} {golds} cannot pass whatever the prediction (gold as prediction would score {:.4}):",
            summary.ceiling
        ));
        lines.extend(issue_lines(&blocking));
    } else if summary.ceiling < 1.0 {
        lines.push(format!(
            "gold as prediction would score {:.4} (golds too slow to pass twice within the time limit)",
            summary.ceiling
        ));
    }
    if !doubtful.is_empty() {
        lines.push(format!(
            "{} to check (they pass, but return no rows or read the clock):",
            counted(doubtful.len(), "gold")
        ));
        lines.extend(issue_lines(&doubtful));
    }
    if let Some(spider2) = &summary.spider2 {
        lines.extend(spider2_lines(spider2));
    } else if !summary.prediction_failures.is_empty() {
        let kinds: Vec<String> = summary
            .prediction_failures
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        lines.push(format!(
            "predictions without a result: {}",
            kinds.join(", ")
        ));
    }
    if summary.without_level > 0 {
        lines.push(match summary.benchmark {
            "spider" => format!(
                "{} without a hardness level (Spider's grammar does not read the gold; counted in `all` only)",
                counted(summary.without_level, "example")
            ),
            _ => format!(
                "{} without a difficulty (counted in `total` only)",
                counted(summary.without_level, "question")
            ),
        });
    }
    if let Some(misplaced) = summary.misplaced.filter(|n| *n > 0) {
        lines.push(format!(
            "{misplaced} prediction{} not at the place in the file their key names: scored by key here; BIRD's script pairs by place and would have scored {} against another question's gold",
            plural(misplaced),
            if misplaced == 1 { "it" } else { "them" }
        ));
    }
    if !summary.db_id_mismatches.is_empty() {
        lines.push(format!(
            "{} name{} another db_id than the gold's (run on the gold's, as BIRD's script does), e.g. test {}: {} for {}",
            counted(summary.db_id_mismatches.len(), "prediction"),
            if summary.db_id_mismatches.len() == 1 { "s" } else { "" },
            summary.db_id_mismatches[0].0,
            summary.db_id_mismatches[0].1,
            summary.db_id_mismatches[0].2
        ));
    }
    for levels in &summary.bird {
        if levels.scores.iter().any(Option::is_none) {
            lines.push(format!(
                "{}: a level without questions shows 0.00 (BIRD's script divides by zero there and stops)",
                levels.metric.title()
            ));
        }
    }
    lines
}
