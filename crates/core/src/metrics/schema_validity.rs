//! Schema validity: whether the generated query names only tables and columns the schema has.
//! A model that invents a column (`totl` for `total`) or a table writes a query that cannot run;
//! this finds it without a database, with the line and column of each unknown name.
//!
//! The schema is table and column names: JSON (`{"orders": ["id", "total"]}`,
//! `{"tables": {...}}` or `[{"name": "orders", "columns": [...]}]`) or `CREATE TABLE`
//! statements. Names compare case-insensitively and without quotes.
//!
//! What counts as a column reference, kept deliberately on the safe side (an unknown name
//! reported is one a person would call wrong):
//! - SQL: `t.c` is checked when `t` is a schema table or its alias in the block the reference
//!   sits in (or a block around it: `sql::scope` resolves the names); a bare `c` is checked against
//!   the columns of every schema table the query reads, the output names it defines (`AS`
//!   aliases, CTE column lists) and the names of its CTEs and derived tables; `t.c` with `t` a
//!   CTE or derived table is not checked.
//! - KQL: the source tables; and, in `where`, `project`, `summarize`, `extend`, `order by`,
//!   `sort by`, `top ... by` and `distinct`, each name that is not a function call, a keyword,
//!   or a name the query defines (`name =`, `let`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

use serde::Serialize;
use serde_json::Value;
use sqlparser::ast::{Expr, Ident, Query, TableFactor, Visit, Visitor};

use crate::kql::{KqlQuery, KqlToken, KqlTokenKind};
use crate::metric::Metric;
use crate::sql::scope::{BlockCursor, BlockId, Relation, Scopes};
use crate::sql::{ParseLimits, Schema, SqlDialect, parse, tables_in};

/// Table names and their columns, lowercased.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KnownNames {
    tables: BTreeMap<String, BTreeSet<String>>,
}

impl KnownNames {
    /// Reads JSON or `CREATE TABLE` statements; the error says what is wrong with the text.
    pub fn parse(text: &str, dialect: SqlDialect) -> Result<KnownNames, String> {
        let trimmed = text.trim();
        if trimmed.starts_with('{') || trimmed.starts_with('[') {
            let value: Value = serde_json::from_str(trimmed)
                .map_err(|err| format!("the schema is not valid JSON: {err}"))?;
            return KnownNames::from_json(&value);
        }
        let schema = Schema::from_sql(text, dialect)?;
        let mut tables = BTreeMap::new();
        for table in &schema.tables {
            tables.insert(
                table.name.to_lowercase(),
                table
                    .columns
                    .iter()
                    .map(|c| c.name.to_lowercase())
                    .collect(),
            );
        }
        Ok(KnownNames { tables })
    }

    fn from_json(value: &Value) -> Result<KnownNames, String> {
        let columns = |table: &str, value: &Value| -> Result<BTreeSet<String>, String> {
            let Value::Array(items) = value else {
                return Err(format!(
                    "schema table `{table}`: expected a list of column names"
                ));
            };
            items
                .iter()
                .map(|item| match item {
                    Value::String(name) => Ok(name.to_lowercase()),
                    Value::Object(column) => column
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_lowercase)
                        .ok_or_else(|| format!("schema table `{table}`: a column without a name")),
                    other => Err(format!(
                        "schema table `{table}`: expected a column name, found {other}"
                    )),
                })
                .collect()
        };
        let mut tables = BTreeMap::new();
        match value {
            Value::Object(map) if map.get("tables").is_some() => {
                return KnownNames::from_json(&map["tables"]);
            }
            Value::Object(map) => {
                for (table, list) in map {
                    tables.insert(table.to_lowercase(), columns(table, list)?);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let name = item
                        .get("name")
                        .or_else(|| item.get("table"))
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("schema table {i}: no name"))?;
                    let list = item.get("columns").cloned().unwrap_or(Value::Array(vec![]));
                    tables.insert(name.to_lowercase(), columns(name, &list)?);
                }
            }
            _ => return Err("the schema JSON is neither an object nor a list of tables".into()),
        }
        Ok(KnownNames { tables })
    }

    /// Reads a schema a user gives for a whole run (`--schema`): as [`KnownNames::parse`], and
    /// it must name a table, so that text which is no schema at all is refused at once rather
    /// than scoring every query against nothing.
    pub fn check(text: &str, dialect: SqlDialect) -> Result<KnownNames, String> {
        let known = KnownNames::parse(text, dialect)?;
        if known.tables.is_empty() {
            return Err("it names no table: give CREATE TABLE statements, or JSON like {\"orders\": [\"id\", \"total\"]}".into());
        }
        Ok(known)
    }

    fn has_table(&self, name: &str) -> bool {
        self.tables.contains_key(&name.to_lowercase())
    }

    fn columns(&self, table: &str) -> Option<&BTreeSet<String>> {
        self.tables.get(&table.to_lowercase())
    }
}

/// One name the schema does not have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct UnknownName {
    /// `table` or `column`.
    pub kind: &'static str,
    pub name: String,
    pub line: Option<u64>,
    pub column: Option<u64>,
}

impl UnknownName {
    pub(crate) fn describe(&self) -> String {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                format!(
                    "unknown {} `{}` (line {line}, column {column})",
                    self.kind, self.name
                )
            }
            _ => format!("unknown {} `{}`", self.kind, self.name),
        }
    }
}

/// The `schema_validity` metric: 1.0 when every name is known, else 0.0 naming each unknown one.
pub(crate) fn schema_validity_metric(unknown: &[UnknownName]) -> Metric {
    let explanation = if unknown.is_empty() {
        "Every table and column the query names is in the schema".to_string()
    } else {
        let listed: Vec<String> = unknown.iter().map(UnknownName::describe).collect();
        format!("Not in the schema: {}", listed.join("; "))
    };
    Metric {
        score: Some(if unknown.is_empty() { 1.0 } else { 0.0 }),
        passed: Some(unknown.is_empty()),
        explanation,
        details: serde_json::json!({ "unknown": unknown }),
        error: None,
    }
}

/// The unknown tables and columns of a SQL query (parsed again here, for its names' positions).
pub(crate) fn sql_unknown_names(
    sql: &str,
    dialect: SqlDialect,
    known: &KnownNames,
) -> Vec<UnknownName> {
    let Ok(statements) = parse(sql, dialect, ParseLimits::default()) else {
        return Vec::new();
    };
    let scopes = Scopes::of(&statements);
    let mut names = Names::default();
    let _ = statements.visit(&mut names);
    let mut unknown = Vec::new();
    let mut read: Vec<String> = Vec::new();
    for table in tables_in(&statements, &scopes) {
        if known.has_table(table.name()) {
            read.push(table.name().to_lowercase());
        } else {
            let position = names.table_positions.get(table.name());
            unknown.push(UnknownName {
                kind: "table",
                name: table.qualified(),
                line: position.map(|p| p.0),
                column: position.map(|p| p.1),
            });
        }
    }
    // Bare names may be any column of a table read, or a name the query defines.
    let mut bare: BTreeSet<String> = read
        .iter()
        .filter_map(|t| known.columns(t))
        .flatten()
        .cloned()
        .collect();
    bare.extend(defined_names(&scopes));
    for reference in &names.columns {
        let known_here = match &reference.qualifier {
            Some(q) => match qualified_table(&scopes, reference.block, q) {
                Some(table) if known.has_table(table) => known
                    .columns(table)
                    .is_some_and(|c| c.contains(&reference.column)),
                // A CTE, a derived table or a name we cannot place: not checked.
                _ => true,
            },
            None => read.is_empty() || bare.contains(&reference.column),
        };
        if !known_here {
            unknown.push(UnknownName {
                kind: "column",
                name: match &reference.qualifier {
                    Some(q) => format!("{q}.{}", reference.column),
                    None => reference.column.clone(),
                },
                line: Some(reference.position.0),
                column: Some(reference.position.1),
            });
        }
    }
    unknown.sort_by_key(|u| (u.line, u.column));
    unknown.dedup();
    unknown
}

/// The table `t` means in `t.c`, in the block the reference sits in: the table its binding
/// reads, or a table of that name when nothing is bound to it; `None` for a CTE, a derived table
/// or a function.
fn qualified_table<'a>(scopes: &'a Scopes, block: Option<BlockId>, q: &'a str) -> Option<&'a str> {
    match block.and_then(|block| scopes.binding(block, q)) {
        Some(binding) => match &binding.relation {
            Relation::Table(table) => Some(table),
            _ => None,
        },
        None => Some(q),
    }
}

/// The names a query defines: its CTEs and their column lists, output aliases, derived tables'
/// aliases and column lists.
fn defined_names(scopes: &Scopes) -> BTreeSet<String> {
    let mut defined = BTreeSet::new();
    for block in (0..scopes.len()).filter_map(|id| scopes.block(id)) {
        for cte in &block.ctes {
            defined.insert(cte.name.clone());
            defined.extend(cte.columns.iter().cloned());
        }
        defined.extend(block.output_aliases.iter().cloned());
        for binding in &block.bindings {
            if let Relation::Derived(_, columns) = &binding.relation {
                if binding.aliased {
                    defined.insert(binding.name.clone());
                }
                defined.extend(columns.iter().cloned());
            }
        }
    }
    defined
}

/// A column a query names, in the block it sits in.
struct ColumnReference {
    block: Option<BlockId>,
    /// `t` in `t.c`, lowercased.
    qualifier: Option<String>,
    column: String,
    /// Line and column of the column's name.
    position: (u64, u64),
}

/// Where a walk over a SQL statement finds tables and columns.
#[derive(Default)]
struct Names {
    cursor: BlockCursor,
    /// Where each table is first named, lowercased.
    table_positions: BTreeMap<String, (u64, u64)>,
    columns: Vec<ColumnReference>,
}

fn position(ident: &Ident) -> (u64, u64) {
    (ident.span.start.line, ident.span.start.column)
}

impl Visitor for Names {
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
        if let TableFactor::Table { name, .. } = factor
            && let Some(ident) = name.0.last().and_then(|part| part.as_ident())
        {
            self.table_positions
                .entry(ident.value.to_lowercase())
                .or_insert_with(|| position(ident));
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        let reference = |qualifier: Option<&Ident>, column: &Ident| ColumnReference {
            block: self.cursor.current(),
            qualifier: qualifier.map(|q| q.value.to_lowercase()),
            column: column.value.to_lowercase(),
            position: position(column),
        };
        let found = match expr {
            Expr::Identifier(ident) => Some(reference(None, ident)),
            Expr::CompoundIdentifier(parts) if parts.len() >= 2 => Some(reference(
                Some(&parts[parts.len() - 2]),
                &parts[parts.len() - 1],
            )),
            _ => None,
        };
        self.columns.extend(found);
        ControlFlow::Continue(())
    }
}

/// Operators whose arguments name columns.
const KQL_COLUMN_OPERATORS: [&str; 10] = [
    "where",
    "filter",
    "project",
    "summarize",
    "extend",
    "order",
    "sort",
    "top",
    "distinct",
    "project-away",
];

/// Words in those operators that are not column names.
const KQL_WORDS: [&str; 22] = [
    "by",
    "asc",
    "desc",
    "and",
    "or",
    "not",
    "in",
    "has",
    "contains",
    "startswith",
    "endswith",
    "between",
    "nulls",
    "first",
    "last",
    "true",
    "false",
    "null",
    "matches",
    "regex",
    "like",
    "with",
];

/// The unknown tables and columns of a KQL query.
pub(crate) fn kql_unknown_names(query: &KqlQuery, known: &KnownNames) -> Vec<UnknownName> {
    let mut unknown = Vec::new();
    let lets: BTreeSet<String> = query.lets.iter().map(|l| l.to_lowercase()).collect();
    let mut columns: BTreeSet<String> = BTreeSet::new();
    let mut checked = false;
    for table in &query.tables {
        let lower = table.to_lowercase();
        if lets.contains(&lower) {
            continue;
        }
        match known.columns(table) {
            Some(known_columns) => {
                columns.extend(known_columns.iter().cloned());
                checked = true;
            }
            None => unknown.push(UnknownName {
                kind: "table",
                name: table.clone(),
                line: None,
                column: None,
            }),
        }
    }
    if !checked {
        return unknown;
    }
    let mut defined: BTreeSet<String> = lets;
    for operator in &query.operators {
        let name = operator.name.to_lowercase();
        let args = &operator.args;
        // `name = ...` defines `name` for the operators after this one.
        for (i, token) in args.iter().enumerate() {
            if let KqlTokenKind::Name(word) = &token.kind
                && args.get(i + 1).is_some_and(|t| is_symbol(t, "="))
            {
                defined.insert(word.to_lowercase());
            }
        }
        if !KQL_COLUMN_OPERATORS.contains(&name.as_str()) {
            continue;
        }
        for (i, token) in args.iter().enumerate() {
            let KqlTokenKind::Name(word) = &token.kind else {
                continue;
            };
            let lower = word.to_lowercase();
            let call = args.get(i + 1).is_some_and(|t| is_symbol(t, "("));
            let assigned = args.get(i + 1).is_some_and(|t| is_symbol(t, "="));
            let member = i > 0 && is_symbol(&args[i - 1], ".");
            if call
                || assigned
                || member
                || KQL_WORDS.contains(&lower.as_str())
                || lower.starts_with("has")
                || lower.starts_with('!')
                || columns.contains(&lower)
                || defined.contains(&lower)
            {
                continue;
            }
            unknown.push(UnknownName {
                kind: "column",
                name: word.clone(),
                line: Some(token.line),
                column: Some(token.column),
            });
        }
    }
    unknown.dedup();
    unknown
}

fn is_symbol(token: &KqlToken, symbol: &str) -> bool {
    matches!(&token.kind, KqlTokenKind::Punct(s) if *s == symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> KnownNames {
        KnownNames::parse(
            r#"{"orders": ["id", "customer_id", "total"], "customers": ["id", "name"]}"#,
            SqlDialect::Generic,
        )
        .unwrap()
    }

    fn names(sql: &str) -> Vec<String> {
        sql_unknown_names(sql, SqlDialect::Generic, &known())
            .iter()
            .map(UnknownName::describe)
            .collect()
    }

    #[test]
    fn sql_names_are_checked_with_positions() {
        assert!(names("SELECT c.name, SUM(o.total) AS spent FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name ORDER BY spent").is_empty());
        assert_eq!(
            names("SELECT SUM(totl) FROM orders"),
            ["unknown column `totl` (line 1, column 12)"]
        );
        assert_eq!(
            names("SELECT o.amount FROM orders o"),
            ["unknown column `o.amount` (line 1, column 10)"]
        );
        assert_eq!(
            names("SELECT name FROM custmers"),
            ["unknown table `custmers` (line 1, column 18)"]
        );
        // Names a CTE or a derived table defines are not checked against the schema.
        assert!(names("WITH t AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT t.n, n FROM t").is_empty());
    }

    #[test]
    fn an_alias_means_the_table_it_names_in_its_own_query() {
        // `c` is customers outside and orders inside; each `c.` is checked against its own.
        let sql = "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders c WHERE c.total > 5 AND c.name = 'x')";
        assert_eq!(names(sql), ["unknown column `c.name` (line 1, column 93)"]);
        // A correlated reference reaches the query around it.
        assert!(names("SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)").is_empty());
        // A CTE named like a schema table hides it only where the CTE is seen.
        assert_eq!(
            names(
                "SELECT (WITH orders AS (SELECT 1 AS k) SELECT k FROM orders), o.totl FROM orders o"
            ),
            ["unknown column `o.totl` (line 1, column 65)"]
        );
    }

    #[test]
    fn create_table_statements_and_json_lists_are_schemas_too() {
        let from_sql = KnownNames::parse(
            "CREATE TABLE orders (id INTEGER, customer_id INTEGER, total REAL); CREATE TABLE customers (id INTEGER, name TEXT);",
            SqlDialect::Sqlite,
        )
        .unwrap();
        assert_eq!(from_sql, known());
        let from_list = KnownNames::parse(
            r#"[{"name": "Orders", "columns": ["ID", {"name": "customer_id"}, "total"]}, {"table": "customers", "columns": ["id", "name"]}]"#,
            SqlDialect::Generic,
        )
        .unwrap();
        assert_eq!(from_list, known());
        assert!(
            KnownNames::parse(r#"{"orders": "id"}"#, SqlDialect::Generic)
                .unwrap_err()
                .contains("expected a list of column names")
        );
    }
}
