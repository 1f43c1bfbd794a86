//! `soft-f1`: BIRD mini-dev's Soft-F1. Both results lose duplicate rows (keeping the first);
//! the i-th expected row is paired with the i-th generated row; in a pair, each generated value
//! found among the expected row's values is a match and the others are "generated only", each
//! expected value missing from the generated row is "expected only", all divided by the expected
//! row's width; unpaired rows count wholly as misses. F1 of the summed parts.
//!
//! As in BIRD's code, a generated row can score more matches than the expected row has values,
//! and an expected row with no values makes the whole comparison 0 (a division by zero there).

use super::{Comparison, Mode, f1_of};
use crate::results::python::{eq, hash64, row_fingerprint};
use crate::results::{ResultSet, Rows, Value};

pub(super) fn compare(expected: &ResultSet, generated: &ResultSet) -> Comparison {
    let (n_e, n_g) = (expected.rows.len(), generated.rows.len());
    let outcome = score(&generated.rows, &expected.rows);
    let (score, precision, recall, explanation) = match outcome {
        RowScore::BothEmpty => (1.0, 1.0, 1.0, "Both results are empty".to_string()),
        RowScore::EmptyRow => (
            0.0,
            0.0,
            0.0,
            "An expected row has no values: BIRD's Soft-F1 fails (division by zero) and scores 0"
                .to_string(),
        ),
        RowScore::Scored {
            tp,
            fp,
            fn_,
            precision,
            recall,
        } => {
            let f1 = f1_of(precision, recall);
            (
                f1,
                precision,
                recall,
                format!(
                    "Soft-F1 {f1:.3}: matched {tp:.3}, generated only {fp:.3}, expected only {fn_:.3} (rows paired by position after removing duplicates)"
                ),
            )
        }
    };
    Comparison {
        mode: Mode::SoftF1,
        score,
        equal: score >= 1.0,
        expected_rows: n_e,
        generated_rows: n_g,
        matched_rows: 0,
        precision: Some(precision),
        recall: Some(recall),
        alignment: Vec::new(),
        order_matters: true,
        explanation,
    }
}

enum RowScore {
    BothEmpty,
    EmptyRow,
    Scored {
        tp: f64,
        fp: f64,
        fn_: f64,
        precision: f64,
        recall: f64,
    },
}

/// The rows without repeats, each kept where it first appears. Found by sorting fingerprints
/// with their positions rather than through a hash set: the same answer, with memory read in
/// order.
fn dedupe(rows: &Rows) -> Vec<&[Value]> {
    let mut prints: Vec<(u128, usize)> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| (row_fingerprint(row), i))
        .collect();
    prints.sort_unstable();
    let mut keep = vec![true; rows.len()];
    for pair in prints.windows(2) {
        // Within equal fingerprints the first position sorts first; the later ones go.
        if pair[0].0 == pair[1].0 {
            keep[pair[1].1] = false;
        }
    }
    rows.iter()
        .zip(keep)
        .filter_map(|(row, kept)| kept.then_some(row))
        .collect()
}

/// Each value's hash under Python's equality, into `out`: finding a value in a row compares
/// hashes, and runs the full equality only where they agree.
fn hash_into(values: &[Value], out: &mut Vec<u64>) {
    out.clear();
    out.extend(values.iter().map(hash64));
}

/// How many of `values` are found in `other` (each with its hashes).
fn found_in(values: &[Value], hashes: &[u64], other: &[Value], other_hashes: &[u64]) -> usize {
    values
        .iter()
        .zip(hashes)
        .filter(|&(value, h)| {
            other_hashes
                .iter()
                .zip(other)
                .any(|(other_h, other_value)| other_h == h && eq(value, other_value))
        })
        .count()
}

fn score(predicted: &Rows, truth: &Rows) -> RowScore {
    if predicted.is_empty() && truth.is_empty() {
        return RowScore::BothEmpty;
    }
    let predicted = dedupe(predicted);
    let truth = dedupe(truth);
    // Sums in the order BIRD's code adds them, so the floating-point result is the same.
    let (mut tp, mut fp, mut fn_) = (0.0f64, 0.0f64, 0.0f64);
    let (mut pred_hashes, mut truth_hashes) = (Vec::new(), Vec::new());
    for (i, truth_row) in truth.iter().enumerate() {
        let Some(pred_row) = predicted.get(i) else {
            fn_ += 1.0;
            continue;
        };
        let width = truth_row.len();
        if width == 0 {
            return RowScore::EmptyRow;
        }
        // Rows equal value by value (the usual case) match wholly: every value is found at its
        // own position, so the search through the other row is skipped.
        let (matches, pred_only, truth_only) = if pred_row.len() == width
            && pred_row.iter().zip(truth_row.iter()).all(|(p, t)| eq(p, t))
        {
            (width, 0, 0)
        } else {
            hash_into(pred_row, &mut pred_hashes);
            hash_into(truth_row, &mut truth_hashes);
            let matches = found_in(pred_row, &pred_hashes, truth_row, &truth_hashes);
            let truth_only = width - found_in(truth_row, &truth_hashes, pred_row, &pred_hashes);
            (matches, pred_row.len() - matches, truth_only)
        };
        tp += matches as f64 / width as f64;
        fp += pred_only as f64 / width as f64;
        fn_ += truth_only as f64 / width as f64;
    }
    for _ in truth.len()..predicted.len().max(truth.len()) {
        fp += 1.0;
    }
    let precision = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
    let recall = if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 };
    RowScore::Scored {
        tp,
        fp,
        fn_,
        precision,
        recall,
    }
}
