//! Execution similarity: how close the generated query's result is to the expected
//! result, with partial credit.
//!
//! | expected vs actual | score |
//! |---|---|
//! | numbers (a 1x1 table or numeric text counts as a number) | 1.0 within the relative tolerance (default 1%), else `1 - relative error`, floored at 0 |
//! | booleans | 1.0 when equal, else 0.0 |
//! | text | 1.0 when equal, 0.9 when equal ignoring case and surrounding spaces, else 0.0 |
//! | NULL | 1.0 when both are NULL |
//! | tables and lists | the score of the chosen comparison mode |
//!
//! Every rule is monotone: a closer result never scores less.

use serde::Serialize;

use crate::results::compare::{CompareOptions, Comparison, compare};
use crate::results::{ResultSet, Value, read_result};

/// How execution similarity compares. `Default` gives the QAS defaults (1% numeric tolerance).
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionOptions {
    /// Relative tolerance for single numbers (default 1%).
    pub numeric_tolerance: f64,
    /// How tables are compared.
    pub table: CompareOptions,
}

impl Default for ExecutionOptions {
    fn default() -> Self {
        ExecutionOptions {
            numeric_tolerance: 0.01,
            table: CompareOptions::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExecutionScore {
    pub score: f64,
    pub explanation: String,
    /// The table comparison, when the results were compared as tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
}

impl ExecutionScore {
    fn plain(score: f64, explanation: String) -> ExecutionScore {
        ExecutionScore {
            score,
            explanation,
            comparison: None,
        }
    }
}

/// Compares two results read from JSON. Malformed results are errors naming the JSON path.
pub fn execution_similarity(
    expected: &serde_json::Value,
    actual: &serde_json::Value,
    options: &ExecutionOptions,
) -> Result<ExecutionScore, ExecutionError> {
    let expected =
        read_result(expected).map_err(|err| ExecutionError::Expected(err.to_string()))?;
    let actual = read_result(actual).map_err(|err| ExecutionError::Actual(err.to_string()))?;
    Ok(compare_results(&expected, &actual, options))
}

/// Which side could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecutionError {
    Expected(String),
    Actual(String),
}

impl std::fmt::Display for ExecutionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExecutionError::Expected(err) => write!(f, "the expected result cannot be read: {err}"),
            ExecutionError::Actual(err) => write!(f, "the actual result cannot be read: {err}"),
        }
    }
}

/// Compares two result sets: as single values when both are 1x1, else as tables.
pub(crate) fn compare_results(
    expected: &ResultSet,
    actual: &ResultSet,
    options: &ExecutionOptions,
) -> ExecutionScore {
    match (expected.scalar(), actual.scalar()) {
        (Some(e), Some(a)) => compare_values(e, a, options.numeric_tolerance),
        (Some(e), None) => {
            if let Some(number) = e.as_number().filter(|_| actual.rows.len() == 1) {
                // One row, several columns: look for the expected number in it.
                let found = actual.rows[0].iter().any(|v| {
                    v.as_number()
                        .is_some_and(|n| within(number, n, options.numeric_tolerance))
                });
                if found {
                    return ExecutionScore::plain(
                        0.8,
                        format!(
                            "Numeric match inside a {}-column row: {}",
                            actual.width(),
                            show_number(number)
                        ),
                    );
                }
            }
            ExecutionScore::plain(
                0.0,
                format!(
                    "Expected a single value ({e}), got {} x {}",
                    actual.rows.len(),
                    actual.width()
                ),
            )
        }
        _ => {
            let comparison = compare(expected, actual, &options.table);
            ExecutionScore {
                score: comparison.score,
                explanation: format!(
                    "Table comparison ({}): {}",
                    comparison.mode, comparison.explanation
                ),
                comparison: Some(comparison),
            }
        }
    }
}

fn within(expected: f64, actual: f64, tolerance: f64) -> bool {
    expected == actual || (expected - actual).abs() <= tolerance * expected.abs().max(actual.abs())
}

fn show_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn compare_values(expected: &Value, actual: &Value, tolerance: f64) -> ExecutionScore {
    match (expected, actual) {
        (Value::Null, Value::Null) => ExecutionScore::plain(1.0, "Both are NULL".to_string()),
        (Value::Null, other) | (other, Value::Null) => {
            ExecutionScore::plain(0.0, format!("NULL versus {other}"))
        }
        (Value::Bool(e), Value::Bool(a)) => {
            if e == a {
                ExecutionScore::plain(1.0, format!("Boolean match: {e}"))
            } else {
                ExecutionScore::plain(0.0, format!("Boolean mismatch: {a}, expected {e}"))
            }
        }
        _ => match (expected.as_number(), actual.as_number()) {
            (Some(e), Some(a)) => {
                if within(e, a, tolerance) {
                    ExecutionScore::plain(
                        1.0,
                        format!("Numeric match: {} ≈ {}", show_number(a), show_number(e)),
                    )
                } else {
                    let error = if e == 0.0 { 1.0 } else { ((a - e) / e).abs() };
                    let score = (1.0 - error).max(0.0);
                    ExecutionScore::plain(
                        score,
                        format!(
                            "Numeric mismatch: {} vs expected {} ({:.1}% off)",
                            show_number(a),
                            show_number(e),
                            error * 100.0
                        ),
                    )
                }
            }
            _ => {
                let (e, a) = (text(expected), text(actual));
                if e == a {
                    ExecutionScore::plain(1.0, format!("Exact match: {a:?}"))
                } else if e.trim().to_lowercase() == a.trim().to_lowercase() {
                    ExecutionScore::plain(
                        0.9,
                        format!("Match ignoring case and spaces: {a:?} vs {e:?}"),
                    )
                } else {
                    ExecutionScore::plain(0.0, format!("Mismatch: {a:?}, expected {e:?}"))
                }
            }
        },
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::Text(s) => s.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn score(expected: serde_json::Value, actual: serde_json::Value) -> ExecutionScore {
        execution_similarity(&expected, &actual, &ExecutionOptions::default()).unwrap()
    }

    #[test]
    fn equal_numbers_are_a_numeric_match() {
        let s = score(json!(42), json!(42));
        assert_eq!(s.score, 1.0);
        assert_eq!(s.explanation, "Numeric match: 42 ≈ 42");
        assert_eq!(score(json!(42), json!([{"count": 42}])).score, 1.0);
        assert_eq!(score(json!(42), json!("42")).score, 1.0);
        assert_eq!(score(json!(100), json!(100.9)).score, 1.0);
    }

    #[test]
    fn partial_credit_falls_with_the_error() {
        let near = score(json!(100), json!(90)).score;
        let far = score(json!(100), json!(50)).score;
        assert!((near - 0.9).abs() < 1e-12, "{near}");
        assert!((far - 0.5).abs() < 1e-12, "{far}");
        assert_eq!(score(json!(100), json!(300)).score, 0.0);
    }

    #[test]
    fn text_and_booleans() {
        assert_eq!(score(json!("Paris"), json!("Paris")).score, 1.0);
        assert_eq!(score(json!("Paris"), json!(" paris")).score, 0.9);
        assert_eq!(score(json!("Paris"), json!("Rome")).score, 0.0);
        assert_eq!(score(json!(true), json!(true)).score, 1.0);
        assert_eq!(score(json!(true), json!(false)).score, 0.0);
    }

    #[test]
    fn tables_use_the_comparison_mode() {
        let s = score(json!([{"a": 1}, {"a": 2}]), json!([{"a": 1}, {"a": 2}]));
        assert_eq!(s.score, 1.0);
        assert!(s.comparison.is_some());
        let s = score(json!([{"a": 1}, {"a": 2}]), json!([{"a": 1}]));
        assert!(s.score > 0.0 && s.score < 1.0);
    }

    #[test]
    fn unreadable_results_say_which_side() {
        let err = execution_similarity(&json!([[1], 2]), &json!(1), &ExecutionOptions::default())
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the expected result cannot be read: at $[1]"),
            "{err}"
        );
    }
}
