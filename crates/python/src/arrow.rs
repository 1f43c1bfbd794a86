//! Result rows from Arrow data (a pyarrow Table, a polars or pandas DataFrame: anything with
//! `__arrow_c_stream__`), read from its buffers through the Arrow C stream interface rather
//! than a Python object per cell.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatchReader};
use arrow_pyarrow::FromPyArrow;
use arrow_schema::DataType;
use pyo3::prelude::*;
use qeval_core::{MAX_COLUMNS, ResultSet, Rows, Value};

/// Why Arrow data was not read here: the caller reads its rows through Python instead.
pub enum Unread {
    /// The object offers no Arrow stream.
    NotArrow,
    /// A column's type has no reading here (dates, decimals, nested): `(column, type)`.
    Type(String, DataType),
}

/// The rows of `value` when it offers an Arrow stream whose columns are all numbers, text,
/// booleans or nulls.
pub fn rows(value: &Bound<'_, PyAny>) -> PyResult<Result<ResultSet, Unread>> {
    if !value.hasattr("__arrow_c_stream__")? {
        return Ok(Err(Unread::NotArrow));
    }
    let reader = arrow_array::ffi_stream::ArrowArrayStreamReader::from_pyarrow_bound(value)?;
    let schema = reader.schema();
    if schema.fields().len() > MAX_COLUMNS {
        return Err(crate::input_error(format!(
            "{} columns; a result table has at most {MAX_COLUMNS}",
            schema.fields().len()
        )));
    }
    for field in schema.fields() {
        if !readable(field.data_type()) {
            return Ok(Err(Unread::Type(
                field.name().clone(),
                field.data_type().clone(),
            )));
        }
    }
    let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
    let mut rows = Rows::with_capacity(names.len(), 0);
    for batch in reader {
        let batch =
            batch.map_err(|err| pyo3::exceptions::PyValueError::new_err(err.to_string()))?;
        let columns = batch.columns();
        for offset in 0..batch.num_rows() {
            rows.push(columns.iter().map(|column| cell(column.as_ref(), offset)));
        }
    }
    Ok(Ok(ResultSet::named(names, rows)))
}

fn readable(kind: &DataType) -> bool {
    matches!(
        kind,
        DataType::Null
            | DataType::Boolean
            | DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float16
            | DataType::Float32
            | DataType::Float64
            | DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
    )
}

/// Row `index` of `column`, as the Python path would read the value Python gives for it.
fn cell(column: &dyn Array, index: usize) -> Value {
    if column.is_null(index) {
        return Value::Null;
    }
    match column.data_type() {
        DataType::Boolean => Value::Bool(column.as_boolean().value(index)),
        DataType::Int8 => Value::Int(column.as_primitive::<Int8Type>().value(index).into()),
        DataType::Int16 => Value::Int(column.as_primitive::<Int16Type>().value(index).into()),
        DataType::Int32 => Value::Int(column.as_primitive::<Int32Type>().value(index).into()),
        DataType::Int64 => Value::Int(column.as_primitive::<Int64Type>().value(index)),
        DataType::UInt8 => Value::Int(column.as_primitive::<UInt8Type>().value(index).into()),
        DataType::UInt16 => Value::Int(column.as_primitive::<UInt16Type>().value(index).into()),
        DataType::UInt32 => Value::Int(column.as_primitive::<UInt32Type>().value(index).into()),
        DataType::UInt64 => {
            let value = column.as_primitive::<UInt64Type>().value(index);
            // Beyond i64, as the Python path reads a large int: the nearest float.
            i64::try_from(value).map_or(Value::Float(value as f64), Value::Int)
        }
        DataType::Float16 => {
            Value::Float(column.as_primitive::<Float16Type>().value(index).to_f64())
        }
        DataType::Float32 => Value::Float(column.as_primitive::<Float32Type>().value(index).into()),
        DataType::Float64 => Value::Float(column.as_primitive::<Float64Type>().value(index)),
        DataType::Utf8 => Value::Text(column.as_string::<i32>().value(index).into()),
        DataType::LargeUtf8 => Value::Text(column.as_string::<i64>().value(index).into()),
        DataType::Utf8View => Value::Text(column.as_string_view().value(index).into()),
        // Every other type is refused before reading (see `readable`).
        _ => Value::Null,
    }
}

/// A text column given as Arrow data (a one-column table: pandas' Arrow-backed `str` and
/// `string` columns), read from its buffers; a missing value is NaN, as pandas compares it.
/// `None` when the column is not text.
pub fn text_column(value: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Value>>> {
    let reader = arrow_array::ffi_stream::ArrowArrayStreamReader::from_pyarrow_bound(value)?;
    let mut cells = Vec::new();
    for batch in reader {
        let batch =
            batch.map_err(|err| pyo3::exceptions::PyValueError::new_err(err.to_string()))?;
        let Some(column) = batch.columns().first() else {
            return Ok(None);
        };
        let values: Box<dyn Iterator<Item = Option<&str>>> = match column.data_type() {
            DataType::Utf8 => Box::new(column.as_string::<i32>().iter()),
            DataType::LargeUtf8 => Box::new(column.as_string::<i64>().iter()),
            DataType::Utf8View => Box::new(column.as_string_view().iter()),
            _ => return Ok(None),
        };
        cells
            .extend(values.map(|value| {
                value.map_or(Value::Float(f64::NAN), |text| Value::Text(text.into()))
            }));
    }
    Ok(Some(cells))
}
