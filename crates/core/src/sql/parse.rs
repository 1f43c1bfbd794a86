//! Parsing SQL text into statements, with limits that keep hostile input cheap.

use std::fmt;

use serde::{Deserialize, Serialize};
use sqlparser::ast::Statement;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use super::SqlDialect;

/// Limits applied before and during parsing. Untrusted text must not be able to make the parser
/// use unbounded time or stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseLimits {
    /// Longest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of expressions and subqueries.
    pub max_depth: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        // 256 KiB is far above any query a model writes. A depth of 100 admits about 30 levels
        // of nested subqueries, far above any query a person reads, and stays well inside the
        // stack the wasm build links with (natively sqlparser grows its stack on demand).
        ParseLimits {
            max_bytes: 256 * 1024,
            max_depth: 100,
        }
    }
}

/// Why a query could not be parsed, and where (1-based line and column, when known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(tsify::Tsify),
    tsify(missing_as_null, hashmap_as_object)
)]
pub struct ParseError {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "line {line}, column {column}: {}", self.message)
            }
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses `sql` into statements in the given dialect, within `limits`.
///
/// Blank input (only whitespace, comments or semicolons) is an error: there is nothing to score.
pub fn parse(
    sql: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
) -> Result<Vec<Statement>, ParseError> {
    if sql.len() > limits.max_bytes {
        return Err(ParseError {
            message: format!(
                "the query is {} bytes long; the limit is {} bytes",
                sql.len(),
                limits.max_bytes
            ),
            line: None,
            column: None,
        });
    }
    // Tokenized once: the operator count and the parser read the same tokens.
    let tokens = Tokenizer::new(dialect.parser_dialect(), sql)
        .tokenize_with_location()
        .map_err(|err| from_parser_error(err.into(), sql, limits))?;
    check_operator_count(&tokens)?;
    let statements = Parser::new(dialect.parser_dialect())
        .with_recursion_limit(limits.max_depth)
        .with_tokens_with_locations(tokens)
        .parse_statements()
        .map_err(|err| from_parser_error(err, sql, limits))?;
    if statements.is_empty() {
        return Err(ParseError {
            message: "the query is empty".to_string(),
            line: None,
            column: None,
        });
    }
    Ok(statements)
}

/// Most binary operators a query may have. The parser builds `1 + 1 + ... + 1` as a chain as
/// deep as it is long, under its nesting limit, and every walk over the tree (comparing,
/// printing, even dropping it) recurses down that chain: 60,000 terms overflow any stack. No
/// query a person or a model writes comes near this many.
pub const MAX_OPERATORS: usize = 1_000;

/// Counts the binary operators (arithmetic, comparison, `AND`, `OR`, `||`) on the tokens, which
/// the tokenizer makes without recursion.
fn check_operator_count(tokens: &[TokenWithSpan]) -> Result<(), ParseError> {
    let operators = tokens
        .iter()
        .filter(|token| match &token.token {
            Token::Plus
            | Token::Minus
            | Token::Mul
            | Token::Div
            | Token::Mod
            | Token::StringConcat
            | Token::Eq
            | Token::Neq
            | Token::Lt
            | Token::Gt
            | Token::LtEq
            | Token::GtEq => true,
            Token::Word(word) => matches!(word.keyword, Keyword::AND | Keyword::OR),
            _ => false,
        })
        .count();
    if operators > MAX_OPERATORS {
        return Err(ParseError {
            message: format!(
                "the query has {operators} operators; the limit is {MAX_OPERATORS} (a chain that long cannot be analysed safely)"
            ),
            line: None,
            column: None,
        });
    }
    Ok(())
}

fn from_parser_error(err: ParserError, sql: &str, limits: ParseLimits) -> ParseError {
    let text = match err {
        ParserError::TokenizerError(text) | ParserError::ParserError(text) => text,
        ParserError::RecursionLimitExceeded => {
            return ParseError {
                message: format!(
                    "the query nests expressions and subqueries too deeply (depth limit {})",
                    limits.max_depth
                ),
                line: None,
                column: None,
            };
        }
    };
    let mut error = split_location(&text);
    // sqlparser gives no position for "found EOF": the spot is just after the last character.
    if error.line.is_none() && error.message.ends_with("found the end of the query") {
        let (line, column) = end_position(sql);
        error.line = Some(line);
        error.column = Some(column);
    }
    error
}

/// 1-based line and column just after the last non-blank character.
fn end_position(sql: &str) -> (u64, u64) {
    let text = sql.trim_end();
    let line = text.lines().count().max(1) as u64;
    let last = text.rsplit('\n').next().unwrap_or_default();
    (line, last.chars().count() as u64 + 1)
}

/// sqlparser reports positions only inside its message, as a trailing
/// " at Line: L, Column: C". Lift them into fields so callers can point at the spot.
fn split_location(text: &str) -> ParseError {
    const MARKER: &str = " at Line: ";
    if let Some(at) = text.rfind(MARKER) {
        let rest = &text[at + MARKER.len()..];
        if let Some((line, column)) = rest.split_once(", Column: ")
            && let (Ok(line), Ok(column)) = (line.trim().parse(), column.trim().parse())
        {
            return ParseError {
                message: tidy(&text[..at]),
                line: Some(line),
                column: Some(column),
            };
        }
    }
    ParseError {
        message: tidy(text),
        line: None,
        column: None,
    }
}

/// sqlparser's messages read "Expected: an expression, found: EOF"; make them read as prose.
fn tidy(message: &str) -> String {
    let message = message.trim();
    let message = message
        .replace("Expected: ", "expected ")
        .replace(", found: ", ", found ");
    let message = message.replace("found EOF", "found the end of the query");
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "the query could not be parsed".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(sql: &str) -> ParseError {
        parse(sql, SqlDialect::Generic, ParseLimits::default()).unwrap_err()
    }

    #[test]
    fn error_points_at_line_and_column() {
        let err = parse_err("SELECT id\nFROM users\nWHERE id = \n");
        assert_eq!((err.line, err.column), (Some(3), Some(11)));
        assert!(err.message.contains("end of the query"), "{}", err.message);
    }

    #[test]
    fn unexpected_token_has_its_column() {
        let err = parse_err("SELECT * FROM users WHERE id = 1)");
        assert_eq!((err.line, err.column), (Some(1), Some(33)));
        assert!(err.message.starts_with("expected"), "{}", err.message);
    }

    #[test]
    fn tokenizer_error_has_a_location() {
        let err = parse_err("SELECT 'unterminated");
        assert_eq!(err.line, Some(1));
        assert!(
            err.message.to_lowercase().contains("unterminated"),
            "{}",
            err.message
        );
    }

    #[test]
    fn realistic_nesting_parses() {
        let sql = format!(
            "SELECT * FROM t WHERE a IN {}(1){}",
            "(SELECT x FROM u WHERE y IN ".repeat(20),
            ")".repeat(20)
        );
        assert!(parse(&sql, SqlDialect::Generic, ParseLimits::default()).is_ok());
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let sql = format!("SELECT {}1{}", "(".repeat(5000), ")".repeat(5000));
        let err = parse_err(&sql);
        assert!(err.message.contains("too deeply"), "{}", err.message);
    }

    #[test]
    fn oversized_input_is_refused() {
        let sql = format!("SELECT '{}'", "x".repeat(300 * 1024));
        assert!(parse_err(&sql).message.contains("bytes long"));
    }

    #[test]
    fn blank_input_is_empty() {
        assert_eq!(parse_err("  ;  -- nothing").message, "the query is empty");
    }
}
