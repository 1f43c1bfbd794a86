//! Values reduced for comparison in qeval's own modes (`seed`, `subset`, `f1`), and multiset row
//! matching on them.
//!
//! Numbers compare numerically whatever their JSON type (`1`, `1.0`, `"1"` and `true` are one
//! value), within a relative tolerance; NULL equals NULL; text compares exactly, or ignoring
//! case when asked.

use std::hash::Hasher;

use crate::results::hash::{Fingerprint, Fx};
use crate::results::{ResultSet, Value};

/// A cell as compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Key<'a> {
    Null,
    Num(f64),
    Text(&'a str),
}

pub(super) fn key(value: &Value) -> Key<'_> {
    match value {
        Value::Null => Key::Null,
        Value::Text(text) => match crate::results::parse_number(text) {
            Some(number) => Key::Num(canonical(number)),
            None => Key::Text(text),
        },
        other => other
            .as_number()
            .map_or(Key::Null, |n| Key::Num(canonical(n))),
    }
}

/// One bit pattern per number: -0.0 is 0.0.
fn canonical(number: f64) -> f64 {
    if number == 0.0 { 0.0 } else { number }
}

/// How keys compare.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rules {
    pub tolerance: f64,
    pub ignore_case: bool,
}

impl Rules {
    /// The rules a comparison's options ask for.
    pub(super) fn of(options: &super::CompareOptions) -> Rules {
        Rules {
            tolerance: options.tolerance,
            ignore_case: options.ignore_case,
        }
    }

    /// Equal without tolerance: what hashing can find.
    pub(super) fn same(&self, a: Key<'_>, b: Key<'_>) -> bool {
        match (a, b) {
            (Key::Null, Key::Null) => true,
            (Key::Num(x), Key::Num(y)) => x == y,
            (Key::Text(x), Key::Text(y)) => {
                x == y
                    || (self.ignore_case
                        && x.chars()
                            .flat_map(char::to_lowercase)
                            .eq(y.chars().flat_map(char::to_lowercase)))
            }
            _ => false,
        }
    }

    /// Equal within the tolerance.
    pub(super) fn close(&self, a: Key<'_>, b: Key<'_>) -> bool {
        match (a, b) {
            (Key::Num(x), Key::Num(y)) => numbers_close(x, y, self.tolerance),
            _ => self.same(a, b),
        }
    }

    pub(super) fn hash<H: Hasher>(&self, key: Key<'_>, state: &mut H) {
        match key {
            Key::Null => state.write_u8(0),
            Key::Num(number) => {
                state.write_u8(1);
                state.write_u64(number.to_bits());
            }
            Key::Text(text) => {
                state.write_u8(2);
                if self.ignore_case {
                    for c in text.chars().flat_map(char::to_lowercase) {
                        state.write_u32(c as u32);
                    }
                } else {
                    state.write(text.as_bytes());
                }
                state.write_u8(0xff);
            }
        }
    }
}

/// `|a - b| <= tolerance * max(|a|, |b|)`, or exactly equal.
pub(super) fn numbers_close(a: f64, b: f64, tolerance: f64) -> bool {
    a == b || (a - b).abs() <= tolerance * a.abs().max(b.abs())
}

/// A result set seen through a choice of its columns.
pub(super) struct Projection<'a> {
    pub table: &'a ResultSet,
    pub columns: &'a [usize],
}

impl Projection<'_> {
    fn cell(&self, row: usize, column: usize) -> Key<'_> {
        key(&self.table.rows[row][self.columns[column]])
    }

    fn fingerprint(&self, row: usize, rules: &Rules) -> u128 {
        let mut state = Fingerprint::default();
        for column in 0..self.columns.len() {
            rules.hash(self.cell(row, column), &mut state);
        }
        state.finish128()
    }

    fn rows_close(
        &self,
        row: usize,
        other: &Projection<'_>,
        other_row: usize,
        rules: &Rules,
    ) -> bool {
        (0..self.columns.len())
            .all(|column| rules.close(self.cell(row, column), other.cell(other_row, column)))
    }
}

/// Rows of `expected` found in `generated` on the aligned columns (none when nothing aligned).
pub(super) fn matched_on(
    expected: &ResultSet,
    generated: &ResultSet,
    alignment: &[(usize, usize, super::AlignedBy)],
    rules: &Rules,
) -> usize {
    if alignment.is_empty() {
        return 0;
    }
    let e_cols: Vec<usize> = alignment.iter().map(|p| p.0).collect();
    let g_cols: Vec<usize> = alignment.iter().map(|p| p.1).collect();
    matched_rows(
        &Projection {
            table: expected,
            columns: &e_cols,
        },
        &Projection {
            table: generated,
            columns: &g_cols,
        },
        rules,
    )
}

/// How many rows of `expected` can be paired with distinct rows of `generated` (a multiset
/// intersection), comparing the projected columns pairwise. Exact matches are found by
/// fingerprint (see [`Fingerprint`]); the rows left over are then paired within the tolerance.
pub(super) fn matched_rows(
    expected: &Projection<'_>,
    generated: &Projection<'_>,
    rules: &Rules,
) -> usize {
    debug_assert_eq!(expected.columns.len(), generated.columns.len());
    let mut wanted: Vec<(u128, u32)> = (0..expected.table.rows.len())
        .map(|row| (expected.fingerprint(row, rules), row as u32))
        .collect();
    let mut offered: Vec<(u128, u32)> = (0..generated.table.rows.len())
        .map(|row| (generated.fingerprint(row, rules), row as u32))
        .collect();
    wanted.sort_unstable();
    offered.sort_unstable();

    let mut matched = 0;
    let mut spare_wanted = Vec::new();
    let mut spare_offered = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < wanted.len() && j < offered.len() {
        let (w, o) = (wanted[i].0, offered[j].0);
        if w < o {
            spare_wanted.push(wanted[i].1);
            i += 1;
        } else if o < w {
            spare_offered.push(offered[j].1);
            j += 1;
        } else {
            matched += 1;
            i += 1;
            j += 1;
        }
    }
    spare_wanted.extend(wanted[i..].iter().map(|(_, row)| *row));
    spare_offered.extend(offered[j..].iter().map(|(_, row)| *row));

    if rules.tolerance > 0.0 && !spare_wanted.is_empty() && !spare_offered.is_empty() {
        matched +=
            matched_within_tolerance(expected, &spare_wanted, generated, &spare_offered, rules);
    }
    matched
}

/// Pairs leftover rows that differ only by numbers within the tolerance. Rows are grouped by
/// their non-numeric cells; within a group, candidates are searched near the first number.
fn matched_within_tolerance(
    expected: &Projection<'_>,
    wanted: &[u32],
    generated: &Projection<'_>,
    offered: &[u32],
    rules: &Rules,
) -> usize {
    let width = expected.columns.len();
    // Group key: the non-numeric cells and which cells are numbers.
    let group = |table: &Projection<'_>, row: usize| -> (u64, f64) {
        let mut state = Fx::default();
        let mut first_number = None;
        for column in 0..width {
            match table.cell(row, column) {
                Key::Num(n) => {
                    state.write_u8(1);
                    first_number.get_or_insert(n);
                }
                other => rules.hash(other, &mut state),
            }
        }
        (state.finish(), first_number.unwrap_or(0.0))
    };
    let mut candidates: Vec<(u64, f64, u32)> = offered
        .iter()
        .map(|&row| {
            let (g, n) = group(generated, row as usize);
            (g, n, row)
        })
        .collect();
    candidates.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut used = vec![false; candidates.len()];
    let mut matched = 0;
    for &row in wanted {
        let (g, n) = group(expected, row as usize);
        let low = n - rules.tolerance * n.abs() * 2.0 - f64::MIN_POSITIVE;
        let start = candidates.partition_point(|c| c.0 < g || (c.0 == g && c.1 < low));
        let mut k = start;
        while k < candidates.len() && candidates[k].0 == g {
            let candidate = candidates[k];
            if candidate.1 > n && !numbers_close(n, candidate.1, rules.tolerance) {
                break;
            }
            if !used[k] && expected.rows_close(row as usize, generated, candidate.2 as usize, rules)
            {
                used[k] = true;
                matched += 1;
                break;
            }
            k += 1;
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: Vec<Vec<Value>>) -> ResultSet {
        ResultSet::unnamed(rows)
    }

    fn matched(a: &ResultSet, b: &ResultSet, tolerance: f64) -> usize {
        let columns: Vec<usize> = (0..a.width()).collect();
        matched_rows(
            &Projection {
                table: a,
                columns: &columns,
            },
            &Projection {
                table: b,
                columns: &columns,
            },
            &Rules {
                tolerance,
                ignore_case: false,
            },
        )
    }

    #[test]
    fn numbers_match_across_types() {
        let a = table(vec![
            vec![Value::Int(1)],
            vec![Value::Text("2".into())],
            vec![Value::Bool(true)],
        ]);
        let b = table(vec![
            vec![Value::Float(1.0)],
            vec![Value::Int(2)],
            vec![Value::Int(1)],
        ]);
        assert_eq!(matched(&a, &b, 0.0), 3);
    }

    #[test]
    fn duplicates_count_as_a_multiset() {
        let a = table(vec![
            vec![Value::Int(1)],
            vec![Value::Int(1)],
            vec![Value::Int(2)],
        ]);
        let b = table(vec![
            vec![Value::Int(1)],
            vec![Value::Int(2)],
            vec![Value::Int(2)],
        ]);
        assert_eq!(matched(&a, &b, 0.0), 2);
    }

    #[test]
    fn tolerance_pairs_near_numbers() {
        let a = table(vec![
            vec![Value::Text("x".into()), Value::Float(0.3)],
            vec![Value::Text("y".into()), Value::Float(100.0)],
        ]);
        let b = table(vec![
            vec![Value::Text("y".into()), Value::Float(100.5)],
            vec![Value::Text("x".into()), Value::Float(0.1 + 0.2)],
        ]);
        assert_eq!(matched(&a, &b, 0.0), 0);
        assert_eq!(matched(&a, &b, 1e-9), 1);
        assert_eq!(matched(&a, &b, 0.01), 2);
    }
}
