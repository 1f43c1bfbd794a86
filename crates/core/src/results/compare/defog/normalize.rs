//! `normalize_table`'s rows (duplicates dropped, sorted as planned) and the comparisons of two
//! normalised frames, cell by cell or, where sorting cannot change the answer, as sets of rows.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use super::frame::{Frame, Series, is_nan, number};
use super::normalization::Normalization;
use super::sort::{Sorted, check_sortable};
use super::{PythonError, Spread};
use crate::results::Value;
use crate::results::hash::Fingerprint;
use crate::results::python as py_values;

/// A row as `drop_duplicates` tells rows apart: cells equal under Python's `==`, NaN matching
/// NaN. Hashed once, compared cell by cell.
struct DedupeKey<'a> {
    hash: u64,
    row: usize,
    columns: &'a [&'a Series],
}

impl<'a> DedupeKey<'a> {
    /// Rows equal under `==` have equal ranks in every column, so the ranks make the hash.
    fn new(columns: &'a [&'a Series], sorted: &[&Sorted], row: usize) -> DedupeKey<'a> {
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

/// `normalize_table`'s rows: the first occurrence of each distinct row, sorted as planned (row
/// indices into the frame). `sorted` holds the columns of `columns`, sorted.
pub(super) fn normalize(
    columns: &[&Series],
    sorted: &[&Sorted],
    rows: usize,
    plan: &Normalization,
) -> Result<Vec<usize>, PythonError> {
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
pub(super) type Normalizing<'a> = (&'a [&'a Series], &'a [&'a Sorted], usize, &'a Normalization);

/// Both sides normalised side by side; the first side's error first, as sql-eval meets it.
pub(super) fn normalize_both(
    a: Normalizing<'_>,
    b: Normalizing<'_>,
    spread: &impl Spread,
) -> Result<(Vec<usize>, Vec<usize>), PythonError> {
    let [a, b] = two(spread.each(&[a, b], |side| normalize(side.0, side.1, side.2, side.3)))?;
    Ok((a?, b?))
}

/// The two results a [`Spread`] gave for two items; an error where it broke its promise of one
/// result per item (a thread that failed).
fn two<R>(results: Vec<R>) -> Result<[R; 2], PythonError> {
    <[R; 2]>::try_from(results)
        .map_err(|_| PythonError::new(super::ErrorClass::ValueError, "comparing the frames failed"))
}

/// The columns of both frames sorted, spread over the work's threads: one list for each.
pub(super) fn sort_both(a: &Frame, b: &Frame, spread: &impl Spread) -> (Vec<Sorted>, Vec<Sorted>) {
    let columns: Vec<&Series> = a.columns.iter().chain(&b.columns).collect();
    let mut sorted = spread.each(&columns, |column| Sorted::new(column));
    let second = sorted.split_off(a.columns.len());
    (sorted, second)
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
pub(super) fn same_distinct_rows(
    (gold, gold_rows, gold_plan): (&[&Series], usize, &Normalization),
    (generated, gen_rows, gen_plan): (&[&Series], usize, &Normalization),
    spread: &impl Spread,
) -> Result<Option<bool>, PythonError> {
    /// The sort as positions among the kept columns, and its direction.
    fn shape(plan: &Normalization) -> Option<(Vec<usize>, bool)> {
        let (keys, ascending) = plan.sort.as_ref()?;
        let places = keys
            .iter()
            .map(|key| plan.order.iter().position(|column| column == key))
            .collect::<Option<Vec<_>>>()?;
        (places.len() == plan.order.len()).then_some((places, *ascending))
    }
    fn plain(column: &Series) -> bool {
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
    let distinct = |columns: &[&Series], rows: usize, plan: &Normalization| -> Vec<u128> {
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
    let sides = [
        (gold, gold_rows, gold_plan),
        (generated, gen_rows, gen_plan),
    ];
    let [a, b] = two(spread.each(&sides, |&(columns, rows, plan)| {
        distinct(columns, rows, plan)
    }))?;
    Ok(Some(a == b))
}

/// Whether each pair of columns holds equal cells (`cell_eq`, told whether either column
/// compares exactly) at the rows `a_rows` and `b_rows` list, in step. The rows lie all over each
/// column, so a column at a time (fewer pages in use at once), the columns shared among the
/// threads `spread` offers, each stopping at the first difference any finds.
pub(super) fn rows_agree(
    pairs: &[(&Series, &Series)],
    a_rows: &[usize],
    b_rows: &[usize],
    cell_eq: impl Fn(&Value, &Value, bool) -> bool + Sync,
    spread: &impl Spread,
) -> bool {
    let differs = AtomicBool::new(false);
    spread.each(pairs, |(a, b)| {
        let exact = a.exact() || b.exact();
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
    });
    !differs.into_inner()
}

/// `assert_series_equal(check_dtype=False)` on two cells.
pub(super) fn series_cell_eq(a: &Value, b: &Value, exact: bool) -> bool {
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
pub(super) fn same_sorted(a: (&Series, &Sorted), b: (&Series, &Sorted), exact: bool) -> bool {
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
