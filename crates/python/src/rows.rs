//! Result rows from Python objects. Reading them holds the GIL, so it is the part of a
//! comparison Python users wait for: the common exact types (`int`, `float`, `str`, `bool`,
//! `None` in tuples and lists) are recognised by their type object, one pointer comparison each,
//! before the general path that serves subclasses, numpy scalars, `Decimal` and the rest.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};
use qeval_core::{MAX_COLUMNS, ResultSet, Rows, Value, row_fingerprint};

pyo3::create_exception!(
    _native,
    ArrowTypeError,
    pyo3::exceptions::PyTypeError,
    "Arrow data with a column type read through Python instead (dates, decimals, nested)."
);

/// The exact built-in types, looked up once per call.
pub(crate) struct Exact {
    int: *mut pyo3::ffi::PyTypeObject,
    float: *mut pyo3::ffi::PyTypeObject,
    text: *mut pyo3::ffi::PyTypeObject,
    bool: *mut pyo3::ffi::PyTypeObject,
}

impl Exact {
    pub(crate) fn new(py: Python<'_>) -> Exact {
        Exact {
            int: py.get_type::<PyInt>().as_type_ptr(),
            float: py.get_type::<PyFloat>().as_type_ptr(),
            text: py.get_type::<PyString>().as_type_ptr(),
            bool: py.get_type::<PyBool>().as_type_ptr(),
        }
    }
}

/// One cell, with the type Python gave it: `True`, `1` and `1.0` stay apart, as the comparison
/// modes that follow Python's equality need them.
pub(crate) fn cell(value: &Bound<'_, PyAny>, exact: &Exact) -> PyResult<Value> {
    let kind = value.get_type_ptr();
    if value.is_none() {
        Ok(Value::Null)
    } else if kind == exact.text {
        Ok(Value::Text(value.cast::<PyString>()?.to_str()?.into()))
    } else if kind == exact.int {
        int(value)
    } else if kind == exact.float {
        Ok(Value::Float(value.cast::<PyFloat>()?.value()))
    } else if kind == exact.bool {
        Ok(Value::Bool(value.is_truthy()?))
    } else {
        other(value)
    }
}

/// An integer beyond 64 bits compares as the nearest float.
fn int(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    match value.extract::<i64>() {
        Ok(int) => Ok(Value::Int(int)),
        Err(_) => Ok(Value::Float(value.extract::<f64>()?)),
    }
}

/// Subclasses of the built-in types, then what converts to an integer (numpy's integers), then
/// to a float (numpy's floats and booleans, `Decimal`: Python compares those with numbers by
/// value); anything else (dates) compares by its `str()`.
fn other(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(flag) = value.cast::<PyBool>() {
        Ok(Value::Bool(flag.is_true()))
    } else if value.is_instance_of::<PyInt>() {
        int(value)
    } else if let Ok(float) = value.cast::<PyFloat>() {
        Ok(Value::Float(float.value()))
    } else if let Ok(text) = value.cast::<PyString>() {
        Ok(Value::Text(text.to_str()?.into()))
    } else if let Ok(int) = value.extract::<i64>() {
        Ok(Value::Int(int))
    } else if let Ok(float) = value.extract::<f64>() {
        Ok(Value::Float(float))
    } else {
        Ok(Value::Text(value.str()?.to_str()?.into()))
    }
}

/// The tuples of a list, the shape `cursor.fetchall()` gives; `None` when the list is empty or
/// holds something else.
fn tuples<'py>(list: &Bound<'py, PyList>) -> Option<Vec<Bound<'py, PyTuple>>> {
    let tuples = list
        .iter()
        .map(|row| row.cast_into::<PyTuple>())
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    (!tuples.is_empty()).then_some(tuples)
}

/// Hands each tuple to `take`, in order. The rows and their values lie all over memory, and
/// waiting for each in turn is most of the time, so the values a few rows ahead are touched
/// early: reading a value's type ahead of its turn starts its trip from memory while the
/// processor works on the rows before it (the sum only keeps those reads from being optimised
/// away).
fn each_tuple(
    tuples: &[Bound<'_, PyTuple>],
    mut take: impl FnMut(&Bound<'_, PyTuple>) -> PyResult<()>,
) -> PyResult<()> {
    let mut touched = 0usize;
    for (index, row) in tuples.iter().enumerate() {
        if let Some(ahead) = tuples.get(index + 8) {
            touched ^= ahead.get_type_ptr() as usize;
        }
        if let Some(near) = tuples.get(index + 3) {
            for value in near.iter_borrowed() {
                touched ^= value.get_type_ptr() as usize;
            }
        }
        take(row)?;
    }
    std::hint::black_box(touched);
    Ok(())
}

/// A list of tuples read into rows with borrowed values (no reference count touched).
fn list_of_tuples(list: &Bound<'_, PyList>, exact: &Exact) -> PyResult<Option<Rows>> {
    let Some(tuples) = tuples(list) else {
        return Ok(None);
    };
    let mut rows = Rows::with_capacity(tuples[0].len(), tuples.len());
    each_tuple(&tuples, |row| {
        rows.try_push(row.iter_borrowed().map(|value| cell(&value, exact)))
    })?;
    Ok(Some(rows))
}

/// The distinct rows of a list of tuples as the `set` comparison keys them (their fingerprints
/// under Python's tuple equality, sorted), read without keeping the rows; `None` for any other
/// shape. BIRD's EX needs nothing more, and storing the rows would cost more than hashing them.
pub fn distinct_rows(value: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u128>>> {
    let Ok(list) = value.cast::<PyList>() else {
        return Ok(None);
    };
    let Some(tuples) = tuples(list) else {
        return Ok(None);
    };
    let exact = Exact::new(value.py());
    let mut prints = Vec::with_capacity(tuples.len());
    let mut row = Vec::new();
    each_tuple(&tuples, |tuple| {
        row.clear();
        for value in tuple.iter_borrowed() {
            row.push(cell(&value, &exact)?);
        }
        prints.push(row_fingerprint(&row));
        Ok(())
    })?;
    prints.sort_unstable();
    prints.dedup();
    Ok(Some(prints))
}

/// Appends one row to `rows`.
fn row(
    rows: &mut Rows,
    row: &Bound<'_, PyAny>,
    exact: &Exact,
    side: &str,
    index: usize,
) -> PyResult<()> {
    if let Ok(tuple) = row.cast::<PyTuple>() {
        return rows.try_push(tuple.iter().map(|value| cell(&value, exact)));
    }
    if let Ok(list) = row.cast::<PyList>() {
        return rows.try_push(list.iter().map(|value| cell(&value, exact)));
    }
    let refuse = |what: String| {
        PyTypeError::new_err(format!(
            "{side} row {index}: a row is a sequence of values (a tuple or a list), not {what}"
        ))
    };
    if row.is_instance_of::<PyString>() {
        return Err(refuse("a string".into()));
    }
    let values = row.try_iter().map_err(|_| {
        refuse(
            row.get_type()
                .name()
                .map_or_else(|_| "this".to_string(), |name| name.to_string()),
        )
    })?;
    rows.try_push(values.map(|value| cell(&value?, exact)))
}

/// Rows from Arrow data (see `arrow`), or from any iterable of sequences (a list of tuples as
/// `cursor.fetchall()` gives it); `side` names the result in errors. Arrow data with a column
/// this cannot read raises [`ArrowTypeError`], and the caller passes its rows instead.
pub fn rows(value: &Bound<'_, PyAny>, side: &str) -> PyResult<ResultSet> {
    match crate::arrow::rows(value)? {
        Ok(rows) => return Ok(rows),
        Err(crate::arrow::Unread::Type(column, kind)) => {
            return Err(ArrowTypeError::new_err(format!(
                "{side} column {column:?}: Arrow type {kind} is read through Python"
            )));
        }
        Err(crate::arrow::Unread::NotArrow) => {}
    }
    let exact = Exact::new(value.py());
    let mut rows = Rows::default();
    if let Ok(list) = value.cast::<PyList>() {
        if let Some(read) = list_of_tuples(list, &exact)? {
            return narrow_enough(read, side);
        }
        for (index, item) in list.iter().enumerate() {
            row(&mut rows, &item, &exact, side, index)?;
        }
    } else {
        for (index, item) in value.try_iter()?.enumerate() {
            row(&mut rows, &item?, &exact, side, index)?;
        }
    }
    narrow_enough(rows, side)
}

/// The rows as a result, unless a row is wider than a result table can be (as the command
/// line's reader refuses such a row).
fn narrow_enough(rows: Rows, side: &str) -> PyResult<ResultSet> {
    match rows.iter().position(|row| row.len() > MAX_COLUMNS) {
        Some(index) => Err(crate::input_error(format!(
            "{side} row at index {index} has {} values; a result table has at most {MAX_COLUMNS} columns",
            rows.get(index).map_or(0, <[Value]>::len)
        ))),
        None => Ok(ResultSet::unnamed(rows)),
    }
}
