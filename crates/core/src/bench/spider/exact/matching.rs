//! `Evaluator.eval_exact_match` and `eval_partial_match`: the ten components, each compared
//! as the official function named beside it does, then the tables.

use serde::Serialize;

use super::structure::{ColUnit, CondUnit, Sql, TableUnit, ValUnit, where_op};

/// The components in the order of the official table.
pub(crate) const COMPONENTS: [&str; 10] = [
    "select",
    "select(no AGG)",
    "where",
    "where(no OP)",
    "group(no Having)",
    "group",
    "order",
    "and/or",
    "IUEN",
    "keywords",
];

/// One component of one example: `{'acc', 'rec', 'f1', 'label_total', 'pred_total'}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ComponentScore {
    pub acc: f64,
    pub rec: f64,
    pub f1: f64,
    pub label_total: usize,
    pub pred_total: usize,
}

/// `get_scores`: all or nothing, 1 when the counts agree and every unit matched.
fn scored(count: usize, pred_total: usize, label_total: usize) -> ComponentScore {
    let hit = pred_total == label_total && count == pred_total;
    let x = f64::from(u8::from(hit));
    ComponentScore {
        acc: x,
        rec: x,
        f1: x,
        label_total,
        pred_total,
    }
}

/// Takes the first unit of `pool` equal to `unit` (Python's `in` then `list.remove`).
fn take<T: PartialEq>(pool: &mut Vec<T>, unit: &T) -> bool {
    match pool.iter().position(|u| u == unit) {
        Some(at) => {
            pool.remove(at);
            true
        }
        None => false,
    }
}

/// `eval_sel`: (agg, val_unit) pairs as multisets, and the val_units alone.
fn select(pred: &Sql, label: &Sql) -> (ComponentScore, ComponentScore) {
    let mut label_units: Vec<&(u8, ValUnit)> = label.select.items.iter().collect();
    let mut label_values: Vec<&ValUnit> = label.select.items.iter().map(|(_, v)| v).collect();
    let (mut count, mut without_agg) = (0, 0);
    for unit in &pred.select.items {
        count += usize::from(take(&mut label_units, &unit));
        without_agg += usize::from(take(&mut label_values, &&unit.1));
    }
    let (p, l) = (pred.select.items.len(), label.select.items.len());
    (scored(count, p, l), scored(without_agg, p, l))
}

/// `eval_where`: the condition units as multisets, and their val_units alone.
fn filter(pred: &Sql, label: &Sql) -> (ComponentScore, ComponentScore) {
    let mut label_units: Vec<&CondUnit> = label.filter.units.iter().collect();
    let mut label_values: Vec<&ValUnit> = label.filter.units.iter().map(|u| &u.value).collect();
    let (mut count, mut without_op) = (0, 0);
    for unit in &pred.filter.units {
        count += usize::from(take(&mut label_units, &unit));
        without_op += usize::from(take(&mut label_values, &&unit.value));
    }
    let (p, l) = (pred.filter.units.len(), label.filter.units.len());
    (scored(count, p, l), scored(without_op, p, l))
}

/// `eval_group`: the `GROUP BY` columns, each without its table (`col.split(".")[1]`).
fn group(pred: &Sql, label: &Sql) -> ComponentScore {
    let bare = |unit: &ColUnit| match unit.column.split_once('.') {
        Some((_, column)) => column.split('.').next().unwrap_or(column).to_string(),
        None => unit.column.clone(),
    };
    let mut label_columns: Vec<String> = label.group_by.iter().map(bare).collect();
    let count = pred
        .group_by
        .iter()
        .filter(|unit| take(&mut label_columns, &bare(unit)))
        .count();
    scored(count, pred.group_by.len(), label.group_by.len())
}

/// `eval_having`: one unit per query with a `GROUP BY`; right when the `GROUP BY` columns are
/// the same list and the `HAVING` conditions equal.
fn having(pred: &Sql, label: &Sql) -> ComponentScore {
    let pred_total = usize::from(!pred.group_by.is_empty());
    let label_total = usize::from(!label.group_by.is_empty());
    let columns =
        |sql: &Sql| -> Vec<String> { sql.group_by.iter().map(|u| u.column.clone()).collect() };
    let count = usize::from(
        pred_total == 1
            && label_total == 1
            && columns(pred) == columns(label)
            && pred.having == label.having,
    );
    scored(count, pred_total, label_total)
}

/// `eval_order`: the `ORDER BY` equal, and `LIMIT` on both or on neither.
fn order(pred: &Sql, label: &Sql) -> ComponentScore {
    let pred_total = usize::from(pred.order_by.is_some());
    let label_total = usize::from(label.order_by.is_some());
    let count = usize::from(
        label.order_by.is_some() && pred.order_by == label.order_by && pred.limit == label.limit,
    );
    scored(count, pred_total, label_total)
}

/// `eval_and_or`: the sets of connectives of `WHERE`. When they differ the official function
/// returns the prediction's count where the gold's belongs and the other way round; the table
/// counts them so.
fn and_or(pred: &Sql, label: &Sql) -> ComponentScore {
    let set = |sql: &Sql| {
        let mut found: Vec<&str> = sql.filter.connectives.clone();
        found.sort_unstable();
        found.dedup();
        found
    };
    let (p, l) = (set(pred), set(label));
    if p == l {
        return scored(1, 1, 1);
    }
    // `return len(pred_ao), len(label_ao), 0` into `label_total, pred_total, cnt`.
    scored(0, l.len(), p.len())
}

/// `eval_nested` on one of `intersect`, `except`, `union`.
fn nested(pred: Option<&Sql>, label: Option<&Sql>) -> (usize, usize, usize) {
    let count = match (pred, label) {
        (Some(pred), Some(label)) => usize::from(exact_match(pred, label).0),
        _ => 0,
    };
    (
        usize::from(label.is_some()),
        usize::from(pred.is_some()),
        count,
    )
}

/// `eval_IUEN`.
fn iuen(pred: &Sql, label: &Sql) -> ComponentScore {
    let (mut label_total, mut pred_total, mut count) = (0, 0, 0);
    for ((_, p), (_, l)) in pred
        .set_operations()
        .into_iter()
        .zip(label.set_operations())
    {
        let (lt, pt, c) = nested(p, l);
        label_total += lt;
        pred_total += pt;
        count += c;
    }
    scored(count, pred_total, label_total)
}

fn all_conditions(sql: &Sql) -> impl Iterator<Item = &CondUnit> {
    sql.join_conditions
        .units
        .iter()
        .chain(&sql.filter.units)
        .chain(&sql.having.units)
}

/// `get_keywords`.
fn keywords(sql: &Sql) -> Vec<&'static str> {
    let mut found = Vec::new();
    let mut add = |present: bool, word: &'static str| {
        if present && !found.contains(&word) {
            found.push(word);
        }
    };
    add(!sql.filter.is_empty(), "where");
    add(!sql.group_by.is_empty(), "group");
    add(!sql.having.is_empty(), "having");
    if let Some(order_by) = &sql.order_by {
        add(true, order_by.direction);
        add(true, "order");
    }
    add(sql.limit, "limit");
    add(sql.except.is_some(), "except");
    add(sql.union.is_some(), "union");
    add(sql.intersect.is_some(), "intersect");
    let or = sql
        .join_conditions
        .connectives
        .iter()
        .chain(&sql.filter.connectives)
        .chain(&sql.having.connectives)
        .any(|c| *c == "or");
    add(or, "or");
    add(all_conditions(sql).any(|u| u.not), "not");
    add(all_conditions(sql).any(|u| u.op == where_op("in")), "in");
    add(
        all_conditions(sql).any(|u| u.op == where_op("like")),
        "like",
    );
    found
}

/// `eval_keywords`.
fn keywords_component(pred: &Sql, label: &Sql) -> ComponentScore {
    let (p, l) = (keywords(pred), keywords(label));
    let count = p.iter().filter(|k| l.contains(k)).count();
    scored(count, p.len(), l.len())
}

/// `eval_partial_match`: the ten components, in [`COMPONENTS`]' order.
pub(super) fn partial_match(pred: &Sql, label: &Sql) -> [ComponentScore; 10] {
    let (select, select_no_agg) = select(pred, label);
    let (filter, filter_no_op) = filter(pred, label);
    [
        select,
        select_no_agg,
        filter,
        filter_no_op,
        group(pred, label),
        having(pred, label),
        order(pred, label),
        and_or(pred, label),
        iuen(pred, label),
        keywords_component(pred, label),
    ]
}

/// `eval_exact_match`: every component's F1 is 1 and, when the gold has tables, the table
/// units are the same (`sorted(...) ==`, compared here as multisets: Python cannot sort two
/// subqueries and stops there).
pub(super) fn exact_match(pred: &Sql, label: &Sql) -> (bool, [ComponentScore; 10]) {
    let partial = partial_match(pred, label);
    if partial.iter().any(|c| c.f1 != 1.0) {
        return (false, partial);
    }
    if label.tables.is_empty() {
        return (true, partial);
    }
    let mut label_tables: Vec<&TableUnit> = label.tables.iter().collect();
    let same = pred.tables.len() == label.tables.len()
        && pred
            .tables
            .iter()
            .all(|unit| take(&mut label_tables, &unit));
    (same, partial)
}
