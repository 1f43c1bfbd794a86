//! A canonical form of a query, for the exact-match shortcut.
//!
//! Two queries with the same canonical form are the same query written differently: keyword and
//! identifier case, whitespace and comments, trailing semicolons, the quoting of identifiers and
//! strings, an optional `AS` before a table alias, and the optional `INNER`/`OUTER` of a join do
//! not count. Nothing semantic happens here (`1` and `1.0` stay different); the
//! judges decide equivalence.
//!
//! A query that parses is canonicalized on its syntax tree, so a quoted `"current_date"` column
//! stays different from the `current_date` function even though both print alike. Text that does
//! not parse falls back to a token-level form.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Ident, JoinOperator, Select, Statement, TableAlias, TableFactor, Value, ValueWithSpan,
    VisitMut, VisitorMut,
};
use sqlparser::keywords::ALL_KEYWORDS;
use sqlparser::tokenizer::{Token, Tokenizer, Word};

use super::{ParseLimits, SqlDialect, parse};

/// Rewrites parsed statements into canonical form: identifiers lowercased and unquoted,
/// double-quoted string literals (MySQL) as single-quoted ones, table aliases without `AS`, and
/// `JOIN`/`LEFT JOIN`/`RIGHT JOIN` spelled `INNER JOIN`/`LEFT OUTER JOIN`/`RIGHT OUTER JOIN`.
pub(crate) fn canonicalize(statements: &mut [Statement]) {
    for statement in statements {
        // The visitor never breaks.
        let _ = statement.visit(&mut Canonicalizer);
    }
}

/// The canonical statements as text, separated by `; `.
pub(crate) fn canonical_text(statements: &[Statement]) -> String {
    statements
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

struct Canonicalizer;

/// SQL's functions called without parentheses, which a quoted identifier of the same name is not.
const NILADIC_FUNCTIONS: &[&str] = &[
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "localtime",
    "localtimestamp",
    "session_user",
    "system_user",
    "user",
];

impl VisitorMut for Canonicalizer {
    type Break = ();

    fn pre_visit_ident(&mut self, ident: &mut Ident) -> ControlFlow<()> {
        ident.value = ident.value.to_lowercase();
        // Bare, these names are niladic functions; quoted, they are columns. Keep them apart.
        ident.quote_style = (ident.quote_style.is_some()
            && NILADIC_FUNCTIONS.contains(&ident.value.as_str()))
        .then_some('"');
        ControlFlow::Continue(())
    }

    fn pre_visit_value(&mut self, value: &mut ValueWithSpan) -> ControlFlow<()> {
        if let Value::DoubleQuotedString(text) = &value.value {
            value.value = Value::SingleQuotedString(text.clone());
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        let alias: Option<&mut TableAlias> = match factor {
            TableFactor::Table { alias, .. }
            | TableFactor::Derived { alias, .. }
            | TableFactor::TableFunction { alias, .. }
            | TableFactor::Function { alias, .. }
            | TableFactor::UNNEST { alias, .. }
            | TableFactor::NestedJoin { alias, .. } => alias.as_mut(),
            _ => None,
        };
        if let Some(alias) = alias {
            alias.explicit = false;
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        for join in select
            .from
            .iter_mut()
            .flat_map(|from| from.joins.iter_mut())
        {
            let operator = std::mem::replace(&mut join.join_operator, JoinOperator::CrossApply);
            join.join_operator = match operator {
                JoinOperator::Join(on) => JoinOperator::Inner(on),
                JoinOperator::Left(on) => JoinOperator::LeftOuter(on),
                JoinOperator::Right(on) => JoinOperator::RightOuter(on),
                other => other,
            };
        }
        ControlFlow::Continue(())
    }
}

/// The canonical text of `sql`: from its syntax tree when it parses, else from its tokens.
pub fn normalize(sql: &str, dialect: SqlDialect) -> String {
    match parse(sql, dialect, ParseLimits::default()) {
        Ok(mut statements) => {
            canonicalize(&mut statements);
            canonical_text(&statements)
        }
        Err(_) => normalize_tokens(sql, dialect),
    }
}

/// The token-level form for text that does not parse: words lowercased, whitespace and comments
/// dropped, strings single-quoted, trailing semicolons removed. Text the tokenizer rejects falls
/// back to its words separated by single spaces.
pub(crate) fn normalize_tokens(sql: &str, dialect: SqlDialect) -> String {
    let tokens = match Tokenizer::new(dialect.parser_dialect(), sql).tokenize() {
        Ok(tokens) => tokens,
        Err(_) => return sql.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    let mut parts: Vec<String> = Vec::with_capacity(tokens.len());
    for token in tokens {
        match token {
            Token::Whitespace(_) | Token::EOF => {}
            Token::Word(word) => parts.push(word_text(&word)),
            Token::SingleQuotedString(text) | Token::DoubleQuotedString(text) => {
                parts.push(format!("'{}'", text.replace('\'', "''")));
            }
            other => parts.push(other.to_string()),
        }
    }
    while parts.last().is_some_and(|part| part == ";") {
        parts.pop();
    }
    parts.join(" ")
}

/// Keywords and identifiers in lowercase; a quoted identifier loses its quotes only when that
/// cannot change how it reads (a plain lowercase name that is not a keyword).
fn word_text(word: &Word) -> String {
    let lower = word.value.to_lowercase();
    if word.quote_style.is_none() || is_plain_name(&lower) {
        lower
    } else {
        format!("\"{}\"", lower.replace('"', "\"\""))
    }
}

fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
    starts_well
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && ALL_KEYWORDS
            .binary_search(&name.to_ascii_uppercase().as_str())
            .is_err()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        normalize(a, SqlDialect::Generic) == normalize(b, SqlDialect::Generic)
    }

    #[test]
    fn case_whitespace_and_semicolon_do_not_count() {
        assert!(same(
            "SELECT * FROM users WHERE id = 1;",
            "select *\n  from   USERS where ID=1"
        ));
    }

    #[test]
    fn comments_do_not_count() {
        assert!(same(
            "SELECT a -- the id\nFROM t /* all rows */",
            "SELECT a FROM t"
        ));
    }

    #[test]
    fn quoted_identifiers_equal_bare_ones() {
        assert!(same(
            "SELECT \"Name\" FROM \"Users\"",
            "SELECT name FROM users"
        ));
    }

    #[test]
    fn string_literal_case_counts() {
        assert!(!same(
            "SELECT * FROM t WHERE s = 'Active'",
            "SELECT * FROM t WHERE s = 'active'"
        ));
    }

    #[test]
    fn mysql_backticks_and_double_quoted_strings() {
        let a = normalize(
            "SELECT `id` FROM `users` WHERE s = \"x\"",
            SqlDialect::Mysql,
        );
        let b = normalize("select id from users where s = 'x'", SqlDialect::Mysql);
        assert_eq!(a, b);
    }

    #[test]
    fn optional_keywords_do_not_count() {
        assert!(same(
            "SELECT u.name FROM users AS u JOIN orders o ON o.uid = u.id LEFT JOIN t ON true",
            "SELECT u.name FROM users u INNER JOIN orders AS o ON o.uid = u.id LEFT OUTER JOIN t ON true"
        ));
        assert!(!same(
            "SELECT * FROM a JOIN b ON true",
            "SELECT * FROM a LEFT JOIN b ON true"
        ));
    }

    #[test]
    fn a_quoted_column_is_not_the_function_of_the_same_name() {
        assert!(!same(
            "SELECT \"current_date\" FROM t",
            "SELECT current_date FROM t"
        ));
    }

    #[test]
    fn numbers_are_not_rewritten() {
        assert!(!same("SELECT 1", "SELECT 1.0"));
    }

    #[test]
    fn unparseable_text_keeps_quoting_that_matters() {
        let tokens = |sql| normalize_tokens(sql, SqlDialect::Generic);
        assert_eq!(tokens("SELECT \"Users\" FROM"), tokens("select users from"));
        assert_ne!(tokens("SELECT \"a b\" FROM"), tokens("SELECT a b FROM"));
        assert_ne!(tokens("SELECT \"from\" FROM"), tokens("SELECT from FROM"));
    }

    #[test]
    fn untokenizable_text_falls_back_to_words() {
        assert_eq!(
            normalize("SELECT  'oops", SqlDialect::Generic),
            "SELECT 'oops"
        );
    }
}
