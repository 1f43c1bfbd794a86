//! SQLite values as JSON, the way result files write them.

use rusqlite::types::ValueRef;
use serde_json::{Number, Value};

pub fn to_json(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(x) => Number::from_f64(x).map_or(Value::Null, Value::Number),
        ValueRef::Text(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        // Blobs have no JSON form; their hex text compares and displays the same on both sides.
        ValueRef::Blob(bytes) => Value::String(bytes.iter().map(|b| format!("{b:02X}")).collect()),
    }
}
