//! What running a query gives, as data: the page shows it and the command line prints it. No
//! SQLite here, so the page's main bundle can hold these without the database engine.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    /// The declared type, as written in the schema.
    pub kind: String,
    pub not_null: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    pub rows: u64,
}

/// A database's table and column names as the JSON schema `schema_validity` reads
/// (`{"orders": ["id", "total"]}`): the same names in the CLI and the page, whatever SQL the
/// database's own `CREATE TABLE` statements are written in.
pub fn schema_names(tables: &[Table]) -> String {
    schema_names_value(tables).to_string()
}

/// [`schema_names`] as a JSON value, for callers that hand it on as data.
pub fn schema_names_value(tables: &[Table]) -> Value {
    let names: serde_json::Map<String, Value> = tables
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                Value::Array(
                    t.columns
                        .iter()
                        .map(|c| Value::String(c.name.clone()))
                        .collect(),
                ),
            )
        })
        .collect();
    Value::Object(names)
}

/// Why a database could not be opened or built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbError(pub String);

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a query gave no result (the core's type: the run pipeline reads it too).
pub use qeval_core::QueryError;

/// A query's result: its columns and rows, whether the row cap cut it, how long it took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryOutput {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    pub truncated: bool,
    pub millis: f64,
    /// SQLite's virtual machine steps for the query (counted until the cut when truncated).
    #[serde(default)]
    pub vm_steps: u64,
}

impl QueryOutput {
    /// `{columns, rows}`: a shape every comparison mode reads.
    pub fn to_json(&self) -> Value {
        json!({ "columns": self.columns, "rows": self.rows })
    }
}
