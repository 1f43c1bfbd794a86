//! SQL analysis: parsing, table extraction, normalization, Spider's hardness levels.

mod clock;
mod dialect;
mod hardness;
mod infer;
mod normalize;
mod parse;
mod safety;
mod schema;
pub mod scope;
mod spj;
mod sqlite_text;
mod tables;

pub use clock::reads_the_clock;
pub use dialect::{SqlDialect, UnknownDialect};
pub use hardness::{Hardness, HardnessCounts, hardness, hardness_counts};
pub use infer::{
    ColumnKey, Hints, Inference, Literal, hints_for_schema, infer_schema, looks_like_date,
};
pub use normalize::{canonical_text, canonicalize, normalize, normalize_tokens};
pub use parse::{MAX_OPERATORS, ParseError, ParseLimits, parse};
pub use safety::{Place, SafetyReport, Violation, ViolationKind, check_read_only};
pub use schema::{ColumnType, ForeignKey, Schema, SchemaColumn, SchemaTable, quote_ident};
pub use scope::Scopes;
pub use spj::{Isomorphism, isomorphism_proof};
pub use sqlite_text::{orders_its_output, to_sqlite};
pub use tables::{TableName, TableNameError, extract_tables, tables_in};

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
