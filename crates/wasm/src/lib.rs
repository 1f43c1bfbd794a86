//! qeval for JavaScript: the core's entry points with JS objects in and out.
//!
//! ```js
//! import { scorePair, tables } from "./pkg/qeval_wasm.js";
//! tables("SELECT * FROM users u JOIN orders o ON o.uid = u.id", { dialect: "postgres" });
//! // -> ["users", "orders"]
//! scorePair({ generated_sql: "SELECT * FROM users", expected_tables: ["users", "orders"] });
//! // -> { identical: false, metrics: { table_accuracy: { score: 0.5, ... } }, ... }
//! compareResults([{ id: 1 }, { id: 2 }], [[2], [1]], { mode: "bag" }).equal; // true
//! checkEquivalence("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 30");
//! // -> { verdict: "different", schema: "CREATE TABLE singer (...)", counterexample: {...}, ... }
//! ```
//!
//! Bad input throws a JS `Error` whose message says what and where.

use std::cell::RefCell;

use qeval_core::MetricName;
use qeval_core::metrics::TableMatch;
use qeval_core::profiles::Profile;
use qeval_core::results::compare::{CompareOptions, Comparison, Mode, compare};
use qeval_core::results::{ResultSet, read_result, read_result_text, sample};
use qeval_core::sql::{self, ParseLimits, SqlDialect, TableName};
use qeval_core::{Language, ScoreOptions, add_equivalence, pairs, run, score_pair};
use qeval_sqlite::{EquivalenceOptions, EquivalenceReport, SchemaChoice, check_equivalence};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// Options every entry point accepts, all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    dialect: Option<String>,
    /// `"sql"` (default) or `"kql"`.
    language: Option<String>,
    /// `"name"` (default) or `"qualified"`.
    table_match: Option<String>,
    /// A profile name, e.g. `"qas"` (default), `"kql-batch"`.
    profile: Option<String>,
    /// A comparison mode, e.g. `"f1"` (default), `"bag"`.
    mode: Option<String>,
    /// Relative tolerance for numbers in result tables.
    tolerance: Option<f64>,
    /// Row order counts (`bag`, `subset`).
    order_matters: Option<bool>,
    ignore_case: Option<bool>,
    /// The equivalence check: generated databases (default 40), their seed (default 1),
    /// `CREATE TABLE` statements to use instead of the inferred schema, and whether `scorePair`
    /// runs it at all (default true, as `qeval score` does without `--db`).
    databases: Option<usize>,
    seed: Option<u64>,
    schema: Option<String>,
    equivalence: Option<bool>,
    /// Runs: more fields to give pass rates by (`summarizeRun`), and the run's name in an
    /// export (`exportRun`, default "run").
    by: Option<Vec<String>>,
    name: Option<String>,
}

/// At most this many generated databases per check.
const MAX_DATABASES: usize = 1_000;

impl Options {
    fn read(value: JsValue) -> Result<Options, JsError> {
        if value.is_undefined() || value.is_null() {
            return Ok(Options::default());
        }
        // Through a JSON value, so a misspelt option is an error rather than silently ignored.
        let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
            .map_err(|err| error(format!("options: {err}")))?;
        serde_json::from_value(json).map_err(|err| error(format!("options: {err}")))
    }

    fn score_options(&self) -> Result<ScoreOptions, JsError> {
        let table_match = match self.table_match.as_deref() {
            None | Some("name") => TableMatch::Name,
            Some("qualified") => TableMatch::Qualified,
            Some(other) => {
                return Err(error(format!(
                    "options.tableMatch: expected \"name\" or \"qualified\", found \"{other}\""
                )));
            }
        };
        let defaults = ScoreOptions::default();
        Ok(ScoreOptions {
            dialect: self.dialect()?,
            language: self
                .language
                .as_deref()
                .map_or(Ok(qeval_core::Language::Sql), str::parse)
                .map_err(|err| error(format!("options.language: {err}")))?,
            table_match,
            profile: match self.profile.as_deref() {
                None => defaults.profile.clone(),
                Some(name) => Profile::preset(
                    name.parse()
                        .map_err(|err| error(format!("options.profile: {err}")))?,
                ),
            },
            mode: self.mode()?,
            tolerance: self.tolerance.unwrap_or(defaults.tolerance),
            ignore_case: self.ignore_case.unwrap_or(false),
            ..defaults
        })
    }

    fn mode(&self) -> Result<Option<Mode>, JsError> {
        self.mode
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|err| error(format!("options.mode: {err}")))
    }

    fn compare_options(&self) -> Result<CompareOptions, JsError> {
        let defaults = CompareOptions::default();
        Ok(CompareOptions {
            mode: self.mode()?.unwrap_or_default(),
            tolerance: self.tolerance.unwrap_or(defaults.tolerance),
            order_matters: self.order_matters.unwrap_or(false),
            ignore_case: self.ignore_case.unwrap_or(false),
            ..defaults
        })
    }

    fn equivalence_options(
        &self,
        dialect: SqlDialect,
        mode: Option<Mode>,
    ) -> Result<EquivalenceOptions, JsError> {
        let defaults = EquivalenceOptions::default();
        let databases = self.databases.unwrap_or(defaults.databases);
        if databases == 0 || databases > MAX_DATABASES {
            return Err(error(format!(
                "options.databases: expected 1 to {MAX_DATABASES}, found {databases}"
            )));
        }
        Ok(EquivalenceOptions {
            databases,
            seed: self.seed.unwrap_or(defaults.seed),
            mode: mode.unwrap_or(Mode::Bag),
            dialect,
            ..defaults
        })
    }

    fn check(
        &self,
        expected: &str,
        generated: &str,
        options: &EquivalenceOptions,
    ) -> EquivalenceReport {
        let schema = match self.schema.as_deref() {
            Some(text) if !text.trim().is_empty() => SchemaChoice::Written(text),
            _ => SchemaChoice::Infer,
        };
        check_equivalence(expected, generated, schema, options)
    }

    fn dialect(&self) -> Result<SqlDialect, JsError> {
        self.dialect
            .as_deref()
            .map_or(Ok(SqlDialect::Generic), str::parse)
            .map_err(|err| error(format!("options.dialect: {err}")))
    }
}

/// The one place errors become JS exceptions.
fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(error)
}

/// The base tables `sql` reads, lowercased and unquoted. Throws if it does not parse.
#[wasm_bindgen]
pub fn tables(sql_text: &str, options: JsValue) -> Result<Vec<String>, JsError> {
    let options = Options::read(options)?;
    let statements =
        sql::parse(sql_text, options.dialect()?, ParseLimits::default()).map_err(error)?;
    Ok(sql::extract_tables(&statements)
        .iter()
        .map(TableName::qualified)
        .collect())
}

/// Scores one pair `{generated_sql, expected_sql?, expected_tables?, dialect?, id?}` and returns
/// its scorecard. Throws when the pair itself is malformed (naming the field); a query that does
/// not parse is not an error but a diagnostic in the scorecard.
#[wasm_bindgen(js_name = scorePair)]
pub fn score_pair_js(pair: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    let score_options = options.score_options()?;
    let value: serde_json::Value =
        serde_wasm_bindgen::from_value(pair).map_err(|err| error(format!("pair: {err}")))?;
    let serde_json::Value::Object(object) = value else {
        return Err(error(format!(
            "pair: expected an object, found {}",
            qeval_core::words::json_kind(&value)
        )));
    };
    let pair = pairs::pair_from_object(&object).map_err(|err| error(format!("pair: {err}")))?;
    let mut card = score_pair(&pair, &score_options);
    // As `qeval score` without `--db`: two SQL queries are also checked on generated databases.
    if options.equivalence != Some(false)
        && let Some(expected) = pair.expected_sql.as_deref()
        && pair.language.unwrap_or(score_options.language) == Language::Sql
        && !pair.generated_sql.trim().is_empty()
    {
        let check = options.equivalence_options(
            pair.dialect.unwrap_or(score_options.dialect),
            pair.mode.or(score_options.mode),
        )?;
        let metric = options
            .check(expected, &pair.generated_sql, &check)
            .metric();
        add_equivalence(
            &mut card,
            MetricName::Equivalence,
            metric,
            &pair,
            &score_options,
        );
    }
    to_js(&card)
}

/// Checks two SQL queries for equivalence on generated databases (the schema inferred from the
/// queries, or `options.schema`) and returns the report: `{verdict, schema, schema_source, notes,
/// databases, agreed, seed, mode, assumption?, counterexample?, reason?, explanation}`. The
/// verdict is `"equivalent"`, `"equivalent_under_assumption"`, `"different"` or `"no_verdict"`.
#[wasm_bindgen(js_name = checkEquivalence)]
pub fn check_equivalence_js(
    expected: &str,
    generated: &str,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    let check = options.equivalence_options(options.dialect()?, options.mode()?)?;
    let report = options.check(expected, generated, &check);
    let mut json = serde_json::to_value(&report).map_err(error)?;
    if let serde_json::Value::Object(object) = &mut json {
        object.insert("explanation".into(), report.explanation().into());
    }
    to_js(&json)
}

/// The version of the SQLite library inside this build: the same as `qeval --version` names.
#[wasm_bindgen(js_name = sqliteVersion)]
pub fn sqlite_version() -> String {
    qeval_sqlite::sqlite_version().to_string()
}

/// Normalizes a query for the exact-match shortcut (case, whitespace, quotes, semicolons).
#[wasm_bindgen]
pub fn normalize(sql_text: &str, options: JsValue) -> Result<String, JsError> {
    let options = Options::read(options)?;
    Ok(sql::normalize(sql_text, options.dialect()?))
}

/// Table accuracy of `sql` against a list of expected table names:
/// `{score, generated, expected, intersection, union}`. Throws if the query does not parse or a
/// listed name is malformed.
#[wasm_bindgen(js_name = tableAccuracy)]
pub fn table_accuracy(
    sql_text: &str,
    expected_tables: Vec<String>,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?.score_options()?;
    let expected = expected_tables
        .iter()
        .map(|name| TableName::parse_listed(name))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| error(format!("expected_tables: {err}")))?;
    let accuracy =
        qeval_core::table_accuracy_of_sql(sql_text, &expected, &options).map_err(error)?;
    to_js(&accuracy)
}

fn read_js_result(value: JsValue, which: &str) -> Result<ResultSet, JsError> {
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(value).map_err(|err| error(format!("{which}: {err}")))?;
    read_result(&json).map_err(|err| error(format!("{which}: {err}")))
}

/// Compares two results (any JSON shape qeval reads) in the chosen mode and returns the
/// comparison `{mode, score, equal, expected_rows, generated_rows, matched_rows, precision,
/// recall, alignment, explanation}`.
#[wasm_bindgen(js_name = compareResults)]
pub fn compare_results(
    expected: JsValue,
    generated: JsValue,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?.compare_options()?;
    let expected = read_js_result(expected, "expected")?;
    let generated = read_js_result(generated, "generated")?;
    to_js(&compare(&expected, &generated, &options))
}

/// As `compareResults`, from JSON text: faster for large results, which skip the conversion to
/// JavaScript objects.
#[wasm_bindgen(js_name = compareResultsJson)]
pub fn compare_results_json(
    expected: &str,
    generated: &str,
    options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?.compare_options()?;
    let expected = read_result_text(expected).map_err(|err| error(format!("expected: {err}")))?;
    let generated =
        read_result_text(generated).map_err(|err| error(format!("generated: {err}")))?;
    to_js(&compare(&expected, &generated, &options))
}

/// Spider's hardness level of a query (`"easy"`, `"medium"`, `"hard"`, `"extra"`), or `null`
/// when it is not a query that parses.
#[wasm_bindgen]
pub fn hardness(sql_text: &str, options: JsValue) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    Ok(sql::hardness(sql_text, options.dialect()?)
        .map_or(JsValue::NULL, |h| JsValue::from_str(h.name())))
}

/// The records of an `evaluation-results.jsonl` text, with Spider's hardness level given to
/// those without one, and the lines that could not be read.
fn run_records(
    text: &str,
    dialect: SqlDialect,
) -> (Vec<qeval_core::run::EvaluationRecord>, Vec<run::Rejected>) {
    let lines = run::read_record_bytes::<qeval_core::run::EvaluationRecord>(text.as_bytes());
    let mut records: Vec<_> = lines.records.into_iter().map(|(_, r)| r).collect();
    run::fill_hardness(&mut records, dialect);
    (records, lines.rejected)
}

/// The summary `qeval run` prints, from the text of `evaluation-results.jsonl`: counts, means,
/// `groupings` (pass rates by difficulty, agent, SQL hardness... and `options.by`), `agreement`
/// (each judge against the records' human labels) and `rejected` (lines that could not be read,
/// with their numbers).
#[wasm_bindgen(js_name = summarizeRun)]
pub fn summarize_run(records_text: &str, options: JsValue) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    let (records, rejected) = run_records(records_text, options.dialect()?);
    let summary = run::summarize_by(&records, options.by.as_deref().unwrap_or_default());
    #[derive(serde::Serialize)]
    struct Summarized<'a> {
        #[serde(flatten)]
        summary: &'a run::Summary,
        rejected: &'a [run::Rejected],
    }
    to_js(&Summarized {
        summary: &summary,
        rejected: &rejected,
    })
}

/// A run as `qeval run --csv`, `--junit` or `--markdown` writes it: `format` is `"csv"`,
/// `"junit"` or `"markdown"`.
#[wasm_bindgen(js_name = exportRun)]
pub fn export_run(records_text: &str, format: &str, options: JsValue) -> Result<String, JsError> {
    let options = Options::read(options)?;
    let (records, _) = run_records(records_text, options.dialect()?);
    let name = options.name.as_deref().unwrap_or("run");
    match format {
        "csv" => Ok(run::export::csv(&records)),
        "junit" => Ok(run::export::junit(name, &records)),
        "markdown" => {
            let summary = run::summarize_by(&records, options.by.as_deref().unwrap_or_default());
            Ok(run::export::markdown(name, &summary, &records))
        }
        other => Err(error(format!(
            "format: expected \"csv\", \"junit\" or \"markdown\", found \"{other}\""
        ))),
    }
}

/// Two runs (the texts of their `evaluation-results.jsonl`) matched by test id, as `qeval
/// compare-runs` gives them: both pass rates, the paired bootstrap interval and McNemar's exact
/// p-value (`stats`, with `sentence`), the tests that flipped each way and those in one run only.
#[wasm_bindgen(js_name = compareRuns)]
pub fn compare_runs(before_text: &str, after_text: &str) -> Result<JsValue, JsError> {
    let (before, _) = run_records(before_text, SqlDialect::Generic);
    let (after, _) = run_records(after_text, SqlDialect::Generic);
    let comparison = run::compare_runs(&before, &after);
    #[derive(serde::Serialize)]
    struct Compared<'a> {
        #[serde(flatten)]
        comparison: &'a run::RunComparison,
        sentence: String,
    }
    to_js(&Compared {
        sentence: comparison.stats.sentence(),
        comparison: &comparison,
    })
}

/// Benchmark support: reads a result from JSON text and returns its number of rows, so a
/// benchmark can time reading alone.
#[wasm_bindgen(js_name = benchRead)]
pub fn bench_read(text: &str) -> Result<usize, JsError> {
    read_result_text(text)
        .map(|result| result.rows.len())
        .map_err(|err| error(err.to_string()))
}

thread_local! {
    static BENCH_TABLES: RefCell<Option<(ResultSet, ResultSet)>> = const { RefCell::new(None) };
}

/// Benchmark support: builds two `rows` x `columns` tables inside the module, so a benchmark can
/// time the comparison alone. `case` names how the second differs from the first (`equal`:
/// rows shuffled, `near-miss`, `row-fewer`, `column-fewer`, `alike-columns`,
/// `alike-near-miss`).
#[wasm_bindgen(js_name = benchPrepare)]
pub fn bench_prepare(rows: usize, columns: usize, case: &str) -> Result<(), JsError> {
    let case = sample::Case::named(case).ok_or_else(|| error(format!("no bench case {case:?}")))?;
    BENCH_TABLES
        .with(|tables| *tables.borrow_mut() = Some(sample::case_pair(case, rows, columns, 42)));
    Ok(())
}

/// Benchmark support: compares the prepared tables in `mode` and returns the score.
#[wasm_bindgen(js_name = benchCompare)]
pub fn bench_compare(mode: &str) -> Result<f64, JsError> {
    let mode: Mode = mode.parse().map_err(error)?;
    BENCH_TABLES.with(|tables| {
        let tables = tables.borrow();
        let (expected, generated) = tables
            .as_ref()
            .ok_or_else(|| error("call benchPrepare first"))?;
        let comparison: Comparison = compare(
            expected,
            generated,
            &CompareOptions {
                mode,
                ..CompareOptions::default()
            },
        );
        Ok(comparison.score)
    })
}
