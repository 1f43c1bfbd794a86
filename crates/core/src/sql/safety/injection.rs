//! Shapes of SQL injection in a query that is otherwise read-only: a condition made always true
//! by `OR '1'='1'`, and query text cut off by a trailing comment (`name = 'admin' -- AND ...`).
//! A generated query with either shape reads data it was not asked for; it is reported as a
//! warning, since it writes nothing.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, Spanned, Statement, UnaryOperator, Value, Visit, Visitor,
};
use sqlparser::tokenizer::{Token, Tokenizer, Whitespace};

use super::{Place, Violation, ViolationKind};
use crate::sql::SqlDialect;

/// The injection shapes found in `sql`, already parsed into `statements`.
pub(super) fn warnings(sql: &str, dialect: SqlDialect, statements: &[Statement]) -> Vec<Violation> {
    let mut finder = Tautologies::default();
    for statement in statements {
        let _ = statement.visit(&mut finder);
    }
    let mut found = finder.found;
    if let Some((comment, place)) = trailing_code_comment(sql, dialect) {
        found.push(Violation {
            kind: ViolationKind::CommentedOutCode,
            reason: format!(
                "A trailing comment holds query text ({comment}): cutting the rest of a query off \
                 with a comment is an injection shape"
            ),
            place,
        });
    }
    found
}

#[derive(Default)]
struct Tautologies {
    found: Vec<Violation>,
}

impl Visitor for Tautologies {
    type Break = ();

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        if let Expr::BinaryOp {
            left,
            op: BinaryOperator::Or,
            right,
        } = expr
        {
            for side in [left, right] {
                if always_true(side) && self.found.len() < 10 {
                    self.found.push(Violation {
                        kind: ViolationKind::Tautology,
                        reason: format!(
                            "`OR {side}` is always true, so the condition around it filters \
                             nothing (an injection shape)"
                        ),
                        place: Place::of(side.span()),
                    });
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// A condition true on every row whatever the data: `TRUE`, a non-zero number (MySQL reads it as
/// true), a comparison of a thing with itself (`'1'='1'`, `1=1`, `a=a`), or `NOT` of a false one.
fn always_true(expr: &Expr) -> bool {
    match expr {
        Expr::Nested(inner) => always_true(inner),
        Expr::Value(value) => match &value.value {
            Value::Boolean(b) => *b,
            Value::Number(n, _) => n.parse::<f64>().is_ok_and(|x| x != 0.0),
            _ => false,
        },
        Expr::BinaryOp { left, op, right } => match op {
            BinaryOperator::Eq | BinaryOperator::GtEq | BinaryOperator::LtEq => {
                same_literal(left, right) || left == right
            }
            BinaryOperator::NotEq => literal_text(left)
                .zip(literal_text(right))
                .is_some_and(|(a, b)| a != b),
            BinaryOperator::Or => always_true(left) || always_true(right),
            BinaryOperator::And => always_true(left) && always_true(right),
            _ => false,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => always_false(expr),
        _ => false,
    }
}

fn always_false(expr: &Expr) -> bool {
    match expr {
        Expr::Nested(inner) => always_false(inner),
        Expr::Value(value) => matches!(value.value, Value::Boolean(false)),
        Expr::BinaryOp {
            left,
            op: BinaryOperator::NotEq,
            right,
        } => same_literal(left, right),
        _ => false,
    }
}

/// Both sides are the same literal, however quoted: `'1' = 1` is true in the databases that
/// convert text to numbers for the comparison, and an injection either way.
fn same_literal(left: &Expr, right: &Expr) -> bool {
    literal_text(left)
        .zip(literal_text(right))
        .is_some_and(|(a, b)| a == b)
}

fn literal_text(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Nested(inner) => literal_text(inner),
        Expr::Value(value) => match &value.value {
            Value::Number(n, _) => Some(n.clone()),
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The comment after the last token of `sql`, when what it holds reads as query text: it
/// starts by closing a string, or it has a comparison. `-- top 10 customers` is a note;
/// `--' AND password = 'x'` cuts a filter off. Returned with the comment's place.
fn trailing_code_comment(sql: &str, dialect: SqlDialect) -> Option<(String, Option<Place>)> {
    let tokens = Tokenizer::new(dialect.parser_dialect(), sql)
        .tokenize_with_location()
        .ok()?;
    let mut trailing = Vec::new();
    for token in tokens.iter().rev() {
        match &token.token {
            Token::Whitespace(Whitespace::SingleLineComment { comment, .. })
            | Token::Whitespace(Whitespace::MultiLineComment(comment)) => {
                trailing.push((comment.trim(), Place::of(token.span)));
            }
            Token::Whitespace(_) | Token::SemiColon => {}
            _ => break,
        }
    }
    let (text, place) = trailing
        .into_iter()
        .rev()
        .find(|(text, _)| reads_as_code(text, dialect))?;
    let shown: String = text.chars().take(60).collect();
    Some((format!("`{shown}`"), place))
}

fn reads_as_code(text: &str, dialect: SqlDialect) -> bool {
    let closes_a_string = text.starts_with(['\'', '"']);
    let compares = Tokenizer::new(dialect.parser_dialect(), text)
        .tokenize()
        .is_ok_and(|tokens| {
            tokens.iter().any(|t| {
                matches!(
                    t,
                    Token::Eq
                        | Token::DoubleEq
                        | Token::Neq
                        | Token::Lt
                        | Token::Gt
                        | Token::LtEq
                        | Token::GtEq
                )
            })
        });
    closes_a_string || compares
}
