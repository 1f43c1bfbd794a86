//! `qeval safety`: the read-only policy on one query.

use qeval_core::{Language, ParseLimits, SqlDialect, check_sql_read_only};

use super::{Completion, Failure, query_text};

pub fn run(
    query: Option<&str>,
    language: Language,
    dialect: SqlDialect,
) -> Result<Completion, Failure> {
    let text = query_text(query)?;
    let limits = ParseLimits::default();
    let report = match language {
        Language::Sql => check_sql_read_only(&text, dialect, limits),
        Language::Kql => qeval_core::check_kql_read_only(&text, limits.max_bytes),
    };
    if let Some(error) = report.parse_error() {
        println!("not known: {}", crate::output::terminal(&error.reason));
        return Ok(Completion::SomeInputRejected);
    }
    if report.safe {
        println!("safe: read-only query");
        for warning in &report.warnings {
            println!("  warning: {}", crate::output::terminal(&warning.reason));
        }
        return Ok(Completion::Clean);
    }
    println!("unsafe:");
    for violation in report.violations {
        println!("  - {}", crate::output::terminal(&violation.reason));
    }
    Ok(Completion::SomeInputRejected)
}
