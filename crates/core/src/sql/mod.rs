//! SQL analysis: parsing, table extraction, normalization, Spider's hardness levels.

mod clock;
pub(crate) mod dialect;
pub(crate) mod hardness;
pub(crate) mod infer;
pub(crate) mod normalize;
pub(crate) mod parse;
pub(crate) mod safety;
pub(crate) mod schema;
pub(crate) mod scope;
pub(crate) mod spj;
pub(crate) mod sqlite_text;
pub(crate) mod tables;

pub(crate) use clock::reads_the_clock;
pub(crate) use dialect::SqlDialect;
pub(crate) use hardness::{Hardness, HardnessCounts, hardness};
pub(crate) use normalize::{canonical_text, canonicalize, normalize_tokens};
pub(crate) use parse::{ParseError, ParseLimits, parse};
pub(crate) use safety::{Place, SafetyReport, Violation, ViolationKind, check_read_only};
pub(crate) use schema::{Schema, quote_ident};
pub(crate) use scope::Scopes;
pub(crate) use sqlite_text::orders_its_output;
pub(crate) use tables::{TableName, extract_tables, tables_in};

/// The constraint of a join (`ON`, `USING`, `NATURAL`), when its kind has one.
pub(crate) fn join_constraint(
    operator: &sqlparser::ast::JoinOperator,
) -> Option<&sqlparser::ast::JoinConstraint> {
    use sqlparser::ast::JoinOperator as J;
    match operator {
        J::Join(c)
        | J::Inner(c)
        | J::Left(c)
        | J::LeftOuter(c)
        | J::Right(c)
        | J::RightOuter(c)
        | J::FullOuter(c)
        | J::CrossJoin(c)
        | J::Semi(c)
        | J::LeftSemi(c)
        | J::RightSemi(c)
        | J::Anti(c)
        | J::LeftAnti(c)
        | J::RightAnti(c) => Some(c),
        _ => None,
    }
}

/// The `ON` condition of a join, when it has one (not `USING`, `NATURAL` or a cross join).
pub(crate) fn join_condition(
    operator: &sqlparser::ast::JoinOperator,
) -> Option<&sqlparser::ast::Expr> {
    match join_constraint(operator)? {
        sqlparser::ast::JoinConstraint::On(expr) => Some(expr),
        _ => None,
    }
}
