//! KQL (Kusto Query Language): tokenizing, the pipeline structure, source tables, the canonical
//! form for the exact-match shortcut. The structural judge for KQL is `judge::kql`.
//!
//! A query is optional `let` statements followed by a tabular expression: a source (a table,
//! `union`, `datatable`, `print`, a function call) and `|`-separated operators. Names in KQL are
//! case-sensitive, so the canonical form keeps case; timespans are canonical whatever their
//! unit (`1h` = `60m` = `3600s`).

pub(crate) mod lexer;
pub(crate) mod pipeline;

pub(crate) use lexer::{KqlToken, KqlTokenKind, tokenize};
pub(crate) use pipeline::{KqlQuery, depth_change, parse, split_top, split_top_where};

use crate::sql::{Place, SafetyReport, Violation, ViolationKind};

/// The read-only policy for KQL: queries are read-only by design, management commands (`.drop`,
/// `.set`, ...) are not (after leading comments too), plugins that query other servers or run
/// code (`evaluate sql_request(...)`, `http_request_post`, `python(...)`...) and `externaldata`
/// reach beyond the database, and text that does not parse cannot be shown to be safe.
pub fn check_read_only(text: &str, max_bytes: usize) -> SafetyReport {
    let code = without_leading_comments(text);
    let violations: Vec<Violation> = if code.trim_start().starts_with('.') {
        let skipped = text.len() - code.len();
        vec![Violation {
            kind: ViolationKind::ManagementCommand,
            reason: "A management command (starting with '.') is not a read-only query".to_string(),
            place: management_command_place(text, skipped),
        }]
    } else {
        match parse(text, max_bytes) {
            Err(err) => vec![Violation {
                kind: ViolationKind::Unparseable,
                reason: format!("The query does not parse, so its safety is not known ({err})"),
                place: Place::at(err.line, err.column),
            }],
            Ok(_) => reaching_out(text),
        }
    };
    SafetyReport {
        safe: violations.is_empty(),
        violations,
        warnings: Vec::new(),
    }
}

/// Plugins of `evaluate` that query another server, call a URL or run code.
const OUTSIDE_PLUGINS: &[&str] = &[
    "sql_request",
    "mysql_request",
    "postgresql_request",
    "cosmosdb_sql_request",
    "azure_digital_twins_query_request",
    "http_request",
    "http_request_post",
    "python",
    "r",
];

/// `evaluate` of a plugin that reaches outside the cluster, and `externaldata`, wherever they
/// are in the query.
fn reaching_out(text: &str) -> Vec<Violation> {
    let Ok(tokens) = tokenize(text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (at, token) in tokens.iter().enumerate() {
        let KqlTokenKind::Name(name) = &token.kind else {
            continue;
        };
        let place = Place::at(Some(token.line), Some(token.column));
        if name == "externaldata" {
            found.push(Violation {
                kind: ViolationKind::DangerousFunction,
                reason: "externaldata reads files or URLs outside the database".to_string(),
                place,
            });
        } else if name == "evaluate"
            && let Some(KqlTokenKind::Name(plugin)) = tokens.get(at + 1).map(|t| &t.kind)
            && OUTSIDE_PLUGINS.contains(&plugin.as_str())
        {
            let what = if matches!(plugin.as_str(), "python" | "r") {
                "runs code"
            } else {
                "queries another server or calls a URL"
            };
            found.push(Violation {
                kind: ViolationKind::DangerousFunction,
                reason: format!("evaluate {plugin}() {what}"),
                place,
            });
        }
    }
    found
}

/// The text after its leading whitespace and `//` comment lines.
fn without_leading_comments(text: &str) -> &str {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        match trimmed.strip_prefix("//") {
            Some(comment) => rest = comment.find('\n').map_or("", |at| &comment[at + 1..]),
            None => return trimmed,
        }
    }
}

/// The command word of a management command (`.drop`), found after the leading blank and
/// comment lines (`skipped` bytes).
fn management_command_place(text: &str, skipped: usize) -> Option<Place> {
    let before = text[..skipped].matches('\n').count();
    let (index, line) = text
        .lines()
        .enumerate()
        .skip(before)
        .find(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with("//"))?;
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
        let hidden = check_read_only("// a comment\n  // another\n.drop table Traces", 1 << 20);
        assert_eq!(hidden.violations[0].kind, ViolationKind::ManagementCommand);
        assert_eq!(hidden.violations[0].place.map(|p| p.line), Some(3));
    }

    #[test]
    fn plugins_that_reach_outside_and_externaldata_are_not_read_only() {
        for query in [
            "evaluate sql_request('Server=tcp:x', 'SELECT 1')",
            "T | evaluate http_request_post('https://x', '', '{}')",
            "range x from 1 to 1 step 1 | evaluate python(typeof(*), 'result = df')",
            "externaldata (a: string) [h@'https://x/a.csv'] with (format='csv')",
            "let t = T | evaluate mysql_request('x', 'SELECT 1'); t",
        ] {
            let report = check_read_only(query, 1 << 20);
            assert!(!report.safe, "{query}");
            assert_eq!(
                report.violations[0].kind,
                ViolationKind::DangerousFunction,
                "{query}"
            );
        }
        assert!(check_read_only("T | evaluate bag_unpack(props)", 1 << 20).safe);
    }
}
