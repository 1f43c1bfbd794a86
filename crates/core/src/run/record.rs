//! The files of a run folder: `test-results.jsonl` in, `evaluation-results.jsonl` out. Fields
//! are written in a fixed order (test, queries, results, then `qas_evaluation`), so every record
//! reads the same way; fields we do not know are kept (`extra`) and written back unchanged.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::pairs::{InputError, PairLine};

/// One line of `evaluation-results.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvaluationRecord {
    #[serde(deserialize_with = "exact_id")]
    pub test_id: Value,
    #[serde(default)]
    pub question: String,
    #[serde(default)]
    pub agent_used: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// The expected query's level by Spider's rules (easy, medium, hard, extra), when it is SQL
    /// that parses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sql_hardness: Option<String>,
    #[serde(default)]
    pub expected_sql: Option<String>,
    #[serde(default)]
    pub generated_sql: Option<String>,
    #[serde(default)]
    pub expected_results: Option<Value>,
    #[serde(default)]
    pub actual_results: Option<Value>,
    /// Absent in a record that was not scored yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qas_evaluation: Option<QasEvaluation>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The QAS scores of one test: the three components, the final score and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QasEvaluation {
    pub semantic_score: f64,
    pub execution_score: f64,
    pub datatype_score: f64,
    pub final_score: f64,
    pub passed: bool,
    #[serde(default)]
    pub breakdown: Breakdown,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    #[serde(default)]
    pub semantic_explanation: String,
    #[serde(default)]
    pub execution_explanation: String,
    #[serde(default)]
    pub datatype_explanation: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One test as a run folder gives it: a line of `test-results.jsonl` (what an agent produced)
/// or one question of the questions file (what was expected). Its fields are read as a
/// [`PairLine`], the one declaration of what a line says, so both files accept the names a pairs
/// file does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", into = "Map<String, Value>")]
pub struct TestLine {
    /// `test_id` (or `id`).
    pub test_id: Value,
    pub line: PairLine,
    /// The line's other fields, kept and written back unchanged into its evaluation record:
    /// every field but those the record writes itself (see [`EvaluationRecord`]).
    pub extra: Map<String, Value>,
}

impl TryFrom<Map<String, Value>> for TestLine {
    type Error = InputError;

    fn try_from(mut object: Map<String, Value>) -> Result<TestLine, InputError> {
        // The classification fields are not read here: one that cannot be read leaves its
        // record out of those metrics (said when the run is summarized), not out of the run.
        let line: PairLine = crate::fields::read(&object)?;
        let test_id = line
            .id
            .clone()
            .ok_or_else(|| InputError::field("test_id", "is missing (write test_id or id)"))?;
        object.retain(|key, value| !written_by_the_record(key, value));
        Ok(TestLine {
            test_id,
            line,
            extra: object,
        })
    }
}

/// The line again, with the fields its record writes under their first names: it reads back as
/// the same test (the page sends tests to its scoring worker this way).
impl From<TestLine> for Map<String, Value> {
    fn from(test: TestLine) -> Map<String, Value> {
        let TestLine {
            test_id,
            line,
            mut extra,
        } = test;
        let options = line.options();
        let fields = [
            ("test_id", Some(test_id)),
            ("question", line.question.map(Value::from)),
            ("agent_used", line.agent_used.map(Value::from)),
            ("difficulty", line.difficulty.map(Value::from)),
            ("generated_sql", line.generated_sql.map(Value::from)),
            ("expected_sql", line.expected_sql.map(Value::from)),
            ("expected_result", line.expected_result),
            ("generated_result", line.generated_result),
            ("generated_error", line.generated_error.map(Value::from)),
            (
                "expected_answer_type",
                line.expected_answer_type
                    .map(|kind| Value::from(kind.name())),
            ),
        ];
        for (name, value) in fields {
            if let Some(value) = value {
                extra.insert(name.into(), value);
            }
        }
        if !line.expected_alternatives.is_empty() {
            extra.insert(
                "expected_alternatives".into(),
                serde_json::to_value(&line.expected_alternatives).unwrap_or_default(),
            );
        }
        if let Ok(Value::Object(options)) = serde_json::to_value(options) {
            extra.extend(options);
        }
        extra
    }
}

/// The fields an evaluation record writes under its own names, by their first names.
const WRITTEN: [&str; 15] = [
    "id",
    "question",
    "agent_used",
    "difficulty",
    "generated_sql",
    "expected_sql",
    "expected_result",
    "generated_result",
    "generated_error",
    "expected_answer_type",
    "expected_alternatives",
    "mode",
    "ignore_order",
    "tolerance",
    "condition_cols",
];

/// Whether `key` names a field the line's record writes itself, under any of the field's names;
/// a null field the line knows is absent, so it goes too.
fn written_by_the_record(key: &str, value: &Value) -> bool {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        // Another name reads a string into the same field as its first name: each field with
        // other names takes a string.
        let alone = |name: &str| {
            let line = Map::from_iter([(name.to_string(), Value::from("0"))]);
            crate::fields::read::<PairLine>(&line)
                .ok()
                .filter(|line| *line != PairLine::default())
        };
        let firsts: Vec<PairLine> = WRITTEN.iter().filter_map(|name| alone(name)).collect();
        PairLine::names()
            .iter()
            .copied()
            .filter(|name| {
                WRITTEN.contains(name) || alone(name).is_some_and(|line| firsts.contains(&line))
            })
            .collect()
    });
    names.contains(&key) || (value.is_null() && PairLine::names().contains(&key))
}

/// A test id that a JSON reader keeps exactly (see [`crate::pairs::id_problem`]).
fn exact_id<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    let id = Value::deserialize(deserializer)?;
    match crate::pairs::id_problem(&id) {
        Some(problem) => Err(serde::de::Error::custom(problem)),
        None => Ok(id),
    }
}

/// A test id as a key: `1` and `"1"` are the same test.
pub fn test_key(id: &Value) -> String {
    match id {
        Value::String(text) => text.trim().to_string(),
        other => other.to_string(),
    }
}

impl EvaluationRecord {
    pub fn key(&self) -> String {
        test_key(&self.test_id)
    }

    pub fn passed(&self) -> Option<bool> {
        self.qas_evaluation.as_ref().map(|q| q.passed)
    }

    /// Whether scoring found the generated query not read-only (`qas_evaluation.unsafe`).
    pub fn is_unsafe(&self) -> bool {
        self.qas_evaluation
            .as_ref()
            .and_then(|q| q.extra.get("unsafe"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    pub fn final_score(&self) -> Option<f64> {
        self.qas_evaluation.as_ref().map(|q| q.final_score)
    }

    /// A number inside one of the record's other fields: `extra_number("efficiency", "reward")`
    /// reads `{"efficiency": {"reward": 1.25}}`.
    pub fn extra_number(&self, field: &str, key: &str) -> Option<f64> {
        self.extra.get(field)?.get(key)?.as_f64()
    }

    /// The error the test failed with, when the record carries one (`error`, as the agent
    /// reported it).
    pub fn error(&self) -> Option<String> {
        error_text(self.extra.get("error"))
    }
}

/// An `error` field as text: absent, null, `false` and blank mean no error.
pub(crate) fn error_text(value: Option<&Value>) -> Option<String> {
    value.and_then(crate::fields::error_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_line(json: &str) -> Result<TestLine, String> {
        serde_json::from_str::<TestLine>(json).map_err(|err| err.to_string())
    }

    #[test]
    fn a_test_line_reads_the_names_a_pairs_file_does_and_names_a_wrong_field() {
        let test = test_line(
            r#"{"id": 4, "generated_query": "SELECT 1", "expected_results": [[1]], "latency_ms": 9, "error": null, "notes": null}"#,
        )
        .expect("a valid line");
        assert_eq!(test.test_id, Value::from(4));
        assert_eq!(test.line.generated_sql.as_deref(), Some("SELECT 1"));
        // Only the fields its record does not write itself stay; a known field that is null is
        // absent.
        assert_eq!(
            test.extra.keys().collect::<Vec<_>>(),
            ["latency_ms", "notes"]
        );
        let said = test_line(r#"{"test_id": 4, "tolerance": -1}"#).unwrap_err();
        assert!(
            said.starts_with("field `tolerance`: expected a number of zero or more"),
            "{said}"
        );
        // A classification field that cannot be read stays with the record, which the summary
        // leaves out of those metrics.
        let test = test_line(r#"{"test_id": 5, "confidence": "sure"}"#).expect("read");
        assert_eq!(test.extra["confidence"], "sure");
    }

    #[test]
    fn a_test_line_reads_back_as_itself() {
        let test = test_line(
            r#"{"test_id": "a", "sql": "SELECT 1", "expected_sql": ["SELECT 1", "SELECT 2"], "mode": "bag", "error": "boom", "tokens": 3}"#,
        )
        .expect("a valid line");
        let again = serde_json::to_string(&test).expect("serializes");
        assert_eq!(test_line(&again), Ok(test));
    }
}
