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

use std::fmt;

use serde_json::{Map, Value};

use crate::datatype::AnswerType;
use crate::language::Language;
use crate::metrics::classification::ClassificationInput;
use crate::metrics::workflow::{Expectation, default_always_expected_agents};
use crate::profiles::ProfileName;
use crate::results::compare::Mode;
use crate::sql::SqlDialect;
use crate::words::json_kind;

/// One generated query and its expectation.
///
/// Its serde form carries a pair between the page and its scoring worker; pairs files are read
/// by [`read_pair`], which accepts the field names users write.
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
pub struct Expected {
    pub expected_sql: Option<String>,
    #[serde(alias = "expected_results")]
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

/// Why a line of a pairs file was rejected; names the field when one is at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
    pub field: Option<String>,
    /// Column in the line where the JSON broke (1-based), for syntax errors.
    pub column: Option<usize>,
}

impl InputError {
    fn field(field: &str, message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            field: Some(field.to_string()),
            column: None,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.field, self.column) {
            (Some(field), _) => write!(f, "field `{field}`: {}", self.message),
            (None, Some(column)) => write!(f, "column {column}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// Strips what editors and other platforms leave around a JSON line: a byte-order mark and a
/// carriage return. Returns `None` for a blank line, which is skipped rather than rejected.
pub fn clean_line(raw: &str) -> Option<&str> {
    let line = raw.strip_prefix('\u{feff}').unwrap_or(raw).trim();
    (!line.is_empty()).then_some(line)
}

/// Why `id` cannot serve as an id, if it cannot: a number JSON readers cannot keep exactly (an
/// integer past 2^53 read as a float, `1e30` for `1000000000000000000000000000000`) would be
/// written back as another text, and match another test.
pub fn id_problem(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.abs() >= 2f64.powi(53)) => {
            Some(format!(
                "the id is a number too large to keep exactly (it reads back as {n}): write it as a string"
            ))
        }
        _ => None,
    }
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

/// Reads a pair from an already parsed JSON object.
pub fn pair_from_object(object: &Map<String, Value>) -> Result<PairInput, InputError> {
    let answer = match first_present(object, &["answer", "response", "final_answer"]) {
        None | Some((_, Value::Null)) => None,
        Some((_, Value::String(text))) => Some(text.clone()),
        Some((field, other)) => {
            return Err(InputError::field(
                field,
                format!("expected a string, found {}", json_kind(other)),
            ));
        }
    };
    let workflow = workflow_input(object)?;
    let generated_sql = match first_present(
        object,
        &["generated_sql", "generated_query", "generated_kql"],
    ) {
        Some((_, Value::String(sql))) => sql.clone(),
        // An agent's record may have an answer and no query.
        None if answer.is_some() || workflow.is_some() => String::new(),
        Some((field, other)) => {
            return Err(InputError::field(
                field,
                format!("expected a string, found {}", json_kind(other)),
            ));
        }
        None => return Err(InputError::field("generated_sql", "is missing")),
    };
    let mut alternatives = Vec::new();
    let mut expected_sql =
        match first_present(object, &["expected_sql", "expected_query", "expected_kql"]) {
            None | Some((_, Value::Null)) => None,
            Some((_, Value::String(sql))) => Some(sql.clone()),
            // Several acceptable queries: the first is the expected query, the rest alternatives.
            Some((field, Value::Array(items))) if !items.is_empty() => {
                let mut queries = items.iter().enumerate().map(|(i, item)| match item {
                    Value::String(sql) => Ok(sql.clone()),
                    other => Err(InputError::field(
                        &format!("{field}[{i}]"),
                        format!("expected a string, found {}", json_kind(other)),
                    )),
                });
                let first = queries.next().transpose()?;
                for query in queries {
                    alternatives.push(Expected {
                        expected_sql: Some(query?),
                        expected_result: None,
                    });
                }
                first
            }
            Some((field, other)) => {
                return Err(InputError::field(
                    field,
                    format!(
                        "expected a string or a list of strings, found {}",
                        json_kind(other)
                    ),
                ));
            }
        };
    alternatives.extend(expected_alternatives(object)?);
    let expected_tables = string_list(object, "expected_tables")?;
    let mut expected_result = object
        .get("expected_result")
        .or_else(|| object.get("expected_results"))
        .filter(|v| !v.is_null())
        .cloned();
    // Only alternatives given: the first is the expectation.
    if expected_sql.is_none() && expected_result.is_none() && !alternatives.is_empty() {
        let first = alternatives.remove(0);
        expected_sql = first.expected_sql;
        expected_result = first.expected_result;
    }
    let generated_result = ["generated_result", "actual_result", "actual_results"]
        .iter()
        .find_map(|field| object.get(*field))
        .filter(|v| !v.is_null())
        .cloned();
    let parse_field =
        |field: &str| -> Result<Option<String>, InputError> { optional_string(object, field) };
    let answer_criteria = parse_field("expected_answer_criteria")?;
    let sources = match object.get("sources") {
        Some(Value::Array(_)) => string_list(object, "sources")?.map(|s| s.join("\n")),
        _ => parse_field("sources")?,
    };
    let judged_as_agent = answer.is_some() || workflow.is_some();
    if expected_sql.is_none()
        && expected_tables.is_none()
        && expected_result.is_none()
        && !judged_as_agent
    {
        return Err(InputError::field(
            "expected_sql",
            "is missing (give expected_sql, expected_tables or expected_result; or an agent's answer or workflow)",
        ));
    }
    let language = parse_field("language")?
        .map(|name| name.parse::<Language>())
        .transpose()
        .map_err(|err| InputError::field("language", err))?;
    let expected_answer_type = parse_field("expected_answer_type")?
        .map(|name| name.parse::<AnswerType>())
        .transpose()
        .map_err(|err| InputError::field("expected_answer_type", err))?;
    let profile = parse_field("profile")?
        .map(|name| name.parse::<ProfileName>())
        .transpose()
        .map_err(|err| InputError::field("profile", err))?;
    let mode = parse_field("mode")?
        .map(|name| name.parse::<Mode>())
        .transpose()
        .map_err(|err| InputError::field("mode", err))?;
    let question = parse_field("question")?;
    let query_category = parse_field("query_category")?;
    let ignore_order = optional_bool(object, "ignore_order")?;
    let tolerance = optional_tolerance(object, "tolerance")?;
    let condition_cols = column_list(object, "condition_cols")?;
    let steps = |field: &str| match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value.as_u64().map(Some).ok_or_else(|| {
            InputError::field(field, format!("expected a count of steps, found {value}"))
        }),
    };
    let schema = parse_field("schema")?;
    let human_label = match first_present(object, &["human_label", "label"]) {
        None | Some((_, Value::Null)) => None,
        Some((field, value)) => Some(label_of(value).ok_or_else(|| {
            InputError::field(
                field,
                format!("{value} is not a verdict (true/false, 1/0, correct/incorrect, equivalent/different)"),
            )
        })?),
    };
    let expected_vm_steps = steps("expected_vm_steps")?;
    let generated_vm_steps = steps("generated_vm_steps")?;
    let classification = ClassificationInput::from_object(object)
        .map_err(|(field, message)| InputError::field(&field, message))?;
    let trace_id = match parse_field("trace_id")? {
        Some(id) => Some(id),
        None => parse_field("session_id")?,
    };
    let generated_error = match object
        .get("generated_error")
        .or_else(|| object.get("error"))
    {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text.trim().is_empty() => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(Value::Bool(false)) => None,
        Some(other) => Some(other.to_string()),
    };
    let dialect = optional_string(object, "dialect")?
        .map(|name| name.parse::<SqlDialect>())
        .transpose()
        .map_err(|err| InputError::field("dialect", err.to_string()))?;
    let id = match object.get("id") {
        None | Some(Value::Null) => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => {
            if let Some(problem) = id_problem(id) {
                return Err(InputError::field("id", problem));
            }
            Some(id.clone())
        }
        Some(other) => {
            return Err(InputError::field(
                "id",
                format!("expected a string or a number, found {}", json_kind(other)),
            ));
        }
    };
    Ok(PairInput {
        id,
        generated_sql,
        expected_sql,
        expected_tables,
        dialect,
        language,
        question,
        query_category,
        expected_result,
        generated_result,
        expected_answer_type,
        generated_error,
        expected_error: None,
        expected_cut: None,
        generated_cut: None,
        profile,
        mode,
        ignore_order,
        tolerance,
        condition_cols,
        trace_id,
        answer,
        answer_criteria,
        sources,
        workflow,
        classification,
        expected_vm_steps,
        generated_vm_steps,
        alternatives,
        schema,
        human_label,
    })
}

/// `expected_alternatives`: a list of `{"expected_sql", "expected_result"}` objects, each one
/// more acceptable answer.
fn expected_alternatives(object: &Map<String, Value>) -> Result<Vec<Expected>, InputError> {
    let field = "expected_alternatives";
    match object.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let at = format!("{field}[{i}]");
                let Value::Object(alternative) = item else {
                    return Err(InputError::field(
                        &at,
                        format!(
                            "expected an object with expected_sql or expected_result, found {}",
                            json_kind(item)
                        ),
                    ));
                };
                let expected_sql = match alternative.get("expected_sql") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(sql)) => Some(sql.clone()),
                    Some(other) => {
                        return Err(InputError::field(
                            &format!("{at}.expected_sql"),
                            format!("expected a string, found {}", json_kind(other)),
                        ));
                    }
                };
                let expected_result = alternative
                    .get("expected_result")
                    .or_else(|| alternative.get("expected_results"))
                    .filter(|v| !v.is_null())
                    .cloned();
                if expected_sql.is_none() && expected_result.is_none() {
                    return Err(InputError::field(
                        &at,
                        "gives neither expected_sql nor expected_result",
                    ));
                }
                Ok(Expected {
                    expected_sql,
                    expected_result,
                })
            })
            .collect(),
        Some(other) => Err(InputError::field(
            field,
            format!("expected a list of objects, found {}", json_kind(other)),
        )),
    }
}

/// An optional array of strings; the error names the item at fault.
fn string_list(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<Vec<String>>, InputError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| match item {
                Value::String(text) => Ok(text.clone()),
                other => Err(InputError::field(
                    &format!("{field}[{index}]"),
                    format!("expected a string, found {}", json_kind(other)),
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(other) => Err(InputError::field(
            field,
            format!("expected an array of strings, found {}", json_kind(other)),
        )),
    }
}

/// The workflow fields, when any is given. `orchestrator` is always an expected agent.
fn workflow_input(object: &Map<String, Value>) -> Result<Option<WorkflowInput>, InputError> {
    const FIELDS: [&str; 6] = [
        "agents_called",
        "tools_used",
        "agents_should_include",
        "agents_should_exclude",
        "tools_should_include",
        "tools_should_exclude",
    ];
    if !FIELDS
        .iter()
        .any(|f| object.get(*f).is_some_and(|v| !v.is_null()))
    {
        return Ok(None);
    }
    let list = |field: &str| string_list(object, field).map(Option::unwrap_or_default);
    Ok(Some(WorkflowInput {
        agents_called: list("agents_called")?,
        tools_used: list("tools_used")?,
        agents: Expectation {
            should_include: list("agents_should_include")?,
            should_exclude: list("agents_should_exclude")?,
            always_expected: default_always_expected_agents(),
        },
        tools: Expectation {
            should_include: list("tools_should_include")?,
            should_exclude: list("tools_should_exclude")?,
            always_expected: Vec::new(),
        },
    }))
}

/// The first of several accepted names that is present, with its value.
fn first_present<'a>(
    object: &'a Map<String, Value>,
    fields: &[&'static str],
) -> Option<(&'static str, &'a Value)> {
    fields
        .iter()
        .find_map(|field| object.get(*field).map(|value| (*field, value)))
}

fn optional_string(object: &Map<String, Value>, field: &str) -> Result<Option<String>, InputError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(InputError::field(
            field,
            format!("expected a string, found {}", json_kind(other)),
        )),
    }
}

fn optional_bool(object: &Map<String, Value>, field: &str) -> Result<Option<bool>, InputError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(InputError::field(
            field,
            format!("expected true or false, found {}", json_kind(other)),
        )),
    }
}

/// A tolerance: a number, zero or more.
pub fn optional_tolerance(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<f64>, InputError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x >= 0.0 && x.is_finite() => Ok(Some(x)),
            _ => Err(InputError::field(
                field,
                format!("expected a number of zero or more, found {n}"),
            )),
        },
        Some(other) => Err(InputError::field(
            field,
            format!("expected a number, found {}", json_kind(other)),
        )),
    }
}

/// A list of 0-based column positions; the error names the item at fault.
pub fn column_list(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<Vec<usize>>, InputError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        InputError::field(
                            &format!("{field}[{i}]"),
                            format!("expected a column position (0, 1, ...), found {}", item),
                        )
                    })
            })
            .collect::<Result<Vec<usize>, InputError>>()
            .map(Some),
        Some(other) => Err(InputError::field(
            field,
            format!(
                "expected a list of column positions, found {}",
                json_kind(other)
            ),
        )),
    }
}

/// A person's verdict from the usual ways of writing it: `true`/`false`, `1`/`0`, `"correct"`/
/// `"incorrect"`, `"pass"`/`"fail"`, `"yes"`/`"no"`, `"equivalent"`/`"different"`.
pub fn label_of(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "correct" | "pass" | "passed" | "yes" | "equivalent" | "right" => {
                Some(true)
            }
            "false" | "0" | "incorrect" | "fail" | "failed" | "no" | "different" | "wrong" => {
                Some(false)
            }
            _ => None,
        },
        _ => None,
    }
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
