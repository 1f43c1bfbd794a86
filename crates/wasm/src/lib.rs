//! qeval for JavaScript: the core's entry points with JS objects in and out.
//!
//! ```js
//! const { scorePair, tables, compareResults, checkEquivalence } = require("qeval");
//! tables("SELECT * FROM users u JOIN orders o ON o.uid = u.id", { dialect: "postgres" });
//! // -> ["users", "orders"]
//! scorePair({ generatedSql: "SELECT * FROM users", expectedTables: ["users", "orders"] });
//! // -> { identical: false, metrics: { table_accuracy: { score: 0.5, ... } }, ... }
//! compareResults([{ id: 1 }, { id: 2 }], [[2], [1]], { mode: "bag" }).equal; // true
//! checkEquivalence("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 30");
//! // -> { verdict: "different", schema: "CREATE TABLE singer (...)", counterexample: {...}, ... }
//! ```
//!
//! Bad input throws a JS `Error` whose message says what and where.

#[cfg(feature = "bench")]
mod bench;
mod options;
mod pair;
mod typescript;

use qeval_core::{
    Language, MetricName, ParseLimits, Rejected, ResultSet, RunComparison, SqlDialect, Summary,
    TableName, add_equivalence, export, extract_tables, fill_hardness, parse_sql,
    read_record_bytes, read_result, read_result_text, score_pair, summarize_by,
};
use wasm_bindgen::prelude::*;

use options::Options;

/// The one place errors become JS exceptions.
pub(crate) fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(error)
}

/// The base tables `sql` reads, lowercased and unquoted. Throws if it does not parse.
#[wasm_bindgen]
pub fn tables(
    #[wasm_bindgen(js_name = sql)] sql_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<Vec<String>, JsError> {
    let options = Options::read(options)?;
    let statements =
        parse_sql(sql_text, options.dialect()?, ParseLimits::default()).map_err(error)?;
    Ok(extract_tables(&statements)
        .iter()
        .map(TableName::qualified)
        .collect())
}

/// Scores one pair `{generatedSql, expectedSql?, expectedTables?, dialect?, id?, ...}` and
/// returns its scorecard. Throws when the pair itself is malformed (naming the field); a query
/// that does not parse is not an error but a diagnostic in the scorecard.
#[wasm_bindgen(js_name = scorePair, unchecked_return_type = "Scorecard")]
pub fn score_pair_js(
    #[wasm_bindgen(unchecked_param_type = "Pair")] pair: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    let score_options = options.score_options()?;
    let pair = pair::read_pair(pair)?;
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
#[wasm_bindgen(
    js_name = checkEquivalence,
    unchecked_return_type = "EquivalenceReport & { explanation: string }"
)]
pub fn check_equivalence_js(
    expected: &str,
    generated: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
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
pub fn normalize(
    #[wasm_bindgen(js_name = sql)] sql_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<String, JsError> {
    let options = Options::read(options)?;
    Ok(qeval_core::normalize_sql(sql_text, options.dialect()?))
}

/// Table accuracy of `sql` against a list of expected table names:
/// `{score, generated, expected, intersection, union}`. Throws if the query does not parse or a
/// listed name is malformed.
#[wasm_bindgen(js_name = tableAccuracy, unchecked_return_type = "TableAccuracy")]
pub fn table_accuracy(
    #[wasm_bindgen(js_name = sql)] sql_text: &str,
    #[wasm_bindgen(js_name = expectedTables)] expected_tables: Vec<String>,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
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
#[wasm_bindgen(js_name = compareResults, unchecked_return_type = "Comparison")]
pub fn compare_results(
    #[wasm_bindgen(unchecked_param_type = "unknown")] expected: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] generated: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?.compare_options()?;
    let expected = read_js_result(expected, "expected")?;
    let generated = read_js_result(generated, "generated")?;
    to_js(&qeval_core::compare_results(
        &expected, &generated, &options,
    ))
}

/// As `compareResults`, from JSON text: faster for large results, which skip the conversion to
/// JavaScript objects.
#[wasm_bindgen(js_name = compareResultsJson, unchecked_return_type = "Comparison")]
pub fn compare_results_json(
    expected: &str,
    generated: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?.compare_options()?;
    let expected = read_result_text(expected).map_err(|err| error(format!("expected: {err}")))?;
    let generated =
        read_result_text(generated).map_err(|err| error(format!("generated: {err}")))?;
    to_js(&qeval_core::compare_results(
        &expected, &generated, &options,
    ))
}

/// Spider's hardness level of a query (`"easy"`, `"medium"`, `"hard"`, `"extra"`), or `null`
/// when it is not a query that parses.
#[wasm_bindgen(unchecked_return_type = "\"easy\" | \"medium\" | \"hard\" | \"extra\" | null")]
pub fn hardness(
    #[wasm_bindgen(js_name = sql)] sql_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    Ok(qeval_core::hardness(sql_text, options.dialect()?)
        .map_or(JsValue::NULL, |h| JsValue::from_str(h.name())))
}

/// The records of an `evaluation-results.jsonl` text, with Spider's hardness level given to
/// those without one, and the lines that could not be read.
fn run_records(
    text: &str,
    dialect: SqlDialect,
) -> (Vec<qeval_core::EvaluationRecord>, Vec<Rejected>) {
    let lines = read_record_bytes::<qeval_core::EvaluationRecord>(text.as_bytes());
    let mut records: Vec<_> = lines.records.into_iter().map(|(_, r)| r).collect();
    fill_hardness(&mut records, dialect);
    (records, lines.rejected)
}

/// The summary `qeval run` prints, from the text of `evaluation-results.jsonl`: counts, means,
/// `groupings` (pass rates by difficulty, agent, SQL hardness... and `options.by`), `agreement`
/// (each judge against the records' human labels) and `rejected` (lines that could not be read,
/// with their numbers).
#[wasm_bindgen(
    js_name = summarizeRun,
    unchecked_return_type = "Summary & { rejected: Rejected[] }"
)]
pub fn summarize_run(
    #[wasm_bindgen(js_name = records)] records_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = Options::read(options)?;
    let (records, rejected) = run_records(records_text, options.dialect()?);
    let summary = summarize_by(&records, options.by.as_deref().unwrap_or_default());
    #[derive(serde::Serialize)]
    struct Summarized<'a> {
        #[serde(flatten)]
        summary: &'a Summary,
        rejected: &'a [Rejected],
    }
    to_js(&Summarized {
        summary: &summary,
        rejected: &rejected,
    })
}

/// A run as `qeval run --csv`, `--junit` or `--markdown` writes it: `format` is `"csv"`,
/// `"junit"` or `"markdown"`.
#[wasm_bindgen(js_name = exportRun)]
pub fn export_run(
    #[wasm_bindgen(js_name = records)] records_text: &str,
    #[wasm_bindgen(unchecked_param_type = "\"csv\" | \"junit\" | \"markdown\"")] format: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Options")] options: JsValue,
) -> Result<String, JsError> {
    let options = Options::read(options)?;
    let (records, _) = run_records(records_text, options.dialect()?);
    let name = options.name.as_deref().unwrap_or("run");
    match format {
        "csv" => Ok(export::csv(&records)),
        "junit" => Ok(export::junit(name, &records)),
        "markdown" => {
            let summary = summarize_by(&records, options.by.as_deref().unwrap_or_default());
            Ok(export::markdown(name, &summary, &records))
        }
        other => Err(error(format!(
            "format: expected \"csv\", \"junit\" or \"markdown\", found \"{other}\""
        ))),
    }
}

/// Two runs (the texts of their `evaluation-results.jsonl`) matched by test id, as `qeval
/// compare-runs` gives them: both pass rates, the paired bootstrap interval and McNemar's exact
/// p-value (`stats`, with `sentence`), the tests that flipped each way and those in one run only.
#[wasm_bindgen(
    js_name = compareRuns,
    unchecked_return_type = "RunComparison & { sentence: string }"
)]
pub fn compare_runs(
    #[wasm_bindgen(js_name = before)] before_text: &str,
    #[wasm_bindgen(js_name = after)] after_text: &str,
) -> Result<JsValue, JsError> {
    let (before, _) = run_records(before_text, SqlDialect::Generic);
    let (after, _) = run_records(after_text, SqlDialect::Generic);
    let comparison = qeval_core::compare_runs(&before, &after);
    #[derive(serde::Serialize)]
    struct Compared<'a> {
        #[serde(flatten)]
        comparison: &'a RunComparison,
        sentence: String,
    }
    to_js(&Compared {
        sentence: comparison.stats.sentence(),
        comparison: &comparison,
    })
}
