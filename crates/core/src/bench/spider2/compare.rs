//! Spider 2.0's comparison (`compare_multi_pandas_table`, `compare_pandas_table`,
//! `vectors_match` of `spider2-lite/evaluation_suite/evaluate.py`), reproduced with its
//! quirks: each gold column is matched on its own against any predicted column (rows are
//! never aligned across columns), missing values become the integer 0, `ignore_order` sorts
//! each column by Python's `str` of its values, numbers agree within `math.isclose(abs_tol=0.01)`.

use serde_json::Value as Json;

use super::Variant;
use super::read_csv::{CsvCell, CsvDtype, CsvFrame};
use crate::results::python::float_repr;

/// A value as Python sees it in `frame.transpose().values.tolist()`.
#[derive(Debug, Clone, PartialEq)]
enum Py {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
}

impl Py {
    fn is_number(&self) -> bool {
        !matches!(self, Py::Str(_))
    }

    /// `float(x)` of a number.
    fn as_float(&self) -> f64 {
        match self {
            Py::Int(n) => *n as f64,
            Py::Float(x) => *x,
            Py::Bool(b) => f64::from(u8::from(*b)),
            Py::Str(_) => f64::NAN,
        }
    }

    /// `str(x)`, the sort key of `ignore_order`.
    fn python_str(&self) -> String {
        match self {
            Py::Int(n) => n.to_string(),
            Py::Float(x) => float_repr(*x),
            Py::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Py::Str(s) => s.clone(),
        }
    }
}

/// The column vectors of `frame.iloc[:, selection].transpose().values.tolist()`: numpy's common
/// dtype of the columns decides each value's Python type (all int64: `int`; int64, uint64 and
/// float64 mixed: every value a `float`; with a bool or text column: each keeps its own type).
fn vectors(frame: &CsvFrame, selection: &[usize]) -> Vec<Vec<Py>> {
    let dtypes: Vec<CsvDtype> = selection.iter().map(|&c| frame.columns[c].dtype).collect();
    let all_floats = dtypes
        .iter()
        .all(|d| *d != CsvDtype::Object && *d != CsvDtype::Bool)
        && !dtypes.windows(2).all(|w| w[0] == w[1]);
    selection
        .iter()
        .map(|&c| {
            frame.columns[c]
                .cells
                .iter()
                .map(|cell| match cell {
                    CsvCell::Int(n) if all_floats => Py::Float(*n as f64),
                    CsvCell::Int(n) => Py::Int(*n),
                    CsvCell::Float(x) => Py::Float(*x),
                    CsvCell::Bool(b) => Py::Bool(*b),
                    CsvCell::Text(s) => Py::Str(s.clone()),
                })
                .collect()
        })
        .collect()
}

/// `math.isclose(a, b, rel_tol=1e-9, abs_tol=0.01)` as CPython computes it.
fn is_close(a: f64, b: f64) -> bool {
    if a == b {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    let diff = (b - a).abs();
    diff <= (1e-9 * b).abs() || diff <= (1e-9 * a).abs() || diff <= 0.01
}

/// A column as `vectors_match` compares it: `normalize` (every missing value, NaN, becomes the
/// integer 0), then, with `ignore_order`, sorted by `(str(x), isinstance(x, (int, float)))`.
/// Each column is prepared once, not once per pair it is compared in.
fn prepared(column: &[Py], ignore_order: bool) -> Vec<Py> {
    let mut values: Vec<Py> = column
        .iter()
        .map(|x| match x {
            Py::Float(f) if f.is_nan() => Py::Int(0),
            other => other.clone(),
        })
        .collect();
    if ignore_order {
        values.sort_by_cached_key(|x| (x.python_str(), x.is_number()));
    }
    values
}

/// `vectors_match(gold, pred, tol=1e-2, ignore_order_)` on two prepared columns.
fn vectors_match(gold: &[Py], pred: &[Py]) -> bool {
    gold.len() == pred.len() && gold.iter().zip(pred).all(|(a, b)| same_value(a, b))
}

/// The cell rule: numbers (booleans too) by `math.isclose`, anything else by `==`.
fn same_value(a: &Py, b: &Py) -> bool {
    if a.is_number() && b.is_number() {
        is_close(a.as_float(), b.as_float())
    } else {
        a == b
    }
}

/// Why a comparison raised (the evaluator turns it into "Python Script Error:" and 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Raised(pub String);

/// Python's truthiness of a JSON value.
pub(super) fn truthy(value: &Json) -> bool {
    match value {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// The gold columns `gold.iloc[:, condition_cols]` selects (positions; negative from the end).
fn select(gold: &CsvFrame, condition_cols: &Json) -> Result<Vec<usize>, Raised> {
    let items = match condition_cols {
        Json::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    let width = gold.columns.len() as i64;
    items
        .iter()
        .map(|item| match item {
            Json::Number(n) if n.is_i64() => {
                let index = n.as_i64().unwrap_or_default();
                let index = if index < 0 { index + width } else { index };
                if (0..width).contains(&index) {
                    Ok(index as usize)
                } else {
                    Err(Raised("positional indexers are out-of-bounds".into()))
                }
            }
            Json::Array(_) => Err(Raised(
                "Buffer has wrong number of dimensions (expected 1, got 2)".into(),
            )),
            other => Err(Raised(format!(
                "cannot index by location index with a non-integer key {other}"
            ))),
        })
        .collect()
}

/// How rows are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowRule {
    /// The official rule: each gold column on its own, rows never aligned across columns.
    ByColumn,
    /// qeval's strict rule: also the rows whole, the gold columns matched one to one with
    /// predicted columns (a prediction whose rows are scrambled across columns fails).
    Whole,
}

/// `compare_pandas_table(pred, gold, condition_cols, ignore_order)`: 1 when every gold column
/// (those `condition_cols` names, or all) equals some predicted column.
pub(crate) fn compare_table(
    pred: &CsvFrame,
    gold: &CsvFrame,
    condition_cols: &Json,
    ignore_order: bool,
    variant: Variant,
    rows: RowRule,
) -> Result<bool, Raised> {
    // Lite tests `if condition_cols:`; Snow tests `if condition_cols != []:`, so there a 0 or a
    // None selects (column 0, or raises) where Lite compares every column.
    let selects = match variant {
        Variant::Lite => truthy(condition_cols),
        Variant::Snow => condition_cols != &Json::Array(Vec::new()),
    };
    let selection = if selects {
        if condition_cols.is_null() {
            return Err(Raised(
                "cannot index by location index with a non-integer key None".into(),
            ));
        }
        select(gold, condition_cols)?
    } else {
        (0..gold.columns.len()).collect()
    };
    let gold_vectors = vectors(gold, &selection);
    let pred_vectors = vectors(pred, &(0..pred.columns.len()).collect::<Vec<_>>());
    let gold_sorted: Vec<Vec<Py>> = gold_vectors
        .iter()
        .map(|v| prepared(v, ignore_order))
        .collect();
    let pred_sorted: Vec<Vec<Py>> = pred_vectors
        .iter()
        .map(|v| prepared(v, ignore_order))
        .collect();
    let candidates: Vec<Vec<usize>> = gold_sorted
        .iter()
        .map(|g| {
            (0..pred_sorted.len())
                .filter(|&p| vectors_match(g, &pred_sorted[p]))
                .collect()
        })
        .collect();
    if candidates.iter().any(Vec::is_empty) {
        return Ok(false);
    }
    Ok(rows == RowRule::ByColumn
        || whole_rows_match(&gold_vectors, &pred_vectors, &candidates, ignore_order))
}

/// Most assignments of gold columns to predicted columns the strict rule tries.
const MAX_ASSIGNMENTS: usize = 10_000;

/// Whether some one-to-one assignment of gold columns to their candidate predicted columns
/// makes the rows equal whole (as a multiset with `ignore_order`, else in order), each cell by
/// the official cell rule.
fn whole_rows_match(
    gold: &[Vec<Py>],
    pred: &[Vec<Py>],
    candidates: &[Vec<usize>],
    ignore_order: bool,
) -> bool {
    let gold_rows = rows_of(gold, &(0..gold.len()).collect::<Vec<_>>(), ignore_order);
    let mut chosen = Vec::with_capacity(gold.len());
    let mut tried = 0;
    assign(candidates, &mut chosen, &mut tried, &mut |chosen| {
        let pred_rows = rows_of(pred, chosen, ignore_order);
        pred_rows.len() == gold_rows.len()
            && gold_rows
                .iter()
                .zip(&pred_rows)
                .all(|(g, p)| g.iter().zip(p).all(|(a, b)| same_value(a, b)))
    })
}

/// Tries each one-to-one choice of a candidate per gold column until `found` holds.
fn assign(
    candidates: &[Vec<usize>],
    chosen: &mut Vec<usize>,
    tried: &mut usize,
    found: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if chosen.len() == candidates.len() {
        *tried += 1;
        return found(chosen);
    }
    for &column in &candidates[chosen.len()] {
        if *tried >= MAX_ASSIGNMENTS {
            return false;
        }
        if chosen.contains(&column) {
            continue;
        }
        chosen.push(column);
        if assign(candidates, chosen, tried, found) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// The rows of the columns `columns` (missing values as 0), sorted by their values' text when
/// order is ignored.
fn rows_of(vectors: &[Vec<Py>], columns: &[usize], ignore_order: bool) -> Vec<Vec<Py>> {
    let height = columns.first().map_or(0, |&c| vectors[c].len());
    let mut rows: Vec<Vec<Py>> = (0..height)
        .map(|r| {
            columns
                .iter()
                .map(|&c| match &vectors[c][r] {
                    Py::Float(f) if f.is_nan() => Py::Int(0),
                    other => other.clone(),
                })
                .collect()
        })
        .collect();
    if ignore_order {
        rows.sort_by_cached_key(|row| {
            row.iter()
                .map(|x| (x.python_str(), x.is_number()))
                .collect::<Vec<_>>()
        });
    }
    rows
}

/// `compare_multi_pandas_table(pred, golds, multi_condition_cols, ignore_order)`: 1 when any
/// gold matches, each with its own `condition_cols` (a list of lists), or the same flat list
/// for all when there are several golds. With one gold, a flat list's first item is used (an
/// integer, not a list: the official quirk).
pub(crate) fn compare_multi(
    pred: &CsvFrame,
    golds: &[CsvFrame],
    condition_cols: &Json,
    ignore_order: bool,
    variant: Variant,
    rows: RowRule,
) -> Result<bool, Raised> {
    if golds.is_empty() {
        return Ok(false);
    }
    let empty = Json::Array(Vec::new());
    let per_gold: Vec<Json> = match condition_cols {
        Json::Null => vec![empty.clone(); golds.len()],
        Json::Array(items)
            if items.is_empty()
                || items == std::slice::from_ref(&empty)
                || items == &[Json::Null] =>
        {
            vec![empty.clone(); golds.len()]
        }
        Json::Array(items) if golds.len() > 1 && !items.iter().all(Json::is_array) => {
            vec![condition_cols.clone(); golds.len()]
        }
        Json::Array(items) => items.clone(),
        other if golds.len() > 1 => {
            return Err(Raised(format!(
                "'{}' object is not iterable",
                python_type(other)
            )));
        }
        other => {
            return Err(Raised(format!(
                "'{}' object is not subscriptable",
                python_type(other)
            )));
        }
    };
    for (i, gold) in golds.iter().enumerate() {
        let Some(cols) = per_gold.get(i) else {
            return Err(Raised("list index out of range".into()));
        };
        if compare_table(pred, gold, cols, ignore_order, variant, rows)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn python_type(value: &Json) -> &'static str {
    match value {
        Json::Null => "NoneType",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "int",
        Json::String(_) => "str",
        Json::Array(_) => "list",
        Json::Object(_) => "dict",
    }
}

#[cfg(test)]
mod tests {
    use super::super::read_csv::read_csv;
    use super::*;
    use serde_json::json;

    fn frame(text: &str) -> CsvFrame {
        read_csv(text.as_bytes()).expect("readable")
    }

    fn lite(pred: &str, gold: &str, cc: Json, io: bool) -> Result<bool, Raised> {
        compare_table(
            &frame(pred),
            &frame(gold),
            &cc,
            io,
            Variant::Lite,
            RowRule::ByColumn,
        )
    }

    #[test]
    fn columns_match_one_by_one_so_a_row_scramble_passes() {
        let gold = "name,total\nAnn,1\nBob,2\n";
        assert_eq!(lite("n,t\nBob,1\nAnn,2\n", gold, json!([]), true), Ok(true));
        assert_eq!(
            lite("n,t\nBob,1\nAnn,2\n", gold, json!([]), false),
            Ok(false)
        );
        assert_eq!(lite("t\n2\n1\n", gold, json!([1]), true), Ok(true));
        assert_eq!(lite("t\n2\n1\n", gold, json!([0]), true), Ok(false));
    }

    #[test]
    fn the_strict_rule_holds_rows_whole() {
        let strict = |pred: &str, gold: &str, io: bool| {
            compare_table(
                &frame(pred),
                &frame(gold),
                &json!([]),
                io,
                Variant::Lite,
                RowRule::Whole,
            )
        };
        let gold = "name,total\nAnn,1\nBob,2\n";
        // Each column right, rows scrambled across columns: the official rule passes it.
        assert_eq!(lite("n,t\nBob,1\nAnn,2\n", gold, json!([]), true), Ok(true));
        assert_eq!(strict("n,t\nBob,1\nAnn,2\n", gold, true), Ok(false));
        // The right rows in another order, columns swapped, an extra column: still a pass.
        assert_eq!(
            strict("t,x,n\n2.001,9,Bob\n1,9,Ann\n", gold, true),
            Ok(true)
        );
        // Two identical gold columns need two predicted columns.
        assert_eq!(strict("a\n1\n", "a,b\n1,1\n", true), Ok(false));
        assert_eq!(strict("a,b\n1,1\n", "a,b\n1,1\n", true), Ok(true));
    }

    #[test]
    fn numbers_agree_within_the_tolerance_after_sorting_by_text() {
        assert_eq!(lite("x\n2.51\n", "x\n2.5\n", json!([]), true), Ok(true));
        assert_eq!(lite("x\n1.01\n", "x\n1.0\n", json!([]), true), Ok(false));
        assert_eq!(
            lite("x\n5\n10.001\n", "x\n5\n9.999\n", json!([]), true),
            Ok(false)
        );
        assert_eq!(
            lite("x\n5\n10.001\n", "x\n5\n9.999\n", json!([]), false),
            Ok(true)
        );
        // A blank line is no row; a quoted empty field is a missing value, read as 0.
        assert_eq!(lite("x\n\n", "x\n0\n", json!([]), true), Ok(false));
        assert_eq!(lite("x\n\"\"\n", "x\n0\n", json!([]), true), Ok(true));
        assert_eq!(lite("x,y\n,1\n", "x\n0\n", json!([]), true), Ok(true));
    }

    #[test]
    fn condition_cols_quirks_are_kept() {
        let gold = frame("a,b\n1,2\n");
        let pred = frame("b\n2\n");
        // One `_a` gold and a flat list: its first integer, 0, means every column.
        assert_eq!(
            compare_multi(
                &pred,
                std::slice::from_ref(&gold),
                &json!([0]),
                true,
                Variant::Lite,
                RowRule::ByColumn
            ),
            Ok(false)
        );
        assert_eq!(
            compare_multi(
                &pred,
                std::slice::from_ref(&gold),
                &json!([1, 0]),
                true,
                Variant::Lite,
                RowRule::ByColumn
            ),
            Ok(true)
        );
        assert_eq!(
            compare_multi(
                &pred,
                &[gold.clone(), gold.clone(), gold.clone()],
                &json!([[0], [0]]),
                true,
                Variant::Lite,
                RowRule::ByColumn
            ),
            Err(Raised("list index out of range".into()))
        );
        assert!(lite("b\n2\n", "a,b\n1,2\n", json!([5]), true).is_err());
        assert_eq!(
            compare_table(
                &pred,
                &gold,
                &json!(0),
                true,
                Variant::Snow,
                RowRule::ByColumn
            ),
            Ok(false)
        );
    }
}
