//! How hard a query is, in the four levels Spider's evaluator sorts its questions into (easy,
//! medium, hard, extra), by the same counts and thresholds, so a run's pass rate by level reads
//! like Spider's table.
//!
//! Three counts decide the level, all taken on the main query (for a set operation, its first
//! `SELECT`):
//! - **components**: `WHERE`, `GROUP BY`, `ORDER BY` and `LIMIT` one each when present, one per
//!   joined table after the first, one per `OR` and one per `LIKE` among the conditions of
//!   `ON`, `WHERE` and `HAVING`;
//! - **nested**: the subqueries that are operands of those conditions, plus one for a set
//!   operation (`UNION`, `INTERSECT`, `EXCEPT`, however long the chain) and one per CTE (which
//!   Spider's grammar has not; a CTE is a nested query by another name);
//! - **others**: one each for more than one aggregate, more than one selected column, more than
//!   one `WHERE` condition and more than one `GROUP BY` expression.
//!
//! Spider's aggregate count has two quirks that are kept because they decide levels in its
//! published tables: a negated condition in `WHERE` or `HAVING` (`NOT IN`, `NOT LIKE`...) counts
//! as an aggregate, and so does each `AND`/`OR` between `HAVING` conditions; an aggregate inside
//! a condition does not. A subquery in `FROM` is one more table, not a nested query.

use serde::{Deserialize, Serialize};
use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArguments, GroupByExpr, LimitClause, OrderByKind, Query, Select,
    SelectItem, SetExpr, Statement, UnaryOperator,
};

use super::{ParseLimits, SqlDialect, join_condition, parse};

/// Spider's four levels, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hardness {
    Easy,
    Medium,
    Hard,
    Extra,
}

impl Hardness {
    pub const ALL: [Hardness; 4] = [
        Hardness::Easy,
        Hardness::Medium,
        Hardness::Hard,
        Hardness::Extra,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Hardness::Easy => "easy",
            Hardness::Medium => "medium",
            Hardness::Hard => "hard",
            Hardness::Extra => "extra",
        }
    }

    /// The level of three counts, by Spider's thresholds.
    pub fn of_counts(counts: HardnessCounts) -> Hardness {
        let HardnessCounts {
            components: c1,
            nested: c2,
            others,
        } = counts;
        if c1 <= 1 && others == 0 && c2 == 0 {
            Hardness::Easy
        } else if (others <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && others < 2 && c2 == 0) {
            Hardness::Medium
        } else if (others > 2 && c1 <= 2 && c2 == 0)
            || (2 < c1 && c1 <= 3 && others <= 2 && c2 == 0)
            || (c1 <= 1 && others == 0 && c2 <= 1)
        {
            Hardness::Hard
        } else {
            Hardness::Extra
        }
    }
}

impl std::fmt::Display for Hardness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The three counts a level is decided by (see the module's documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HardnessCounts {
    pub components: usize,
    pub nested: usize,
    pub others: usize,
}

/// The level of `sql`, or `None` when it does not parse or its first statement is not a query.
pub fn hardness(sql: &str, dialect: SqlDialect) -> Option<Hardness> {
    let statements = parse(sql, dialect, ParseLimits::default()).ok()?;
    hardness_counts(&statements).map(Hardness::of_counts)
}

/// The counts of the first statement, when it is a query.
pub fn hardness_counts(statements: &[Statement]) -> Option<HardnessCounts> {
    match statements.first()? {
        Statement::Query(query) => Some(query_counts(query)),
        _ => None,
    }
}

fn query_counts(query: &Query) -> HardnessCounts {
    let ctes = query.with.as_ref().map_or(0, |with| with.cte_tables.len());
    let mut counts = match query.body.as_ref() {
        SetExpr::Select(select) => select_counts(select, Some(query)),
        SetExpr::Query(inner) => query_counts(inner),
        // ORDER BY and LIMIT after a set operation belong, in Spider's grammar, to the last
        // query of the chain, which is nested: they do not count for the first.
        SetExpr::SetOperation { .. } => {
            let mut counts = first_select(&query.body)
                .map(|select| select_counts(select, None))
                .unwrap_or_default();
            counts.nested += 1;
            counts
        }
        _ => HardnessCounts::default(),
    };
    counts.nested += ctes;
    counts
}

/// The first `SELECT` of a chain of set operations.
fn first_select(body: &SetExpr) -> Option<&Select> {
    match body {
        SetExpr::Select(select) => Some(select),
        SetExpr::SetOperation { left, .. } => first_select(left),
        SetExpr::Query(query) => first_select(&query.body),
        _ => None,
    }
}

/// The counts of one `SELECT`, with the `ORDER BY` and `LIMIT` of `tail` when they are its own.
fn select_counts(select: &Select, tail: Option<&Query>) -> HardnessCounts {
    let mut counts = HardnessCounts::default();
    let mut aggregates = 0;

    let tables: usize = select.from.iter().map(|from| 1 + from.joins.len()).sum();
    counts.components += tables.saturating_sub(1);

    let mut on = Conditions::default();
    for join in select.from.iter().flat_map(|from| &from.joins) {
        if let Some(condition) = join_condition(&join.join_operator) {
            on.add(condition);
        }
    }
    let mut filter = Conditions::default();
    if let Some(selection) = &select.selection {
        filter.add(selection);
        counts.components += 1;
    }
    let mut having = Conditions::default();
    if let Some(condition) = &select.having {
        having.add(condition);
    }
    let groups = match &select.group_by {
        GroupByExpr::All(_) => 1,
        GroupByExpr::Expressions(exprs, _) => {
            aggregates += exprs.iter().filter(|e| is_aggregate(e)).count();
            exprs.len()
        }
    };
    counts.components += usize::from(groups > 0);
    for conditions in [&on, &filter, &having] {
        counts.components += conditions.ors + conditions.likes;
        counts.nested += conditions.subqueries;
    }
    if let Some(query) = tail {
        // `SELECT TOP n` is SQL Server's LIMIT.
        let limit = has_limit(query) || select.top.is_some();
        counts.components += usize::from(has_order_by(query)) + usize::from(limit);
        aggregates += aggregates_in_order_by(query);
    }

    aggregates += select
        .projection
        .iter()
        .filter(|item| match item {
            SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
                is_aggregate(expr)
            }
            _ => false,
        })
        .count();
    aggregates += filter.negated;
    aggregates += having.negated + having.connectives();

    counts.others += usize::from(aggregates > 1)
        + usize::from(select.projection.len() > 1)
        + usize::from(filter.leaves > 1)
        + usize::from(groups > 1);
    counts
}

fn has_order_by(query: &Query) -> bool {
    query
        .order_by
        .as_ref()
        .is_some_and(|order| match &order.kind {
            OrderByKind::Expressions(items) => !items.is_empty(),
            OrderByKind::All(_) => true,
        })
}

fn has_limit(query: &Query) -> bool {
    query.fetch.is_some()
        || match &query.limit_clause {
            Some(LimitClause::LimitOffset { limit, .. }) => limit.is_some(),
            Some(LimitClause::OffsetCommaLimit { .. }) => true,
            None => false,
        }
}

/// Aggregates in `ORDER BY`: each item counts the aggregates among its operands (`COUNT(*)`
/// counts one, `SUM(a) - SUM(b)` two).
fn aggregates_in_order_by(query: &Query) -> usize {
    let Some(order) = &query.order_by else {
        return 0;
    };
    let OrderByKind::Expressions(items) = &order.kind else {
        return 0;
    };
    items
        .iter()
        .map(|item| match unnest(&item.expr) {
            Expr::BinaryOp { left, right, .. } => {
                usize::from(is_aggregate(left)) + usize::from(is_aggregate(right))
            }
            expr => usize::from(is_aggregate(expr)),
        })
        .sum()
}

/// A call of one of the five aggregates Spider knows.
fn is_aggregate(expr: &Expr) -> bool {
    let Expr::Function(function) = unnest(expr) else {
        return false;
    };
    if matches!(function.args, FunctionArguments::None) {
        return false;
    }
    let name = function.name.to_string().to_ascii_lowercase();
    matches!(
        name.rsplit('.').next().unwrap_or_default(),
        "count" | "sum" | "avg" | "min" | "max"
    )
}

fn unnest(expr: &Expr) -> &Expr {
    match expr {
        Expr::Nested(inner) => unnest(inner),
        other => other,
    }
}

/// A condition read as Spider's grammar reads it: a flat list of simple conditions joined by
/// `AND` and `OR`.
///
/// One quirk of Spider's parser (`process_sql.parse_value`) is kept: a comparison whose right
/// side is a column reads that column up to the next `AND` (or `,`, `)`, clause or join
/// keyword), so the conditions joined to it by `OR` are swallowed whole. `a < t.b OR a > t.c`
/// is one condition and no `OR` to Spider, which decides the level of some of its own golds.
#[derive(Default)]
struct Conditions {
    leaves: usize,
    ors: usize,
    ands: usize,
    likes: usize,
    negated: usize,
    subqueries: usize,
}

/// How a simple condition is joined to the one before it.
#[derive(Clone, Copy, PartialEq)]
enum Joined {
    First,
    And,
    Or,
}

impl Conditions {
    fn connectives(&self) -> usize {
        self.ors + self.ands
    }

    fn add(&mut self, expr: &Expr) {
        let mut leaves = Vec::new();
        flatten(expr, Joined::First, &mut leaves);
        let mut swallowing = false;
        for (joined, leaf, negated) in leaves {
            if swallowing && joined == Joined::Or {
                continue;
            }
            match joined {
                Joined::And => self.ands += 1,
                Joined::Or => self.ors += 1,
                Joined::First => {}
            }
            self.leaf(leaf);
            self.negated += usize::from(negated);
            swallowing = compares_with_column(leaf);
        }
    }

    fn leaf(&mut self, expr: &Expr) {
        self.leaves += 1;
        let subquery = |e: &Expr| usize::from(matches!(unnest(e), Expr::Subquery(_)));
        match unnest(expr) {
            Expr::Like {
                negated, pattern, ..
            }
            | Expr::ILike {
                negated, pattern, ..
            } => {
                self.likes += 1;
                self.negated += usize::from(*negated);
                self.subqueries += subquery(pattern);
            }
            Expr::InSubquery { negated, .. } | Expr::Exists { negated, .. } => {
                self.negated += usize::from(*negated);
                self.subqueries += 1;
            }
            Expr::InList { negated, .. } => self.negated += usize::from(*negated),
            Expr::Between {
                negated, low, high, ..
            } => {
                self.negated += usize::from(*negated);
                self.subqueries += subquery(low) + subquery(high);
            }
            Expr::BinaryOp { left, right, .. } => {
                self.subqueries += subquery(left) + subquery(right);
            }
            _ => {}
        }
    }
}

/// The simple conditions of `expr` in order, each with how it is joined to the one before and
/// whether a `NOT` stands before it.
fn flatten<'a>(expr: &'a Expr, joined: Joined, out: &mut Vec<(Joined, &'a Expr, bool)>) {
    match unnest(expr) {
        Expr::BinaryOp {
            left,
            op: op @ (BinaryOperator::And | BinaryOperator::Or),
            right,
        } => {
            flatten(left, joined, out);
            let next = if *op == BinaryOperator::Or {
                Joined::Or
            } else {
                Joined::And
            };
            flatten(right, next, out);
        }
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => out.push((joined, expr, true)),
        leaf => out.push((joined, leaf, false)),
    }
}

/// A comparison (`=`, `<`, `LIKE`...) whose right side is a column: an unquoted name, since
/// Spider's tokenizer reads `"..."` as a string.
fn compares_with_column(expr: &Expr) -> bool {
    let right = match unnest(expr) {
        Expr::BinaryOp { op, right, .. }
            if !matches!(op, BinaryOperator::And | BinaryOperator::Or) =>
        {
            right
        }
        Expr::Like { pattern, .. } | Expr::ILike { pattern, .. } => pattern,
        _ => return false,
    };
    let unquoted = |ident: &sqlparser::ast::Ident| {
        ident.quote_style != Some('"') && ident.quote_style != Some('\'')
    };
    match right.as_ref() {
        Expr::Identifier(ident) => unquoted(ident),
        Expr::CompoundIdentifier(parts) => parts.iter().all(unquoted),
        _ => false,
    }
}
