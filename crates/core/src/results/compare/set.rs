//! `set`: BIRD's execution accuracy, `set(predicted) == set(ground_truth)`: rows as tuples
//! (columns by position), duplicates and row order ignored, values compared as Python compares
//! them.

use super::{Comparison, Mode, rows};
use crate::results::ResultSet;
use crate::results::python::row_fingerprint;
use crate::words::counted;

/// The distinct rows' fingerprints, sorted.
fn distinct(table: &ResultSet) -> Vec<u128> {
    let mut prints: Vec<u128> = table.rows.iter().map(row_fingerprint).collect();
    prints.sort_unstable();
    prints.dedup();
    prints
}

/// Whether no row of one table can equal a row of the other: every row of each is as wide as
/// its first, and the widths differ. Tuples of different lengths are never equal, so the
/// answer is known before hashing a row.
fn widths_differ(expected: &ResultSet, generated: &ResultSet) -> bool {
    !expected.rows.is_empty()
        && !generated.rows.is_empty()
        && expected.rows.is_uniform()
        && generated.rows.is_uniform()
        && expected.rows.first_width() != generated.rows.first_width()
}

pub(super) fn compare(expected: &ResultSet, generated: &ResultSet) -> Comparison {
    if widths_differ(expected, generated) {
        let (e, g) = (expected.rows.first_width(), generated.rows.first_width());
        return Comparison::unequal(
            Mode::Set,
            expected,
            generated,
            false,
            format!(
                "Different sets of rows: expected rows have {}, generated rows {}",
                counted(e, "column"),
                counted(g, "column")
            ),
        );
    }
    let (wanted, offered) = (distinct(expected), distinct(generated));
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < wanted.len() && j < offered.len() {
        match wanted[i].cmp(&offered[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let equal = wanted == offered;
    let explanation = if equal {
        format!("Same set of rows ({} distinct)", wanted.len())
    } else {
        format!(
            "Different sets of rows: {common} of {} distinct expected rows among {} distinct generated",
            wanted.len(),
            offered.len()
        )
    };
    Comparison {
        mode: Mode::Set,
        score: if equal { 1.0 } else { 0.0 },
        equal,
        expected_rows: expected.rows.len(),
        generated_rows: generated.rows.len(),
        matched_rows: common,
        precision: None,
        recall: None,
        alignment: Vec::new(),
        order_matters: false,
        explanation: if expected.rows.is_empty() && generated.rows.is_empty() {
            format!("Both results are empty ({})", rows(0))
        } else {
            explanation
        },
    }
}
