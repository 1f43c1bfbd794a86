//! `f1`, qeval's default: align columns by name, then by values for the ones whose names differ;
//! count expected rows found in the generated rows as multisets on the aligned columns; score the
//! row F1 times the share of expected columns aligned. Extra generated columns are free; row
//! order does not count.

use super::align::{self, Alignment};
use super::key::{Rules, matched_on};
use super::{CompareOptions, Comparison, Mode, f1_of, rows};
use crate::results::ResultSet;

pub(super) fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let rules = Rules::of(options);
    let alignment: Alignment = align::by_values(
        expected,
        generated,
        &rules,
        align::by_name(expected, generated),
    );
    let (n_e, n_g) = (expected.rows.len(), generated.rows.len());
    let matched = matched_on(expected, generated, &alignment, &rules);
    let (precision, recall) = match (n_e, n_g) {
        (0, 0) => (1.0, 1.0),
        _ => (ratio(matched, n_g), ratio(matched, n_e)),
    };
    let coverage = if expected.width() == 0 {
        1.0
    } else {
        alignment.len() as f64 / expected.width() as f64
    };
    let row_f1 = f1_of(precision, recall);
    let score = row_f1 * coverage;

    let missing: Vec<&str> = (0..expected.width())
        .filter(|e| !alignment.iter().any(|p| p.0 == *e))
        .map(|e| expected.columns[e].as_str())
        .collect();
    let mut explanation = format!(
        "{matched} of {} expected found, {matched} of {} generated expected (row F1 {row_f1:.3})",
        rows(n_e),
        rows(n_g)
    );
    if missing.is_empty() {
        explanation.push_str(&format!(
            "; all {} expected columns aligned",
            expected.width()
        ));
    } else {
        explanation.push_str(&format!(
            "; {} of {} expected columns aligned, missing: {}",
            alignment.len(),
            expected.width(),
            missing.join(", ")
        ));
    }
    Comparison {
        mode: Mode::F1,
        score,
        equal: score >= 1.0,
        expected_rows: n_e,
        generated_rows: n_g,
        matched_rows: matched,
        precision: Some(precision),
        recall: Some(recall),
        alignment: align::describe(expected, generated, &alignment),
        order_matters: false,
        explanation,
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
