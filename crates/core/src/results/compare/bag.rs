//! `bag`: Spider test-suite's `result_eq`, verdict for verdict.
//!
//! Two results are equal when they have the same number of rows and columns and some permutation
//! of the generated columns makes the rows equal: as lists when order matters, else as multisets.
//! Before searching permutations Spider rejects quickly when the rows, each with its values
//! sorted by `str(value) + str(type(value))`, differ (as lists or as sets). That sort makes
//! `(1, 1.5)` and `(1.0, 1.5)` sort differently, so Spider calls them different: so does this
//! mode.
//!
//! Spider enumerates permutations (pruned by sampling). Here columns are matched by hashed
//! column signatures, then by pair signatures while assigning, with interchangeable identical
//! columns tried once, and every candidate permutation is verified in full. The answer is the
//! same; the work stays near linear in the rows for real results.
//!
//! First, a fast path: when the rows are equal value for value with the very same types (the
//! usual right answer), every row's sorted values are equal too, so Spider's quick check cannot
//! reject and only that equality needs establishing. Rows are compared by 128-bit fingerprints
//! (see `hash::Fingerprint`).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hasher;

use super::align::{AlignedBy, ColumnPair};
use super::{CompareOptions, Comparison, Mode, rows};
use crate::results::hash::{Fingerprint, Fx, avalanche, sort_prints};
use crate::results::python::{self, StackText, eq, write_str_type_key};
use crate::results::{ResultSet, Rows, Value};

/// Most assignments tried before giving up; only adversarial inputs come near it.
const SEARCH_BUDGET: usize = 200_000;

pub(super) fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let order = options.order_matters;
    let verdict = result_eq(&expected.rows, &generated.rows, order);
    let (equal, explanation, alignment) = match verdict {
        ResultEq::Equal(permutation) => {
            let alignment: Vec<ColumnPair> = permutation
                .iter()
                .enumerate()
                .map(|(e, &g)| ColumnPair {
                    expected: expected.columns.get(e).cloned().unwrap_or_default(),
                    generated: generated.columns.get(g).cloned().unwrap_or_default(),
                    by: AlignedBy::Permutation,
                })
                .collect();
            let how = if order {
                "in the same order"
            } else {
                "as a multiset"
            };
            (
                true,
                format!("Same rows {how} ({})", rows(expected.rows.len())),
                alignment,
            )
        }
        ResultEq::Different(reason) | ResultEq::Raises(reason) => (false, reason, Vec::new()),
    };
    Comparison {
        mode: Mode::Bag,
        score: if equal { 1.0 } else { 0.0 },
        equal,
        expected_rows: expected.rows.len(),
        generated_rows: generated.rows.len(),
        matched_rows: if equal {
            expected.rows.len()
        } else {
            shared_unordered_rows(&expected.rows, &generated.rows)
        },
        precision: None,
        recall: None,
        alignment,
        order_matters: order,
        explanation,
    }
}

enum ResultEq {
    /// For each expected column, the generated column that matches it.
    Equal(Vec<usize>),
    Different(String),
    /// Spider's function raises here rather than answering.
    Raises(String),
}

fn result_eq(gold: &Rows, pred: &Rows, order: bool) -> ResultEq {
    if gold.is_empty() && pred.is_empty() {
        return ResultEq::Equal(Vec::new());
    }
    if gold.len() != pred.len() {
        return ResultEq::Different(format!(
            "{} expected, {} generated",
            rows(gold.len()),
            rows(pred.len())
        ));
    }
    let width = gold[0].len();
    if pred[0].len() != width {
        return ResultEq::Different(format!(
            "{width} expected columns, {} generated",
            pred[0].len()
        ));
    }
    if !gold.is_uniform() || !pred.is_uniform() {
        return ragged(gold, pred, width, order);
    }
    let unpaired = match strict_match(gold, pred, width, order) {
        Strict::Equal(permutation) => return ResultEq::Equal(permutation),
        Strict::Unpaired(unpaired) => unpaired,
    };
    // A wrong answer is settled as cheaply as a right one: rows equal under some column
    // permutation need every expected column's values (a multiset, or a sequence when order
    // counts) in some generated column, so when the columns' signatures differ no permutation
    // can work, and Spider's own answer is "different" too.
    if let Some(column) = unmatched_column(gold, pred, &unpaired, order) {
        return ResultEq::Different(format!(
            "No generated column holds the values of expected column {}",
            column + 1
        ));
    }
    if !quick_check(gold, pred, order) {
        return ResultEq::Different(if order {
            "The rows differ (compared in order, each row's values as a bag)".to_string()
        } else {
            "The rows differ (each row's values as a bag)".to_string()
        });
    }
    match find_permutation(gold, pred, width, order) {
        Search::Found(permutation) => ResultEq::Equal(permutation),
        Search::None => ResultEq::Different(
            "No column order makes the rows equal, though each row holds the same values"
                .to_string(),
        ),
        Search::OverBudget => ResultEq::Different(format!(
            "Gave up after {SEARCH_BUDGET} column assignments: the columns are too alike to tell apart"
        )),
    }
}

/// Rows of several widths, as Spider's `result_eq` takes them once the row counts and first
/// widths agree. Its quick check (each row's values as a bag) comes first. When it passes, the
/// rows' bags agree, so the expected rows are the ragged ones and every generated row is as long
/// as some expected row. Then, in Spider's order:
/// - an expected row shorter than the first: `{row[i] for row in result1}` raises `IndexError`;
/// - one column: the rows are compared as they are, unpermuted (`result2_perm = result2`);
/// - otherwise `permute_tuple` asserts that each generated row is as wide as the permutation, and
///   a longer one fails it (`AssertionError`). With more than three columns Spider first rules
///   out permutations by sampling 20 random rows (a column order stays while each sampled row's
///   values lie in the expected columns'), and when that leaves no column order it answers
///   False. If some column order survives every row, no sample rules it out: the assertion. If
///   none does, the answer hangs on the draw; here it is False, the answer Spider gives when its
///   20 draws meet the rows that rule the orders out (all of them, for a few rows).
fn ragged(gold: &Rows, pred: &Rows, width: usize, order: bool) -> ResultEq {
    if !quick_check(gold, pred, order) {
        return ResultEq::Different(
            "The rows differ (each row's values as a bag; the rows are of several widths)".into(),
        );
    }
    if let Some(row) = gold.iter().position(|row| row.len() < width) {
        return ResultEq::Raises(format!(
            "Spider's result_eq raises IndexError on these rows: the expected row at index {row} has fewer values than the first"
        ));
    }
    if width == 1 {
        let prints = |rows: &Rows| {
            let mut prints: Vec<u128> = rows.iter().map(python::row_fingerprint).collect();
            if !order {
                prints.sort_unstable();
            }
            prints
        };
        return if prints(gold) == prints(pred) {
            ResultEq::Equal(vec![0])
        } else {
            ResultEq::Different("The rows differ (compared as they are: one column)".into())
        };
    }
    if width > 3 && !some_order_survives(gold, pred, width) {
        return ResultEq::Different(
            "No column order keeps every generated row's values within the expected columns' (Spider's sampling rules them all out)".into(),
        );
    }
    ResultEq::Raises(format!(
        "Spider's result_eq raises AssertionError on these rows: permute_tuple takes rows of {width} values, as wide as the first, and a generated row is longer"
    ))
}

/// Whether some column order (each expected column its own generated column) keeps every
/// generated row's value in that column among the expected column's values: the orders no
/// sample of Spider's `get_constraint_permutation` can rule out.
fn some_order_survives(gold: &Rows, pred: &Rows, width: usize) -> bool {
    let mut values: Vec<HashMap<u64, Vec<&Value>>> = vec![HashMap::new(); width];
    for row in gold.iter() {
        for (column, value) in row.iter().take(width).enumerate() {
            values[column]
                .entry(python::hash64(value))
                .or_default()
                .push(value);
        }
    }
    let holds = |column: usize, value: &Value| {
        values[column]
            .get(&python::hash64(value))
            .is_some_and(|found| found.iter().any(|v| eq(v, value)))
    };
    let allowed: Vec<Vec<usize>> = (0..width)
        .map(|expected| {
            (0..width)
                .filter(|&generated| {
                    pred.iter()
                        .all(|row| row.get(generated).is_some_and(|v| holds(expected, v)))
                })
                .collect()
        })
        .collect();
    // A perfect matching of expected to generated columns (Kuhn's augmenting paths).
    fn augment(
        column: usize,
        allowed: &[Vec<usize>],
        taken_by: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for &generated in &allowed[column] {
            if !seen[generated] {
                seen[generated] = true;
                if taken_by[generated].is_none_or(|other| augment(other, allowed, taken_by, seen)) {
                    taken_by[generated] = Some(column);
                    return true;
                }
            }
        }
        false
    }
    let mut taken_by = vec![None; width];
    (0..width).all(|column| augment(column, &allowed, &mut taken_by, &mut vec![false; width]))
}

/// Where Spider's `result_eq` raises instead of answering (see [`ragged`]).
pub(super) fn raises(gold: &Rows, pred: &Rows, order: bool) -> Option<String> {
    if gold.is_uniform() && pred.is_uniform() {
        return None;
    }
    match result_eq(gold, pred, order) {
        ResultEq::Raises(why) => Some(why),
        _ => None,
    }
}

/// A value's hash with its exact type: `1`, `1.0` and `true` differ here.
fn strict_hash<H: Hasher>(value: &Value, state: &mut H) {
    match value {
        Value::Null => state.write_u8(0),
        Value::Bool(b) => state.write_u8(2 + u8::from(*b)),
        Value::Int(i) => {
            state.write_u8(4);
            state.write_u64(*i as u64);
        }
        Value::Float(f) => {
            state.write_u8(5);
            state.write_u64(f.to_bits());
        }
        Value::Text(s) => {
            state.write_u8(6);
            state.write(s.as_bytes());
            state.write_u8(0xff);
        }
    }
}

fn strict_value_hash(value: &Value) -> u64 {
    let mut state = Fx::default();
    strict_hash(value, &mut state);
    state.finish()
}

enum Strict {
    /// A column permutation under which the rows are equal with identical types.
    Equal(Vec<usize>),
    /// No such permutation was found this way; the full check decides.
    Unpaired(Unpaired),
}

/// Columns whose values (with their exact types) no column on the other side shares. Every
/// other column was paired with one holding the very same values, so only these can make the
/// columns' values differ as Python compares them.
#[derive(Default)]
struct Unpaired {
    gold: Vec<usize>,
    pred: Vec<usize>,
}

/// The fast path: pair columns by their exact values, then compare the rows under that pairing.
fn strict_match(gold: &Rows, pred: &Rows, width: usize, order: bool) -> Strict {
    let pred_signatures = column_signatures(pred, width, order, strict_value_hash);
    let gold_signatures = column_signatures(gold, width, order, strict_value_hash);
    let mut used = vec![false; width];
    let mut permutation = Vec::with_capacity(width);
    let mut unpaired = Unpaired::default();
    for (column, &wanted) in gold_signatures.iter().enumerate() {
        // Prefer the same position, so identical columns keep their order.
        match std::iter::once(column)
            .chain(0..width)
            .find(|&c| !used[c] && pred_signatures[c] == wanted)
        {
            Some(found) => {
                used[found] = true;
                permutation.push(found);
            }
            None => unpaired.gold.push(column),
        }
    }
    if !unpaired.gold.is_empty() {
        unpaired.pred = (0..width).filter(|&c| !used[c]).collect();
        return Strict::Unpaired(unpaired);
    }
    let fingerprint = |row: &[Value], columns: &[usize]| -> u128 {
        let mut state = Fingerprint::default();
        for &c in columns {
            strict_hash(&row[c], &mut state);
        }
        state.finish128()
    };
    let identity: Vec<usize> = (0..width).collect();
    let mut a: Vec<u128> = gold.iter().map(|row| fingerprint(row, &identity)).collect();
    let mut b: Vec<u128> = pred
        .iter()
        .map(|row| fingerprint(row, &permutation))
        .collect();
    if !order {
        a.sort_unstable();
        b.sort_unstable();
    }
    if a == b {
        Strict::Equal(permutation)
    } else {
        Strict::Unpaired(unpaired)
    }
}

/// Spider's `quick_rej`: each row's values sorted by `str(x) + str(type(x))`, then the rows
/// compared as lists (order matters) or as sets.
fn quick_check(gold: &Rows, pred: &Rows, order: bool) -> bool {
    let mut a: Vec<u128> = gold.iter().map(unordered_fingerprint).collect();
    let mut b: Vec<u128> = pred.iter().map(unordered_fingerprint).collect();
    if !order {
        for side in [&mut a, &mut b] {
            side.sort_unstable();
            side.dedup();
        }
    }
    a == b
}

/// The fingerprint of a row's values in Spider's sort order, hashed as Python compares them.
fn unordered_fingerprint(row: &[Value]) -> u128 {
    let mut keyed: Vec<(SortKey<'_>, &Value)> = row.iter().map(|v| (SortKey::of(v), v)).collect();
    // Stable, like Python's `sorted`.
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut state = Fingerprint::default();
    state.write_usize(keyed.len());
    for (_, value) in keyed {
        python::hash(value, &mut state);
    }
    state.finish128()
}

/// `str(x) + str(type(x))`, formatted on the stack, text values borrowed.
enum SortKey<'a> {
    Formatted(StackText),
    /// A text value: its key is the text followed by `<class 'str'>`.
    Text(&'a str),
}

impl<'a> SortKey<'a> {
    fn of(value: &'a Value) -> SortKey<'a> {
        match value {
            Value::Text(s) => SortKey::Text(s),
            other => {
                let mut text = StackText::new();
                // Numbers and constants fit in the buffer.
                let _ = write_str_type_key(other, &mut text);
                SortKey::Formatted(text)
            }
        }
    }

    fn parts(&self) -> (&[u8], &'static [u8]) {
        match self {
            SortKey::Formatted(text) => (text.as_bytes(), b""),
            SortKey::Text(s) => (s.as_bytes(), b"<class 'str'>"),
        }
    }

    /// Python compares `str` by code point; UTF-8 bytes compare in the same order.
    fn cmp(&self, other: &SortKey<'_>) -> Ordering {
        let (a1, a2) = self.parts();
        let (b1, b2) = other.parts();
        a1.iter().chain(a2).cmp(b1.iter().chain(b2))
    }
}

/// An expected column whose signature (its values as Python compares them) no generated column
/// shares, counted as multisets of signatures. Only the columns strict matching left unpaired
/// need checking: paired columns hold the same values on both sides.
fn unmatched_column(gold: &Rows, pred: &Rows, unpaired: &Unpaired, order: bool) -> Option<usize> {
    let mut available: HashMap<u64, usize, crate::results::hash::FxBuild> = HashMap::default();
    for &column in &unpaired.pred {
        *available
            .entry(column_signature(pred, column, order))
            .or_insert(0) += 1;
    }
    unpaired.gold.iter().copied().find(|&column| {
        match available.get_mut(&column_signature(gold, column, order)) {
            Some(count) if *count > 0 => {
                *count -= 1;
                false
            }
            _ => true,
        }
    })
}

/// One column's signature under Python's equality (see `column_signatures`).
fn column_signature(rows: &Rows, column: usize, order: bool) -> u64 {
    let hash = |row: &[Value]| row.get(column).map_or(0, value_hash);
    if order {
        rows.iter()
            .fold(0u64, |acc, row| avalanche(acc ^ hash(row)))
    } else {
        rows.iter()
            .fold(0u64, |acc, row| acc.wrapping_add(hash(row)))
    }
}

/// A row as a bag of values compared as Python compares them, in 64 bits: enough for a count
/// (two different bags share a print with odds of about 2^-64 per pair of rows).
fn bag_print(row: &[Value]) -> u64 {
    row.iter().fold(0u64, |sum, value| {
        sum.wrapping_add(avalanche(python::hash64(value) ^ 0x9e37_79b9_7f4a_7c15))
    })
}

/// Expected rows whose bag of values appears among the generated rows' (as multisets), to say
/// how close unequal results came. One hash pass over each side and a cache-friendly sort: a
/// diagnostic must not cost more than the verdict.
fn shared_unordered_rows(gold: &Rows, pred: &Rows) -> usize {
    let sorted = |rows: &Rows| {
        let mut prints: Vec<u64> = rows.iter().map(bag_print).collect();
        sort_prints(&mut prints);
        prints
    };
    let (a, b) = (sorted(gold), sorted(pred));
    // The multiset intersection of two sorted lists, in one merge.
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

enum Search {
    Found(Vec<usize>),
    None,
    OverBudget,
}

fn value_hash(value: &Value) -> u64 {
    python::hash64(value)
}

/// Every column's signature under `hash`: its multiset of values, or its sequence when order
/// matters. One pass over the rows, row by row: a row's values sit together in memory, a
/// column's do not.
fn column_signatures(rows: &Rows, width: usize, order: bool, hash: fn(&Value) -> u64) -> Vec<u64> {
    let mut signatures = vec![0u64; width];
    for row in rows {
        for (signature, value) in signatures.iter_mut().zip(row) {
            *signature = if order {
                avalanche(*signature ^ hash(value))
            } else {
                signature.wrapping_add(hash(value))
            };
        }
    }
    signatures
}

/// The multiset of value pairs in two columns.
fn pair_signature(rows: &Rows, a: usize, b: usize) -> u64 {
    rows.iter().fold(0u64, |acc, row| {
        acc.wrapping_add(avalanche(
            value_hash(&row[a]).wrapping_mul(31) ^ value_hash(&row[b]).rotate_left(17),
        ))
    })
}

struct Searcher<'a> {
    gold: &'a Rows,
    pred: &'a Rows,
    order: bool,
    candidates: Vec<Vec<usize>>,
    /// Generated columns that hold exactly the same values row by row share a class: trying one
    /// of them is trying all.
    class: Vec<usize>,
    /// Gold columns in the order they are assigned (fewest candidates first).
    sequence: Vec<usize>,
    pairs_gold: HashMap<(usize, usize), u64>,
    pairs_pred: HashMap<(usize, usize), u64>,
    steps: usize,
}

fn find_permutation(gold: &Rows, pred: &Rows, width: usize, order: bool) -> Search {
    if width == 0 {
        return Search::Found(Vec::new());
    }
    let gold_sig = column_signatures(gold, width, order, value_hash);
    let pred_sig = column_signatures(pred, width, order, value_hash);
    let candidates: Vec<Vec<usize>> = gold_sig
        .iter()
        .map(|sig| (0..width).filter(|&c| pred_sig[c] == *sig).collect())
        .collect();
    if candidates.iter().any(Vec::is_empty) {
        return Search::None;
    }
    let mut class: Vec<usize> = (0..width).collect();
    for c in 0..width {
        for d in 0..c {
            if class[d] == d
                && pred_sig[c] == pred_sig[d]
                && pred.iter().all(|row| eq(&row[c], &row[d]))
            {
                class[c] = d;
                break;
            }
        }
    }
    let mut sequence: Vec<usize> = (0..width).collect();
    sequence.sort_by_key(|&c| candidates[c].len());
    let mut searcher = Searcher {
        gold,
        pred,
        order,
        candidates,
        class,
        sequence,
        pairs_gold: HashMap::new(),
        pairs_pred: HashMap::new(),
        steps: 0,
    };
    let mut assignment = vec![usize::MAX; width];
    let mut used = vec![false; width];
    searcher.assign(0, &mut assignment, &mut used)
}

impl Searcher<'_> {
    fn assign(
        &mut self,
        depth: usize,
        assignment: &mut Vec<usize>,
        used: &mut Vec<bool>,
    ) -> Search {
        if depth == self.sequence.len() {
            return if self.verify(assignment) {
                Search::Found(assignment.clone())
            } else {
                Search::None
            };
        }
        let column = self.sequence[depth];
        let mut tried_classes = Vec::new();
        for candidate in self.candidates[column].clone() {
            if used[candidate] || tried_classes.contains(&self.class[candidate]) {
                continue;
            }
            self.steps += 1;
            if self.steps > SEARCH_BUDGET {
                return Search::OverBudget;
            }
            if !self.consistent(column, candidate, depth, assignment) {
                continue;
            }
            tried_classes.push(self.class[candidate]);
            assignment[column] = candidate;
            used[candidate] = true;
            match self.assign(depth + 1, assignment, used) {
                Search::None => {}
                found_or_over => return found_or_over,
            }
            used[candidate] = false;
            assignment[column] = usize::MAX;
        }
        Search::None
    }

    /// Whether mapping `column` to `candidate` agrees, pair by pair, with the columns already
    /// assigned. Only needed when order does not matter: in order, equal column sequences
    /// already make equal rows.
    fn consistent(
        &mut self,
        column: usize,
        candidate: usize,
        depth: usize,
        assignment: &[usize],
    ) -> bool {
        if self.order {
            return self
                .pred
                .iter()
                .zip(self.gold)
                .all(|(p, g)| eq(&g[column], &p[candidate]));
        }
        for &other in &self.sequence[..depth] {
            let other_candidate = assignment[other];
            let gold = *self
                .pairs_gold
                .entry((column, other))
                .or_insert_with(|| pair_signature(self.gold, column, other));
            let pred = *self
                .pairs_pred
                .entry((candidate, other_candidate))
                .or_insert_with(|| pair_signature(self.pred, candidate, other_candidate));
            if gold != pred {
                return false;
            }
        }
        true
    }

    /// The full check: rows equal in order, or as multisets, under the permutation.
    fn verify(&self, permutation: &[usize]) -> bool {
        if self.order {
            return self.gold.iter().zip(self.pred).all(|(g, p)| {
                permutation
                    .iter()
                    .enumerate()
                    .all(|(c, &pc)| eq(&g[c], &p[pc]))
            });
        }
        let fingerprint = |row: &[Value], columns: &[usize]| -> u128 {
            let mut state = Fingerprint::default();
            for &c in columns {
                python::hash(&row[c], &mut state);
            }
            state.finish128()
        };
        let identity: Vec<usize> = (0..permutation.len()).collect();
        let mut a: Vec<u128> = self
            .gold
            .iter()
            .map(|row| fingerprint(row, &identity))
            .collect();
        let mut b: Vec<u128> = self
            .pred
            .iter()
            .map(|row| fingerprint(row, permutation))
            .collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }
}
