//! The pairs file: one JSON object per line, each a generated query and what it should match.
//!
//! ```json
//! {"id": "q1", "generated_sql": "SELECT ...", "expected_sql": "SELECT ...", "dialect": "sqlite"}
//! {"id": "q2", "generated_sql": "SELECT ...", "expected_tables": ["users", "orders"]}
//! {"id": "q3", "language": "kql", "generated_sql": "T | take 5", "expected_sql": "T | take 5",
//!  "expected_result": [{"a": 1}], "generated_result": [{"a": 1}], "expected_answer_type": "table"}
//! ```
//!
//! `generated_query`/`expected_query` (and `_kql`) are accepted for `generated_sql`/`expected_sql`.
//!
//! An agent's record may carry an answer and its workflow instead of, or beside, a query:
//!
//! ```json
//! {"id": "s1", "question": "...", "answer": "...", "expected_answer_criteria": "...",
//!  "sources": ["..."], "agents_called": ["orchestrator", "research"], "tools_used": ["pdf_retrieval"],
//!  "agents_should_include": ["research"], "tools_should_include": ["pdf_retrieval"]}
//! ```

pub(crate) mod line;

use serde_json::{Map, Value};

use crate::datatype::AnswerType;
use crate::fields;
pub(crate) use crate::fields::{InputError, id_problem, label_of};
use crate::language::Language;
use crate::metrics::classification::ClassificationInput;
use crate::metrics::workflow::Expectation;
use crate::profiles::ProfileName;
use crate::results::compare::Mode;
use crate::sql::SqlDialect;
use crate::words::json_kind;
pub(crate) use line::PairLine;

/// One generated query and its expectation.
///
/// Its serde form carries a pair between the page and its scoring worker; lines are read as a
/// [`PairLine`], which accepts the field names users write.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PairInput {
    /// Echoed into the scorecard: a string or a number.
    pub id: Option<Value>,
    pub generated_sql: String,
    pub expected_sql: Option<String>,
    /// Overrides the tables read from `expected_sql` for table accuracy.
    pub expected_tables: Option<Vec<String>>,
    /// Overrides the default dialect for this pair.
    pub dialect: Option<SqlDialect>,
    /// Overrides the default language for this pair.
    pub language: Option<Language>,
    /// The question the query answers (for LLM judges; shown in reports; the `defog` mode reads
    /// it for words that ask for an order).
    pub question: Option<String>,
    /// defog sql-eval's `query_category`: `order_by` keeps the query's row order in the `defog`
    /// mode.
    pub query_category: Option<String>,
    /// The expected query's result, in any shape `results::read_result` reads.
    pub expected_result: Option<Value>,
    /// The generated query's result.
    pub generated_result: Option<Value>,
    /// `expected_answer_type`: the type the answer should have, for datatype validity.
    pub expected_answer_type: Option<AnswerType>,
    /// The error the generated query failed with, if it did.
    pub generated_error: Option<String>,
    /// The error the expected query failed with when it ran on a database (`--db`): its result
    /// is unknown, so the results get no verdict.
    pub expected_error: Option<String>,
    /// Where the expected query's result, run on a database, was cut (at the row limit or the
    /// size limit): a partial result gets no verdict.
    pub expected_cut: Option<String>,
    /// The same for the generated query's result.
    pub generated_cut: Option<String>,
    /// Overrides the default profile for this pair.
    pub profile: Option<ProfileName>,
    /// Overrides the default comparison mode for this pair.
    pub mode: Option<Mode>,
    /// Whether row order is ignored when comparing results; by default it counts when the
    /// expected query has `ORDER BY` (Spider's rule).
    pub ignore_order: Option<bool>,
    /// How far apart two numbers may be and still be equal when comparing results: relative in
    /// `f1`, `seed` and the execution score, absolute in `subset`.
    pub tolerance: Option<f64>,
    /// Only these columns of the expected result (0-based) must be found among the generated
    /// result's columns, matched by their values: Spider 2.0's rule, `subset` mode unless
    /// `mode` says otherwise.
    pub condition_cols: Option<Vec<usize>>,
    /// The trace the scores belong to in an observability tool (Langfuse): `trace_id` or
    /// `session_id`.
    pub trace_id: Option<String>,
    /// Agent evaluation: the system's final answer (`answer`, `response` or `final_answer`),
    /// judged for answer quality, factual correctness and completeness by an LLM judge.
    pub answer: Option<String>,
    /// Agent evaluation: `expected_answer_criteria`, what a complete answer covers.
    pub answer_criteria: Option<String>,
    /// Agent evaluation: the sources the answer may rely on, one per line.
    pub sources: Option<String>,
    /// Agent evaluation: which agents and tools were called, and which the scenario expects.
    pub workflow: Option<WorkflowInput>,
    /// A validator's verdicts, their label and the stated confidence, for the suite's
    /// classification metrics.
    pub classification: ClassificationInput,
    /// SQLite's virtual machine steps for each query, when they ran on a database (set by the
    /// database runner, or given in the line): the `efficiency` metric compares them.
    pub expected_vm_steps: Option<u64>,
    pub generated_vm_steps: Option<u64>,
    /// Further acceptable answers besides `expected_sql`/`expected_result`: the pair scores as
    /// its best match (`expected_sql` given as a list, or `expected_alternatives`).
    pub alternatives: Vec<Expected>,
    /// The schema (`CREATE TABLE` statements) the LLM judge is shown (prompt version 2).
    pub schema: Option<String>,
    /// A person's verdict on the generated query (`human_label`, or `label`: true/false,
    /// correct/incorrect, equivalent/different...), to measure the judges against.
    pub human_label: Option<bool>,
}

/// One acceptable answer: a query, a result, or both.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Expected {
    #[serde(deserialize_with = "fields::text")]
    pub expected_sql: Option<String>,
    #[serde(alias = "expected_results", deserialize_with = "fields::any")]
    pub expected_result: Option<Value>,
}

/// Where a result run on a database was cut, for [`PairInput::expected_cut`]: its rows kept.
pub fn cut_note(rows_kept: usize) -> String {
    format!("cut after {}", crate::words::counted(rows_kept, "row"))
}

impl PairInput {
    /// Whether the pair has something to be scored against: an expected query, tables or
    /// result (or acceptable alternatives), or an agent's answer or workflow for a judge. A pair
    /// without is given no verdict: `qeval score` rejects its line, `qeval run` leaves the test
    /// unscored.
    pub fn has_expectation(&self) -> bool {
        self.expected_sql.is_some()
            || self.expected_tables.is_some()
            || self.expected_result.is_some()
            || !self.alternatives.is_empty()
            || self.answer.is_some()
            || self.workflow.is_some()
    }

    /// The pair with its expectation replaced by alternative `index` (0 is the pair itself),
    /// and no alternatives.
    pub fn with_expected(&self, index: usize) -> PairInput {
        let mut pair = PairInput {
            alternatives: Vec::new(),
            ..self.clone()
        };
        if let Some(alternative) = index.checked_sub(1).and_then(|i| self.alternatives.get(i)) {
            pair.expected_sql = alternative.expected_sql.clone();
            pair.expected_result = alternative.expected_result.clone();
            // The steps were counted for the first expected query.
            pair.expected_vm_steps = None;
        }
        pair
    }
}

/// How one test's results are compared, overriding the command line (see [`PairInput`]).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TestOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_order: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition_cols: Option<Vec<usize>>,
}

impl TestOptions {
    /// This test's options, each taken from `self` when set there, else from `other`.
    pub fn or(&self, other: &TestOptions) -> TestOptions {
        TestOptions {
            mode: self.mode.or(other.mode),
            ignore_order: self.ignore_order.or(other.ignore_order),
            tolerance: self.tolerance.or(other.tolerance),
            condition_cols: self
                .condition_cols
                .clone()
                .or_else(|| other.condition_cols.clone()),
        }
    }
}

/// The workflow fields of agent evaluation: `agents_called`, `tools_used`, `agents_should_include`,
/// `agents_should_exclude`, `tools_should_include`, `tools_should_exclude`.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct WorkflowInput {
    pub agents_called: Vec<String>,
    pub tools_used: Vec<String>,
    pub agents: Expectation,
    pub tools: Expectation,
}

/// Strips what editors and other platforms leave around a JSON line: a byte-order mark and a
/// carriage return. Returns `None` for a blank line, which is skipped rather than rejected.
pub(crate) fn clean_line(raw: &str) -> Option<&str> {
    let line = raw.strip_prefix('\u{feff}').unwrap_or(raw).trim();
    (!line.is_empty()).then_some(line)
}

/// The longest line of a pairs file read: a pair's queries and results take far less (a result
/// is cut at 64 MB when it runs), and a line without end (`--pairs /dev/zero`) must not grow
/// until memory runs out.
pub const MAX_LINE_BYTES: usize = 128 << 20;

/// The record for a line longer than [`MAX_LINE_BYTES`], which is not read.
pub fn too_long(number: usize) -> Value {
    rejection(
        number,
        &format!(
            "the line is longer than {} MB; not read",
            MAX_LINE_BYTES >> 20
        ),
        None,
        None,
    )
}

/// One raw line of a pairs file as `qeval score` reads it: `None` for a blank line, else the
/// line cleaned (see [`clean_line`]), or the record written in its place when it is not UTF-8.
pub fn pairs_file_line(number: usize, raw: &[u8]) -> Option<Result<&str, Value>> {
    match std::str::from_utf8(raw) {
        Err(err) => Some(Err(rejection(
            number,
            &format!("not UTF-8 text: {err}"),
            None,
            None,
        ))),
        Ok(text) => clean_line(text).map(Ok),
    }
}

/// The record `qeval score` writes in place of a line it cannot score:
/// `{"line": N, "error": {"message", "field"?, "column"?}}`.
pub fn rejection(line: usize, message: &str, field: Option<&str>, column: Option<usize>) -> Value {
    let mut error = Map::new();
    error.insert("message".into(), message.into());
    if let Some(field) = field {
        error.insert("field".into(), field.into());
    }
    if let Some(column) = column {
        error.insert("column".into(), column.into());
    }
    let mut record = Map::new();
    record.insert("line".into(), line.into());
    record.insert("error".into(), Value::Object(error));
    Value::Object(record)
}

impl InputError {
    /// The record written in place of line `line`, which this error rejected.
    pub fn record(&self, line: usize) -> Value {
        rejection(line, &self.message, self.field.as_deref(), self.column)
    }
}

/// Reads one line of a pairs file.
pub fn parse_pair_line(line: &str) -> Result<PairInput, InputError> {
    let value: Value = serde_json::from_str(line).map_err(|err| InputError {
        message: format!("invalid JSON: {}", strip_position(&err.to_string())),
        field: None,
        column: Some(err.column()),
    })?;
    let Value::Object(object) = value else {
        return Err(InputError {
            message: format!("expected a JSON object, found {}", json_kind(&value)),
            field: None,
            column: None,
        });
    };
    pair_from_object(&object)
}

/// Reads a pair from an already parsed JSON object (see [`PairLine`]).
pub fn pair_from_object(object: &Map<String, Value>) -> Result<PairInput, InputError> {
    let (line, classification) = PairLine::read(object)?;
    line.into_pair(classification)
}

/// serde_json appends " at line L column C"; the caller reports the position itself.
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |at| &message[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_full_line() {
        let pair = parse_pair_line(
            r#"{"id": 7, "generated_sql": "SELECT 1", "expected_sql": "SELECT 2", "dialect": "postgresql", "expected_tables": ["a"]}"#,
        )
        .unwrap();
        assert_eq!(pair.id, Some(Value::from(7)));
        assert_eq!(pair.dialect, Some(SqlDialect::Postgres));
        assert_eq!(pair.expected_tables, Some(vec!["a".to_string()]));
    }

    #[test]
    fn broken_json_names_the_column() {
        let err = parse_pair_line(r#"{"generated_sql": "SELECT 1",, }"#).unwrap_err();
        assert_eq!(err.column, Some(30));
        assert!(err.message.starts_with("invalid JSON"), "{err}");
    }

    #[test]
    fn wrong_types_name_the_field() {
        let err = parse_pair_line(r#"{"generated_sql": 5, "expected_sql": "x"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `generated_sql`: expected a string, found a number"
        );
        let err =
            parse_pair_line(r#"{"generated_sql": "x", "expected_tables": ["a", 3]}"#).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("expected_tables[1]"));
    }

    #[test]
    fn two_names_for_one_field_are_refused() {
        let err = parse_pair_line(
            r#"{"generated_sql": "SELECT 1", "generated_query": "SELECT 2", "expected_sql": "x"}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `generated_sql`: is given twice, under two of its names; keep one"
        );
    }

    #[test]
    fn items_and_their_fields_are_named_by_place() {
        let err = parse_pair_line(
            r#"{"generated_sql": "x", "expected_alternatives": [{"expected_sql": "y"}, {"expected_sql": 3}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.field.as_deref(),
            Some("expected_alternatives[1].expected_sql")
        );
        assert_eq!(err.message, "expected a string, found a number");
        let err = parse_pair_line(
            r#"{"generated_sql": "x", "expected_sql": "y", "condition_cols": [0, -1]}"#,
        )
        .unwrap_err();
        assert_eq!(err.field.as_deref(), Some("condition_cols[1]"));
        let err = parse_pair_line(r#"{"generated_sql": "x", "expected_sql": "y", "sources": {}}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `sources`: expected a string or a list of strings, found an object"
        );
    }

    #[test]
    fn every_alias_reads_its_field() {
        let pair = parse_pair_line(
            r#"{"generated_kql": "T | take 1", "expected_query": ["T | take 1", "T | limit 1"], "actual_results": [1], "label": "correct", "session_id": "s"}"#,
        )
        .unwrap();
        assert_eq!(pair.generated_sql, "T | take 1");
        assert_eq!(pair.expected_sql.as_deref(), Some("T | take 1"));
        assert_eq!(pair.alternatives.len(), 1);
        assert_eq!(pair.generated_result, Some(serde_json::json!([1])));
        assert_eq!(pair.human_label, Some(true));
        assert_eq!(pair.trace_id.as_deref(), Some("s"));
        assert!(PairLine::names().contains(&"generated_kql"));
    }

    #[test]
    fn needs_something_to_compare_with() {
        let err = parse_pair_line(r#"{"generated_sql": "SELECT 1"}"#).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("expected_sql"));
    }

    #[test]
    fn unknown_dialect_is_a_field_error() {
        let err =
            parse_pair_line(r#"{"generated_sql": "x", "expected_sql": "y", "dialect": "cobol"}"#)
                .unwrap_err();
        assert_eq!(err.field.as_deref(), Some("dialect"));
    }

    #[test]
    fn bom_crlf_and_blank_lines() {
        assert_eq!(clean_line("\u{feff}{}\r"), Some("{}"));
        assert_eq!(clean_line("  \r"), None);
    }
}
