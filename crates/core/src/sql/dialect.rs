//! The SQL dialects qeval parses, by name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sqlparser::dialect::{
    AnsiDialect, BigQueryDialect, Dialect, DuckDbDialect, GenericDialect, MsSqlDialect,
    MySqlDialect, PostgreSqlDialect, SQLiteDialect, SnowflakeDialect,
};

/// A named SQL dialect. `Generic` is the permissive default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum SqlDialect {
    #[default]
    Generic,
    Sqlite,
    Postgres,
    Mysql,
    Mssql,
    Bigquery,
    Snowflake,
    Duckdb,
    Ansi,
}

impl SqlDialect {
    /// Every dialect, in the order menus show them.
    pub const ALL: [SqlDialect; 9] = [
        SqlDialect::Generic,
        SqlDialect::Sqlite,
        SqlDialect::Postgres,
        SqlDialect::Mysql,
        SqlDialect::Mssql,
        SqlDialect::Bigquery,
        SqlDialect::Snowflake,
        SqlDialect::Duckdb,
        SqlDialect::Ansi,
    ];

    /// The canonical name, as accepted on the command line and in input files.
    pub fn name(self) -> &'static str {
        match self {
            SqlDialect::Generic => "generic",
            SqlDialect::Sqlite => "sqlite",
            SqlDialect::Postgres => "postgres",
            SqlDialect::Mysql => "mysql",
            SqlDialect::Mssql => "mssql",
            SqlDialect::Bigquery => "bigquery",
            SqlDialect::Snowflake => "snowflake",
            SqlDialect::Duckdb => "duckdb",
            SqlDialect::Ansi => "ansi",
        }
    }

    /// A human label for menus.
    pub fn label(self) -> &'static str {
        match self {
            SqlDialect::Generic => "Generic SQL",
            SqlDialect::Sqlite => "SQLite",
            SqlDialect::Postgres => "PostgreSQL",
            SqlDialect::Mysql => "MySQL",
            SqlDialect::Mssql => "SQL Server (T-SQL)",
            SqlDialect::Bigquery => "BigQuery",
            SqlDialect::Snowflake => "Snowflake",
            SqlDialect::Duckdb => "DuckDB",
            SqlDialect::Ansi => "ANSI SQL",
        }
    }

    pub(crate) fn parser_dialect(self) -> &'static dyn Dialect {
        match self {
            SqlDialect::Generic => &GenericDialect {},
            SqlDialect::Sqlite => &SQLiteDialect {},
            SqlDialect::Postgres => &PostgreSqlDialect {},
            SqlDialect::Mysql => &MySqlDialect {},
            SqlDialect::Mssql => &MsSqlDialect {},
            SqlDialect::Bigquery => &BigQueryDialect {},
            SqlDialect::Snowflake => &SnowflakeDialect {},
            SqlDialect::Duckdb => &DuckDbDialect {},
            SqlDialect::Ansi => &AnsiDialect {},
        }
    }
}

impl fmt::Display for SqlDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a dialect name qeval does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect(pub String);

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = SqlDialect::ALL.iter().map(|d| d.name()).collect();
        write!(
            f,
            "unknown dialect \"{}\" (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for SqlDialect {
    type Err = UnknownDialect;

    /// Accepts the canonical names and the common aliases people type.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let dialect = match s.trim().to_ascii_lowercase().as_str() {
            "generic" | "" => SqlDialect::Generic,
            "sqlite" | "sqlite3" => SqlDialect::Sqlite,
            "postgres" | "postgresql" | "pg" => SqlDialect::Postgres,
            "mysql" | "mariadb" => SqlDialect::Mysql,
            "mssql" | "sqlserver" | "tsql" | "t-sql" => SqlDialect::Mssql,
            "bigquery" | "bq" => SqlDialect::Bigquery,
            "snowflake" => SqlDialect::Snowflake,
            "duckdb" => SqlDialect::Duckdb,
            "ansi" => SqlDialect::Ansi,
            _ => return Err(UnknownDialect(s.to_string())),
        };
        Ok(dialect)
    }
}

impl TryFrom<String> for SqlDialect {
    type Error = UnknownDialect;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for dialect in SqlDialect::ALL {
            assert_eq!(dialect.name().parse::<SqlDialect>(), Ok(dialect));
        }
    }

    #[test]
    fn unknown_name_lists_the_known_ones() {
        let err = "oracle9".parse::<SqlDialect>().unwrap_err().to_string();
        assert!(err.contains("\"oracle9\""), "{err}");
        assert!(err.contains("postgres"), "{err}");
    }
}
