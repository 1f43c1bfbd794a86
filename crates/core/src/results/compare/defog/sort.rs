//! Sorting a column as pandas' `sort_values` sorts it, once, for every use a comparison makes
//! of the order: normalising rows, telling duplicates apart, matching sorted columns.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::frame::{Series, is_missing, number};
use super::{ErrorClass, PythonError};
use crate::results::Value;
use crate::results::hash::FxBuild;
use crate::results::python as py_values;

/// The sort key of positive infinity, the largest number (NaN is missing): texts and missing
/// values sort above it.
const NUMBERS_END: u64 = 0xfff0_0000_0000_0000;

/// Each cell as `sort_values` orders it, as an integer: numbers by value, then text by code
/// point (UTF-8's byte order), then missing values. A number is its float's bits mapped to an
/// order-keeping integer (`-0.0` as `0.0`, which it equals), at most `NUMBERS_END`; a text is
/// placed after every number by its rank among the column's distinct texts, so a column of a few
/// thousand names is sorted without comparing text a million times; missing is `u64::MAX`.
fn sort_keys(column: &Series) -> Vec<u64> {
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
pub(super) fn exact_cmp(a: &Value, b: &Value) -> Ordering {
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
pub(super) struct Sorted {
    pub(super) order: Vec<u32>,
    pub(super) rank: Vec<u32>,
    /// The rank of the missing cells (they sort last), when there are any.
    pub(super) missing: Option<u32>,
    /// For a column of numbers only, none missing and no integer a float cannot hold (beyond
    /// 2^53): its sort keys in order. Equal keys are then equal values under `==`, and two such
    /// columns hold the same values exactly when these are equal.
    pub(super) numbers: Option<Vec<u64>>,
}

impl Sorted {
    pub(super) fn new(column: &Series) -> Sorted {
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
    pub(super) fn cmp_rows(&self, x: usize, y: usize, ascending: bool) -> Ordering {
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

/// `sort_values(by=[one column])` compares the values themselves, and Python cannot order text
/// against numbers.
pub(super) fn check_sortable(column: &Series) -> Result<(), PythonError> {
    let text = column
        .cells
        .iter()
        .find(|cell| matches!(cell, Value::Text(_)));
    let other = column
        .cells
        .iter()
        .find(|cell| !matches!(cell, Value::Text(_)) && !is_missing(cell));
    match (text, other) {
        (Some(_), Some(other)) => Err(PythonError::new(
            ErrorClass::TypeError,
            format!(
                "'<' not supported between instances of 'str' and '{}'",
                py_values::type_name(other)
            ),
        )),
        _ => Ok(()),
    }
}
