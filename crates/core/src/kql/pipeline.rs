//! The structure of a KQL query: `let` statements, a source, `|` operators, and the base
//! tables it reads.

use super::lexer::{KqlToken, KqlTokenKind, WORD_OPERATORS, tokenize};
use crate::sql::ParseError;

/// A parsed KQL query.
#[derive(Debug, Clone, PartialEq)]
pub struct KqlQuery {
    /// Names bound by `let`: not tables.
    pub lets: Vec<String>,
    /// The operators of the main pipeline, in order.
    pub operators: Vec<Operator>,
    /// Base tables read anywhere (source, `union`, `join`/`lookup`, subqueries, `let` bodies),
    /// in order of first appearance.
    pub tables: Vec<String>,
    /// The canonical text: tokens separated by single spaces, timespans in canonical units.
    pub normalized: String,
}

/// One `| name args` step.
#[derive(Debug, Clone, PartialEq)]
pub struct Operator {
    pub name: String,
    pub args: Vec<KqlToken>,
}

/// Deepest bracket nesting accepted: subqueries are walked recursively.
const MAX_NESTING: usize = 64;

/// Source keywords that are not tables.
const NOT_TABLES: &[&str] = &[
    "union",
    "datatable",
    "print",
    "range",
    "evaluate",
    "find",
    "search",
    "externaldata",
    "materialize",
    "view",
    "toscalar",
];

pub fn parse(text: &str, max_bytes: usize) -> Result<KqlQuery, ParseError> {
    if text.len() > max_bytes {
        return Err(ParseError {
            message: format!(
                "the query is {} bytes long; the limit is {max_bytes} bytes",
                text.len()
            ),
            line: None,
            column: None,
        });
    }
    let tokens = tokenize(text)?;
    check_brackets(&tokens)?;
    check_filters(&tokens)?;
    if tokens.is_empty() {
        return Err(ParseError {
            message: "the query is empty".to_string(),
            line: None,
            column: None,
        });
    }
    let normalized = tokens
        .iter()
        .map(|t| t.kind.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let statements: Vec<&[KqlToken]> = split_top(&tokens, ";")
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let mut lets = Vec::new();
    let mut tables = Vec::new();
    let mut operators = Vec::new();
    let mut main: Option<&[KqlToken]> = None;
    for statement in &statements {
        if name_at(statement, 0) == Some("let") {
            if let Some(bound) = name_at(statement, 1) {
                lets.push(bound.to_string());
            }
            let body = statement
                .iter()
                .position(|t| t.kind == KqlTokenKind::Punct("="))
                .map_or(&statement[..0], |at| &statement[at + 1..]);
            collect_tables(body, &mut tables);
        } else {
            main = Some(statement);
        }
    }
    let main = main.ok_or_else(|| ParseError {
        message: "the query has only `let` statements and no tabular expression".to_string(),
        line: None,
        column: None,
    })?;
    let segments = split_top(main, "|");
    for (index, segment) in segments.iter().enumerate().skip(1) {
        let Some(first) = segment.first() else {
            let at = &main[main.len() - 1];
            return Err(ParseError {
                message: format!("step {index} of the pipeline is empty"),
                line: Some(at.line),
                column: Some(at.column),
            });
        };
        let (name, used) = operator_name(segment);
        if name.is_empty() {
            return Err(ParseError {
                message: format!("expected an operator name after `|`, found {}", first.kind),
                line: Some(first.line),
                column: Some(first.column),
            });
        }
        operators.push(Operator {
            name,
            args: segment[used..].to_vec(),
        });
    }
    collect_tables(main, &mut tables);
    tables.retain(|t| !lets.contains(t));
    Ok(KqlQuery {
        lets,
        operators,
        tables,
        normalized,
    })
}

fn name_at(tokens: &[KqlToken], at: usize) -> Option<&str> {
    match tokens.get(at).map(|t| &t.kind) {
        Some(KqlTokenKind::Name(name)) => Some(name),
        _ => None,
    }
}

fn check_brackets(tokens: &[KqlToken]) -> Result<(), ParseError> {
    let mut open: Vec<&KqlToken> = Vec::new();
    for token in tokens {
        let KqlTokenKind::Punct(p) = token.kind else {
            continue;
        };
        match p {
            "(" | "[" | "{" => {
                open.push(token);
                if open.len() > MAX_NESTING {
                    return Err(ParseError {
                        message: format!(
                            "the query nests brackets too deeply (more than {MAX_NESTING} levels)"
                        ),
                        line: Some(token.line),
                        column: Some(token.column),
                    });
                }
            }
            ")" | "]" | "}" => {
                let want = match p {
                    ")" => "(",
                    "]" => "[",
                    _ => "{",
                };
                match open.pop() {
                    Some(o) if o.kind == KqlTokenKind::Punct(want) => {}
                    _ => {
                        return Err(ParseError {
                            message: format!("unmatched `{p}`"),
                            line: Some(token.line),
                            column: Some(token.column),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    match open.pop() {
        Some(o) => Err(ParseError {
            message: format!("`{}` is never closed", o.kind),
            line: Some(o.line),
            column: Some(o.column),
        }),
        None => Ok(()),
    }
}

/// Checks the predicate of every `where` (or `filter`) step, at any depth: in the main pipeline,
/// in `let` bodies and in subqueries. A misspelled operator (`State hazz "a"`) would otherwise
/// read as two names side by side and pass unnoticed.
fn check_filters(tokens: &[KqlToken]) -> Result<(), ParseError> {
    for (at, token) in tokens.iter().enumerate() {
        if token.kind != KqlTokenKind::Punct("|")
            || !matches!(name_at(tokens, at + 1), Some("where" | "filter"))
        {
            continue;
        }
        // The predicate runs to the next `|` or `;` of its own pipeline, or to the bracket that
        // closes the subquery it is in.
        let rest = &tokens[at + 2..];
        let mut depth = 0;
        let end = rest
            .iter()
            .position(|t| {
                depth += depth_change(t);
                depth < 0 || (depth == 0 && matches!(t.kind, KqlTokenKind::Punct("|" | ";")))
            })
            .unwrap_or(rest.len());
        check_predicate(&rest[..end])?;
    }
    Ok(())
}

/// Checks that a name following an operand (a column, a literal, a closing bracket) is an
/// operator: in KQL two operands never stand side by side, so the name must be a misspelled
/// operator. Groupings and lists are checked the same way inside; function arguments are not,
/// since functions such as `datetime(...)` take free-form text.
fn check_predicate(tokens: &[KqlToken]) -> Result<(), ParseError> {
    let mut after_operand = false;
    let mut i = 0;
    while i < tokens.len() {
        let token = &tokens[i];
        if token.kind == KqlTokenKind::Punct("(") {
            let close = matching_close(tokens, i);
            let inner = &tokens[i + 1..close];
            // A name right before `(` calls a function, unless it is an operator (`in (...)`,
            // `between (...)`) or `not`, whose argument is itself a predicate.
            let call = i > 0
                && matches!(&tokens[i - 1].kind, KqlTokenKind::Name(n)
                    if n != "not" && !WORD_OPERATORS.contains(&n.as_str()));
            // A subquery (`in (T | project id)`) is a pipeline, checked by `check_filters`.
            if !call && split_top(inner, "|").len() == 1 {
                check_predicate(inner)?;
            }
            after_operand = true;
            i = close + 1;
            continue;
        }
        match &token.kind {
            KqlTokenKind::Name(word) if after_operand => {
                let glued_to_number =
                    !token.spaced && i > 0 && matches!(tokens[i - 1].kind, KqlTokenKind::Number(_));
                if glued_to_number {
                    // The rest of a number such as `1e5` or `5l`: still the same operand.
                } else if word == "matches" {
                    if name_at(tokens, i + 1) != Some("regex") {
                        return Err(ParseError {
                            message: "expected `regex` after `matches`".to_string(),
                            line: Some(token.line),
                            column: Some(token.column),
                        });
                    }
                    after_operand = false;
                    i += 1;
                } else if WORD_OPERATORS.contains(&word.as_str()) {
                    after_operand = false;
                } else {
                    return Err(ParseError {
                        message: format!(
                            "unknown operator `{word}` after `{}` in a `where` predicate",
                            tokens[i - 1].kind
                        ),
                        line: Some(token.line),
                        column: Some(token.column),
                    });
                }
            }
            KqlTokenKind::Name(_)
            | KqlTokenKind::QuotedName(_)
            | KqlTokenKind::Number(_)
            | KqlTokenKind::Timespan(_)
            | KqlTokenKind::Str(_) => after_operand = true,
            // `where * has "x"` searches every column: the `*` stands for an operand there.
            KqlTokenKind::Punct("*") => after_operand = i == 0,
            // `[` and `{` open lists and property bags, which hold values, not predicates.
            KqlTokenKind::Punct("[" | "{") => {
                i = matching_close(tokens, i);
                after_operand = true;
            }
            KqlTokenKind::Punct(_) => after_operand = false,
        }
        i += 1;
    }
    Ok(())
}

/// The index of the bracket that closes the one at `open`. `check_brackets` has ensured there is
/// one; were there none, the end of the slice stands in, so that callers never slice backwards.
fn matching_close(tokens: &[KqlToken], open: usize) -> usize {
    let mut depth = 0;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        depth += depth_change(token);
        if depth == 0 {
            return i;
        }
    }
    tokens.len()
}

/// How a token changes the bracket depth: +1 opens, -1 closes.
pub(crate) fn depth_change(token: &KqlToken) -> i32 {
    match token.kind {
        KqlTokenKind::Punct("(" | "[" | "{") => 1,
        KqlTokenKind::Punct(")" | "]" | "}") => -1,
        _ => 0,
    }
}

/// Splits at the punctuation `separator` where no bracket is open.
pub(crate) fn split_top<'a>(
    tokens: &'a [KqlToken],
    separator: &'static str,
) -> Vec<&'a [KqlToken]> {
    split_top_where(tokens, |kind| *kind == KqlTokenKind::Punct(separator))
}

/// Splits at the tokens `is_separator` picks where no bracket is open.
pub(crate) fn split_top_where(
    tokens: &[KqlToken],
    is_separator: impl Fn(&KqlTokenKind) -> bool,
) -> Vec<&[KqlToken]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, token) in tokens.iter().enumerate() {
        depth += depth_change(token);
        if depth == 0 && is_separator(&token.kind) {
            parts.push(&tokens[start..i]);
            start = i + 1;
        }
    }
    parts.push(&tokens[start..]);
    parts
}

/// `mv-expand`, `project-away`: names joined by an unspaced `-`.
fn operator_name(segment: &[KqlToken]) -> (String, usize) {
    let mut name = String::new();
    let mut used = 0;
    while let Some(KqlTokenKind::Name(part)) = segment.get(used).map(|t| &t.kind) {
        name.push_str(part);
        used += 1;
        let joined = matches!(segment.get(used), Some(t) if t.kind == KqlTokenKind::Punct("-") && !t.spaced)
            && matches!(segment.get(used + 1), Some(t) if !t.spaced && matches!(t.kind, KqlTokenKind::Name(_)));
        if !joined {
            break;
        }
        name.push('-');
        used += 1;
    }
    (name, used)
}

/// Finds the tables a tabular expression reads: its source, `union` operands, `join`/`lookup`
/// right sides, and any parenthesized subquery.
fn collect_tables(tokens: &[KqlToken], tables: &mut Vec<String>) {
    let segments = split_top(tokens, "|");
    if let Some(source) = segments.first() {
        source_tables(source, tables);
    }
    for segment in segments.iter().skip(1) {
        let (name, used) = operator_name(segment);
        let args = &segment[used..];
        if matches!(name.as_str(), "join" | "lookup" | "union") {
            source_tables(args, tables);
        }
        subqueries(args, tables);
    }
}

/// Finds subqueries (parenthesized pipelines) at any depth in operator arguments.
fn subqueries(tokens: &[KqlToken], tables: &mut Vec<String>) {
    parenthesized(tokens, &mut |inner| {
        if split_top(inner, "|").len() > 1 {
            collect_tables(inner, tables);
        } else {
            subqueries(inner, tables);
        }
    });
}

/// Calls `f` with the contents of each top-level parenthesized group.
fn parenthesized(tokens: &[KqlToken], f: &mut dyn FnMut(&[KqlToken])) {
    let mut depth = 0;
    let mut start = 0;
    for (i, token) in tokens.iter().enumerate() {
        if token.kind == KqlTokenKind::Punct("(") {
            if depth == 0 {
                start = i + 1;
            }
            depth += 1;
        } else if token.kind == KqlTokenKind::Punct(")") {
            depth -= 1;
            if depth == 0 {
                f(&tokens[start..i]);
            }
        }
    }
}

fn push(tables: &mut Vec<String>, name: &str) {
    if !tables.iter().any(|t| t == name) {
        tables.push(name.to_string());
    }
}

/// Tables named in a source position: `T`, `database('db').T`, `table('T')`,
/// `union kind=outer T1, (T2 | where x), T3*`, `join kind=inner (T2) on k`, `lookup T2 on k`.
fn source_tables(tokens: &[KqlToken], tables: &mut Vec<String>) {
    let items = split_top(tokens, ",");
    for item in items {
        let mut i = 0;
        // Skip options such as `kind=inner` or `withsource=Source`.
        while matches!(item.get(i + 1), Some(t) if t.kind == KqlTokenKind::Punct("="))
            && name_at(item, i).is_some()
        {
            i += 3;
        }
        if name_at(item, i) == Some("union") {
            source_tables(&item[i + 1..], tables);
            continue;
        }
        match item.get(i).map(|t| &t.kind) {
            Some(KqlTokenKind::Punct("(")) => {
                parenthesized(&item[i..], &mut |inner| collect_tables(inner, tables));
            }
            Some(KqlTokenKind::Name(name)) | Some(KqlTokenKind::QuotedName(name)) => {
                if NOT_TABLES.contains(&name.as_str()) {
                    continue;
                }
                let next = item.get(i + 1).map(|t| &t.kind);
                if next == Some(&KqlTokenKind::Punct("(")) {
                    // A function call: `table('T')` names a table; `database(..).T`,
                    // `cluster(..).database(..).T` end with one; other calls are functions.
                    if name == "table" {
                        if let Some(KqlTokenKind::Str(table)) = item.get(i + 2).map(|t| &t.kind) {
                            push(tables, table);
                        }
                    } else if name == "database" || name == "cluster" {
                        let last = item.iter().rev().find_map(|t| match &t.kind {
                            KqlTokenKind::Name(n) | KqlTokenKind::QuotedName(n) => Some(n.clone()),
                            _ => None,
                        });
                        if let Some(last) = last.filter(|l| l != "database" && l != "cluster") {
                            push(tables, &last);
                        }
                    }
                } else if name != "on" {
                    push(tables, name);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> KqlQuery {
        parse(text, 1 << 20).unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn tables_from_every_source_position() {
        assert_eq!(
            q("Traces | where timestamp > ago(1h) | summarize count() by level").tables,
            ["Traces"]
        );
        assert_eq!(
            q("union Requests, (Exceptions | where severity > 2), Traces").tables,
            ["Requests", "Exceptions", "Traces"]
        );
        assert_eq!(
            q("Requests | join kind=inner (Dependencies | where success == false) on operation_Id")
                .tables,
            ["Requests", "Dependencies"]
        );
        assert_eq!(
            q("Requests | lookup Users on user_Id").tables,
            ["Requests", "Users"]
        );
        assert_eq!(
            q("let recent = Events | where ts > ago(1d); recent | join (Users) on uid").tables,
            ["Events", "Users"]
        );
        assert_eq!(q("database('prod').Logs | take 10").tables, ["Logs"]);
        assert_eq!(q("table('Heartbeat') | count").tables, ["Heartbeat"]);
        assert_eq!(
            q("T | where id in ((Other | project id))").tables,
            ["T", "Other"]
        );
        assert!(q("print x = 1").tables.is_empty());
        assert!(q("datatable(a:int)[1, 2] | where a > 1").tables.is_empty());
    }

    #[test]
    fn operators_with_hyphenated_names() {
        let query = q("T | project-away secret | mv-expand tags | where a - b > 0");
        let names: Vec<&str> = query.operators.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["project-away", "mv-expand", "where"]);
    }

    #[test]
    fn syntax_errors_point_at_the_spot() {
        let err = parse("T\n| where (a == 1", 1 << 20).unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(9)));
        let err = parse("T | | take 5", 1 << 20).unwrap_err();
        assert!(
            err.message.contains("empty") || err.message.contains("operator"),
            "{err}"
        );
        assert!(parse("", 1 << 20).is_err());
        let deep = format!("{}T | take 1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(
            parse(&deep, 1 << 20)
                .unwrap_err()
                .message
                .contains("too deeply")
        );
    }
}
