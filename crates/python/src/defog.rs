//! defog's `compare_df` and `subset_df` (sql-eval), reproduced on pandas DataFrames read column by
//! column. The `qeval.compat.defog` wrapper works out from column names and query text what each
//! side's normalisation does (a [`Plan`]); this module does the work on the cells.
//!
//! What pandas and NumPy do, and this module therefore does:
//! - `df.values == df.values` compares with Python's `==`, broadcasting shapes as NumPy does: a
//!   one-row frame is compared with every row of the other, and a broadcast to zero rows is
//!   "all equal". NaN equals nothing, `None` equals `None`.
//! - `drop_duplicates` keeps each row's first occurrence; NaN matches NaN there, `None` only
//!   `None`, and `1`, `1.0` and `True` are one value.
//! - `sort_values` is stable, puts missing values last in either direction, numbers before text;
//!   sorting a single column that mixes text with other values is a `TypeError`.
//! - `assert_series_equal(check_dtype=False)` compares exactly when either column is of an integer
//!   or boolean type, and numbers within `rtol=1e-5, atol=1e-8` otherwise; missing values must
//!   sit at the same places and be of the same kind (NaN with NaN, `None` with `None`).

use std::cmp::Ordering;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use qeval_core::results::Value;
use qeval_core::results::python as py_values;

/// One DataFrame column: its cells, and whether pandas compares it exactly (integer and boolean
/// types) or within a tolerance (floats, objects, text).
pub struct Column {
    exact: bool,
    cells: Vec<Value>,
}

/// A DataFrame as columns of equal length.
pub struct Frame {
    rows: usize,
    columns: Vec<Column>,
}

impl Frame {
    fn view(&self) -> Vec<&Column> {
        self.columns.iter().collect()
    }
}

/// What `normalize_table` does to one side: the columns it keeps, in order, and how it sorts the
/// rows (`None`: it keeps their order). Indices are the frame's column positions.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Plan {
    order: Vec<usize>,
    sort: Option<(Vec<usize>, bool)>,
}

fn refuse(side: &str, message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{side}: {message}"))
}

/// Reads `(kind, data)` columns: `kind` is `int`, `float` or `bool` with the NumPy array's bytes
/// (native order, 8/8/1 bytes a cell), or `object` with a list of the column's Python values.
pub fn frame(
    py: Python<'_>,
    columns: Vec<(String, Bound<'_, PyAny>)>,
    rows: usize,
    side: &str,
) -> PyResult<Frame> {
    let exact_types = crate::rows::Exact::new(py);
    let mut read = Vec::with_capacity(columns.len());
    for (index, (kind, data)) in columns.iter().enumerate() {
        let cells: Vec<Value> = match kind.as_str() {
            "int" | "float" | "bool" => {
                let bytes = data.cast::<PyBytes>()?.as_bytes();
                match kind.as_str() {
                    "int" => bytes
                        .chunks_exact(8)
                        .map(|chunk| {
                            Value::Int(i64::from_ne_bytes(chunk.try_into().unwrap_or_default()))
                        })
                        .collect(),
                    "float" => bytes
                        .chunks_exact(8)
                        .map(|chunk| {
                            Value::Float(f64::from_ne_bytes(chunk.try_into().unwrap_or_default()))
                        })
                        .collect(),
                    _ => bytes.iter().map(|&byte| Value::Bool(byte != 0)).collect(),
                }
            }
            "object" => {
                let list = data.cast::<PyList>()?;
                let mut cells = Vec::with_capacity(list.len());
                for item in list.iter() {
                    cells.push(crate::rows::cell(&item, &exact_types)?);
                }
                cells
            }
            other => {
                return Err(refuse(
                    side,
                    format!("column {index}: unknown kind {other:?}"),
                ));
            }
        };
        if cells.len() != rows {
            return Err(refuse(
                side,
                format!("column {index} holds {} values, not {rows}", cells.len()),
            ));
        }
        read.push(Column {
            exact: matches!(kind.as_str(), "int" | "bool"),
            cells,
        });
    }
    Ok(Frame {
        rows,
        columns: read,
    })
}

fn is_nan(value: &Value) -> bool {
    matches!(value, Value::Float(f) if f.is_nan())
}

fn is_missing(value: &Value) -> bool {
    matches!(value, Value::Null) || is_nan(value)
}

/// NumPy's `==` on two cells: Python's equality, with NaN equal to nothing.
fn numpy_eq(a: &Value, b: &Value) -> bool {
    !is_nan(a) && !is_nan(b) && py_values::eq(a, b)
}

/// `(a.values == b.values).all()`, or `false` where NumPy cannot broadcast the shapes (the
/// comparison raises, and `compare_df` goes on).
pub fn values_equal(a: &Frame, b: &Frame) -> bool {
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

/// A row as `drop_duplicates` tells rows apart: cells equal under Python's `==`, NaN matching
/// NaN. Hashed once by its cells' hashes, compared cell by cell.
struct DedupeKey<'a> {
    hash: u64,
    row: usize,
    columns: &'a [&'a Column],
}

impl<'a> DedupeKey<'a> {
    fn new(columns: &'a [&'a Column], row: usize) -> DedupeKey<'a> {
        let hash = columns.iter().fold(0u64, |hash, column| {
            (hash.rotate_left(5) ^ py_values::hash64(&column.cells[row]))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
        });
        DedupeKey { hash, row, columns }
    }
}

impl PartialEq for DedupeKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.columns
            .iter()
            .all(|column| py_values::eq(&column.cells[self.row], &column.cells[other.row]))
    }
}

impl Eq for DedupeKey<'_> {}

impl Hash for DedupeKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// How `sort_values` orders two cells of one column: numbers by value, then text, then missing.
fn sort_order(a: &Value, b: &Value) -> Ordering {
    let rank = |value: &Value| match value {
        _ if is_missing(value) => 2,
        Value::Text(_) => 1,
        _ => 0,
    };
    match (a, b) {
        (Value::Text(x), Value::Text(y)) => x.as_str().cmp(y.as_str()),
        _ => match rank(a).cmp(&rank(b)) {
            Ordering::Equal if rank(a) == 0 => {
                number(a).partial_cmp(&number(b)).unwrap_or(Ordering::Equal)
            }
            other => other,
        },
    }
}

fn number(value: &Value) -> f64 {
    match value {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

/// `sort_values(by=[one column])` compares the values themselves, and Python cannot order text
/// against numbers.
fn check_sortable(column: &Column) -> PyResult<()> {
    let text = column
        .cells
        .iter()
        .find(|cell| matches!(cell, Value::Text(_)));
    let other = column
        .cells
        .iter()
        .find(|cell| !matches!(cell, Value::Text(_)) && !is_missing(cell));
    match (text, other) {
        (Some(_), Some(other)) => Err(PyTypeError::new_err(format!(
            "'<' not supported between instances of 'str' and '{}'",
            match other {
                Value::Bool(_) => "bool",
                Value::Int(_) => "int",
                _ => "float",
            }
        ))),
        _ => Ok(()),
    }
}

/// `normalize_table`'s rows: the first occurrence of each distinct row, sorted as planned, with
/// the planned columns (row indices into the frame, and the column order).
fn normalize(columns: &[&Column], rows: usize, plan: &Plan) -> PyResult<Vec<usize>> {
    let mut seen = HashSet::with_capacity(rows);
    let mut rows: Vec<usize> = (0..rows)
        .filter(|&row| seen.insert(DedupeKey::new(columns, row)))
        .collect();
    if let Some((keys, ascending)) = &plan.sort {
        if keys.len() == 1 {
            check_sortable(columns[keys[0]])?;
        }
        rows.sort_by(|&x, &y| {
            for &key in keys {
                let cells = &columns[key].cells;
                let (a, b) = (&cells[x], &cells[y]);
                let order = match (is_missing(a), is_missing(b)) {
                    (false, false) if !ascending => sort_order(b, a),
                    _ => sort_order(a, b),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
            Ordering::Equal
        });
    }
    Ok(rows)
}

/// `compare_df`: the values as given, then both sides normalised and compared cell by cell.
pub fn compare_df(
    gold: &Frame,
    generated: &Frame,
    gold_plan: Option<&Plan>,
    gen_plan: Option<&Plan>,
) -> PyResult<Option<bool>> {
    if values_equal(gold, generated) {
        return Ok(Some(true));
    }
    let (Some(gold_plan), Some(gen_plan)) = (gold_plan, gen_plan) else {
        return Ok(None);
    };
    let gold_rows = normalize(&gold.view(), gold.rows, gold_plan)?;
    let gen_rows = normalize(&generated.view(), generated.rows, gen_plan)?;
    if gold_rows.len() != gen_rows.len() || gold_plan.order.len() != gen_plan.order.len() {
        return Ok(Some(false));
    }
    Ok(Some(gold_rows.iter().zip(&gen_rows).all(|(&x, &y)| {
        gold_plan
            .order
            .iter()
            .zip(&gen_plan.order)
            .all(|(&a, &b)| numpy_eq(&gold.columns[a].cells[x], &generated.columns[b].cells[y]))
    })))
}

/// `assert_series_equal(check_dtype=False)` on two cells.
fn series_cell_eq(a: &Value, b: &Value, exact: bool) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ if is_nan(a) || is_nan(b) => is_nan(a) && is_nan(b),
        (Value::Text(x), Value::Text(y)) => x == y,
        (Value::Text(_), _) | (_, Value::Text(_)) => false,
        _ if exact => py_values::eq(a, b),
        _ => {
            let (x, y) = (number(a), number(b));
            x == y || (x - y).abs() <= f64::max(1e-5 * f64::max(x.abs(), y.abs()), 1e-8)
        }
    }
}

/// A column's cells sorted as `Series.sort_values()` sorts them.
fn sorted(column: &Column) -> PyResult<Vec<&Value>> {
    check_sortable(column)?;
    let mut cells: Vec<&Value> = column.cells.iter().collect();
    cells.sort_by(|a, b| sort_order(a, b));
    Ok(cells)
}

/// `subset_df`: each column of `sub` matched, in order, with the first unmatched column of
/// `sup` holding the same sorted values; then the matched frames normalised and compared. The
/// verdict is `None` when a plan was needed and is missing; the second value is the first column
/// of `sub` without a match.
pub fn subset_df(
    sub: &Frame,
    sup: &Frame,
    sub_plan: Option<&Plan>,
    sup_plan: Option<&Plan>,
) -> PyResult<(Option<bool>, Option<usize>)> {
    if sub.rows == 0 || sub.columns.is_empty() {
        return Ok((Some(false), None));
    }
    let mut sup_sorted: Vec<Option<Vec<&Value>>> = vec![None; sup.columns.len()];
    let mut unmatched: Vec<usize> = (0..sup.columns.len()).collect();
    let mut matched = Vec::with_capacity(sub.columns.len());
    for (index, column) in sub.columns.iter().enumerate() {
        let mut mine = None;
        let mut found = None;
        for (slot, &candidate) in unmatched.iter().enumerate() {
            if mine.is_none() {
                mine = Some(sorted(column)?);
            }
            let mine = mine.as_deref().unwrap_or_default();
            if sup_sorted[candidate].is_none() {
                sup_sorted[candidate] = Some(sorted(&sup.columns[candidate])?);
            }
            let theirs = sup_sorted[candidate].as_deref().unwrap_or_default();
            let exact = column.exact || sup.columns[candidate].exact;
            if mine.len() == theirs.len()
                && mine
                    .iter()
                    .zip(theirs)
                    .all(|(a, b)| series_cell_eq(a, b, exact))
            {
                found = Some(slot);
                break;
            }
        }
        let Some(slot) = found else {
            return Ok((Some(false), Some(index)));
        };
        matched.push(unmatched.remove(slot));
    }
    let (Some(sub_plan), Some(sup_plan)) = (sub_plan, sup_plan) else {
        return Ok((None, None));
    };
    let projected: Vec<&Column> = matched.iter().map(|&index| &sup.columns[index]).collect();
    let sub_rows = normalize(&sub.view(), sub.rows, sub_plan)?;
    let sup_rows = normalize(&projected, sup.rows, sup_plan)?;
    if sub_rows.len() != sup_rows.len() || sub_plan.order != sup_plan.order {
        return Ok((Some(false), None));
    }
    let equal = sub_plan.order.iter().all(|&column| {
        let (a, b) = (&sub.columns[column], projected[column]);
        let exact = a.exact || b.exact;
        sub_rows
            .iter()
            .zip(&sup_rows)
            .all(|(&x, &y)| series_cell_eq(&a.cells[x], &b.cells[y], exact))
    });
    Ok((Some(equal), None))
}
