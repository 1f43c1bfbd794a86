//! Which generated column stands for which expected column.

use std::collections::{HashMap, VecDeque};
use std::hash::Hasher;

use serde::Serialize;

use super::key::{Key, Rules, key, numbers_close};
use crate::results::ResultSet;
use crate::results::hash::Fx;

/// How a pair of columns was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum AlignedBy {
    /// Same name, ignoring case.
    Name,
    /// Different names (or none), similar values.
    Values,
    /// The column permutation an exact mode found.
    Permutation,
    /// Same position.
    Position,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ColumnPair {
    pub expected: String,
    pub generated: String,
    pub by: AlignedBy,
}

/// Expected column index -> generated column index, for the aligned ones.
pub(super) type Alignment = Vec<(usize, usize, AlignedBy)>;

/// Pairs columns by name (case-insensitive) when both results have names; among several
/// generated columns of one name, the first not yet taken.
pub(super) fn by_name(expected: &ResultSet, generated: &ResultSet) -> Alignment {
    if !expected.named || !generated.named {
        return Vec::new();
    }
    let mut by_lowercase: HashMap<String, VecDeque<usize>> = HashMap::new();
    for (g, name) in generated.columns.iter().enumerate() {
        by_lowercase
            .entry(name.to_lowercase())
            .or_default()
            .push_back(g);
    }
    let mut pairs = Vec::new();
    for (e, name) in expected.columns.iter().enumerate() {
        if let Some(g) = by_lowercase
            .get_mut(&name.to_lowercase())
            .and_then(VecDeque::pop_front)
        {
            pairs.push((e, g, AlignedBy::Name));
        }
    }
    pairs
}

/// Most rows sampled per column when aligning by values: enough to tell columns apart, cheap on
/// a million rows.
const SAMPLE: usize = 4096;

/// Most sampled values compared in aligning by values (columns x columns x sampled rows). Past
/// it (thousands of unnamed columns), the rest are aligned by position: time and memory stay
/// bounded whatever the width.
const WORK_BUDGET: usize = 1 << 26;

/// The best candidates kept per expected column: memory grows with the columns, not their square.
const CANDIDATES: usize = 8;

/// Completes `pairs` with columns whose values are similar: the share of one column's sampled
/// values found in the other's (as multisets, numbers within the tolerance), best pairs first,
/// at least one half. When the columns are too many to compare each with each (see
/// [`WORK_BUDGET`]), the rest are aligned by position.
pub(super) fn by_values(
    expected: &ResultSet,
    generated: &ResultSet,
    rules: &Rules,
    mut pairs: Alignment,
) -> Alignment {
    let free_e: Vec<usize> = free(expected.width(), &pairs, |p| p.0);
    let free_g: Vec<usize> = free(generated.width(), &pairs, |p| p.1);
    if free_e.is_empty() || free_g.is_empty() {
        return pairs;
    }
    let sampled = expected
        .rows
        .len()
        .max(generated.rows.len())
        .clamp(1, SAMPLE);
    let work = free_e
        .len()
        .saturating_mul(free_g.len())
        .saturating_mul(sampled);
    if work > WORK_BUDGET {
        let taken_g: Vec<bool> = (0..generated.width())
            .map(|g| pairs.iter().any(|p| p.1 == g))
            .collect();
        pairs.extend(
            free_e
                .iter()
                .filter(|&&e| e < generated.width() && !taken_g[e])
                .map(|&e| (e, e, AlignedBy::Position)),
        );
        pairs.sort_unstable_by_key(|p| p.0);
        return pairs;
    }
    let profile_e: Vec<ColumnSample> = free_e
        .iter()
        .map(|&c| ColumnSample::of(expected, c, rules))
        .collect();
    let profile_g: Vec<ColumnSample> = free_g
        .iter()
        .map(|&c| ColumnSample::of(generated, c, rules))
        .collect();
    let mut scored: Vec<(f64, usize, usize)> = Vec::new();
    for (i, e) in profile_e.iter().enumerate() {
        let mut best: Vec<(f64, usize, usize)> = Vec::new();
        for (j, g) in profile_g.iter().enumerate() {
            let similarity = e.overlap(g, rules.tolerance);
            if similarity < 0.5 {
                continue;
            }
            // Prefer the same position among equally similar columns.
            let position_bonus = if free_e[i] == free_g[j] { 1e-6 } else { 0.0 };
            best.push((similarity + position_bonus, i, j));
            if best.len() >= 4 * CANDIDATES {
                keep_best(&mut best);
            }
        }
        keep_best(&mut best);
        scored.extend(best);
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut used_e = vec![false; free_e.len()];
    let mut used_g = vec![false; free_g.len()];
    for (_, i, j) in scored {
        if used_e[i] || used_g[j] {
            continue;
        }
        used_e[i] = true;
        used_g[j] = true;
        pairs.push((free_e[i], free_g[j], AlignedBy::Values));
    }
    pairs.sort_unstable_by_key(|p| p.0);
    pairs
}

/// The columns of `0..width` no pair in `pairs` uses on its side.
fn free(
    width: usize,
    pairs: &Alignment,
    side: impl Fn(&(usize, usize, AlignedBy)) -> usize,
) -> Vec<usize> {
    let mut taken = vec![false; width];
    for pair in pairs {
        if let Some(slot) = taken.get_mut(side(pair)) {
            *slot = true;
        }
    }
    (0..width).filter(|&c| !taken[c]).collect()
}

/// The [`CANDIDATES`] most similar, most similar first.
fn keep_best(candidates: &mut Vec<(f64, usize, usize)>) {
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    candidates.truncate(CANDIDATES);
}

/// A column's sampled values: numbers sorted (matched within the tolerance), the rest as a
/// multiset of hashes (matched exactly, or ignoring case when asked).
struct ColumnSample {
    numbers: Vec<f64>,
    others: HashMap<u64, usize>,
    size: usize,
}

impl ColumnSample {
    /// Over evenly spaced sample rows.
    fn of(table: &ResultSet, column: usize, rules: &Rules) -> ColumnSample {
        let step = table.rows.len().div_ceil(SAMPLE).max(1);
        let mut profile = ColumnSample {
            numbers: Vec::new(),
            others: HashMap::new(),
            size: 0,
        };
        for row in table.rows.iter().step_by(step) {
            let Some(value) = row.get(column) else {
                continue;
            };
            profile.size += 1;
            match key(value) {
                Key::Num(number) if !number.is_nan() => profile.numbers.push(number),
                other => {
                    let mut state = Fx::default();
                    rules.hash(other, &mut state);
                    *profile.others.entry(state.finish()).or_insert(0) += 1;
                }
            }
        }
        profile.numbers.sort_unstable_by(f64::total_cmp);
        profile
    }

    /// |A ∩ B| / max(|A|, |B|) for multisets, numbers equal within `tolerance`.
    fn overlap(&self, other: &ColumnSample, tolerance: f64) -> f64 {
        let largest = self.size.max(other.size);
        if largest == 0 {
            return 1.0;
        }
        let hashed: usize = self
            .others
            .iter()
            .map(|(value, count)| (*count).min(other.others.get(value).copied().unwrap_or(0)))
            .sum();
        let numbers = close_numbers(&self.numbers, &other.numbers, tolerance);
        (hashed + numbers) as f64 / largest as f64
    }
}

/// How many of two sorted lists' numbers pair up within the relative tolerance, each used once:
/// a merge, pairing the smallest unpaired numbers first.
fn close_numbers(a: &[f64], b: &[f64], tolerance: f64) -> usize {
    let (mut i, mut j, mut paired) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if numbers_close(a[i], b[j], tolerance) {
            paired += 1;
            i += 1;
            j += 1;
        } else if a[i] < b[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    paired
}

pub(super) fn describe(
    expected: &ResultSet,
    generated: &ResultSet,
    alignment: &Alignment,
) -> Vec<super::ColumnPair> {
    alignment
        .iter()
        .map(|&(e, g, by)| super::ColumnPair {
            expected: expected.columns[e].clone(),
            generated: generated.columns[g].clone(),
            by,
        })
        .collect()
}
