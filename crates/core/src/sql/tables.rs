//! Which base tables a query reads.
//!
//! Every `FROM`/`JOIN` source anywhere in the statement counts: subqueries in any clause, derived
//! tables, set operations and CTE bodies. A name that refers to a CTE in scope is not a table
//! (`sql::scope` says which).
//! Names are compared case-insensitively and without their quotes, so each one is kept lowercased
//! and unquoted.

use std::fmt;
use std::ops::ControlFlow;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sqlparser::ast::{
    Ident, ObjectName, ObjectNamePart, Query, Statement, TableFactor, Visit, Visitor,
};

use super::scope::{BlockCursor, Scopes};

/// A table name as a list of lowercased, unquoted parts: `["sales", "orders"]` for
/// `Sales."Orders"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableName {
    parts: Vec<String>,
}

impl TableName {
    /// The last part: the table's own name without schema or catalog.
    pub fn name(&self) -> &str {
        self.parts.last().map(String::as_str).unwrap_or_default()
    }

    /// A one-part name, lowercased.
    pub fn single(name: &str) -> TableName {
        TableName {
            parts: vec![name.to_lowercase()],
        }
    }

    /// All parts joined with dots: `catalog.schema.table`.
    pub fn qualified(&self) -> String {
        self.parts.join(".")
    }

    fn from_object_name(name: &ObjectName) -> Option<TableName> {
        let parts: Vec<String> = name
            .0
            .iter()
            .filter_map(ObjectNamePart::as_ident)
            .map(|ident: &Ident| ident.value.to_lowercase())
            .collect();
        // A part computed by a function (Snowflake `IDENTIFIER(...)`) has no static name, and
        // `""` names nothing (PostgreSQL rejects zero-length identifiers; the parser does not).
        if parts.is_empty() || parts.len() != name.0.len() || parts.iter().any(String::is_empty) {
            return None;
        }
        Some(TableName { parts })
    }

    /// Reads a table name as a user lists it (`users`, `sales.orders`, `"Order Items"`,
    /// `` `db`.`t` ``, `[dbo].[t]`): dotted parts, each optionally quoted.
    pub fn parse_listed(text: &str) -> Result<TableName, TableNameError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(TableNameError::new(text, "the name is empty"));
        }
        let mut parts = Vec::new();
        let mut chars = text.chars().peekable();
        loop {
            let mut part = String::new();
            match chars.peek().copied() {
                Some(open @ ('"' | '`' | '[')) => {
                    chars.next();
                    let close = if open == '[' { ']' } else { open };
                    let mut closed = false;
                    while let Some(c) = chars.next() {
                        if c == close {
                            // A doubled closing quote is an escaped quote inside the name.
                            if chars.peek() == Some(&close) {
                                chars.next();
                                part.push(c);
                                continue;
                            }
                            closed = true;
                            break;
                        }
                        part.push(c);
                    }
                    if !closed {
                        return Err(TableNameError::new(text, "a quote is not closed"));
                    }
                }
                _ => {
                    while let Some(&c) = chars.peek() {
                        if c == '.' {
                            break;
                        }
                        part.push(c);
                        chars.next();
                    }
                    part = part.trim().to_string();
                }
            }
            if part.is_empty() {
                return Err(TableNameError::new(text, "a part of the name is empty"));
            }
            parts.push(part.to_lowercase());
            match chars.next() {
                None => break,
                Some('.') => continue,
                Some(_) => {
                    return Err(TableNameError::new(
                        text,
                        "expected a dot after a quoted part",
                    ));
                }
            }
        }
        Ok(TableName { parts })
    }
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.qualified())
    }
}

impl Serialize for TableName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.qualified())
    }
}

/// Reads the dotted form back. A part that itself held a dot comes back as two parts; the form
/// is for showing names (the page reads scorecards its worker made), not for matching them.
impl<'de> Deserialize<'de> for TableName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(TableName {
            parts: text.split('.').map(str::to_string).collect(),
        })
    }
}

/// A listed table name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableNameError {
    pub name: String,
    pub reason: &'static str,
}

impl TableNameError {
    fn new(name: &str, reason: &'static str) -> Self {
        TableNameError {
            name: name.to_string(),
            reason,
        }
    }
}

impl fmt::Display for TableNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table name \"{}\": {}", self.name, self.reason)
    }
}

impl std::error::Error for TableNameError {}

/// Lists the base tables the statements read or write, in order of first appearance, each once.
pub fn extract_tables(statements: &[Statement]) -> Vec<TableName> {
    tables_in(statements, &Scopes::of(statements))
}

/// [`extract_tables`] with the statements' scopes already resolved.
pub(crate) fn tables_in(statements: &[Statement], scopes: &Scopes) -> Vec<TableName> {
    let mut collector = TableCollector {
        scopes,
        tables: Vec::new(),
        cursor: BlockCursor::default(),
        skip_next_relation: false,
    };
    for statement in statements {
        // The collector never breaks, so the visit always runs to the end.
        let _ = statement.visit(&mut collector);
    }
    collector.tables
}

struct TableCollector<'a> {
    scopes: &'a Scopes,
    tables: Vec<TableName>,
    cursor: BlockCursor,
    /// Set by a table-valued function call (`FROM generate_series(1, 3)`), whose name is visited
    /// next as a relation but is not a table.
    skip_next_relation: bool,
}

impl TableCollector<'_> {
    fn is_cte(&self, name: &TableName) -> bool {
        name.parts.len() == 1
            && self
                .cursor
                .current()
                .is_some_and(|block| self.scopes.cte(block, name.name()).is_some())
    }

    fn record(&mut self, name: TableName) {
        if !self.is_cte(&name) && !self.tables.contains(&name) {
            self.tables.push(name);
        }
    }
}

impl Visitor for TableCollector<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.cursor.enter();
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
        self.cursor.leave();
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        if let TableFactor::Table { args: Some(_), .. } = factor {
            self.skip_next_relation = true;
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_relation(&mut self, relation: &ObjectName) -> ControlFlow<()> {
        if std::mem::take(&mut self.skip_next_relation) {
            return ControlFlow::Continue(());
        }
        if let Some(name) = TableName::from_object_name(relation) {
            self.record(name);
        }
        ControlFlow::Continue(())
    }
}
