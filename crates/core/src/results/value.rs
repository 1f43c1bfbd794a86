//! One cell of a result set, as read from JSON.

use std::fmt;

use serde::Serialize;

use super::Text;

/// A result cell. JSON numbers without a fraction or exponent that fit in an `i64` are `Int`;
/// other numbers are `Float`. Arrays and objects nested in a cell are kept as their JSON text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(Text),
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
            serde_json::Value::String(s) => Value::Text(Text::new(s)),
            nested => Value::Text(nested.to_string().into()),
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

/// Parses a number written as text (`" 42 "`, `"-1.5e3"`), refusing words like `inf` or `nan`
/// and shapes like `2024-01-31`.
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    // Most text is not a number: reject on the first byte before doing any work.
    let first = *bytes.first()?;
    if !(first.is_ascii_digit()
        || matches!(first, b'-' | b'+' | b'.')
        || first.is_ascii_whitespace())
    {
        return None;
    }
    let text = text.trim();
    if !is_decimal(text.as_bytes()) {
        return None;
    }
    text.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `[+-]digits[.digits][(e|E)[+-]digits]`, with at least one digit before the exponent.
fn is_decimal(bytes: &[u8]) -> bool {
    let mut i = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let mut digits = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < bytes.len() && matches!(bytes[i], b'e' | b'E') {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == bytes.len()
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{:?}", s.as_str()),
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
        assert_eq!(parse_number("2024-01-31"), None);
        assert_eq!(parse_number(".5"), Some(0.5));
        assert_eq!(parse_number("1e"), None);
        assert_eq!(parse_number("--1"), None);
    }
}
