//! Jobs: the work a run needs done on one database, planned by the core and carried out by a
//! front end with a [`Runner`] for that database. A job is data (it crosses to the page's
//! database worker and to Ray's workers as JSON); [`Job::run`] does it, reading the database
//! only through the runner, and its answer is data again.

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::query::{QueryError, QueryRows, QuerySettings};
use crate::bench::bird::ves::timed_reward;
use crate::metric::Metric;
use crate::metrics::efficiency::reward as step_reward;
use crate::results::compare::{CompareOptions, Mode, compare};
use crate::results::{ResultSet, Value};
use crate::sql::SqlDialect;

/// One database's access, as the front end provides it.
pub trait Runner {
    /// Runs one query.
    fn query(&mut self, sql: &str, settings: &QuerySettings) -> Result<QueryRows, QueryError>;
    /// Test-suite checking: both queries on databases generated from this one's schema.
    fn suite(&mut self, check: &SuiteCheck) -> Metric;
}

/// Work on the database numbered `database` in the plan's list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub database: usize,
    pub parts: Vec<JobPart>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JobPart {
    /// Run the queries whose results a test lacks (`qeval run --db`).
    Fill(Fill),
    /// Test-suite checking of a test (`qeval run --db --suite N`).
    Suite(SuiteCheck),
    /// A benchmark example on one of its databases.
    Check(Check),
    /// A database's tables and their columns, for Spider's exact set match.
    Schema(SchemaRead),
}

/// Reading a database's tables and columns as Spider's `get_schema` does: every table of
/// `sqlite_master` in its order, then each one's columns, through plain queries (`SELECT *
/// ... LIMIT 0` names the columns as `PRAGMA table_info` does).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemaRead {
    pub db_id: String,
    pub settings: QuerySettings,
}

/// A database's tables, each with its columns, in order.
pub(crate) type TableColumns = Vec<(String, Vec<String>)>;

/// The queries of a test whose results are missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fill {
    pub item: usize,
    pub expected: Option<String>,
    /// Each further acceptable answer's query, when its result is missing.
    pub alternatives: Vec<Option<String>>,
    pub generated: Option<String>,
    pub settings: QuerySettings,
}

/// Test-suite checking of one test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteCheck {
    pub item: usize,
    pub expected: String,
    pub generated: String,
    pub mode: Mode,
    pub dialect: SqlDialect,
    /// Databases to generate.
    pub databases: usize,
    pub seed: u64,
    /// Databases the boundary search may build once they agree (qeval-sqlite's `search.rs`).
    pub search: usize,
    pub settings: QuerySettings,
}

/// How a benchmark example's prediction is judged against its gold on one database.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Rule {
    /// Spider's `result_eq`: same rows as a multiset (as a list when order matters), any
    /// column permutation.
    Spider { order_matters: bool },
    /// `--strict`: the gold is Spider's ranked by its `ORDER BY` and without its `LIMIT`
    /// (`spider::ties`); the prediction passes when it is one of the answers the rows tied
    /// at the cut allow.
    SpiderTies { limit: usize },
    /// BIRD: EX (`set(pred) == set(gold)`) always; Soft-F1 when `soft_f1`; R-VES's timed runs
    /// when `ves_iterations` is not 0. A prediction and its gold that together take longer than
    /// `time_limit_ms` time out, as BIRD's `func_timeout` around both queries does.
    Bird {
        soft_f1: bool,
        ves_iterations: usize,
        time_limit_ms: f64,
        /// `--strict`: also the rows as a multiset, and Soft-F1 with rows paired by content
        /// when the gold has no `ORDER BY`.
        #[serde(default)]
        strict: bool,
    },
}

/// A benchmark example on one database: its gold and, for each prediction file, the queries
/// that stand for its prediction (the prediction itself, then `--plug_value`'s variants).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub item: usize,
    /// Which of the example's databases this is.
    pub slot: usize,
    /// What the check is for: the official verdict, or one of the strict rules.
    #[serde(default)]
    pub purpose: CheckPurpose,
    pub gold: String,
    pub predictions: Vec<Vec<String>>,
    pub rule: Rule,
    pub settings: QuerySettings,
}

/// What a benchmark check is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CheckPurpose {
    /// The official verdict.
    #[default]
    Official,
    /// `--strict`: the queries with `DISTINCT` kept inside aggregates.
    StrictDistinct,
    /// `--strict`: the prediction against the gold's tied rows.
    StrictTies,
}

/// What a job gave, part by part, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobAnswer {
    pub database: usize,
    pub answers: Vec<PartAnswer>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PartAnswer {
    Fill(FillAnswer),
    Suite {
        item: usize,
        metric: Metric,
    },
    Check(CheckAnswer),
    Schema {
        db_id: String,
        tables: Result<TableColumns, QueryError>,
    },
}

/// A query's result as JSON (`{columns, rows}`), whether it was cut, and its VM parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Filled {
    pub result: Json,
    pub truncated: bool,
    pub vm_steps: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FillAnswer {
    pub item: usize,
    pub expected: Option<Result<Filled, QueryError>>,
    pub alternatives: Vec<Option<Result<Filled, QueryError>>>,
    pub generated: Option<Result<Filled, QueryError>>,
}

/// The first rows of a result shown in a record, at most this many.
pub(crate) const SHOWN_ROWS: usize = 3;

/// The gold query on one database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum GoldOutcome {
    Ran {
        rows: usize,
        first_rows: Vec<Json>,
        millis: f64,
        vm_steps: u64,
        /// Cut at the row cap: no verdict can be given against it.
        truncated: bool,
    },
    Failed(QueryError),
}

/// One query standing for a prediction, on one database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantOutcome {
    pub verdict: CheckVerdict,
    /// The prediction's rows (when it ran), and its first rows when they differ from the gold's.
    pub rows: Option<usize>,
    pub first_rows: Vec<Json>,
    pub millis: Option<f64>,
    pub vm_steps: Option<u64>,
    /// BIRD's Soft-F1 of the pair (0 when either query failed or timed out).
    pub soft_f1: Option<f64>,
    /// BIRD's timed reward (R-VES), when asked for and the results match.
    pub ves: Option<f64>,
    /// The reward by SQLite VM parts, when the results match.
    pub efficiency: Option<f64>,
    /// BIRD `--strict`: whether the rows are equal as a multiset (EX compares sets).
    #[serde(default)]
    pub strict_agrees: Option<bool>,
    /// BIRD `--strict`: Soft-F1 with the rows paired by content when the gold has no
    /// `ORDER BY` (BIRD's pairs them by position).
    #[serde(default)]
    pub strict_soft_f1: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CheckVerdict {
    /// The results are the same under the rule.
    Agree,
    /// They are not; why.
    Differ(String),
    /// The prediction did not run.
    Failed(QueryError),
    /// The prediction and the gold together took longer than BIRD's limit.
    TimedOut { millis: f64 },
    /// A result was cut at the row cap: no verdict.
    Cut(String),
    /// The gold did not run (or was cut): nothing to compare with.
    NoGold,
}

impl CheckVerdict {
    pub fn agrees(&self) -> bool {
        matches!(self, CheckVerdict::Agree)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckAnswer {
    pub item: usize,
    pub slot: usize,
    #[serde(default)]
    pub purpose: CheckPurpose,
    pub gold: GoldOutcome,
    /// For each prediction file, each of its queries.
    pub predictions: Vec<Vec<VariantOutcome>>,
}

impl Job {
    /// Does every part with `runner`, which stands for the job's database. The gold query of
    /// a benchmark runs once however many examples and prediction files share it.
    pub fn run(&self, runner: &mut dyn Runner) -> JobAnswer {
        let mut results = Results::default();
        let answers = self
            .parts
            .iter()
            .map(|part| match part {
                JobPart::Fill(fill) => PartAnswer::Fill(run_fill(fill, runner)),
                JobPart::Suite(check) => PartAnswer::Suite {
                    item: check.item,
                    metric: runner.suite(check),
                },
                JobPart::Check(check) => PartAnswer::Check(run_check(check, &mut results, runner)),
                JobPart::Schema(read) => PartAnswer::Schema {
                    db_id: read.db_id.clone(),
                    tables: read_schema(read, runner),
                },
            })
            .collect();
        JobAnswer {
            database: self.database,
            answers,
        }
    }
}

/// The results of the queries of one gold's checks, by their text: a query runs once however
/// many examples, prediction files and `--plug_value` variants share it on this database, and a
/// prediction written as its gold is not run again. The same text on the same database gives
/// the same result. Checks come grouped by gold; the results go when the gold changes.
#[derive(Default)]
struct Results {
    gold: Option<String>,
    by_text: Vec<(String, Result<QueryRows, QueryError>)>,
}

/// Results kept beside a gold's: enough for a group's predictions, bounded in memory.
const KEPT_RESULTS: usize = 16;

impl Results {
    /// Where the result of `sql` is, running it when it is not there yet.
    fn of(&mut self, sql: &str, settings: &QuerySettings, runner: &mut dyn Runner) -> usize {
        if let Some(at) = self.by_text.iter().position(|(text, _)| text == sql) {
            return at;
        }
        let outcome = runner.query(sql, settings);
        if self.by_text.len() > KEPT_RESULTS {
            // The gold's stays first.
            self.by_text.truncate(1);
        }
        self.by_text.push((sql.to_string(), outcome));
        self.by_text.len() - 1
    }

    /// Starts the results of `gold`'s checks (keeping them when it is the gold before).
    fn start(&mut self, gold: &str, settings: &QuerySettings, runner: &mut dyn Runner) {
        if self.gold.as_deref() != Some(gold) {
            self.by_text.clear();
            self.gold = Some(gold.to_string());
            self.of(gold, settings, runner);
        }
    }
}

fn read_schema(read: &SchemaRead, runner: &mut dyn Runner) -> Result<TableColumns, QueryError> {
    let names = runner.query(
        "SELECT name FROM sqlite_master WHERE type='table'",
        &read.settings,
    )?;
    let mut tables = Vec::new();
    for row in &names.result.rows {
        let Some(Value::Text(name)) = row.first() else {
            continue;
        };
        let name = name.as_str().to_string();
        let columns = runner.query(
            &format!("SELECT * FROM {} LIMIT 0", crate::sql::quote_ident(&name)),
            &read.settings,
        )?;
        tables.push((name, columns.result.columns));
    }
    Ok(tables)
}

fn filled(outcome: Result<QueryRows, QueryError>) -> Result<Filled, QueryError> {
    outcome.map(|rows| Filled {
        result: result_json(&rows.result),
        truncated: rows.truncated,
        vm_steps: rows.vm_steps,
    })
}

fn run_fill(fill: &Fill, runner: &mut dyn Runner) -> FillAnswer {
    let mut run = |sql: &Option<String>| {
        sql.as_ref()
            .map(|sql| filled(runner.query(sql, &fill.settings)))
    };
    FillAnswer {
        item: fill.item,
        expected: run(&fill.expected),
        alternatives: fill.alternatives.iter().map(&mut run).collect(),
        generated: run(&fill.generated),
    }
}

/// A cell as result files write it.
fn cell_json(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(x) => serde_json::Number::from_f64(*x).map_or(Json::Null, Json::Number),
        Value::Text(text) => Json::String(text.as_str().to_string()),
    }
}

fn row_json(row: &[Value]) -> Json {
    Json::Array(row.iter().map(cell_json).collect())
}

/// A result as `{columns, rows}` JSON, the shape every comparison mode reads.
pub(crate) fn result_json(result: &ResultSet) -> Json {
    json!({
        "columns": result.columns,
        "rows": result.rows.iter().map(row_json).collect::<Vec<_>>(),
    })
}

fn first_rows(result: &ResultSet) -> Vec<Json> {
    result.rows.iter().take(SHOWN_ROWS).map(row_json).collect()
}

fn run_check(check: &Check, results: &mut Results, runner: &mut dyn Runner) -> CheckAnswer {
    results.start(&check.gold, &check.settings, runner);
    let gold_outcome = match &results.by_text[0].1 {
        Ok(rows) => GoldOutcome::Ran {
            rows: rows.result.rows.len(),
            first_rows: first_rows(&rows.result),
            millis: rows.millis,
            vm_steps: rows.vm_steps,
            truncated: rows.truncated,
        },
        Err(err) => GoldOutcome::Failed(err.clone()),
    };
    let predictions = check
        .predictions
        .iter()
        .map(|variants| {
            variants
                .iter()
                .map(|sql| {
                    let at = results.of(sql, &check.settings, runner);
                    let (gold, outcome) = (&results.by_text[0].1, &results.by_text[at].1);
                    judge_variant(check, gold, outcome, sql, runner)
                })
                .collect()
        })
        .collect();
    CheckAnswer {
        item: check.item,
        slot: check.slot,
        purpose: check.purpose,
        gold: gold_outcome,
        predictions,
    }
}

fn judge_variant(
    check: &Check,
    gold: &Result<QueryRows, QueryError>,
    outcome: &Result<QueryRows, QueryError>,
    sql: &str,
    runner: &mut dyn Runner,
) -> VariantOutcome {
    let mut variant = VariantOutcome {
        verdict: CheckVerdict::NoGold,
        rows: None,
        first_rows: Vec::new(),
        millis: None,
        vm_steps: None,
        soft_f1: None,
        ves: None,
        efficiency: None,
        strict_agrees: None,
        strict_soft_f1: None,
    };
    let soft_f1 = matches!(check.rule, Rule::Bird { soft_f1: true, .. });
    let strict = matches!(check.rule, Rule::Bird { strict: true, .. });
    if strict {
        variant.strict_agrees = Some(false);
        variant.strict_soft_f1 = soft_f1.then_some(0.0);
    }
    if soft_f1 {
        variant.soft_f1 = Some(0.0);
    }
    let predicted = match outcome {
        Ok(rows) => rows,
        Err(err) => {
            variant.verdict = CheckVerdict::Failed(err.clone());
            return variant;
        }
    };
    variant.rows = Some(predicted.result.rows.len());
    variant.millis = Some(predicted.millis);
    variant.vm_steps = Some(predicted.vm_steps);
    let Ok(gold) = gold else {
        return variant;
    };
    if let Rule::Bird { time_limit_ms, .. } = check.rule {
        let together = gold.millis + predicted.millis;
        if together > time_limit_ms {
            variant.verdict = CheckVerdict::TimedOut { millis: together };
            return variant;
        }
    }
    if gold.truncated || predicted.truncated {
        let side = if gold.truncated { "gold" } else { "prediction" };
        variant.verdict = CheckVerdict::Cut(format!(
            "the {side}'s result was cut at {} rows, so the results cannot be compared",
            check.settings.max_rows
        ));
        variant.first_rows = first_rows(&predicted.result);
        return variant;
    }
    let (mode, order_matters) = match check.rule {
        Rule::Spider { order_matters } => (Mode::Bag, order_matters),
        Rule::Bird { .. } => (Mode::Set, false),
        Rule::SpiderTies { limit } => {
            variant.verdict = if crate::bench::spider::ties::is_tied_answer(
                &gold.result,
                limit,
                &predicted.result,
            ) {
                CheckVerdict::Agree
            } else {
                CheckVerdict::Differ("not one of the answers the rows tied at the cut allow".into())
            };
            return variant;
        }
    };
    let options = CompareOptions {
        mode,
        order_matters,
        ..CompareOptions::default()
    };
    let comparison = compare(&gold.result, &predicted.result, &options);
    if soft_f1 {
        let soft = compare(
            &gold.result,
            &predicted.result,
            &CompareOptions {
                mode: Mode::SoftF1,
                ..CompareOptions::default()
            },
        );
        variant.soft_f1 = Some(soft.score);
        if strict {
            variant.strict_soft_f1 = Some(if orders_its_rows(&check.gold) {
                soft.score
            } else {
                let paired = paired_by_content(&gold.result, &predicted.result);
                compare(
                    &gold.result,
                    &paired,
                    &CompareOptions {
                        mode: Mode::SoftF1,
                        ..CompareOptions::default()
                    },
                )
                .score
            });
        }
    }
    if strict {
        let bag = compare(
            &gold.result,
            &predicted.result,
            &CompareOptions {
                mode: Mode::Bag,
                ..CompareOptions::default()
            },
        );
        // The set comparison keeps BIRD's column order; the multiset one adds the counts.
        variant.strict_agrees = Some(comparison.equal && bag.equal);
    }
    if comparison.equal {
        variant.verdict = CheckVerdict::Agree;
        let ratio = gold.vm_steps.max(1) as f64 / predicted.vm_steps.max(1) as f64;
        variant.efficiency = Some(step_reward(ratio));
        if let Rule::Bird { ves_iterations, .. } = check.rule
            && ves_iterations > 0
        {
            variant.ves = Some(timed(check, sql, ves_iterations, runner));
        }
    } else {
        variant.verdict = CheckVerdict::Differ(comparison.explanation);
        variant.first_rows = first_rows(&predicted.result);
    }
    variant
}

/// Whether a query's own result is ordered (a top-level `ORDER BY`); a query qeval's parser
/// cannot read counts as ordered, so its rows keep their positions.
fn orders_its_rows(sql: &str) -> bool {
    crate::sql::parse(sql, SqlDialect::Sqlite, crate::sql::ParseLimits::default())
        .map_or(true, |statements| {
            crate::sql::orders_its_output(&statements)
        })
}

/// The prediction's rows reordered to pair with the gold's by content: each gold row in turn
/// takes the first unused predicted row equal to it; the rest keep their order in the places
/// left.
fn paired_by_content(gold: &ResultSet, predicted: &ResultSet) -> ResultSet {
    let predicted_rows = predicted.rows.to_vecs();
    let mut used = vec![false; predicted_rows.len()];
    let mut placed: Vec<Option<usize>> = vec![None; predicted_rows.len()];
    for (position, gold_row) in gold.rows.iter().enumerate().take(predicted_rows.len()) {
        if let Some(found) = (0..predicted_rows.len())
            .find(|&p| !used[p] && predicted_rows[p].as_slice() == gold_row)
        {
            used[found] = true;
            placed[position] = Some(found);
        }
    }
    let mut rest = (0..predicted_rows.len()).filter(|&p| !used[p]);
    let order: Vec<usize> = placed
        .into_iter()
        .map(|slot| slot.or_else(|| rest.next()).unwrap_or_default())
        .collect();
    let mut rows = crate::results::Rows::with_capacity(predicted.columns.len(), order.len());
    for p in order {
        rows.push(predicted_rows[p].iter().cloned());
    }
    ResultSet {
        columns: predicted.columns.clone(),
        named: predicted.named,
        rows,
    }
}

/// R-VES's timed runs of a correct prediction and its gold: the reward, 0 when a run fails.
fn timed(check: &Check, prediction: &str, iterations: usize, runner: &mut dyn Runner) -> f64 {
    let mut times = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let predicted = runner.query(prediction, &check.settings);
        let gold = runner.query(&check.gold, &check.settings);
        match (gold, predicted) {
            (Ok(gold), Ok(predicted)) => times.push((gold.millis, predicted.millis)),
            _ => return 0.0,
        }
    }
    timed_reward(&times)
}
