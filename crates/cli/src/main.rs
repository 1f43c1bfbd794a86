//! `qeval`: the command line. Reads files and flags, hands them to qeval-core, prints the results.

mod commands;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use qeval_core::metrics::TableMatch;
use qeval_core::sql::SqlDialect;

/// Score LLM-generated SQL queries against expected ones.
///
/// Exit status: 0 when everything was read and scored, 1 when some input was rejected (the rest is
/// still scored and printed), 2 when the command could not run at all (bad flags, unreadable file).
#[derive(Debug, Parser)]
#[command(name = "qeval", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the base tables a query reads, one per line.
    ///
    /// CTE names are not tables, aliases resolve to their base table, names are lowercased and
    /// unquoted. A query that does not parse prints its error with line and column, and exits 1.
    Tables {
        /// The query. Use `-` or leave it out to read it from standard input.
        sql: Option<String>,
        #[command(flatten)]
        dialect: DialectArg,
        /// Print a JSON array instead of one name per line.
        #[arg(long)]
        json: bool,
    },
    /// Score every pair of a JSON Lines file; print one JSON scorecard per line.
    ///
    /// Each input line is an object with `generated_sql` (required), `expected_sql`,
    /// `expected_tables` (array of names; at least one of the two), `dialect` and `id` (optional).
    /// A line that cannot be read becomes `{"line": N, "error": {...}}` naming the line and the
    /// field, and the other lines are still scored. Blank lines, a byte-order mark and CRLF line
    /// ends are accepted. A summary goes to standard error.
    Score {
        /// The pairs file (JSON Lines). Use `-` to read standard input.
        #[arg(long, value_name = "FILE")]
        pairs: PathBuf,
        #[command(flatten)]
        dialect: DialectArg,
        /// How table names are matched for table accuracy.
        #[arg(long, value_enum, default_value_t = TableMatchArg::Name)]
        table_match: TableMatchArg,
        /// Write the scorecards to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
struct DialectArg {
    /// SQL dialect: generic, sqlite, postgres, mysql, mssql, bigquery, snowflake, duckdb, ansi.
    /// In a pairs file, a line's own `dialect` field wins.
    #[arg(long, short, default_value = "generic", value_parser = parse_dialect)]
    dialect: SqlDialect,
}

fn parse_dialect(name: &str) -> Result<SqlDialect, String> {
    name.parse()
        .map_err(|err: qeval_core::sql::UnknownDialect| err.to_string())
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TableMatchArg {
    /// Match on the table's own name: `sales.orders` matches `orders`.
    Name,
    /// Match on the full name: `sales.orders` matches only `sales.orders`.
    Qualified,
}

impl From<TableMatchArg> for TableMatch {
    fn from(arg: TableMatchArg) -> Self {
        match arg {
            TableMatchArg::Name => TableMatch::Name,
            TableMatchArg::Qualified => TableMatch::Qualified,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Tables { sql, dialect, json } => {
            commands::tables::run(sql.as_deref(), dialect.dialect, json)
        }
        Command::Score {
            pairs,
            dialect,
            table_match,
            output,
        } => commands::score::run(&commands::score::Args {
            pairs,
            dialect: dialect.dialect,
            table_match: table_match.into(),
            output,
        }),
    };
    match outcome {
        Ok(commands::Outcome::Clean) => ExitCode::SUCCESS,
        Ok(commands::Outcome::SomeInputRejected) => ExitCode::from(1),
        Err(message) => {
            eprintln!("qeval: {message}");
            ExitCode::from(2)
        }
    }
}
