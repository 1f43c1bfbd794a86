//! Result sets: reading them from JSON, and comparing an expected one with a generated one.

pub(crate) mod compare;
pub(crate) mod direct;
pub(crate) mod hash;
mod items;
pub(crate) mod lines;
pub(crate) mod marks;
pub(crate) mod python;
pub(crate) mod read;
pub(crate) mod rows;
pub(crate) mod sample;
pub(crate) mod stream;
mod text;
pub(crate) mod value;

use serde::Serialize;

pub(crate) use direct::MAX_COLUMNS;
pub(crate) use read::{ResultError, read_result};
pub(crate) use rows::Rows;
pub(crate) use text::Text;
pub(crate) use value::{Value, parse_number};

/// A table of values. Results read from arrays of arrays or scalars have no column names; they
/// get positional names (`col1`, `col2`, ...) and `named: false`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultSet {
    pub columns: Vec<String>,
    pub named: bool,
    pub rows: Rows,
}

impl ResultSet {
    pub fn named(columns: Vec<String>, rows: impl Into<Rows>) -> ResultSet {
        ResultSet {
            columns,
            named: true,
            rows: rows.into(),
        }
    }

    pub fn unnamed(rows: impl Into<Rows>) -> ResultSet {
        let rows = rows.into();
        let width = rows.first_width();
        ResultSet {
            columns: (1..=width).map(|i| format!("col{i}")).collect(),
            named: false,
            rows,
        }
    }

    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// The single value of a 1x1 result.
    pub fn scalar(&self) -> Option<&Value> {
        match self.rows.first() {
            Some([value]) if self.rows.len() == 1 => Some(value),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use read::read_result_text;
    use serde_json::json;

    fn read(json: serde_json::Value) -> ResultSet {
        read_result(&json).unwrap()
    }

    #[test]
    fn every_shape_reads_to_the_same_table() {
        let want = ResultSet::named(
            vec!["id".into(), "name".into()],
            vec![
                vec![Value::Int(1), Value::Text("a".into())],
                vec![Value::Int(2), Value::Null],
            ],
        );
        let shapes = [
            json!([{"id": 1, "name": "a"}, {"id": 2, "name": null}]),
            json!([{"id": 1, "name": "a"}, {"id": 2}]),
            json!({"columns": ["id", "name"], "rows": [[1, "a"], [2, null]]}),
            json!({"tables": [{"name": "PrimaryResult", "columns": [{"name": "id", "type": "long"}, {"name": "name", "type": "string"}], "rows": [[1, "a"], [2, null]]}]}),
            json!({"Tables": [{"TableName": "Table_0", "Columns": [{"ColumnName": "id", "DataType": "Int64"}, {"ColumnName": "name", "DataType": "String"}], "Rows": [[1, "a"], [2, null]]}]}),
            json!({"columns": ["id", "name"], "index": [0, 1], "data": [[1, "a"], [2, null]]}),
            json!({"schema": {"fields": [{"name": "index"}, {"name": "id"}, {"name": "name"}], "primaryKey": ["index"]}, "data": [{"index": 0, "name": "a", "id": 1}, {"index": 1, "name": null, "id": 2}]}),
        ];
        for shape in shapes {
            assert_eq!(read(shape.clone()), want, "{shape}");
        }
    }

    #[test]
    fn unnamed_shapes_get_positional_columns() {
        let table = read(json!([[1, "a"], [2, "b"]]));
        assert_eq!(table.columns, ["col1", "col2"]);
        assert!(!table.named);
        assert_eq!(read(json!(42)).scalar(), Some(&Value::Int(42)));
        assert_eq!(read(json!([1, 2, 3])).rows.len(), 3);
        assert_eq!(read(json!([])).rows.len(), 0);
    }

    #[test]
    fn errors_name_the_json_path() {
        let err = read_result(&json!({"columns": ["a", "b"], "rows": [[1, 2], [3]]})).unwrap_err();
        assert_eq!(err.path, "$.rows[1]");
        assert!(
            err.message.contains("1 values; there are 2 columns"),
            "{}",
            err.message
        );
        let err = read_result(&json!([[1, 2], 3])).unwrap_err();
        assert_eq!(err.path, "$[1]");
        let err = read_result(&json!([{"a": 1}, [1]])).unwrap_err();
        assert_eq!(err.path, "$[1]");
        let err = read_result(&json!({"tables": []})).unwrap_err();
        assert_eq!(err.path, "$.tables");
        let err = read_result(&json!({"columns": [{"type": "int"}], "rows": []})).unwrap_err();
        assert_eq!(err.path, "$.columns[0]");
    }

    #[test]
    fn json_syntax_errors_have_a_position() {
        let err = read_result_text("[1, 2,\n 3").unwrap_err();
        assert_eq!(err.path, "line 2, column 2");
    }
}
