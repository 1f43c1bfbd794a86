//! Datatype validity: does the actual result have the expected answer type?
//!
//! Flexible on purpose: a 1x1 table counts as its single value ("the 1x1 DataFrame vs
//! number issue"), and text that parses as the type counts as that type.
//!
//! | type | accepted |
//! |---|---|
//! | `number` | a number, numeric text, or a 1x1 table of either |
//! | `integer` | as `number`, with no fractional part |
//! | `string` | text, or a 1x1 table of text |
//! | `boolean` | true/false, the text `true`/`false`/`yes`/`no`, 0 or 1, or a 1x1 table of these |
//! | `date` | text in ISO form of a real date (`2024-01-31`, optionally with a valid time), or a 1x1 table of it |
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

/// `YYYY-MM-DD`, optionally followed by `T` or a space and a time `HH:MM[:SS[.fraction]]` with an
/// optional `Z` or `+HH:MM`/`-HH:MM` offset. The date must exist in the calendar (no
/// `2023-02-29`) and the time on the clock (no `25:00`), as the `time` crate judges them.
fn is_iso_date(text: &str) -> bool {
    let text = text.trim();
    let (date, rest) = match text.split_at_checked(10) {
        Some(split) => split,
        None => return false,
    };
    if calendar_date(date).is_none() {
        return false;
    }
    match rest.as_bytes().first() {
        None => true,
        Some(b'T' | b' ') => clock_time(&rest[1..]),
        Some(_) => false,
    }
}

/// `count` ASCII digits as a number, or `None`.
fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// `YYYY-MM-DD` as a date that exists.
fn calendar_date(text: &str) -> Option<time::Date> {
    let mut parts = text.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let year = i32::try_from(digits(year, 4)?).ok()?;
    let month = time::Month::try_from(u8::try_from(digits(month, 2)?).ok()?).ok()?;
    let day = u8::try_from(digits(day, 2)?).ok()?;
    time::Date::from_calendar_date(year, month, day).ok()
}

/// `HH:MM[:SS[.fraction]]` and an optional `Z` or `±HH:MM` offset, all in range.
fn clock_time(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let offset_ok = match offset.as_bytes().first() {
        None => true,
        Some(b'Z' | b'z') => offset.len() == 1,
        Some(sign) => utc_offset(&offset[1..], *sign == b'-'),
    };
    offset_ok && time_of_day(clock).is_some()
}

fn time_of_day(text: &str) -> Option<time::Time> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let mut parts = whole.split(':');
    let hour = u8::try_from(digits(parts.next()?, 2)?).ok()?;
    let minute = u8::try_from(digits(parts.next()?, 2)?).ok()?;
    let second = match parts.next() {
        Some(second) => u8::try_from(digits(second, 2)?).ok()?,
        None if fraction.is_some() => return None,
        None => 0,
    };
    if parts.next().is_some() {
        return None;
    }
    let nanos = match fraction {
        None => 0,
        Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            // Nanoseconds from the first nine digits; more digits are finer than `time` keeps.
            let nine: String = f.chars().chain(std::iter::repeat('0')).take(9).collect();
            nine.parse().ok()?
        }
        Some(_) => return None,
    };
    time::Time::from_hms_nano(hour, minute, second, nanos).ok()
}

/// `HH:MM` after the sign: hours under 24, minutes under 60 (as `time` judges them).
fn utc_offset(text: &str, negative: bool) -> bool {
    let Some((hours, minutes)) = text.split_once(':') else {
        return false;
    };
    let (Some(hours), Some(minutes)) = (digits(hours, 2), digits(minutes, 2)) else {
        return false;
    };
    let (Ok(hours @ 0..24), Ok(minutes)) = (i8::try_from(hours), i8::try_from(minutes)) else {
        return false;
    };
    let sign = if negative { -1 } else { 1 };
    time::UtcOffset::from_hms(sign * hours, sign * minutes, 0).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn valid(kind: AnswerType, value: serde_json::Value) -> bool {
        datatype_validity(kind, &value).valid
    }

    #[test]
    fn a_number_may_come_as_a_1x1_table_or_text() {
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
