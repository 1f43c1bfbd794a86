//! `qeval safety`: the read-only policy on one query.

use qeval_core::Language;
use qeval_core::sql::{ParseLimits, SqlDialect, check_read_only};

use super::{Failure, Outcome, query_text};

pub fn run(
    query: Option<&str>,
    language: Language,
    dialect: SqlDialect,
) -> Result<Outcome, Failure> {
    let text = query_text(query)?;
    let (safe, reasons) = match language {
        Language::Sql => {
            let report = check_read_only(&text, dialect, ParseLimits::default());
            (
                report.safe,
                report
                    .violations
                    .into_iter()
                    .map(|v| v.reason)
                    .collect::<Vec<_>>(),
            )
        }
        Language::Kql => {
            let command = text.trim_start().starts_with('.');
            (
                !command,
                if command {
                    vec![
                        "a management command (starting with '.') is not a read-only query"
                            .to_string(),
                    ]
                } else {
                    Vec::new()
                },
            )
        }
    };
    if safe {
        println!("safe: read-only query");
        Ok(Outcome::Clean)
    } else {
        println!("unsafe:");
        for reason in reasons {
            println!("  - {reason}");
        }
        Ok(Outcome::SomeInputRejected)
    }
}
