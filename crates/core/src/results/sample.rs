//! Synthetic result sets, for benchmarks and tests.

use super::{ResultSet, Value};

/// Two equal tables of `rows` x `columns`, the second with its rows shuffled: the work a
/// comparison does when the answer is right but the order differs. Columns cycle through an
/// integer id, a repeated text, a float, a small category and a date-like text. Deterministic.
pub fn shuffled_pair(rows: usize, columns: usize, seed: u64) -> (ResultSet, ResultSet) {
    let names: Vec<String> = (0..columns).map(|c| format!("c{c}")).collect();
    let cell = |row: usize, column: usize| -> Value {
        match column % 5 {
            0 => Value::Int(row as i64),
            1 => Value::Text(format!("name-{}", row % 1000).into()),
            2 => Value::Float((row as f64) * 0.25 + column as f64),
            3 => Value::Int((row % 7) as i64),
            _ => Value::Text(format!("2024-{:02}-{:02}", row % 12 + 1, row % 28 + 1).into()),
        }
    };
    let expected: Vec<Vec<Value>> = (0..rows)
        .map(|r| (0..columns).map(|c| cell(r, c)).collect())
        .collect();
    let mut order: Vec<usize> = (0..rows).collect();
    let mut state = seed | 1;
    for i in (1..order.len()).rev() {
        order.swap(i, (xorshift(&mut state) % (i as u64 + 1)) as usize);
    }
    let generated: Vec<Vec<Value>> = order.iter().map(|&r| expected[r].clone()).collect();
    (
        ResultSet::named(names.clone(), expected),
        ResultSet::named(names, generated),
    )
}

/// What a benchmark's generated table is, against its expected one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// The same rows, shuffled.
    Equal,
    /// Shuffled, with one cell changed: the usual wrong answer.
    NearMiss,
    /// Shuffled, without its last row.
    RowFewer,
    /// Shuffled, without its last column.
    ColumnFewer,
    /// Every column holds the same multiset of values, each row a spread of the ids: no
    /// column's values tell it apart, so only whole rows decide the column order (Spider's
    /// evaluator tries every permutation). Shuffled and with the columns reversed.
    AlikeColumns,
    /// [`Case::AlikeColumns`] with two cells of one column swapped between rows: every column
    /// still holds the same values, but no column order makes the rows equal.
    AlikeColumnsNearMiss,
}

impl Case {
    pub const ALL: [Case; 6] = [
        Case::Equal,
        Case::NearMiss,
        Case::RowFewer,
        Case::ColumnFewer,
        Case::AlikeColumns,
        Case::AlikeColumnsNearMiss,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Case::Equal => "equal",
            Case::NearMiss => "near-miss",
            Case::RowFewer => "row-fewer",
            Case::ColumnFewer => "column-fewer",
            Case::AlikeColumns => "alike-columns",
            Case::AlikeColumnsNearMiss => "alike-near-miss",
        }
    }

    /// The case called `name` (see [`Case::name`]).
    pub fn named(name: &str) -> Option<Case> {
        Case::ALL.into_iter().find(|case| case.name() == name)
    }

    /// Whether Spider's `bag` (rows as a multiset, columns in any order) calls the pair equal.
    pub fn is_equal(self) -> bool {
        matches!(self, Case::Equal | Case::AlikeColumns)
    }
}

/// The tables of `case` at `rows` x `columns` (see [`Case`]). Deterministic.
pub fn case_pair(case: Case, rows: usize, columns: usize, seed: u64) -> (ResultSet, ResultSet) {
    if matches!(case, Case::AlikeColumns | Case::AlikeColumnsNearMiss) {
        return alike_columns(case, rows, columns, seed);
    }
    let (expected, mut generated) = shuffled_pair(rows, columns, seed);
    let mut table = generated.rows.to_vecs();
    match case {
        Case::NearMiss if !table.is_empty() => {
            let middle = table.len() / 2;
            // A float column: its values appear in no other column.
            table[middle][2 % columns] = Value::Float(-1.5);
        }
        Case::RowFewer => {
            table.pop();
        }
        Case::ColumnFewer => {
            generated.columns.pop();
            for row in &mut table {
                row.pop();
            }
        }
        _ => {}
    }
    generated.rows = table.into();
    (expected, generated)
}

fn alike_columns(case: Case, rows: usize, columns: usize, seed: u64) -> (ResultSet, ResultSet) {
    let names: Vec<String> = (0..columns).map(|c| format!("c{c}")).collect();
    // One more than an even share, so no rotation of a row's values is another row: only one
    // column order is right.
    let step = rows / columns.max(1) + 1;
    let expected: Vec<Vec<Value>> = (0..rows)
        .map(|r| {
            (0..columns)
                .map(|c| Value::Int(((r + c * step) % rows.max(1)) as i64))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..rows).collect();
    let mut state = seed | 1;
    for i in (1..order.len()).rev() {
        order.swap(i, (xorshift(&mut state) % (i as u64 + 1)) as usize);
    }
    let mut generated: Vec<Vec<Value>> = order
        .iter()
        .map(|&r| expected[r].iter().rev().cloned().collect())
        .collect();
    if case == Case::AlikeColumnsNearMiss && rows >= 2 {
        let (a, b) = (rows / 3, rows / 3 * 2 + 1);
        let swapped = generated[a][0].clone();
        generated[a][0] = std::mem::replace(&mut generated[b][0], swapped);
    }
    let reversed: Vec<String> = names.iter().rev().cloned().collect();
    (
        ResultSet::named(names, expected),
        ResultSet::named(reversed, generated),
    )
}

/// The next number of a xorshift sequence: benchmarks' inputs follow a seed, never a file.
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The columns of [`mixed_row_json`].
pub const MIXED_COLUMNS: [&str; 8] = ["id", "name", "price", "k", "cat", "n", "flag", "m"];

/// Row `i` of a table of eight mixed columns, each cell as JSON text: an id, short text, a
/// decimal, a small integer, a category, a multiple of the id, a boolean and an integer that is
/// NULL in every eleventh row. The values follow `state`.
pub fn mixed_row_json(i: usize, state: &mut u64) -> Vec<String> {
    let r = xorshift(state);
    vec![
        i.to_string(),
        format!("\"name{}\"", r % 1000),
        format!("{}.{:02}", r % 1000, r % 100),
        (r % 7).to_string(),
        format!("\"category {}\"", r % 13),
        (i * 3).to_string(),
        r.is_multiple_of(2).to_string(),
        if i.is_multiple_of(11) {
            "null".into()
        } else {
            (r % 97).to_string()
        },
    ]
}

/// The largest table a benchmark builds: `QEVAL_BENCH_MAX_ROWS` when set (a quick run), else
/// `default`.
pub fn bench_max_rows(default: usize) -> usize {
    std::env::var("QEVAL_BENCH_MAX_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
