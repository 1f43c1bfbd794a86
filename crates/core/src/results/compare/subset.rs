//! `subset`: every expected column must equal some generated column, compared as whole columns
//! (sorted first unless order matters), numbers within an absolute tolerance. Extra generated
//! columns are free; a generated column may serve several expected ones. The verdict is 1 or 0,
//! as in Spider 2.0's evaluator (whose style this follows; it sorts by `str(x)`, this by value).

use std::cmp::Ordering;

use super::align::{AlignedBy, ColumnPair};
use super::key::{Key, Rules, key};
use super::{CompareOptions, Comparison, Mode, rows};
use crate::results::ResultSet;

pub fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let rules = Rules {
        tolerance: 0.0,
        ..Rules::of(options)
    };
    let column = |table, c| column_values(table, c, options.order_matters);
    let generated_columns: Vec<Vec<Key<'_>>> = (0..generated.width())
        .map(|c| column(generated, c))
        .collect();
    let mut alignment = Vec::new();
    let mut missing = Vec::new();
    for e in 0..expected.width() {
        let wanted = column(expected, e);
        let found = generated_columns
            .iter()
            .position(|offered| same_column(&wanted, offered, options.subset_tolerance, &rules));
        match found {
            Some(g) => alignment.push(ColumnPair {
                expected: expected.columns[e].clone(),
                generated: generated.columns[g].clone(),
                by: AlignedBy::Values,
            }),
            None => missing.push(expected.columns[e].clone()),
        }
    }
    let equal = missing.is_empty();
    let explanation = if equal {
        format!(
            "All {} expected columns found among {} generated ({})",
            expected.width(),
            generated.width(),
            rows(expected.rows.len())
        )
    } else {
        format!(
            "{} of {} expected columns found; not found: {}",
            alignment.len(),
            expected.width(),
            missing.join(", ")
        )
    };
    Comparison {
        mode: Mode::Subset,
        score: if equal { 1.0 } else { 0.0 },
        equal,
        expected_rows: expected.rows.len(),
        generated_rows: generated.rows.len(),
        matched_rows: if equal { expected.rows.len() } else { 0 },
        precision: None,
        recall: None,
        alignment,
        order_matters: options.order_matters,
        explanation,
    }
}

/// A column's values, sorted unless order matters.
fn column_values(table: &ResultSet, column: usize, order_matters: bool) -> Vec<Key<'_>> {
    if order_matters {
        return table.rows.iter().map(|row| key(&row[column])).collect();
    }
    // Sort on a fixed-size prefix first; most comparisons then never touch the text itself.
    let mut keyed: Vec<(u8, u64, Key<'_>)> = table
        .rows
        .iter()
        .map(|row| {
            let k = key(&row[column]);
            let (rank, prefix) = match k {
                Key::Num(n) => (0, ordered_bits(n)),
                Key::Text(t) => {
                    let mut head = [0u8; 8];
                    let n = t.len().min(8);
                    head[..n].copy_from_slice(&t.as_bytes()[..n]);
                    (1, u64::from_be_bytes(head))
                }
                Key::Null => (2, 0),
            };
            (rank, prefix, k)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then_with(|| order(&a.2, &b.2))
    });
    keyed.into_iter().map(|(_, _, k)| k).collect()
}

/// An f64's bits, flipped so that unsigned order is numeric order.
fn ordered_bits(n: f64) -> u64 {
    let bits = n.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// NULLs last, numbers before text, numbers by value, text by code point.
fn order(a: &Key<'_>, b: &Key<'_>) -> Ordering {
    let rank = |k: &Key<'_>| match k {
        Key::Num(_) => 0,
        Key::Text(_) => 1,
        Key::Null => 2,
    };
    match (a, b) {
        (Key::Num(x), Key::Num(y)) => x.total_cmp(y),
        (Key::Text(x), Key::Text(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Python's `math.isclose(a, b, abs_tol=tol)`: relative 1e-9 or absolute `tol`.
fn close(a: f64, b: f64, tolerance: f64) -> bool {
    a == b || (a - b).abs() <= (1e-9 * a.abs().max(b.abs())).max(tolerance)
}

fn same_column(a: &[Key<'_>], b: &[Key<'_>], tolerance: f64, rules: &Rules) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Key::Num(p), Key::Num(q)) => close(*p, *q, tolerance),
            _ => rules.same(*x, *y),
        })
}
