//! A pandas DataFrame as sql-eval holds one: named columns of cells, each of a dtype, which
//! decides how pandas compares and fills its cells.

use crate::results::python as py_values;
use crate::results::{ResultSet, Value};

/// A column's pandas dtype, as far as the comparison tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// `int64` or `uint64`: compared exactly.
    Int,
    /// `bool`: compared exactly.
    Bool,
    /// `float64`: missing values are NaN.
    Float,
    /// pandas' text type (`str`, or `string`): missing values are NaN, and `fillna` with a
    /// number raises.
    Str,
    /// Python objects.
    Object,
}

/// One DataFrame column: its dtype and its cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub(super) dtype: Dtype,
    pub(super) cells: Vec<Value>,
}

impl Series {
    pub fn new(dtype: Dtype, cells: Vec<Value>) -> Series {
        Series { dtype, cells }
    }

    /// Whether `assert_series_equal(check_dtype=False)` compares this column exactly (integer and
    /// boolean dtypes) rather than within a tolerance.
    pub(super) fn exact(&self) -> bool {
        matches!(self.dtype, Dtype::Int | Dtype::Bool)
    }
}

/// A DataFrame: its column names (Python values; text for a query's result) and columns of
/// equal length.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub(super) names: Vec<Value>,
    pub(super) rows: usize,
    pub(super) columns: Vec<Series>,
}

impl Frame {
    /// A frame of `rows` rows; an error names the column whose length differs, or a frame too
    /// long to compare.
    pub fn new(names: Vec<Value>, rows: usize, columns: Vec<Series>) -> Result<Frame, String> {
        if u32::try_from(rows).is_err() {
            return Err(format!("{rows} rows: at most {} are compared", u32::MAX));
        }
        if names.len() != columns.len() {
            return Err(format!(
                "{} column names for {} columns",
                names.len(),
                columns.len()
            ));
        }
        if let Some((index, column)) = columns
            .iter()
            .enumerate()
            .find(|(_, column)| column.cells.len() != rows)
        {
            return Err(format!(
                "column {index} holds {} values, not {rows}",
                column.cells.len()
            ));
        }
        Ok(Frame {
            names,
            rows,
            columns,
        })
    }

    /// `pd.DataFrame(rows, columns=names)` on a query's rows (pandas 3), each column's dtype
    /// inferred as pandas infers it from Python values:
    /// - integers only: `int64`; integers and floats, or numbers with `None`: `float64`, with
    ///   `None` as NaN and every integer as a float;
    /// - booleans only: `bool`; booleans with anything else: `object`;
    /// - text with nothing but missing values (`None`, NaN): `str`, missing values as NaN;
    ///   text with numbers or booleans: `object`;
    /// - `None` only, or no rows: `object`.
    ///
    /// Rows must be as wide as the columns (the mode checks this first).
    pub fn from_result(result: &ResultSet) -> Frame {
        let width = result.columns.len();
        let columns = (0..width)
            .map(|index| {
                infer_column(
                    result
                        .rows
                        .iter()
                        .map(|row| row.get(index).cloned().unwrap_or(Value::Null))
                        .collect(),
                )
            })
            .collect();
        Frame {
            names: result
                .columns
                .iter()
                .map(|name| Value::Text(name.as_str().into()))
                .collect(),
            rows: result.rows.len(),
            columns,
        }
    }

    pub(super) fn view(&self) -> Vec<&Series> {
        self.columns.iter().collect()
    }
}

/// One column's dtype and cells, as pandas' constructor infers them (see [`Frame::from_result`]).
fn infer_column(mut cells: Vec<Value>) -> Series {
    let (mut null, mut nan, mut boolean, mut int, mut float, mut text) =
        (false, false, false, false, false, false);
    for cell in &cells {
        match cell {
            Value::Null => null = true,
            Value::Float(f) if f.is_nan() => nan = true,
            Value::Bool(_) => boolean = true,
            Value::Int(_) => int = true,
            Value::Float(_) => float = true,
            Value::Text(_) => text = true,
        }
    }
    let numbers = int || float || nan;
    let missing_as_nan = |cells: &mut Vec<Value>| {
        for cell in cells.iter_mut() {
            if matches!(cell, Value::Null) {
                *cell = Value::Float(f64::NAN);
            }
        }
    };
    if text && !boolean && !int && !float {
        // pandas' `str` dtype: text, missing values as NaN.
        missing_as_nan(&mut cells);
        return Series::new(Dtype::Str, cells);
    }
    if text || (boolean && (null || numbers)) || (!numbers && !boolean) {
        return Series::new(Dtype::Object, cells);
    }
    if boolean {
        return Series::new(Dtype::Bool, cells);
    }
    if int && !float && !nan && !null {
        return Series::new(Dtype::Int, cells);
    }
    // float64: every integer as a float, `None` as NaN.
    for cell in &mut cells {
        if let Value::Int(i) = cell {
            *cell = Value::Float(*i as f64);
        }
    }
    missing_as_nan(&mut cells);
    Series::new(Dtype::Float, cells)
}

pub(super) fn is_nan(value: &Value) -> bool {
    matches!(value, Value::Float(f) if f.is_nan())
}

pub(super) fn is_missing(value: &Value) -> bool {
    matches!(value, Value::Null) || is_nan(value)
}

/// NumPy's `==` on two cells: Python's equality, with NaN equal to nothing.
pub(super) fn numpy_eq(a: &Value, b: &Value) -> bool {
    !is_nan(a) && !is_nan(b) && py_values::eq(a, b)
}

pub(super) fn number(value: &Value) -> f64 {
    match value {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

/// `(a.values == b.values).all()`, or `false` where NumPy cannot broadcast the shapes (the
/// comparison raises, and `compare_df` goes on).
pub(super) fn values_equal(a: &Frame, b: &Frame) -> bool {
    let broadcast = |x: usize, y: usize| match (x, y) {
        _ if x == y => Some(x),
        (1, _) => Some(y),
        (_, 1) => Some(x),
        _ => None,
    };
    let (Some(rows), Some(width)) = (
        broadcast(a.rows, b.rows),
        broadcast(a.columns.len(), b.columns.len()),
    ) else {
        return false;
    };
    fn at(frame: &Frame, row: usize, column: usize) -> &Value {
        let column = &frame.columns[if frame.columns.len() == 1 { 0 } else { column }];
        &column.cells[if frame.rows == 1 { 0 } else { row }]
    }
    (0..rows).all(|row| (0..width).all(|column| numpy_eq(at(a, row, column), at(b, row, column))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dtype(cells: Vec<Value>) -> (Dtype, Vec<Value>) {
        let column = infer_column(cells);
        (column.dtype, column.cells)
    }

    #[test]
    fn columns_take_the_dtype_pandas_infers_from_python_values() {
        let nan = Value::Float(f64::NAN);
        let text = |s: &str| Value::Text(s.into());
        assert_eq!(
            dtype(vec![Value::Int(1)]),
            (Dtype::Int, vec![Value::Int(1)])
        );
        assert_eq!(dtype(vec![Value::Bool(true)]).0, Dtype::Bool);
        // Integers with None or floats become float64.
        let (kind, cells) = dtype(vec![Value::Int(1), Value::Null]);
        assert!(kind == Dtype::Float && cells[0] == Value::Float(1.0) && is_nan(&cells[1]));
        // Text with missing values is pandas' str dtype: None becomes NaN.
        let (kind, cells) = dtype(vec![text("a"), Value::Null]);
        assert!(kind == Dtype::Str && is_nan(&cells[1]));
        // Booleans with None, and text with numbers, stay Python objects.
        assert_eq!(
            dtype(vec![Value::Bool(true), Value::Null]),
            (Dtype::Object, vec![Value::Bool(true), Value::Null])
        );
        assert_eq!(
            dtype(vec![text("a"), Value::Int(1)]),
            (Dtype::Object, vec![text("a"), Value::Int(1)])
        );
        assert_eq!(dtype(vec![Value::Null]), (Dtype::Object, vec![Value::Null]));
        assert_eq!(dtype(vec![nan]).0, Dtype::Float);
    }
}
