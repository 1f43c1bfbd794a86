//! `seed`: the "results match" of KQL batch testing. Columns are compared by lowercased name for
//! overlap (extra generated columns do not count against it); rows are compared on the shared
//! columns, order-independent, and the score counts the expected rows found in the generated
//! rows:
//!
//! `score = 0.5 * (shared columns / expected columns) + 0.5 * (expected rows found / expected rows)`
//!
//! When one side has no column names (a scalar, an array of arrays), columns pair by position.

use super::align::{AlignedBy, Alignment, describe};
use super::key::{Rules, matched_on};
use super::{CompareOptions, Comparison, Mode, rows};
use crate::results::ResultSet;

pub(super) fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let rules = Rules::of(options);
    let mut alignment: Alignment = Vec::new();
    // Without names on one side (a scalar, an array of arrays), columns pair by position.
    if !expected.named || !generated.named {
        alignment = (0..expected.width().min(generated.width()))
            .map(|c| (c, c, AlignedBy::Position))
            .collect();
    }
    for (e, name) in expected
        .columns
        .iter()
        .enumerate()
        .filter(|_| expected.named && generated.named)
    {
        let lower = name.to_lowercase();
        let found = generated.columns.iter().enumerate().find(|(g, other)| {
            other.to_lowercase() == lower && !alignment.iter().any(|p| p.1 == *g)
        });
        if let Some((g, _)) = found {
            alignment.push((e, g, AlignedBy::Name));
        }
    }
    let schema = if expected.width() == 0 {
        1.0
    } else {
        alignment.len() as f64 / expected.width() as f64
    };
    let (n_e, n_g) = (expected.rows.len(), generated.rows.len());
    let matched = matched_on(expected, generated, &alignment, &rules);
    let found = match (n_e, n_g) {
        (0, 0) => 1.0,
        (0, _) => 0.0,
        _ => matched as f64 / n_e as f64,
    };
    let score = 0.5 * schema + 0.5 * found;
    let explanation = format!(
        "Columns: {} of {} expected present; rows: {matched} of {} expected found in {} generated",
        alignment.len(),
        expected.width(),
        rows(n_e),
        rows(n_g)
    );
    Comparison {
        mode: Mode::Seed,
        score,
        equal: score >= 1.0,
        expected_rows: n_e,
        generated_rows: n_g,
        matched_rows: matched,
        precision: None,
        recall: Some(found),
        alignment: describe(expected, generated, &alignment),
        order_matters: false,
        explanation,
    }
}
