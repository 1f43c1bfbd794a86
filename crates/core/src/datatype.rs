//! Datatype validity (seed 003): does the actual result have the expected answer type?
//!
//! Flexible, as the seed asks: a 1x1 table counts as its single value ("the 1x1 DataFrame vs
//! number issue"), and text that parses as the type counts as that type.
//!
//! | type | accepted |
//! |---|---|
//! | `number` | a number, numeric text, or a 1x1 table of either |
//! | `integer` | as `number`, with no fractional part |
//! | `string` | text, or a 1x1 table of text |
//! | `boolean` | true/false, the text `true`/`false`/`yes`/`no`, 0 or 1, or a 1x1 table of these |
//! | `date` | text in ISO form (`2024-01-31`, optionally with a time), or a 1x1 table of it |
//! | `list` | an array of values, or a table with one column |
//! | `table` | rows with named columns (array of objects, `{columns, rows}`, ...) |

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::results::{ResultSet, Value, read_result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerType {
    Number,
    Integer,
    String,
    Boolean,
    Date,
    List,
    Table,
}

impl AnswerType {
    pub const ALL: [AnswerType; 7] = [
        AnswerType::Number,
        AnswerType::Integer,
        AnswerType::String,
        AnswerType::Boolean,
        AnswerType::Date,
        AnswerType::List,
        AnswerType::Table,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AnswerType::Number => "number",
            AnswerType::Integer => "integer",
            AnswerType::String => "string",
            AnswerType::Boolean => "boolean",
            AnswerType::Date => "date",
            AnswerType::List => "list",
            AnswerType::Table => "table",
        }
    }
}

impl fmt::Display for AnswerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AnswerType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        let alias = match wanted.as_str() {
            "int" => "integer",
            "float" | "numeric" | "decimal" => "number",
            "str" | "text" => "string",
            "bool" => "boolean",
            "datetime" | "timestamp" => "date",
            "array" => "list",
            "dataframe" => "table",
            other => other,
        };
        AnswerType::ALL
            .into_iter()
            .find(|t| t.name() == alias)
            .ok_or_else(|| {
                let names: Vec<&str> = AnswerType::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown answer type \"{s}\" (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatatypeScore {
    pub score: f64,
    pub valid: bool,
    pub explanation: String,
}

fn verdict(valid: bool, explanation: impl Into<String>) -> DatatypeScore {
    DatatypeScore {
        score: if valid { 1.0 } else { 0.0 },
        valid,
        explanation: explanation.into(),
    }
}

/// Checks a result read from JSON against the expected answer type.
pub fn datatype_validity(expected: AnswerType, actual: &serde_json::Value) -> DatatypeScore {
    match read_result(actual) {
        Ok(result) => check(expected, actual, &result),
        Err(err) => verdict(false, format!("The result cannot be read: {err}")),
    }
}

fn check(expected: AnswerType, raw: &serde_json::Value, result: &ResultSet) -> DatatypeScore {
    let single = result.scalar();
    let wrapped = if raw.is_array() || raw.is_object() {
        " (1x1 table normalized)"
    } else {
        ""
    };
    match expected {
        AnswerType::Number | AnswerType::Integer => match single
            .and_then(Value::as_number)
            .filter(|_| !matches!(single, Some(Value::Bool(_))))
        {
            Some(n) if expected == AnswerType::Integer && n.fract() != 0.0 => {
                verdict(false, format!("Expected an integer, got {n}"))
            }
            Some(_) => {
                let what = if matches!(single, Some(Value::Text(_))) {
                    "Parseable numeric string"
                } else if expected == AnswerType::Integer {
                    "Valid integer value"
                } else {
                    "Valid numeric value"
                };
                verdict(true, format!("{what}{wrapped}"))
            }
            None => verdict(
                false,
                format!("Expected a {expected}, got {}", describe(raw, result)),
            ),
        },
        AnswerType::String => match single {
            Some(Value::Text(_)) => verdict(true, format!("Valid string value{wrapped}")),
            _ => verdict(
                false,
                format!("Expected a string, got {}", describe(raw, result)),
            ),
        },
        AnswerType::Boolean => match single {
            Some(Value::Bool(_)) => verdict(true, format!("Valid boolean value{wrapped}")),
            Some(Value::Int(0 | 1)) => verdict(true, format!("0/1 accepted as a boolean{wrapped}")),
            Some(Value::Text(t))
                if matches!(
                    t.trim().to_lowercase().as_str(),
                    "true" | "false" | "yes" | "no"
                ) =>
            {
                verdict(true, format!("Parseable boolean string{wrapped}"))
            }
            _ => verdict(
                false,
                format!("Expected a boolean, got {}", describe(raw, result)),
            ),
        },
        AnswerType::Date => match single {
            Some(Value::Text(t)) if is_iso_date(t) => {
                verdict(true, format!("Valid date value{wrapped}"))
            }
            _ => verdict(
                false,
                format!(
                    "Expected a date (YYYY-MM-DD), got {}",
                    describe(raw, result)
                ),
            ),
        },
        AnswerType::List => {
            if raw.is_array() && (result.width() <= 1 || !result.named) {
                verdict(true, format!("Valid list of {} items", result.rows.len()))
            } else if raw.is_object() && result.width() == 1 {
                verdict(
                    true,
                    format!(
                        "Single-column table accepted as a list of {} items",
                        result.rows.len()
                    ),
                )
            } else {
                verdict(
                    false,
                    format!("Expected a list, got {}", describe(raw, result)),
                )
            }
        }
        AnswerType::Table => {
            if result.named && (raw.is_array() || raw.is_object()) {
                verdict(
                    true,
                    format!(
                        "Valid table: {} rows x {} columns",
                        result.rows.len(),
                        result.width()
                    ),
                )
            } else if raw.is_array() && result.width() > 0 {
                verdict(
                    true,
                    format!(
                        "Rows without column names accepted as a table: {} x {}",
                        result.rows.len(),
                        result.width()
                    ),
                )
            } else {
                verdict(
                    false,
                    format!("Expected a table, got {}", describe(raw, result)),
                )
            }
        }
    }
}

fn describe(raw: &serde_json::Value, result: &ResultSet) -> String {
    match raw {
        serde_json::Value::Null => "null".to_string(),
        serde_json::Value::Bool(b) => format!("the boolean {b}"),
        serde_json::Value::Number(n) => format!("the number {n}"),
        serde_json::Value::String(s) => format!("the string {s:?}"),
        _ => match result.scalar() {
            Some(value) => format!("a 1x1 table holding {value}"),
            None => format!("a {} x {} table", result.rows.len(), result.width()),
        },
    }
}

/// `YYYY-MM-DD`, optionally followed by `T` or a space and a time.
fn is_iso_date(text: &str) -> bool {
    let text = text.trim();
    let bytes = text.as_bytes();
    if bytes.len() < 10 {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    let shape =
        digits(0..4) && bytes[4] == b'-' && digits(5..7) && bytes[7] == b'-' && digits(8..10);
    if !shape {
        return false;
    }
    let two = |at: usize| u32::from(bytes[at] - b'0') * 10 + u32::from(bytes[at + 1] - b'0');
    let (month, day) = (two(5), two(8));
    (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && (bytes.len() == 10 || matches!(bytes[10], b'T' | b' '))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn valid(kind: AnswerType, value: serde_json::Value) -> bool {
        datatype_validity(kind, &value).valid
    }

    #[test]
    fn seed_003_number_normalization() {
        assert!(valid(AnswerType::Number, json!(42)));
        assert!(valid(AnswerType::Number, json!([{"count": 42}])));
        assert!(valid(AnswerType::Number, json!("42")));
        assert_eq!(
            datatype_validity(AnswerType::Number, &json!(42)).explanation,
            "Valid numeric value"
        );
        assert!(!valid(AnswerType::Number, json!("forty-two")));
        assert!(!valid(AnswerType::Number, json!([{"a": 1}, {"a": 2}])));
        assert!(!valid(AnswerType::Number, json!(true)));
    }

    #[test]
    fn the_other_types() {
        assert!(valid(AnswerType::Integer, json!(7)));
        assert!(!valid(AnswerType::Integer, json!(7.5)));
        assert!(valid(AnswerType::String, json!("Paris")));
        assert!(valid(AnswerType::String, json!([["Paris"]])));
        assert!(!valid(AnswerType::String, json!(3)));
        assert!(valid(AnswerType::Boolean, json!(false)));
        assert!(valid(AnswerType::Boolean, json!("yes")));
        assert!(valid(AnswerType::Date, json!("2024-01-31")));
        assert!(valid(
            AnswerType::Date,
            json!([{"d": "2024-01-31T10:00:00Z"}])
        ));
        assert!(!valid(AnswerType::Date, json!("2024-13-01")));
        assert!(!valid(AnswerType::Date, json!("2024-é1-01")));
        assert!(valid(AnswerType::List, json!([1, 2, 3])));
        assert!(valid(
            AnswerType::List,
            json!([{"name": "a"}, {"name": "b"}])
        ));
        assert!(!valid(AnswerType::List, json!(5)));
        assert!(valid(AnswerType::Table, json!([{"a": 1, "b": 2}])));
        assert!(valid(
            AnswerType::Table,
            json!({"columns": ["a"], "rows": [[1]]})
        ));
        assert!(!valid(AnswerType::Table, json!("x")));
    }

    #[test]
    fn type_names_and_aliases() {
        assert_eq!("float".parse::<AnswerType>(), Ok(AnswerType::Number));
        assert!("blob".parse::<AnswerType>().unwrap_err().contains("number"));
    }
}
