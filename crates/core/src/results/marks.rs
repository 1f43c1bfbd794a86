//! Two results side by side as tables a person reads: each in its own column order, NULL apart
//! from the text "NULL", the rows one side has and the other lacks marked, and in a row that
//! nearly matches, the cells that differ.
//!
//! Rows match as multisets under Python's equality (`1`, `1.0` and `true` are one value), the
//! equality Spider's and BIRD's evaluators use. Unmatched rows are paired in order, expected
//! with generated, and in each pair the cells at the same position that differ are marked: the
//! usual wrong answer differs in a cell or two, and this points at them.

use std::collections::HashMap;

use serde::Serialize;

use super::python::{eq, float_repr, row_fingerprint};
use super::{ResultSet, Value};

/// Rows shown of each result in a test's detail, in the app and in the exported page alike.
pub const DETAIL_ROWS: usize = 200;

/// One result as shown: its first rows (up to the cap), with marks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub columns: Vec<String>,
    pub rows: Vec<RowView>,
    /// All the result's rows, shown or not.
    pub total_rows: usize,
    /// Rows of this result without an equal row in the other, shown or not.
    pub unmatched_rows: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowView {
    /// No equal row in the other result.
    pub unmatched: bool,
    pub cells: Vec<CellView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellView {
    /// The value as a person reads it: text without quotes, numbers as written.
    pub text: String,
    /// SQL NULL (JSON null), which `text` spells "NULL" like a text cell could.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub null: bool,
    /// Differs from the cell at its position in the paired row of the other result.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub differs: bool,
}

/// Both results as tables with their differences marked, each cut at `max_rows` rows.
pub(crate) fn side_by_side(
    expected: &ResultSet,
    generated: &ResultSet,
    max_rows: usize,
) -> (TableView, TableView) {
    let (expected_unmatched, generated_unmatched) = unmatched(expected, generated);
    let mut expected_differs: HashMap<usize, Vec<bool>> = HashMap::new();
    let mut generated_differs: HashMap<usize, Vec<bool>> = HashMap::new();
    let pairs = expected_unmatched.iter().zip(&generated_unmatched);
    for (&e, &g) in pairs.take_while(|(e, g)| **e < max_rows || **g < max_rows) {
        let (a, b) = (&expected.rows[e], &generated.rows[g]);
        let width = a.len().max(b.len());
        let differs: Vec<bool> = (0..width)
            .map(|c| match (a.get(c), b.get(c)) {
                (Some(x), Some(y)) => !eq(x, y),
                _ => true,
            })
            .collect();
        expected_differs.insert(e, differs.clone());
        generated_differs.insert(g, differs);
    }
    (
        view(expected, &expected_unmatched, &expected_differs, max_rows),
        view(
            generated,
            &generated_unmatched,
            &generated_differs,
            max_rows,
        ),
    )
}

/// One result as a table, without another to mark it against.
pub(crate) fn alone(result: &ResultSet, max_rows: usize) -> TableView {
    view(result, &[], &HashMap::new(), max_rows)
}

/// Two results as a run's record holds them (JSON, either missing or `null`): each that reads
/// as a result is laid out, marked against the other when both do. A result that does not read
/// as one has no view; its JSON is for the caller to show.
pub fn json_views(
    expected: Option<&serde_json::Value>,
    generated: Option<&serde_json::Value>,
    max_rows: usize,
) -> (Option<TableView>, Option<TableView>) {
    let read = |value: Option<&serde_json::Value>| {
        value
            .filter(|v| !v.is_null())
            .and_then(|v| super::read_result(v).ok())
    };
    let (e, g) = (read(expected), read(generated));
    views(e.as_ref(), g.as_ref(), max_rows)
}

/// Whichever results there are: marked against each other when both are, else each alone.
pub fn views(
    expected: Option<&ResultSet>,
    generated: Option<&ResultSet>,
    max_rows: usize,
) -> (Option<TableView>, Option<TableView>) {
    match (expected, generated) {
        (Some(e), Some(g)) => {
            let (e, g) = side_by_side(e, g, max_rows);
            (Some(e), Some(g))
        }
        _ => (
            expected.map(|e| alone(e, max_rows)),
            generated.map(|g| alone(g, max_rows)),
        ),
    }
}

/// The indices of each side's rows that have no equal row on the other side, in order.
fn unmatched(expected: &ResultSet, generated: &ResultSet) -> (Vec<usize>, Vec<usize>) {
    let mut offered: HashMap<u128, Vec<usize>> = HashMap::new();
    for (i, row) in generated.rows.iter().enumerate().rev() {
        offered.entry(row_fingerprint(row)).or_default().push(i);
    }
    let mut taken = vec![false; generated.rows.len()];
    let mut expected_unmatched = Vec::new();
    for (i, row) in expected.rows.iter().enumerate() {
        match offered.get_mut(&row_fingerprint(row)).and_then(Vec::pop) {
            Some(g) => taken[g] = true,
            None => expected_unmatched.push(i),
        }
    }
    let generated_unmatched = (0..generated.rows.len()).filter(|&g| !taken[g]).collect();
    (expected_unmatched, generated_unmatched)
}

fn view(
    result: &ResultSet,
    unmatched: &[usize],
    differs: &HashMap<usize, Vec<bool>>,
    max_rows: usize,
) -> TableView {
    let rows = result
        .rows
        .iter()
        .take(max_rows)
        .enumerate()
        .map(|(i, row)| {
            let marks = differs.get(&i);
            RowView {
                unmatched: unmatched.binary_search(&i).is_ok(),
                cells: row
                    .iter()
                    .enumerate()
                    .map(|(c, value)| CellView {
                        text: cell_text(value),
                        null: matches!(value, Value::Null),
                        differs: marks.is_some_and(|m| m.get(c).copied().unwrap_or(false)),
                    })
                    .collect(),
            }
        })
        .collect();
    TableView {
        columns: result.columns.clone(),
        rows,
        total_rows: result.rows.len(),
        unmatched_rows: unmatched.len(),
    }
}

/// Text as it is; a float as Python writes it, so `5.0` stays apart from the integer `5`.
fn cell_text(value: &Value) -> String {
    match value {
        Value::Text(text) => text.to_string(),
        Value::Float(f) => float_repr(*f),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read_result;
    use serde_json::json;

    fn result(value: serde_json::Value) -> ResultSet {
        read_result(&value).unwrap()
    }

    #[test]
    fn a_near_miss_marks_its_row_and_the_cell_that_differs() {
        let expected = result(json!({"columns": ["name", "n"], "rows": [["ann", 3], ["bob", 5]]}));
        let generated = result(json!([{"name": "bob", "n": 5.0}, {"name": "ann", "n": 4}]));
        let (e, g) = side_by_side(&expected, &generated, 200);
        assert_eq!(e.columns, ["name", "n"]);
        assert!(e.rows[0].unmatched && !e.rows[1].unmatched);
        assert!(g.rows[1].unmatched && !g.rows[0].unmatched, "5.0 is 5");
        let marked: Vec<bool> = g.rows[1].cells.iter().map(|c| c.differs).collect();
        assert_eq!(marked, [false, true]);
        assert_eq!((e.unmatched_rows, g.unmatched_rows), (1, 1));
        assert_eq!(g.rows[0].cells[1].text, "5.0");
    }

    #[test]
    fn null_is_told_apart_from_the_text_null() {
        let table = alone(&result(json!([[null, "NULL"]])), 10);
        let cells = &table.rows[0].cells;
        assert_eq!((cells[0].text.as_str(), cells[0].null), ("NULL", true));
        assert_eq!((cells[1].text.as_str(), cells[1].null), ("NULL", false));
    }

    #[test]
    fn rows_past_the_cap_still_count() {
        let expected = result(json!((0..300).map(|i| [i]).collect::<Vec<_>>()));
        let generated = result(json!((1..300).map(|i| [i]).collect::<Vec<_>>()));
        let (e, g) = side_by_side(&expected, &generated, 100);
        assert_eq!((e.rows.len(), e.total_rows), (100, 300));
        assert_eq!((e.unmatched_rows, g.unmatched_rows), (1, 0));
        assert!(e.rows[0].unmatched);
        assert!(g.rows.iter().all(|row| !row.unmatched));
    }

    #[test]
    fn an_extra_column_is_marked_in_every_paired_row() {
        let expected = result(json!([[1, "a"]]));
        let generated = result(json!([[1, "a", true]]));
        let (_, g) = side_by_side(&expected, &generated, 10);
        let marked: Vec<bool> = g.rows[0].cells.iter().map(|c| c.differs).collect();
        assert_eq!(marked, [false, false, true]);
    }
}
