//! One cell of a result set, as read from JSON.

use std::fmt;

use serde::Serialize;

/// A result cell. JSON numbers without a fraction or exponent that fit in an `i64` are `Int`;
/// other numbers are `Float`. Arrays and objects nested in a cell are kept as their JSON text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl Value {
    pub fn from_json(value: &serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => Value::Text(s.clone()),
            nested => Value::Text(nested.to_string()),
        }
    }

    /// The value as a number, for comparisons that treat `1`, `1.0`, `"1"` and `true` alike.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) if f.is_finite() => Some(*f),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            Value::Text(s) => parse_number(s),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

/// Parses a number written as text (`" 42 "`, `"-1.5e3"`), refusing words like `inf` or `nan`.
pub fn parse_number(text: &str) -> Option<f64> {
    let text = text.trim();
    let looks_numeric = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'))
        && text.chars().any(|c| c.is_ascii_digit());
    if !looks_numeric {
        return None;
    }
    text.parse::<f64>().ok().filter(|f| f.is_finite())
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{s:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_numbers_keep_their_kind() {
        assert_eq!(Value::from_json(&json!(1)), Value::Int(1));
        assert_eq!(Value::from_json(&json!(1.0)), Value::Float(1.0));
        assert_eq!(
            Value::from_json(&json!([1, 2])),
            Value::Text("[1,2]".into())
        );
    }

    #[test]
    fn numbers_in_text() {
        assert_eq!(parse_number(" 42 "), Some(42.0));
        assert_eq!(parse_number("-1.5e3"), Some(-1500.0));
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("1,000"), None);
        assert_eq!(parse_number("e"), None);
    }
}
