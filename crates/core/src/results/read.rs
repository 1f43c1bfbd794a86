//! Reading a result set from any of the JSON shapes tools produce.
//!
//! | shape | example |
//! |---|---|
//! | array of objects (pandas `records`) | `[{"id": 1, "name": "a"}]` |
//! | columns and rows | `{"columns": ["id", "name"], "rows": [[1, "a"]]}` |
//! | array of arrays | `[[1, "a"], [2, "b"]]` |
//! | scalar | `42` |
//! | array of scalars | `[1, 2, 3]` |
//! | Kusto | `{"tables": [{"columns": [{"name": "id"}], "rows": [[1]]}]}` (also `Tables`, `ColumnName`) |
//! | pandas `split` | `{"columns": ["id"], "index": [0], "data": [[1]]}` |
//! | pandas `table` | `{"schema": {"fields": [...]}, "data": [{"id": 1}]}` |
//! | JSON Lines | one row (`[1, "a"]`), record (`{"id": 1}`) or scalar per line |
//!
//! Anything else is an error naming the JSON path where the shape broke.

use std::fmt;

use serde_json::{Map, Value as Json};

use super::direct::MAX_COLUMNS;
use super::{ResultSet, Value};
use crate::words::json_kind;

/// Why a result could not be read, and where (a JSON path such as `$.rows[3]`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ResultError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for ResultError {}

fn fail<T>(path: &str, message: impl Into<String>) -> Result<T, ResultError> {
    Err(ResultError {
        path: path.to_string(),
        message: message.into(),
    })
}

/// Parses JSON text and reads the result set in it. The common shapes are read straight from
/// the text (`direct`); the rest, and every error, through a JSON tree.
pub fn read_result_text(text: &str) -> Result<ResultSet, ResultError> {
    if let Some(result) = super::stream::read_whole(text) {
        return Ok(result);
    }
    let json: Json = match serde_json::from_str(text) {
        Ok(json) => json,
        Err(_) if is_json_lines(text) => return super::direct::read_lines(text),
        Err(err) => {
            return Err(ResultError {
                path: format!("line {}, column {}", err.line(), err.column()),
                message: format!("invalid JSON: {}", strip_position(&err.to_string())),
            });
        }
    };
    read_result(&json)
}

/// JSON Lines: more than one non-blank line, the first a JSON value by itself.
fn is_json_lines(text: &str) -> bool {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    lines
        .next()
        .is_some_and(|first| serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok())
        && lines.next().is_some()
}

fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |at| &message[..at])
}

/// Reads a result set from parsed JSON.
pub fn read_result(json: &Json) -> Result<ResultSet, ResultError> {
    read_at(json, "$")
}

fn read_at(json: &Json, path: &str) -> Result<ResultSet, ResultError> {
    match json {
        Json::Array(items) => read_array(items, path),
        Json::Object(object) => read_object(object, path),
        scalar => Ok(ResultSet::unnamed(vec![vec![Value::from_json(scalar)]])),
    }
}

fn read_array(items: &[Json], path: &str) -> Result<ResultSet, ResultError> {
    let Some(first) = items.first() else {
        return Ok(ResultSet::unnamed(Vec::new()));
    };
    match first {
        Json::Object(_) => read_records(items, path),
        Json::Array(_) => read_rows(items, path, None),
        _ => {
            let mut rows = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                if item.is_array() || item.is_object() {
                    return fail(
                        &format!("{path}[{index}]"),
                        format!(
                            "expected a scalar like the first item, found {}",
                            json_kind(item)
                        ),
                    );
                }
                rows.push(vec![Value::from_json(item)]);
            }
            Ok(ResultSet::unnamed(rows))
        }
    }
}

/// Rows as objects: the columns are the keys, in order of first appearance. A key missing from
/// a row reads as NULL. Linear in the input: keys are looked up in a set, and more than
/// [`MAX_COLUMNS`] distinct keys is an error naming the row that passed the limit.
fn read_records(items: &[Json], path: &str) -> Result<ResultSet, ResultError> {
    let mut columns: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (index, item) in items.iter().enumerate() {
        let Json::Object(object) = item else {
            return fail(
                &format!("{path}[{index}]"),
                format!(
                    "expected an object like the first row, found {}",
                    json_kind(item)
                ),
            );
        };
        for key in object.keys() {
            if seen.insert(key.as_str()) {
                columns.push(key.clone());
            }
        }
        if columns.len() > MAX_COLUMNS {
            return fail(
                &format!("{path}[{index}]"),
                format!(
                    "the rows have more than {MAX_COLUMNS} different keys; a result table has at most {MAX_COLUMNS} columns"
                ),
            );
        }
    }
    let rows = items
        .iter()
        .filter_map(Json::as_object)
        .map(|object| {
            columns
                .iter()
                .map(|column| object.get(column).map_or(Value::Null, Value::from_json))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>();
    Ok(ResultSet::named(columns, rows))
}

/// Rows as arrays. With `columns`, every row must have one value per column; without, every
/// row must be as wide as the first.
fn read_rows(
    items: &[Json],
    path: &str,
    columns: Option<Vec<String>>,
) -> Result<ResultSet, ResultError> {
    let width = columns.as_ref().map(Vec::len);
    let mut rows: Vec<Vec<Value>> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let here = format!("{path}[{index}]");
        let values: Vec<Value> = match item {
            Json::Array(values) => values.iter().map(Value::from_json).collect(),
            Json::Object(object) if columns.is_some() => {
                let names = columns.as_deref().unwrap_or_default();
                names
                    .iter()
                    .map(|name| object.get(name).map_or(Value::Null, Value::from_json))
                    .collect()
            }
            other => {
                return fail(
                    &here,
                    format!("expected a row (an array), found {}", json_kind(other)),
                );
            }
        };
        if values.len() > MAX_COLUMNS {
            return fail(
                &here,
                format!(
                    "the row has {} values; a result table has at most {MAX_COLUMNS} columns",
                    values.len()
                ),
            );
        }
        let expected = width
            .or_else(|| rows.first().map(Vec::len))
            .unwrap_or(values.len());
        if values.len() != expected {
            let what = if width.is_some() {
                "columns"
            } else {
                "values in the first row"
            };
            return fail(
                &here,
                format!(
                    "the row has {} values; there are {expected} {what}",
                    values.len()
                ),
            );
        }
        rows.push(values);
    }
    Ok(match columns {
        Some(columns) => ResultSet::named(columns, rows),
        None => ResultSet::unnamed(rows),
    })
}

fn read_object(object: &Map<String, Json>, path: &str) -> Result<ResultSet, ResultError> {
    for key in ["tables", "Tables"] {
        if let Some(tables) = object.get(key) {
            return read_kusto(tables, &format!("{path}.{key}"));
        }
    }
    if let Some(rows) = object.get("rows").or_else(|| object.get("Rows")) {
        let columns = column_names(object, path)?;
        return read_rows_field(rows, &format!("{path}.rows"), columns);
    }
    if let Some(data) = object.get("data") {
        if let Some(schema) = object.get("schema") {
            // pandas `table` orient: the rows are records; the schema only orders the columns.
            let mut result = match data {
                Json::Array(items) => read_records(items, &format!("{path}.data"))?,
                other => {
                    return fail(
                        &format!("{path}.data"),
                        format!("expected an array of records, found {}", json_kind(other)),
                    );
                }
            };
            order_by_schema(&mut result, schema);
            return Ok(result);
        }
        let columns = column_names(object, path)?;
        return read_rows_field(data, &format!("{path}.data"), columns);
    }
    // Any other object is a single record.
    read_records(std::slice::from_ref(&Json::Object(object.clone())), path)
}

fn read_rows_field(
    rows: &Json,
    path: &str,
    columns: Option<Vec<String>>,
) -> Result<ResultSet, ResultError> {
    match rows {
        Json::Array(items) => read_rows(items, path, columns),
        other => fail(
            path,
            format!("expected an array of rows, found {}", json_kind(other)),
        ),
    }
}

/// `columns` as names, or as objects with a `name`/`ColumnName` field (Kusto, many drivers).
fn column_names(
    object: &Map<String, Json>,
    path: &str,
) -> Result<Option<Vec<String>>, ResultError> {
    let Some(columns) = object.get("columns").or_else(|| object.get("Columns")) else {
        return Ok(None);
    };
    let Json::Array(items) = columns else {
        return fail(
            &format!("{path}.columns"),
            format!(
                "expected an array of column names, found {}",
                json_kind(columns)
            ),
        );
    };
    if items.len() > MAX_COLUMNS {
        return fail(
            &format!("{path}.columns"),
            format!(
                "{} columns; a result table has at most {MAX_COLUMNS}",
                items.len()
            ),
        );
    }
    let mut names = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let name = match item {
            Json::String(name) => Some(name.clone()),
            Json::Object(column) => ["name", "ColumnName", "column_name"]
                .iter()
                .find_map(|key| column.get(*key).and_then(Json::as_str))
                .map(str::to_string),
            _ => None,
        };
        match name {
            Some(name) => names.push(name),
            None => {
                return fail(
                    &format!("{path}.columns[{index}]"),
                    format!(
                        "expected a column name or an object with a \"name\", found {}",
                        json_kind(item)
                    ),
                );
            }
        }
    }
    Ok(Some(names))
}

/// Kusto answers hold several tables; the result is the first (the primary result).
fn read_kusto(tables: &Json, path: &str) -> Result<ResultSet, ResultError> {
    let Json::Array(items) = tables else {
        return fail(
            path,
            format!("expected an array of tables, found {}", json_kind(tables)),
        );
    };
    match items.first() {
        None => fail(path, "the response holds no table"),
        Some(Json::Object(table)) => read_object(table, &format!("{path}[0]")),
        Some(other) => fail(
            &format!("{path}[0]"),
            format!("expected a table object, found {}", json_kind(other)),
        ),
    }
}

/// Puts the columns in the schema's order and drops pandas' own `index` column.
fn order_by_schema(result: &mut ResultSet, schema: &Json) {
    let Some(fields) = schema.get("fields").and_then(Json::as_array) else {
        return;
    };
    let index_key = schema
        .get("primaryKey")
        .and_then(Json::as_array)
        .is_some_and(|keys| keys.len() == 1 && keys[0] == "index");
    if index_key && let Some(at) = result.columns.iter().position(|c| c == "index") {
        result.columns.remove(at);
        let kept: Vec<usize> = (0..=result.columns.len()).filter(|&c| c != at).collect();
        result.rows = result.rows.select(&kept);
    }
    let order: Vec<&str> = fields
        .iter()
        .filter_map(|field| field.get("name").and_then(Json::as_str))
        .collect();
    let mut positions: Vec<usize> = order
        .iter()
        .filter_map(|name| result.columns.iter().position(|column| column == name))
        .collect();
    for index in 0..result.columns.len() {
        if !positions.contains(&index) {
            positions.push(index);
        }
    }
    result.columns = positions
        .iter()
        .map(|&i| result.columns[i].clone())
        .collect();
    result.rows = result.rows.select(&positions);
}
