//! A query as SQLite runs it. Test databases are SQLite, so a query written for another dialect
//! is carried over where the dialects differ only in spelling: `SELECT TOP n` becomes `LIMIT n`,
//! `ILIKE` becomes `LIKE` (SQLite's `LIKE` ignores ASCII case), `x::type` becomes `CAST`.
//! Backticks and brackets need nothing: SQLite reads them as quoted names. SQL that is SQLite's
//! already (or generic) is passed through as written.

use std::ops::ControlFlow;

use sqlparser::ast::{
    CastKind, Expr, LimitClause, Query, SetExpr, TopQuantity, VisitMut, VisitorMut,
};

use super::{ParseError, ParseLimits, SqlDialect, parse};

/// Whether the statements' own result is ordered: a top-level `ORDER BY`, not one inside a
/// subquery or a window. (The `bag` mode's text rule, Spider's, also counts those.)
pub fn orders_its_output(statements: &[sqlparser::ast::Statement]) -> bool {
    statements.iter().any(|s| match s {
        sqlparser::ast::Statement::Query(q) => q.order_by.is_some(),
        _ => false,
    })
}

/// The text SQLite should run for `sql` written in `dialect`.
pub fn to_sqlite(
    sql: &str,
    dialect: SqlDialect,
    limits: ParseLimits,
) -> Result<String, ParseError> {
    if matches!(
        dialect,
        SqlDialect::Sqlite | SqlDialect::Generic | SqlDialect::Ansi
    ) {
        return Ok(sql.to_string());
    }
    let mut statements = parse(sql, dialect, limits)?;
    let _ = statements.visit(&mut Spelling);
    Ok(statements
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";\n"))
}

struct Spelling;

impl VisitorMut for Spelling {
    type Break = ();

    fn post_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if let SetExpr::Select(select) = query.body.as_mut()
            && query.limit_clause.is_none()
            && let Some(top) = &select.top
            && !top.percent
            && !top.with_ties
        {
            let limit = match &top.quantity {
                Some(TopQuantity::Constant(n)) => Some(Expr::value(sqlparser::ast::Value::Number(
                    n.to_string(),
                    false,
                ))),
                Some(TopQuantity::Expr(e)) => Some(e.clone()),
                None => None,
            };
            if limit.is_some() {
                select.top = None;
                query.limit_clause = Some(LimitClause::LimitOffset {
                    limit,
                    offset: None,
                    limit_by: Vec::new(),
                });
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        match expr {
            Expr::ILike {
                negated,
                any,
                expr: inner,
                pattern,
                escape_char,
            } => {
                *expr = Expr::Like {
                    negated: *negated,
                    any: *any,
                    expr: inner.clone(),
                    pattern: pattern.clone(),
                    escape_char: escape_char.clone(),
                };
            }
            Expr::Cast { kind, .. } if *kind == CastKind::DoubleColon => *kind = CastKind::Cast,
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_becomes_limit_and_other_dialects_keep_their_meaning() {
        let sql = to_sqlite(
            "SELECT TOP 3 [name] FROM singer ORDER BY age",
            SqlDialect::Mssql,
            ParseLimits::default(),
        )
        .expect("translates");
        assert_eq!(sql, "SELECT [name] FROM singer ORDER BY age LIMIT 3");
        let sql = to_sqlite(
            "SELECT name FROM t WHERE name ILIKE 'a%' AND x::int > 1",
            SqlDialect::Postgres,
            ParseLimits::default(),
        )
        .expect("translates");
        assert_eq!(
            sql,
            "SELECT name FROM t WHERE name LIKE 'a%' AND CAST(x AS INT) > 1"
        );
        assert_eq!(
            to_sqlite(
                "select  *  from t",
                SqlDialect::Sqlite,
                ParseLimits::default()
            )
            .expect("as is"),
            "select  *  from t"
        );
    }
}
