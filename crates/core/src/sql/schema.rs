//! A database schema as data: tables, typed columns and their constraints. Read from
//! `CREATE TABLE` statements (a schema the user wrote or edited, or a database's own) or inferred
//! from two queries (`infer`), and written back as `CREATE TABLE` text a user can copy and edit.

use serde::{Deserialize, Serialize};
use sqlparser::ast::{
    ColumnOption, DataType, Expr, ObjectName, ObjectNamePart, Statement, TableConstraint,
};

use super::{ParseLimits, SqlDialect, parse};

/// The four kinds of value the test-database generator makes. SQLite has no date type: dates
/// are ISO-8601 text, declared `DATE` so the generator knows to make dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    Integer,
    Real,
    Text,
    Date,
}

impl ColumnType {
    pub fn sql(self) -> &'static str {
        match self {
            ColumnType::Integer => "INTEGER",
            ColumnType::Real => "REAL",
            ColumnType::Text => "TEXT",
            ColumnType::Date => "DATE",
        }
    }

    /// The kind of a declared type, by SQLite's affinity rules plus dates.
    pub fn from_declared(declared: &str) -> ColumnType {
        let upper = declared.to_ascii_uppercase();
        if upper.contains("DATE") || upper.contains("TIME") {
            ColumnType::Date
        } else if upper.contains("INT") || upper.contains("BOOL") {
            ColumnType::Integer
        } else if upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT") {
            ColumnType::Text
        } else if ["REAL", "FLOA", "DOUB", "NUM", "DEC"]
            .iter()
            .any(|k| upper.contains(k))
        {
            ColumnType::Real
        } else {
            ColumnType::Text
        }
    }

    pub fn is_numeric(self) -> bool {
        matches!(self, ColumnType::Integer | ColumnType::Real)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemaColumn {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ColumnType,
    pub not_null: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForeignKey {
    pub columns: Vec<String>,
    pub table: String,
    pub referred: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemaTable {
    pub name: String,
    pub columns: Vec<SchemaColumn>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primary_key: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unique: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<ForeignKey>,
}

impl SchemaTable {
    pub fn new(name: &str) -> SchemaTable {
        SchemaTable {
            name: name.to_string(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            unique: Vec::new(),
            foreign_keys: Vec::new(),
        }
    }

    /// The column's index, matched without regard to case (as SQLite matches names).
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// Column sets whose values must be unique: the primary key and each `UNIQUE`.
    pub fn unique_sets(&self) -> impl Iterator<Item = &Vec<String>> {
        std::iter::once(&self.primary_key)
            .filter(|k| !k.is_empty())
            .chain(&self.unique)
    }

    /// Whether a column may hold NULL: not when declared `NOT NULL` or part of the primary key.
    pub fn nullable(&self, column: usize) -> bool {
        let Some(c) = self.columns.get(column) else {
            return true;
        };
        !c.not_null
            && !self
                .primary_key
                .iter()
                .any(|k| k.eq_ignore_ascii_case(&c.name))
    }
}

/// Tables in creation order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    pub tables: Vec<SchemaTable>,
}

impl Schema {
    pub fn table(&self, name: &str) -> Option<&SchemaTable> {
        self.tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
    }

    pub fn table_index(&self, name: &str) -> Option<usize> {
        self.tables
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Reads `CREATE TABLE` statements. Anything else is an error that names the statement, so
    /// a pasted `INSERT` is not silently dropped.
    pub fn from_sql(text: &str, dialect: SqlDialect) -> Result<Schema, String> {
        let statements = parse(text, dialect, ParseLimits::default()).map_err(|e| e.to_string())?;
        let mut schema = Schema::default();
        for (index, statement) in statements.iter().enumerate() {
            let Statement::CreateTable(create) = statement else {
                return Err(format!(
                    "statement {} is not CREATE TABLE: a schema holds only table definitions",
                    index + 1
                ));
            };
            let name = last_part(&create.name)
                .ok_or_else(|| format!("statement {}: the table has no plain name", index + 1))?;
            if schema.table(&name).is_some() {
                return Err(format!("table `{name}` is defined twice"));
            }
            let mut table = SchemaTable::new(&name);
            for def in &create.columns {
                let mut column = SchemaColumn {
                    name: def.name.value.clone(),
                    kind: ColumnType::from_declared(&declared(&def.data_type)),
                    not_null: false,
                };
                for option in &def.options {
                    match &option.option {
                        ColumnOption::NotNull => column.not_null = true,
                        ColumnOption::PrimaryKey(_) => {
                            table.primary_key = vec![def.name.value.clone()];
                        }
                        ColumnOption::Unique(_) => table.unique.push(vec![def.name.value.clone()]),
                        ColumnOption::ForeignKey(fk) => table
                            .foreign_keys
                            .extend(foreign_key(std::slice::from_ref(&def.name), fk)),
                        _ => {}
                    }
                }
                table.columns.push(column);
            }
            for constraint in &create.constraints {
                match constraint {
                    TableConstraint::PrimaryKey(pk) => {
                        table.primary_key = pk
                            .columns
                            .iter()
                            .filter_map(|c| column_name(&c.column.expr))
                            .collect();
                    }
                    TableConstraint::Unique(unique) => table.unique.push(
                        unique
                            .columns
                            .iter()
                            .filter_map(|c| column_name(&c.column.expr))
                            .collect(),
                    ),
                    TableConstraint::ForeignKey(fk) => {
                        table.foreign_keys.extend(foreign_key(&fk.columns, fk));
                    }
                    _ => {}
                }
            }
            if table.columns.is_empty() {
                return Err(format!("table `{name}` has no columns"));
            }
            schema.tables.push(table);
        }
        if schema.tables.is_empty() {
            return Err("the schema defines no table".into());
        }
        Ok(schema)
    }

    /// The schema as `CREATE TABLE` statements, one per table, constraints included.
    pub fn to_sql(&self) -> String {
        let mut out = String::new();
        for table in &self.tables {
            out.push_str(&format!("CREATE TABLE {} (\n", quote_ident(&table.name)));
            let mut lines: Vec<String> = table
                .columns
                .iter()
                .map(|c| {
                    let mut line = format!("  {} {}", quote_ident(&c.name), c.kind.sql());
                    if c.not_null {
                        line.push_str(" NOT NULL");
                    }
                    line
                })
                .collect();
            let list = |columns: &[String]| {
                columns
                    .iter()
                    .map(|c| quote_ident(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !table.primary_key.is_empty() {
                lines.push(format!("  PRIMARY KEY ({})", list(&table.primary_key)));
            }
            for unique in &table.unique {
                lines.push(format!("  UNIQUE ({})", list(unique)));
            }
            for fk in &table.foreign_keys {
                let referred = if fk.referred.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", list(&fk.referred))
                };
                lines.push(format!(
                    "  FOREIGN KEY ({}) REFERENCES {}{referred}",
                    list(&fk.columns),
                    quote_ident(&fk.table)
                ));
            }
            out.push_str(&lines.join(",\n"));
            out.push_str("\n);\n");
        }
        out
    }
}

/// An identifier as SQL text: bare when it is a plain lowercase-safe word, else double-quoted.
pub fn quote_ident(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name.to_ascii_uppercase().as_str());
    if plain {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// Words SQLite will not take as a bare column or table name.
const RESERVED: &[&str] = &[
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "AS",
    "BETWEEN",
    "BY",
    "CASE",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "DEFAULT",
    "DELETE",
    "DISTINCT",
    "DROP",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXISTS",
    "FOREIGN",
    "FROM",
    "FULL",
    "GROUP",
    "HAVING",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "KEY",
    "LEFT",
    "LIKE",
    "LIMIT",
    "NATURAL",
    "NOT",
    "NOTNULL",
    "NULL",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "PRIMARY",
    "REFERENCES",
    "RIGHT",
    "SELECT",
    "SET",
    "TABLE",
    "THEN",
    "TO",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WITH",
];

/// A foreign key from `columns` (a column's own `REFERENCES`, or a table constraint's list).
fn foreign_key(
    columns: &[sqlparser::ast::Ident],
    fk: &sqlparser::ast::ForeignKeyConstraint,
) -> Option<ForeignKey> {
    Some(ForeignKey {
        columns: columns.iter().map(|c| c.value.clone()).collect(),
        table: last_part(&fk.foreign_table)?,
        referred: fk
            .referred_columns
            .iter()
            .map(|c| c.value.clone())
            .collect(),
    })
}

/// The last part of a dotted name (`sales.orders` -> `orders`), when it is a plain non-empty
/// identifier.
pub(crate) fn last_part(name: &ObjectName) -> Option<String> {
    name.0
        .last()
        .and_then(ObjectNamePart::as_ident)
        .map(|i| i.value.clone())
        .filter(|n| !n.is_empty())
}

fn column_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Identifier(ident) => Some(ident.value.clone()),
        Expr::CompoundIdentifier(parts) => parts.last().map(|i| i.value.clone()),
        _ => None,
    }
}

fn declared(data_type: &DataType) -> String {
    match data_type {
        DataType::Unspecified => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_table_statements_round_trip_with_their_constraints() {
        let schema = Schema::from_sql(
            "CREATE TABLE singer (singer_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, age INTEGER);
             CREATE TABLE concert (concert_id INTEGER, singer_id INT REFERENCES singer(singer_id), year TEXT,
               UNIQUE (concert_id), FOREIGN KEY (singer_id) REFERENCES singer (singer_id));",
            SqlDialect::Sqlite,
        )
        .expect("a schema");
        let singer = schema.table("SINGER").expect("singer");
        assert_eq!(singer.primary_key, ["singer_id"]);
        assert_eq!(singer.columns[1].kind, ColumnType::Text);
        assert!(singer.columns[1].not_null && !singer.nullable(1) && !singer.nullable(0));
        let concert = schema.table("concert").expect("concert");
        assert_eq!(concert.unique, [["concert_id"]]);
        assert_eq!(concert.foreign_keys.len(), 2);
        let again = Schema::from_sql(&schema.to_sql(), SqlDialect::Sqlite).expect("reads back");
        assert_eq!(again.tables[0], schema.tables[0]);
    }

    #[test]
    fn a_schema_with_other_statements_is_refused_by_number() {
        let err = Schema::from_sql(
            "CREATE TABLE t (a INT); INSERT INTO t VALUES (1)",
            SqlDialect::Sqlite,
        )
        .unwrap_err();
        assert!(err.contains("statement 2"), "{err}");
    }

    #[test]
    fn names_are_quoted_only_when_needed() {
        assert_eq!(quote_ident("singer_id"), "singer_id");
        assert_eq!(quote_ident("order"), "\"order\"");
        assert_eq!(quote_ident("Song Name"), "\"Song Name\"");
    }
}
