//! Which generated column stands for which expected column.

use std::collections::HashMap;
use std::hash::Hasher;

use serde::Serialize;

use super::key::{Rules, key};
use crate::results::ResultSet;
use crate::results::hash::Fx;

/// How a pair of columns was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(
    feature = "typescript",
    derive(tsify::Tsify),
    tsify(missing_as_null, hashmap_as_object)
)]
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
#[cfg_attr(
    feature = "typescript",
    derive(tsify::Tsify),
    tsify(missing_as_null, hashmap_as_object)
)]
pub struct ColumnPair {
    pub expected: String,
    pub generated: String,
    pub by: AlignedBy,
}

/// Expected column index -> generated column index, for the aligned ones.
pub type Alignment = Vec<(usize, usize, AlignedBy)>;

/// Pairs columns by name (case-insensitive) when both results have names.
pub fn by_name(expected: &ResultSet, generated: &ResultSet) -> Alignment {
    if !expected.named || !generated.named {
        return Vec::new();
    }
    let mut taken = vec![false; generated.width()];
    let mut pairs = Vec::new();
    for (e, name) in expected.columns.iter().enumerate() {
        let found = generated
            .columns
            .iter()
            .enumerate()
            .find(|(g, other)| !taken[*g] && other.to_lowercase() == name.to_lowercase());
        if let Some((g, _)) = found {
            taken[g] = true;
            pairs.push((e, g, AlignedBy::Name));
        }
    }
    pairs
}

/// Most rows sampled per column when aligning by values: enough to tell columns apart, cheap on
/// a million rows.
const SAMPLE: usize = 4096;

/// Completes `pairs` with columns whose values are similar: the share of one column's sampled
/// values found in the other's (as multisets), best pairs first, at least one half.
pub fn by_values(
    expected: &ResultSet,
    generated: &ResultSet,
    rules: &Rules,
    mut pairs: Alignment,
) -> Alignment {
    let free_e: Vec<usize> = (0..expected.width())
        .filter(|e| !pairs.iter().any(|p| p.0 == *e))
        .collect();
    let free_g: Vec<usize> = (0..generated.width())
        .filter(|g| !pairs.iter().any(|p| p.1 == *g))
        .collect();
    if free_e.is_empty() || free_g.is_empty() {
        return pairs;
    }
    let profile_e: Vec<HashMap<u64, usize>> = free_e
        .iter()
        .map(|&c| profile(expected, c, rules))
        .collect();
    let profile_g: Vec<HashMap<u64, usize>> = free_g
        .iter()
        .map(|&c| profile(generated, c, rules))
        .collect();
    let mut scored: Vec<(f64, usize, usize)> = Vec::new();
    for (i, e) in profile_e.iter().enumerate() {
        for (j, g) in profile_g.iter().enumerate() {
            let similarity = overlap(e, g);
            // Prefer the same position among equally similar columns.
            let position_bonus = if free_e[i] == free_g[j] { 1e-6 } else { 0.0 };
            scored.push((similarity + position_bonus, i, j));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut used_e = vec![false; free_e.len()];
    let mut used_g = vec![false; free_g.len()];
    for (similarity, i, j) in scored {
        if similarity < 0.5 || used_e[i] || used_g[j] {
            continue;
        }
        used_e[i] = true;
        used_g[j] = true;
        pairs.push((free_e[i], free_g[j], AlignedBy::Values));
    }
    pairs.sort_unstable_by_key(|p| p.0);
    pairs
}

/// The multiset of a column's values (hashed), over evenly spaced sample rows.
fn profile(table: &ResultSet, column: usize, rules: &Rules) -> HashMap<u64, usize> {
    let step = table.rows.len().div_ceil(SAMPLE).max(1);
    let mut counts = HashMap::new();
    for row in table.rows.iter().step_by(step) {
        let mut state = Fx::default();
        rules.hash(key(&row[column]), &mut state);
        *counts.entry(state.finish()).or_insert(0) += 1;
    }
    counts
}

/// |A ∩ B| / max(|A|, |B|) for multisets.
fn overlap(a: &HashMap<u64, usize>, b: &HashMap<u64, usize>) -> f64 {
    let size_a: usize = a.values().sum();
    let size_b: usize = b.values().sum();
    let largest = size_a.max(size_b);
    if largest == 0 {
        return 1.0;
    }
    let common: usize = a
        .iter()
        .map(|(value, count)| (*count).min(b.get(value).copied().unwrap_or(0)))
        .sum();
    common as f64 / largest as f64
}

pub fn describe(
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
