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

/// A SQLite value as the core's result cell. Text that is not UTF-8 is decoded as `decoding`
/// says; under `Strict` the error carries the text as Python would show it.
pub fn to_value(
    value: ValueRef<'_>,
    decoding: qeval_core::TextDecoding,
) -> Result<qeval_core::Value, String> {
    use qeval_core::TextDecoding;
    use qeval_core::Value as Cell;
    Ok(match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        ValueRef::Real(x) if x.is_nan() => Cell::Null,
        ValueRef::Real(x) => Cell::Float(x),
        ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => Cell::Text(text.into()),
            Err(_) => match decoding {
                TextDecoding::Replace => {
                    Cell::Text(String::from_utf8_lossy(bytes).into_owned().into())
                }
                TextDecoding::Ignore => Cell::Text(
                    bytes
                        .utf8_chunks()
                        .map(|chunk| chunk.valid())
                        .collect::<String>()
                        .into(),
                ),
                TextDecoding::Strict => return Err(String::from_utf8_lossy(bytes).into_owned()),
            },
        },
        // Blobs have no JSON form; their hex text compares and displays the same on both sides.
        ValueRef::Blob(bytes) => Cell::Text(
            bytes
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect::<String>()
                .into(),
        ),
    })
}
