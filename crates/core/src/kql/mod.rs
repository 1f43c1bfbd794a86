//! KQL (Kusto Query Language): tokenizing, the pipeline structure, source tables, the canonical
//! form for the exact-match shortcut. The structural judge for KQL is `judge::kql`.
//!
//! A query is optional `let` statements followed by a tabular expression: a source (a table,
//! `union`, `datatable`, `print`, a function call) and `|`-separated operators. Names in KQL are
//! case-sensitive, so the canonical form keeps case; timespans are canonical whatever their
//! unit (`1h` = `60m` = `3600s`).

mod lexer;
mod pipeline;

pub use lexer::{Token, TokenKind, format_timespan, tokenize};
pub use pipeline::{KqlQuery, Operator, depth_change, parse, split_top, split_top_where};

use crate::sql::{Place, SafetyReport, Violation, ViolationKind};

/// The read-only policy for KQL: queries are read-only by design, management commands (`.drop`,
/// `.set`, ...) are not, and text that does not parse cannot be shown to be safe.
pub fn check_read_only(text: &str, max_bytes: usize) -> SafetyReport {
    let violation = if text.trim_start().starts_with('.') {
        Some(Violation {
            kind: ViolationKind::ManagementCommand,
            reason: "A management command (starting with '.') is not a read-only query".to_string(),
            place: management_command_place(text),
        })
    } else {
        parse(text, max_bytes).err().map(|err| Violation {
            kind: ViolationKind::Unparseable,
            reason: format!("The query cannot be parsed, so it cannot be shown to be safe ({err})"),
            place: Place::at(err.line, err.column),
        })
    };
    SafetyReport {
        safe: violation.is_none(),
        violations: violation.into_iter().collect(),
        warnings: Vec::new(),
    }
}

/// The command word of a management command (`.drop`), found after the leading blank lines.
fn management_command_place(text: &str) -> Option<Place> {
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty())?;
    let column = line.chars().take_while(|c| c.is_whitespace()).count() as u64 + 1;
    let length = line
        .trim_start()
        .chars()
        .skip(1)
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .count() as u64
        + 1;
    Some(Place {
        line: index as u64 + 1,
        column,
        end_line: index as u64 + 1,
        end_column: column + length,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn management_commands_are_not_read_only() {
        assert!(check_read_only("Traces | take 5", 1 << 20).safe);
        let report = check_read_only("  .drop table Traces", 1 << 20);
        assert_eq!(report.violations[0].kind, ViolationKind::ManagementCommand);
        assert!(!check_read_only("Traces | where (", 1 << 20).safe);
    }
}
