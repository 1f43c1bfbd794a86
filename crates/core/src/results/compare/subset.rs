//! `subset`: every expected column must equal some generated column, compared as whole columns
//! (sorted first unless order matters), numbers within an absolute tolerance. Extra generated
//! columns are free; a generated column may serve several expected ones. The verdict is 1 or 0,
//! as in Spider 2.0's evaluator (whose style this follows; it sorts by `str(x)`, this by value).

use std::cmp::Ordering;
use std::hash::Hasher;

use super::align::{AlignedBy, ColumnPair};
use super::key::{Key, Rules, key};
use super::{CompareOptions, Comparison, Mode, rows};
use crate::results::ResultSet;
use crate::results::hash::{Fingerprint, Fx, MultisetPrint, avalanche};

pub(super) fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let rules = Rules {
        tolerance: 0.0,
        ..Rules::of(options)
    };
    let order_matters = options.order_matters;
    let tolerance = options.subset_tolerance;
    let generated_profiles: Vec<ColumnSummary> = (0..generated.width())
        .map(|c| ColumnSummary::of(generated, c, order_matters, &rules))
        .collect();
    // Sorted only when a profile cannot settle it, and then once.
    let mut generated_columns: Vec<Option<Vec<Key<'_>>>> = vec![None; generated.width()];
    let mut alignment = Vec::new();
    let mut missing = Vec::new();
    for e in 0..expected.width() {
        let wanted = ColumnSummary::of(expected, e, order_matters, &rules);
        // The same values exactly (the usual right answer): no sorting at all.
        let mut found = generated_profiles.iter().position(|g| g.identical(&wanted));
        if found.is_none() {
            let mut values = None;
            found = (0..generated.width()).find(|&g| {
                generated_profiles[g].could_match(&wanted, tolerance)
                    && same_column(
                        values.get_or_insert_with(|| column_values(expected, e, order_matters)),
                        generated_columns[g]
                            .get_or_insert_with(|| column_values(generated, g, order_matters)),
                        tolerance,
                        &rules,
                    )
            });
        }
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

/// What one pass over a column learns: a fingerprint of its values (as a multiset, or a sequence
/// when order matters), how many are NULL, numbers and text, and the smallest and largest number.
/// Equal fingerprints and counts mean equal columns; different counts or far-apart extremes mean
/// the columns cannot match within any tolerance. Only what lies between is sorted and compared.
struct ColumnSummary {
    print: u128,
    counts: [usize; 3],
    min: f64,
    max: f64,
}

impl ColumnSummary {
    fn of(table: &ResultSet, column: usize, order_matters: bool, rules: &Rules) -> ColumnSummary {
        let mut sequence = Fingerprint::default();
        let mut multiset = MultisetPrint::default();
        let mut profile = ColumnSummary {
            print: 0,
            counts: [0; 3],
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        };
        for row in &table.rows {
            let k = key(&row[column]);
            let mut state = Fx::default();
            rules.hash(k, &mut state);
            let hash = state.finish();
            if order_matters {
                sequence.write_u64(hash);
            } else {
                multiset.add(avalanche(hash));
            }
            match k {
                Key::Null => profile.counts[0] += 1,
                Key::Num(n) => {
                    profile.counts[1] += 1;
                    profile.min = profile.min.min(n);
                    profile.max = profile.max.max(n);
                }
                Key::Text(_) => profile.counts[2] += 1,
            }
        }
        profile.print = if order_matters {
            sequence.finish128()
        } else {
            multiset.finish128()
        };
        profile
    }

    fn identical(&self, other: &ColumnSummary) -> bool {
        self.print == other.print && self.counts == other.counts
    }

    /// Whether the columns could be equal within `tolerance`: the same counts, and extremes no
    /// further apart than the widest tolerance any pair of their numbers gets.
    fn could_match(&self, other: &ColumnSummary, tolerance: f64) -> bool {
        if self.counts != other.counts {
            return false;
        }
        if self.counts[1] == 0 {
            return true;
        }
        let magnitude = [self.min, self.max, other.min, other.max]
            .into_iter()
            .map(f64::abs)
            .fold(0.0, f64::max);
        let slack = tolerance.max(1e-9 * magnitude);
        (self.min - other.min).abs() <= slack && (self.max - other.max).abs() <= slack
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read::read_result_text;

    fn verdict(expected: &str, generated: &str, options: CompareOptions) -> Comparison {
        let read = |text| read_result_text(text).expect("a result");
        compare(&read(expected), &read(generated), &options)
    }

    fn options() -> CompareOptions {
        CompareOptions {
            mode: Mode::Subset,
            ..CompareOptions::default()
        }
    }

    #[test]
    fn expected_columns_are_found_among_the_generated_in_any_order() {
        let found = verdict(
            r#"{"columns": ["a", "b"], "rows": [[1, "x"], [2, "y"], [3, null]]}"#,
            r#"{"columns": ["z", "b2", "a2"], "rows": [[0, "y", 2], [0, null, 3], [0, "x", 1]]}"#,
            options(),
        );
        assert!(found.equal, "{found:?}");
        assert_eq!(found.alignment[0].generated, "a2");
        assert_eq!(found.alignment[1].generated, "b2");
    }

    #[test]
    fn numbers_within_the_tolerance_match_and_others_do_not() {
        let near = CompareOptions {
            subset_tolerance: 0.01,
            ..options()
        };
        let found = verdict(
            "[[1.0], [2.0], [3.0]]",
            "[[2.005], [0.999], [3.0]]",
            near.clone(),
        );
        assert!(found.equal, "{found:?}");
        let missed = verdict("[[1.0], [2.0], [3.0]]", "[[2.5], [1.0], [3.0]]", near);
        assert!(!missed.equal);
        assert_eq!(
            missed.explanation,
            "0 of 1 expected columns found; not found: col1"
        );
        // One cell changed in one column of several: only that column is missing.
        let one = verdict(
            "[[1, 10], [2, 20], [3, 30]]",
            "[[10, 1], [20, 2], [31, 3]]",
            options(),
        );
        assert_eq!(
            one.explanation,
            "1 of 2 expected columns found; not found: col2"
        );
    }

    #[test]
    fn order_counts_when_asked_and_case_when_not_ignored() {
        let ordered = CompareOptions {
            order_matters: true,
            ..options()
        };
        assert!(!verdict("[[1], [2]]", "[[2], [1]]", ordered.clone()).equal);
        assert!(verdict("[[1], [2]]", "[[1], [2]]", ordered).equal);
        assert!(!verdict(r#"[["A"]]"#, r#"[["a"]]"#, options()).equal);
        let ignore_case = CompareOptions {
            ignore_case: true,
            ..options()
        };
        assert!(verdict(r#"[["A"], ["b"]]"#, r#"[["B"], ["a"]]"#, ignore_case).equal);
    }
}
