//! Conversion for `qeval.compat.defog`: a pandas DataFrame's columns, as the wrapper hands them
//! over, into the core's [`Frame`]; the core's [`PythonError`] into the exception sql-eval
//! raises. The comparison itself is `qeval_core::compare_df` and `qeval_core::subset_df`.

use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use qeval_core::{Dtype, ErrorClass, Frame, PythonError, Series, Value};

/// A DataFrame as `qeval.compat.defog` hands it over: its column names, `(kind, data)` columns
/// and the row count.
pub type FrameParts<'py> = (
    Vec<Bound<'py, PyAny>>,
    Vec<(String, Bound<'py, PyAny>)>,
    usize,
);

/// Reads `(kind, data)` columns: `kind` is `int`, `float` or `bool` with the NumPy array's bytes
/// (native order, 8/8/1 bytes a cell), `text` with a one-column Arrow table of text, `str` (pandas'
/// text type without Arrow) or `object` with a list of the column's Python values.
pub fn frame(
    py: Python<'_>,
    (names, columns, rows): FrameParts<'_>,
    side: &str,
) -> PyResult<Frame> {
    let refuse = |message: String| PyValueError::new_err(format!("{side}: {message}"));
    let exact_types = crate::rows::Exact::new(py);
    let names = names
        .iter()
        .map(|name| crate::rows::cell(name, &exact_types))
        .collect::<PyResult<Vec<_>>>()?;
    let mut read = Vec::with_capacity(columns.len());
    for (index, (kind, data)) in columns.iter().enumerate() {
        let bytes = || data.cast::<PyBytes>().map(|bytes| bytes.as_bytes());
        let words = |bytes: &[u8]| -> Vec<[u8; 8]> {
            bytes
                .chunks_exact(8)
                .map(|chunk| chunk.try_into().unwrap_or_default())
                .collect()
        };
        let column = match kind.as_str() {
            "int" => Series::new(
                Dtype::Int,
                words(bytes()?)
                    .into_iter()
                    .map(|word| Value::Int(i64::from_ne_bytes(word)))
                    .collect(),
            ),
            "float" => Series::new(
                Dtype::Float,
                words(bytes()?)
                    .into_iter()
                    .map(|word| Value::Float(f64::from_ne_bytes(word)))
                    .collect(),
            ),
            "bool" => Series::new(
                Dtype::Bool,
                bytes()?
                    .iter()
                    .map(|&byte| Value::Bool(byte != 0))
                    .collect(),
            ),
            "text" => Series::new(
                Dtype::Str,
                crate::arrow::text_column(data)?
                    .ok_or_else(|| refuse(format!("column {index}: its Arrow data is not text")))?,
            ),
            "str" | "object" => {
                let list = data.cast::<PyList>()?;
                let mut cells = Vec::with_capacity(list.len());
                for item in list.iter() {
                    cells.push(crate::rows::cell(&item, &exact_types)?);
                }
                Series::new(
                    if kind == "str" {
                        Dtype::Str
                    } else {
                        Dtype::Object
                    },
                    cells,
                )
            }
            other => return Err(refuse(format!("column {index}: unknown kind {other:?}"))),
        };
        read.push(column);
    }
    Frame::new(names, rows, read).map_err(refuse)
}

/// The exception sql-eval raises where the core found it would.
pub fn raise(err: PythonError) -> PyErr {
    match err.class {
        ErrorClass::TypeError => PyTypeError::new_err(err.message),
        ErrorClass::ValueError => PyValueError::new_err(err.message),
        ErrorClass::KeyError => PyKeyError::new_err(err.message),
    }
}
