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
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
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
    let mut tokens = Tokenizer::new(dialect.parser_dialect(), sql)
        .tokenize_with_location()
        .map_err(|err| from_parser_error(err.into(), sql, limits))?;
    check_operator_count(&tokens)?;
    dollar_names(&mut tokens);
    if matches!(dialect, SqlDialect::Sqlite | SqlDialect::Generic) {
        tokens = sqlite_is_operator(tokens);
    }
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

/// A name that starts with `$` (`$f0`, as Calcite names the columns it makes up) is a name, not
/// a parameter: the tokenizer reads `$` and a letter as a placeholder, which no query to be
/// scored carries. It becomes a quoted name, so it is printed back as `"$f0"`, which SQLite too
/// reads as a name. Positional parameters (`$1`) stay placeholders.
fn dollar_names(tokens: &mut [TokenWithSpan]) {
    for token in tokens {
        if let Token::Placeholder(text) = &token.token
            && let Some(rest) = text.strip_prefix('$')
            && rest.starts_with(|c: char| c.is_alphabetic() || c == '_')
        {
            token.token = Token::Word(sqlparser::tokenizer::Word {
                value: text.clone(),
                quote_style: Some('"'),
                keyword: Keyword::NoKeyword,
            });
        }
    }
}

/// SQLite's `a IS b` and `a IS NOT b` compare any two values, NULL equal to NULL: the
/// standard's `IS NOT DISTINCT FROM` and `IS DISTINCT FROM`, which is what the parser reads
/// (and SQLite runs, since 3.39). `IS NULL`, `IS TRUE`, `IS DISTINCT FROM`... are left alone.
fn sqlite_is_operator(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let next_word = |from: usize| {
        tokens[from..]
            .iter()
            .position(|t| !matches!(t.token, Token::Whitespace(_)))
            .map(|k| from + k)
    };
    let keyword = |i: Option<usize>| match i.map(|i| &tokens[i].token) {
        Some(Token::Word(word)) => Some(word.keyword),
        _ => None,
    };
    // (index of the operand, index of the NOT in `IS NOT x`)
    let mut rewrites: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if !matches!(&token.token, Token::Word(w) if w.keyword == Keyword::IS) {
            continue;
        }
        let mut operand = next_word(i + 1);
        let mut not = None;
        if keyword(operand) == Some(Keyword::NOT) {
            not = operand;
            operand = operand.and_then(|k| next_word(k + 1));
        }
        let Some(at) = operand else { continue };
        let kept = [
            Keyword::NULL,
            Keyword::TRUE,
            Keyword::FALSE,
            Keyword::UNKNOWN,
            Keyword::DISTINCT,
            Keyword::JSON,
            Keyword::NORMALIZED,
            Keyword::NFC,
            Keyword::NFD,
            Keyword::NFKC,
            Keyword::NFKD,
        ];
        if !keyword(Some(at)).is_some_and(|k| kept.contains(&k)) {
            rewrites.push((at, not));
        }
    }
    if rewrites.is_empty() {
        return tokens;
    }
    let nots: Vec<usize> = rewrites.iter().filter_map(|r| r.1).collect();
    let operands: Vec<(usize, bool)> = rewrites.iter().map(|r| (r.0, r.1.is_some())).collect();
    let mut out = Vec::with_capacity(tokens.len() + 6 * rewrites.len());
    for (i, token) in tokens.into_iter().enumerate() {
        let span = token.span;
        let word = |text: &str| TokenWithSpan {
            token: Token::make_keyword(text),
            span,
        };
        let space = || TokenWithSpan {
            token: Token::Whitespace(sqlparser::tokenizer::Whitespace::Space),
            span,
        };
        if nots.contains(&i) {
            // `IS NOT x` is `IS DISTINCT FROM x`: the NOT becomes DISTINCT.
            out.push(word("DISTINCT"));
            continue;
        }
        if let Some(&(_, negated)) = operands.iter().find(|(at, _)| *at == i) {
            if !negated {
                out.extend([word("NOT"), space(), word("DISTINCT"), space()]);
            }
            out.extend([word("FROM"), space()]);
        }
        out.push(token);
    }
    out
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

    fn printed(sql: &str) -> String {
        let statements = parse(sql, SqlDialect::Sqlite, ParseLimits::default()).unwrap();
        statements[0].to_string()
    }

    #[test]
    fn sqlites_is_between_values_reads_as_not_distinct_from() {
        assert_eq!(
            printed("SELECT 1 FROM t WHERE a IS b.c AND d IS NOT 'x'"),
            "SELECT 1 FROM t WHERE a IS NOT DISTINCT FROM b.c AND d IS DISTINCT FROM 'x'"
        );
        assert_eq!(
            printed("SELECT a IS NULL, a IS NOT TRUE, a IS DISTINCT FROM b FROM t"),
            "SELECT a IS NULL, a IS NOT TRUE, a IS DISTINCT FROM b FROM t"
        );
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
