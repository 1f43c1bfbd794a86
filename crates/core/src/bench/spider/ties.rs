//! qeval's strict rule for rows tied at `ORDER BY ... LIMIT n`: Spider takes the gold's rows
//! as the only answer, though a database may return any of the rows tied on the sort key at
//! the cut. The gold runs without its `LIMIT`, with each row's `RANK()` by its `ORDER BY`, and
//! a prediction is one of the tied answers when its rows are the gold's first rows up to the
//! cut, in rank order, the rows tied at the cut chosen freely.

use sqlparser::ast::{
    Expr, Ident, LimitClause, OrderByKind, SelectItem, SetExpr, Statement, Value as SqlValue,
};
use sqlparser::parser::Parser;

use crate::results::{ResultSet, Value, python};
use crate::sql::{ParseLimits, SqlDialect, parse};

/// The name of the rank column the ranked gold adds.
const RANK_COLUMN: &str = "qeval_rank";

/// A gold rewritten to show its ties: its text, and the `LIMIT` it had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RankedGold {
    pub sql: String,
    pub limit: usize,
}

/// The gold without its `LIMIT n` and with a last column `RANK() OVER (ORDER BY ...)` by its own
/// `ORDER BY` (positions and output aliases replaced by their expressions), when the gold is one
/// `SELECT` (not a compound, no `DISTINCT`, no `OFFSET`) ordered and cut at a number.
pub(crate) fn ranked_gold(gold: &str) -> Option<RankedGold> {
    let statements = parse(gold, SqlDialect::Sqlite, ParseLimits::default()).ok()?;
    let [Statement::Query(query)] = statements.as_slice() else {
        return None;
    };
    let mut query = query.clone();
    let limit = match &query.limit_clause {
        Some(LimitClause::LimitOffset {
            limit: Some(Expr::Value(value)),
            offset: None,
            limit_by,
        }) if limit_by.is_empty() => match &value.value {
            SqlValue::Number(n, _) => n.parse::<usize>().ok()?,
            _ => return None,
        },
        _ => return None,
    };
    let OrderByKind::Expressions(order) = &query.order_by.as_ref()?.kind else {
        return None;
    };
    let SetExpr::Select(select) = query.body.as_mut() else {
        return None;
    };
    if select.distinct.is_some() {
        return None;
    }
    let mut keys = Vec::with_capacity(order.len());
    for key in order {
        let expr = key_expression(&key.expr, &select.projection)?;
        keys.push(format!("{expr}{}", key.options));
    }
    let rank_text = format!("RANK() OVER (ORDER BY {})", keys.join(", "));
    let dialect = SqlDialect::Sqlite.parser_dialect();
    let rank = Parser::new(dialect)
        .try_with_sql(&rank_text)
        .ok()?
        .parse_expr()
        .ok()?;
    select.projection.push(SelectItem::ExprWithAlias {
        expr: rank,
        alias: Ident::new(RANK_COLUMN),
    });
    query.limit_clause = None;
    Some(RankedGold {
        sql: query.to_string(),
        limit,
    })
}

/// An `ORDER BY` key as an expression a window can sort by: a position (`ORDER BY 2`) or an
/// output alias becomes the select item's expression.
fn key_expression(key: &Expr, projection: &[SelectItem]) -> Option<Expr> {
    let item_expression = |item: &SelectItem| match item {
        SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
            Some(expr.clone())
        }
        _ => None,
    };
    match key {
        Expr::Value(value) => match &value.value {
            SqlValue::Number(n, _) => {
                let position: usize = n.parse().ok()?;
                item_expression(projection.get(position.checked_sub(1)?)?)
            }
            _ => Some(key.clone()),
        },
        Expr::Identifier(name) => Some(
            projection
                .iter()
                .find_map(|item| match item {
                    SelectItem::ExprWithAlias { expr, alias }
                        if alias.value.eq_ignore_ascii_case(&name.value) =>
                    {
                        Some(expr.clone())
                    }
                    _ => None,
                })
                .unwrap_or_else(|| key.clone()),
        ),
        _ => Some(key.clone()),
    }
}

/// Most column orders of the prediction tried (Spider's `result_eq` tries every permutation).
const MAX_PERMUTATIONS: usize = 720;

/// Whether `predicted` is one of the answers `ranked` (the ranked gold's result, its rank in
/// the last column) allows under `LIMIT limit`: as many rows as the gold gives, every row
/// ranked before the cut, the rest from the rows tied at the cut, in rank order (rows of equal
/// rank in any order), for some order of the prediction's columns.
pub(crate) fn is_tied_answer(ranked: &ResultSet, limit: usize, predicted: &ResultSet) -> bool {
    let width = ranked.columns.len().saturating_sub(1);
    let gold: Vec<(Vec<Value>, f64)> = ranked
        .rows
        .iter()
        .map(|row| {
            let rank = match row.get(width) {
                Some(Value::Int(n)) => *n as f64,
                Some(Value::Float(x)) => *x,
                _ => f64::NAN,
            };
            (row[..width.min(row.len())].to_vec(), rank)
        })
        .collect();
    let count = limit.min(gold.len());
    if predicted.rows.len() != count {
        return false;
    }
    if count == 0 {
        return true;
    }
    if predicted.rows.first().map_or(0, <[Value]>::len) != width {
        return false;
    }
    let cut = gold[count - 1].1;
    let pool: Vec<&(Vec<Value>, f64)> = gold.iter().filter(|(_, r)| *r <= cut).collect();
    let rows = predicted.rows.to_vecs();
    permutations(width)
        .take(MAX_PERMUTATIONS)
        .any(|order| fits(&rows, &order, &pool, cut))
}

/// Whether the prediction's rows, columns taken in `order`, pair in sequence with rows of the
/// pool of non-decreasing rank (cells by Python's `==`, as Spider compares them), using every
/// row ranked before the cut.
fn fits(rows: &[Vec<Value>], order: &[usize], pool: &[&(Vec<Value>, f64)], cut: f64) -> bool {
    let mut used = vec![false; pool.len()];
    let mut last = f64::NEG_INFINITY;
    for row in rows {
        let found = (0..pool.len())
            .filter(|&g| !used[g] && pool[g].1 >= last)
            .filter(|&g| {
                order
                    .iter()
                    .enumerate()
                    .all(|(column, &from)| python::eq(&pool[g].0[column], &row[from]))
            })
            .min_by(|&a, &b| pool[a].1.total_cmp(&pool[b].1));
        let Some(g) = found else {
            return false;
        };
        used[g] = true;
        last = pool[g].1;
    }
    (0..pool.len())
        .filter(|&g| pool[g].1 < cut)
        .all(|g| used[g])
}

/// Every order of `0..n`, the identity first.
fn permutations(n: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut current: Option<Vec<usize>> = Some((0..n).collect());
    std::iter::from_fn(move || {
        let this = current.take()?;
        let mut next = this.clone();
        // The next permutation in lexicographic order, if any.
        if let Some(i) = (1..next.len()).rev().find(|&i| next[i - 1] < next[i]) {
            let j = (i..next.len())
                .rev()
                .find(|&j| next[j] > next[i - 1])
                .unwrap_or(i);
            next.swap(i - 1, j);
            next[i..].reverse();
            current = Some(next);
        }
        Some(this)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(value: serde_json::Value) -> ResultSet {
        crate::results::read::read_result_text(&value.to_string()).expect("a result")
    }

    #[test]
    fn the_gold_is_ranked_by_its_own_order() {
        let ranked =
            ranked_gold("SELECT name, count(*) AS n FROM t GROUP BY name ORDER BY n DESC LIMIT 1")
                .expect("ranked");
        assert_eq!(ranked.limit, 1);
        assert_eq!(
            ranked.sql,
            "SELECT name, count(*) AS n, RANK() OVER (ORDER BY count(*) DESC) AS qeval_rank FROM t GROUP BY name ORDER BY n DESC"
        );
        assert!(ranked_gold("SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 2").is_none());
        assert!(ranked_gold("SELECT a FROM t LIMIT 1").is_none());
        assert!(ranked_gold("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 1").is_none());
    }

    #[test]
    fn any_of_the_tied_rows_is_an_answer() {
        // Ann and Bob tie for first; Cy is second.
        let ranked = result(
            json!({"columns": ["name", "qeval_rank"], "rows": [["Ann", 1], ["Bob", 1], ["Cy", 3]]}),
        );
        let one = |name: &str| result(json!({"columns": ["name"], "rows": [[name]]}));
        assert!(is_tied_answer(&ranked, 1, &one("Bob")));
        assert!(is_tied_answer(&ranked, 1, &one("Ann")));
        assert!(!is_tied_answer(&ranked, 1, &one("Cy")));
        let two = |a: &str, b: &str| result(json!({"columns": ["name"], "rows": [[a], [b]]}));
        assert!(is_tied_answer(&ranked, 2, &two("Bob", "Ann")));
        assert!(!is_tied_answer(&ranked, 2, &two("Ann", "Cy")));
        assert!(is_tied_answer(
            &ranked,
            3,
            &result(json!({"columns": ["name"], "rows": [["Bob"], ["Ann"], ["Cy"]]}))
        ));
        assert!(!is_tied_answer(
            &ranked,
            3,
            &result(json!({"columns": ["name"], "rows": [["Cy"], ["Ann"], ["Bob"]]}))
        ));
    }
}
