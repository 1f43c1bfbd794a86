//! The files of a run folder: `test-results.jsonl` in, `evaluation-results.jsonl` out. Fields
//! are written in a fixed order (test, queries, results, then `qas_evaluation`), so every record
//! reads the same way; fields we do not know are kept (`extra`) and written back unchanged.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::datatype::AnswerType;
use crate::pairs::Expected;
use crate::results::compare::Mode;

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

/// One line of `test-results.jsonl`: what an agent produced for a test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    #[serde(alias = "id", deserialize_with = "exact_id")]
    pub test_id: Value,
    #[serde(default)]
    pub question: Option<String>,
    #[serde(default, alias = "agent")]
    pub agent_used: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    #[serde(default, alias = "sql", alias = "generated_query")]
    pub generated_sql: Option<String>,
    #[serde(default, alias = "results", alias = "generated_result")]
    pub actual_results: Option<Value>,
    /// The error the query or the agent failed with.
    #[serde(default)]
    pub error: Option<Value>,
    #[serde(default)]
    pub expected_sql: Option<String>,
    #[serde(default)]
    pub expected_results: Option<Value>,
    #[serde(default)]
    pub expected_answer_type: Option<AnswerType>,
    /// Further acceptable answers (`{"expected_sql", "expected_result"}` each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_alternatives: Vec<Expected>,
    #[serde(flatten)]
    pub options: TestOptions,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How one test's results are compared, overriding the command line (see `PairInput`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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

/// One test of the questions file (`test_questions_answers.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    #[serde(alias = "test_id", deserialize_with = "exact_id")]
    pub id: Value,
    #[serde(default)]
    pub question: String,
    #[serde(default)]
    pub expected_sql: Option<String>,
    #[serde(default)]
    pub expected_results: Option<Value>,
    #[serde(default)]
    pub expected_answer_type: Option<AnswerType>,
    #[serde(default, alias = "agent_used")]
    pub agent: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Further acceptable answers (`{"expected_sql", "expected_result"}` each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_alternatives: Vec<Expected>,
    #[serde(flatten)]
    pub options: TestOptions,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A test id as a key: `1` and `"1"` are the same test.
fn exact_id<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    let id = Value::deserialize(deserializer)?;
    match crate::pairs::id_problem(&id) {
        Some(problem) => Err(serde::de::Error::custom(problem)),
        None => Ok(id),
    }
}

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
pub fn error_text(value: Option<&Value>) -> Option<String> {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => None,
        Some(Value::String(text)) if text.trim().is_empty() => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => Some(other.to_string()),
    }
}
