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
//!
//! One difference is known: where every column of a frame holds numbers and one holds floats,
//! NumPy compares its values as floats, so an integer past 2^53 equals the float nearest it;
//! here they compare exactly, as Python compares them.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use qeval_core::results::Value;
use qeval_core::results::hash::{Fingerprint, FxBuild};
use qeval_core::results::python as py_values;
use qeval_native::pool::cores;

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
/// (native order, 8/8/1 bytes a cell), `text` with a one-column Arrow table of text, or `object`
/// with a list of the column's Python values.
pub fn frame(
    py: Python<'_>,
    columns: Vec<(String, Bound<'_, PyAny>)>,
    rows: usize,
    side: &str,
) -> PyResult<Frame> {
    if u32::try_from(rows).is_err() {
        return Err(refuse(
            side,
            format!("{rows} rows: at most {} are compared", u32::MAX),
        ));
    }
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
            "text" => crate::arrow::text_column(data)?.ok_or_else(|| {
                refuse(side, format!("column {index}: its Arrow data is not text"))
            })?,
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
/// NaN. Hashed once, compared cell by cell.
struct DedupeKey<'a> {
    hash: u64,
    row: usize,
    columns: &'a [&'a Column],
}

impl<'a> DedupeKey<'a> {
    /// Rows equal under `==` have equal ranks in every column, so the ranks make the hash.
    fn new(columns: &'a [&'a Column], sorted: &[&Sorted], row: usize) -> DedupeKey<'a> {
        let hash = sorted.iter().fold(0u64, |hash, column| {
            (hash.rotate_left(5) ^ u64::from(column.rank[row]))
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

/// The sort key of positive infinity, the largest number (NaN is missing): texts and missing
/// values sort above it.
const NUMBERS_END: u64 = 0xfff0_0000_0000_0000;

/// Each cell as `sort_values` orders it, as an integer: numbers by value, then text by code
/// point (UTF-8's byte order), then missing values. A number is its float's bits mapped to an
/// order-keeping integer (`-0.0` as `0.0`, which it equals), at most `NUMBERS_END`; a text is
/// placed after every number by its rank among the column's distinct texts, so a column of a few
/// thousand names is sorted without comparing text a million times; missing is `u64::MAX`.
fn sort_keys(column: &Column) -> Vec<u64> {
    // Each distinct text numbered as met, then the numbers replaced by the texts' order.
    let mut texts: HashMap<&[u8], usize, FxBuild> = HashMap::default();
    let met: Vec<usize> = column
        .cells
        .iter()
        .map(|cell| match cell {
            Value::Text(text) => {
                let next = texts.len();
                *texts.entry(text.as_bytes()).or_insert(next)
            }
            _ => 0,
        })
        .collect();
    let mut distinct: Vec<(&[u8], usize)> = texts.into_iter().collect();
    distinct.sort_unstable();
    let mut place = vec![0u64; distinct.len()];
    for (rank, (_, id)) in distinct.into_iter().enumerate() {
        place[id] = NUMBERS_END + 1 + rank as u64;
    }
    column
        .cells
        .iter()
        .zip(met)
        .map(|(cell, id)| match cell {
            _ if is_missing(cell) => u64::MAX,
            Value::Text(_) => place[id],
            _ => {
                let bits = (number(cell) + 0.0).to_bits();
                if bits >> 63 == 1 {
                    !bits
                } else {
                    bits | 1 << 63
                }
            }
        })
        .collect()
}

/// How Python orders two numbers one float stands for: exactly, as whole numbers (a float that
/// stands for an integer past 2^53 is itself whole).
fn exact_cmp(a: &Value, b: &Value) -> Ordering {
    let whole = |value: &Value| match value {
        Value::Int(int) => Some(i128::from(*int)),
        Value::Bool(flag) => Some(i128::from(*flag)),
        Value::Float(float) if float.fract() == 0.0 && float.abs() < 1e38 => Some(*float as i128),
        _ => None,
    };
    match (whole(a), whole(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => Ordering::Equal,
    }
}

/// One column sorted as `sort_values` sorts it (stably), kept for every use: the rows in that
/// order, and each row's rank in it, equal for cells that sort equal. Sorting rows on several
/// columns then compares small integers instead of cells.
struct Sorted {
    order: Vec<u32>,
    rank: Vec<u32>,
    /// The rank of the missing cells (they sort last), when there are any.
    missing: Option<u32>,
    /// For a column of numbers only, none missing and no integer a float cannot hold (beyond
    /// 2^53): its sort keys in order. Equal keys are then equal values under `==`, and two such
    /// columns hold the same values exactly when these are equal.
    numbers: Option<Vec<u64>>,
}

impl Sorted {
    fn new(column: &Column) -> Sorted {
        // Each cell's key above its row, sorted by key as radix sorts do: stable, so the rows
        // come in the frame's order among equals.
        let mut keyed = radix_sort(
            sort_keys(column)
                .into_iter()
                .zip(0u32..)
                .map(|(key, row)| u128::from(key) << 32 | u128::from(row))
                .collect(),
        );
        let cell = |entry: u128| &column.cells[entry as u32 as usize];
        // Integers past 2^53 that one float stands for are ordered exactly, as Python and NumPy
        // order them: the rows that share a key are sorted again (stably) where they hold one.
        let wide = column
            .cells
            .iter()
            .any(|cell| matches!(cell, Value::Int(int) if int.unsigned_abs() > 1 << 53));
        if wide {
            for run in keyed.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
                if run.len() > 1 {
                    run.sort_by(|&a, &b| exact_cmp(cell(a), cell(b)));
                }
            }
        }
        let mut rank = vec![0u32; keyed.len()];
        let mut current = 0u32;
        let mut missing = None;
        for (index, &entry) in keyed.iter().enumerate() {
            let key = entry >> 32;
            if index > 0
                && (keyed[index - 1] >> 32 != key
                    || (wide && exact_cmp(cell(keyed[index - 1]), cell(entry)).is_ne()))
            {
                current += 1;
            }
            if key == u128::from(u64::MAX) {
                missing = Some(current);
            }
            rank[entry as u32 as usize] = current;
        }
        // Numbers only, none missing, when the largest key is a number's; and none past 2^53.
        let only_numbers = keyed
            .last()
            .is_none_or(|&entry| entry >> 32 <= u128::from(NUMBERS_END));
        let numbers = (only_numbers && !wide)
            .then(|| keyed.iter().map(|&entry| (entry >> 32) as u64).collect());
        Sorted {
            order: keyed.into_iter().map(|entry| entry as u32).collect(),
            rank,
            missing,
            numbers,
        }
    }

    /// How the rows `x` and `y` compare on this column, in the direction asked; missing cells
    /// go last either way.
    fn cmp_rows(&self, x: usize, y: usize, ascending: bool) -> Ordering {
        let (a, b) = (self.rank[x], self.rank[y]);
        if ascending || self.missing == Some(a) || self.missing == Some(b) {
            a.cmp(&b)
        } else {
            b.cmp(&a)
        }
    }
}

/// `entries` (a key above a row) sorted by key, stably: a pass per byte of the key, least
/// significant first, skipping the bytes every key shares (an integer column's high bytes).
fn radix_sort(mut entries: Vec<u128>) -> Vec<u128> {
    let mut counts = [[0usize; 256]; 8];
    for &entry in &entries {
        for (byte, count) in counts.iter_mut().enumerate() {
            count[(entry >> (32 + 8 * byte)) as u8 as usize] += 1;
        }
    }
    let mut spare = vec![0u128; entries.len()];
    for (byte, count) in counts.iter().enumerate() {
        if count.contains(&entries.len()) {
            continue;
        }
        let mut next = [0usize; 256];
        let mut total = 0;
        for (slot, &n) in next.iter_mut().zip(count) {
            *slot = total;
            total += n;
        }
        for &entry in &entries {
            let digit = (entry >> (32 + 8 * byte)) as u8 as usize;
            spare[next[digit]] = entry;
            next[digit] += 1;
        }
        std::mem::swap(&mut entries, &mut spare);
    }
    entries
}

/// Every column of `columns` sorted, the columns spread over the machine's cores.
fn sort_all(columns: &[&Column]) -> Vec<Sorted> {
    crate::on_every_core(columns, |column| Sorted::new(column))
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

/// `normalize_table`'s rows: the first occurrence of each distinct row, sorted as planned (row
/// indices into the frame). `sorted` holds the columns of `columns`, sorted.
fn normalize(
    columns: &[&Column],
    sorted: &[&Sorted],
    rows: usize,
    plan: &Plan,
) -> PyResult<Vec<usize>> {
    let mut seen = HashSet::with_capacity(rows);
    let kept: Vec<bool> = (0..rows)
        .map(|row| seen.insert(DedupeKey::new(columns, sorted, row)))
        .collect();
    let kept_rows = || (0..rows).filter(|&row| kept[row]).collect();
    let Some((keys, ascending)) = &plan.sort else {
        return Ok(kept_rows());
    };
    if keys.len() == 1 {
        check_sortable(columns[keys[0]])?;
    }
    let Some((&first, rest)) = keys.split_first() else {
        return Ok(kept_rows());
    };
    // The rows in the first key's order, its runs of equal cells reversed for a descending sort
    // (missing cells stay last); then each run sorted on the other keys, keeping the frame's
    // order among equals. The same order as one stable sort on every key, found in linear time
    // when the first key tells most rows apart.
    let by_first = sorted[first];
    let mut runs: Vec<&[u32]> = by_first
        .order
        .chunk_by(|&a, &b| by_first.rank[a as usize] == by_first.rank[b as usize])
        .collect();
    if !ascending {
        let present = runs.len() - usize::from(by_first.missing.is_some());
        runs[..present].reverse();
    }
    let mut out = Vec::with_capacity(seen.len());
    for run in runs {
        let start = out.len();
        out.extend(run.iter().map(|&row| row as usize).filter(|&row| kept[row]));
        if out.len() - start > 1 && !rest.is_empty() {
            out[start..].sort_unstable_by(|&x, &y| {
                rest.iter()
                    .map(|&key| sorted[key].cmp_rows(x, y, *ascending))
                    .find(|order| order.is_ne())
                    .unwrap_or(Ordering::Equal)
                    .then(x.cmp(&y))
            });
        }
    }
    Ok(out)
}

/// What [`normalize`] takes for one side.
type Normalizing<'a> = (&'a [&'a Column], &'a [&'a Sorted], usize, &'a Plan);

/// Both sides normalised side by side; the first side's error first, as sql-eval meets it.
fn normalize_both(a: Normalizing<'_>, b: Normalizing<'_>) -> PyResult<(Vec<usize>, Vec<usize>)> {
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(|| normalize(b.0, b.1, b.2, b.3));
        let first = normalize(a.0, a.1, a.2, a.3);
        (first, second.join())
    });
    let b = b.map_err(|_| PyValueError::new_err("normalising a frame failed"))?;
    Ok((a?, b?))
}

/// The columns of both frames sorted (see [`sort_all`]), one list for each.
fn sort_both(a: &Frame, b: &Frame) -> (Vec<Sorted>, Vec<Sorted>) {
    let columns: Vec<&Column> = a.columns.iter().chain(&b.columns).collect();
    let mut sorted = sort_all(&columns);
    let second = sorted.split_off(a.columns.len());
    (sorted, second)
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
    if let Some(equal) = same_distinct_rows(
        (&gold.view(), gold.rows, gold_plan),
        (&generated.view(), generated.rows, gen_plan),
    )? {
        return Ok(Some(equal));
    }
    let (gold_sorted, gen_sorted) = sort_both(gold, generated);
    let (gold_rows, gen_rows) = normalize_both(
        (
            &gold.view(),
            &gold_sorted.iter().collect::<Vec<_>>(),
            gold.rows,
            gold_plan,
        ),
        (
            &generated.view(),
            &gen_sorted.iter().collect::<Vec<_>>(),
            generated.rows,
            gen_plan,
        ),
    )?;
    if gold_rows.len() != gen_rows.len() || gold_plan.order.len() != gen_plan.order.len() {
        return Ok(Some(false));
    }
    let pairs: Vec<(&Column, &Column)> = gold_plan
        .order
        .iter()
        .zip(&gen_plan.order)
        .map(|(&a, &b)| (&gold.columns[a], &generated.columns[b]))
        .collect();
    Ok(Some(rows_agree(
        &pairs,
        &gold_rows,
        &gen_rows,
        |a, b, _| numpy_eq(a, b),
    )))
}

/// Whether two normalised frames hold the same cells, found without sorting where sorting cannot
/// change the answer: both sides sort on every column in the same way (the same key order over
/// the kept columns, the same direction), and no cell is missing, NaN, or an integer a float
/// cannot hold (beyond 2^53). Then two rows that sort equal are equal under `==` and so one
/// after duplicates are dropped, the sorted distinct rows are in one order, and the normalised
/// frames are equal cell for cell exactly when their sets of distinct rows are: compared as
/// 128-bit fingerprints under Python's equality, as the `set` comparison compares rows. `None`
/// where that does not hold, and the rows are sorted instead. Each side is its columns (as the
/// plan's indices name them), its row count and its plan.
fn same_distinct_rows(
    (gold, gold_rows, gold_plan): (&[&Column], usize, &Plan),
    (generated, gen_rows, gen_plan): (&[&Column], usize, &Plan),
) -> PyResult<Option<bool>> {
    /// The sort as positions among the kept columns, and its direction.
    fn shape(plan: &Plan) -> Option<(Vec<usize>, bool)> {
        let (keys, ascending) = plan.sort.as_ref()?;
        let places = keys
            .iter()
            .map(|key| plan.order.iter().position(|column| column == key))
            .collect::<Option<Vec<_>>>()?;
        (places.len() == plan.order.len()).then_some((places, *ascending))
    }
    fn plain(column: &Column) -> bool {
        column.cells.iter().all(|cell| match cell {
            Value::Null => false,
            Value::Float(float) => !float.is_nan(),
            Value::Int(int) => int.unsigned_abs() <= 1 << 53,
            Value::Bool(_) | Value::Text(_) => true,
        })
    }
    let shapes = (shape(gold_plan), shape(gen_plan));
    if shapes.0.is_none()
        || shapes.0 != shapes.1
        || !gold.iter().chain(generated).all(|column| plain(column))
    {
        return Ok(None);
    }
    // Sorting one column alone raises where Python cannot order its values; sql-eval meets the
    // gold side first.
    for (columns, plan) in [(gold, gold_plan), (generated, gen_plan)] {
        if let Some((keys, _)) = &plan.sort
            && let [key] = keys.as_slice()
        {
            check_sortable(columns[*key])?;
        }
    }
    if gold_plan.order.len() != gen_plan.order.len() {
        return Ok(Some(false));
    }
    let distinct = |columns: &[&Column], rows: usize, plan: &Plan| -> Vec<u128> {
        let mut states: Vec<Fingerprint> = (0..rows).map(|_| Fingerprint::default()).collect();
        for &column in &plan.order {
            for (state, cell) in states.iter_mut().zip(&columns[column].cells) {
                py_values::hash(cell, state);
            }
        }
        let mut prints: Vec<u128> = states.iter().map(Fingerprint::finish128).collect();
        prints.sort_unstable();
        prints.dedup();
        prints
    };
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(|| distinct(generated, gen_rows, gen_plan));
        (distinct(gold, gold_rows, gold_plan), second.join())
    });
    let b = b.map_err(|_| PyValueError::new_err("comparing the frames failed"))?;
    Ok(Some(a == b))
}

/// Whether each pair of columns holds equal cells (`cell_eq`, told whether either column
/// compares exactly) at the rows `a_rows` and `b_rows` list, in step. The rows lie all over each
/// column, so a column at a time (fewer pages in use at once), the columns split across the
/// machine's cores, and every core stops at the first difference any finds.
fn rows_agree(
    pairs: &[(&Column, &Column)],
    a_rows: &[usize],
    b_rows: &[usize],
    cell_eq: impl Fn(&Value, &Value, bool) -> bool + Sync,
) -> bool {
    let differs = AtomicBool::new(false);
    let chunk = pairs.len().div_ceil(cores()).max(1);
    std::thread::scope(|scope| {
        for part in pairs.chunks(chunk) {
            let (differs, cell_eq) = (&differs, &cell_eq);
            scope.spawn(move || {
                for (a, b) in part {
                    let exact = a.exact || b.exact;
                    for (rows_a, rows_b) in a_rows.chunks(4096).zip(b_rows.chunks(4096)) {
                        if differs.load(AtomicOrdering::Relaxed) {
                            return;
                        }
                        let same = rows_a
                            .iter()
                            .zip(rows_b)
                            .all(|(&x, &y)| cell_eq(&a.cells[x], &b.cells[y], exact));
                        if !same {
                            differs.store(true, AtomicOrdering::Relaxed);
                            return;
                        }
                    }
                }
            });
        }
    });
    !differs.into_inner()
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

/// Whether two columns hold the same cells once sorted, as `assert_series_equal` finds them.
fn same_sorted(a: (&Column, &Sorted), b: (&Column, &Sorted), exact: bool) -> bool {
    // Equal exactly, so within any tolerance: told by the sort keys, in order, not by the cells
    // scattered over memory.
    if let (Some(x), Some(y)) = (&a.1.numbers, &b.1.numbers)
        && x == y
    {
        return true;
    }
    a.1.order.len() == b.1.order.len()
        && a.1
            .order
            .iter()
            .zip(&b.1.order)
            .all(|(&x, &y)| series_cell_eq(&a.0.cells[x as usize], &b.0.cells[y as usize], exact))
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
    // Every column is sorted up front, on every core; each is checked for what sql-eval cannot
    // sort when sql-eval would sort it, so the same error comes at the same point.
    let (sub_sorted, sup_sorted) = sort_both(sub, sup);
    let mut sup_checked = vec![false; sup.columns.len()];
    let mut unmatched: Vec<usize> = (0..sup.columns.len()).collect();
    let mut matched = Vec::with_capacity(sub.columns.len());
    for (index, column) in sub.columns.iter().enumerate() {
        let mut checked = false;
        let mut found = None;
        for (slot, &candidate) in unmatched.iter().enumerate() {
            if !checked {
                check_sortable(column)?;
                checked = true;
            }
            if !sup_checked[candidate] {
                check_sortable(&sup.columns[candidate])?;
                sup_checked[candidate] = true;
            }
            let theirs = &sup.columns[candidate];
            let exact = column.exact || theirs.exact;
            if same_sorted(
                (column, &sub_sorted[index]),
                (theirs, &sup_sorted[candidate]),
                exact,
            ) {
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
    // Cells equal exactly are equal within pandas' tolerance too: when the distinct rows are the
    // same, so is the verdict, without sorting. Otherwise numbers may still match within it.
    if sub_plan.order == sup_plan.order
        && same_distinct_rows(
            (&sub.view(), sub.rows, sub_plan),
            (&projected, sup.rows, sup_plan),
        )? == Some(true)
    {
        return Ok((Some(true), None));
    }
    let projected_sorted: Vec<&Sorted> = matched.iter().map(|&index| &sup_sorted[index]).collect();
    let (sub_rows, sup_rows) = normalize_both(
        (
            &sub.view(),
            &sub_sorted.iter().collect::<Vec<_>>(),
            sub.rows,
            sub_plan,
        ),
        (&projected, &projected_sorted, sup.rows, sup_plan),
    )?;
    if sub_rows.len() != sup_rows.len() || sub_plan.order != sup_plan.order {
        return Ok((Some(false), None));
    }
    let pairs: Vec<(&Column, &Column)> = sub_plan
        .order
        .iter()
        .map(|&column| (&sub.columns[column], projected[column]))
        .collect();
    let equal = rows_agree(&pairs, &sub_rows, &sup_rows, series_cell_eq);
    Ok((Some(equal), None))
}
