//! `set`: BIRD's execution accuracy, `set(predicted) == set(ground_truth)`: rows as tuples
//! (columns by position), duplicates and row order ignored, values compared as Python compares
//! them.

use std::collections::HashSet;

use super::{Comparison, Mode, rows};
use crate::results::ResultSet;
use crate::results::python::Row;

pub fn compare(expected: &ResultSet, generated: &ResultSet) -> Comparison {
    let wanted: HashSet<Row<'_>> = expected.rows.iter().map(|r| Row(r)).collect();
    let offered: HashSet<Row<'_>> = generated.rows.iter().map(|r| Row(r)).collect();
    let common = wanted.intersection(&offered).count();
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
