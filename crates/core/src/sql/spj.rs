//! Proofs of equivalence for the fragment where one is sound and cheap: select-project-join
//! queries. Each query must be one `SELECT` (with or without `DISTINCT`) of column references
//! from base tables, inner or cross joined, filtered by a conjunction of comparisons between
//! columns and literals; nothing else (no `*`, grouping, aggregates, subqueries, outer joins,
//! `OR`, `ORDER BY`, `LIMIT`, set operations or CTEs).
//!
//! Two proofs, one per semantics:
//! - **Bag semantics (isomorphism).** A one-to-one mapping of the tables (same table, any alias,
//!   any order in `FROM`) carries one query's output columns onto the other's, in order, and its
//!   conditions onto the other's exactly (any order, either side of a comparison, in `ON` or
//!   `WHERE`). Such queries return the same multiset of rows on every database, NULLs included:
//!   under bag semantics, equivalence of conjunctive queries is exactly this (Chaudhuri and
//!   Vardi, 1993).
//! - **Set semantics (containment both ways).** When both queries are `DISTINCT`, each is
//!   contained in the other: a mapping of one query's tables onto the other's same-named tables,
//!   several onto one allowed (a homomorphism), carries its output columns onto the other's, in
//!   order, and each of its conditions onto a condition that holds in the other. For any row the
//!   other query returns, the first query's tables can take the rows their images took, so it
//!   returns that row too (Chandra and Merlin, 1977). This proves a redundant self-join under
//!   `DISTINCT`.
//!
//! The textbook homomorphism argument assumes two-valued logic and transitive equality; SQL
//! breaks both, so "holds in the other" is narrower here. A condition holds when the other query
//! has it as written (after the mapping, either side of a comparison): it then compares the same
//! values, with the same affinities, so it is true where that one is. Besides, `c = c`, `c <= c`
//! and `c >= c` hold where the other query compares `c` at all, since a comparison is true only
//! when its operands are not NULL (`a.x = b.x` with both sides mapped to `t.x` does not hold
//! in `SELECT DISTINCT x FROM t`: the self-join drops the rows where `x` is NULL). Conditions are
//! never closed under transitivity: SQLite's comparison affinities break it (`'1' = 1` and
//! `1 = '1.0'` without `'1' = '1.0'`).

use sqlparser::ast::{
    BinaryOperator, Distinct, Expr, JoinConstraint, JoinOperator, ObjectName, Query, SelectItem,
    SetExpr, Statement, TableFactor,
};

use super::SqlDialect;
use super::parse::{ParseLimits, parse};

/// At most this many tables: the mapping is searched among same-named tables, and beyond this
/// the search is not worth its time.
const MAX_TABLES: usize = 8;

/// A column of one of the query's tables, or a literal as written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Term {
    Column(usize, String),
    Literal(String),
}

/// One comparison, as `left op right`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Predicate {
    left: Term,
    op: &'static str,
    right: Term,
}

/// A query of the fragment: its tables (lowercased names), output columns and conditions.
#[derive(Debug, Clone, PartialEq)]
struct Spj {
    distinct: bool,
    tables: Vec<String>,
    head: Vec<Term>,
    conditions: Vec<Predicate>,
}

/// At most this many mappings of tables are tried for one containment: a query whose tables
/// all share a name has many, and beyond this the search is not worth its time.
const MAX_MAPPINGS: usize = 50_000;

/// How two queries of the fragment were proved to return the same rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofKind {
    /// The same query up to renaming: the same multiset of rows.
    Isomorphic,
    /// Both `DISTINCT`, each contained in the other: the same set of rows.
    MutuallyContained,
}

/// Two queries proved equivalent: how, and the size of the expected query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpjProof {
    pub kind: ProofKind,
    pub tables: usize,
    pub conditions: usize,
    pub distinct: bool,
}

/// A proof that the queries return the same rows on every database, when both are in the
/// fragment and one of the two proofs applies; `None` otherwise.
pub fn spj_proof(expected: &str, generated: &str, dialect: SqlDialect) -> Option<SpjProof> {
    let blank = blank_select()?;
    let a = spj(expected, dialect, &blank)?;
    let b = spj(generated, dialect, &blank)?;
    if a.head.len() != b.head.len() || a.tables.len() > MAX_TABLES || b.tables.len() > MAX_TABLES {
        return None;
    }
    let kind = if isomorphic(&a, &b) {
        ProofKind::Isomorphic
    } else if a.distinct && b.distinct && contained(&a, &b) && contained(&b, &a) {
        ProofKind::MutuallyContained
    } else {
        return None;
    };
    Some(SpjProof {
        kind,
        tables: a.tables.len(),
        conditions: a.conditions.len(),
        distinct: a.distinct,
    })
}

/// Whether a one-to-one mapping of the tables makes the two queries the same.
fn isomorphic(a: &Spj, b: &Spj) -> bool {
    if a.distinct != b.distinct
        || a.conditions.len() != b.conditions.len()
        || a.tables.len() != b.tables.len()
    {
        return false;
    }
    let mut sorted = Vec::with_capacity(a.conditions.len());
    any_mapping(a, b, true, |mapping| {
        if !carries_head(a, b, mapping) {
            return false;
        }
        sorted.clear();
        sorted.extend(a.conditions.iter().map(|c| carried(c, mapping)));
        sorted.sort();
        sorted == b.conditions
    })
}

/// Whether every row `a` returns, `b` returns too: some mapping of `b`'s tables onto `a`'s
/// same-named tables carries `b` onto `a` (see the module's documentation): its output columns
/// onto `a`'s, in order, and each of its conditions onto one that holds in `a`: written there,
/// or a column compared with itself by `=`, `<=` or `>=` where `a` compares that column (so it
/// is not NULL).
fn contained(a: &Spj, b: &Spj) -> bool {
    let compared: Vec<&Term> = a
        .conditions
        .iter()
        .flat_map(|c| [&c.left, &c.right])
        .collect();
    any_mapping(b, a, false, |mapping| {
        carries_head(b, a, mapping)
            && b.conditions.iter().all(|c| {
                let mapped = carried(c, mapping);
                let reflexive = mapped.left == mapped.right
                    && matches!(mapped.op, "=" | "<=")
                    && compared.contains(&&mapped.left);
                reflexive || a.conditions.binary_search(&mapped).is_ok()
            })
    })
}

/// Whether some mapping of `from`'s tables onto `onto`'s same-named tables (`one_to_one`, or
/// several onto one allowed) satisfies `fits`, trying at most [`MAX_MAPPINGS`] of them. A
/// one-to-one mapping of at most [`MAX_TABLES`] tables has at most 8! = 40,320 candidates, so
/// the bound only ever cuts the search for containment.
fn any_mapping(
    from: &Spj,
    onto: &Spj,
    one_to_one: bool,
    mut fits: impl FnMut(&[usize]) -> bool,
) -> bool {
    let mut mapping = vec![usize::MAX; from.tables.len()];
    let mut budget = MAX_MAPPINGS;
    extend_mapping(
        from,
        onto,
        one_to_one,
        0,
        &mut mapping,
        &mut budget,
        &mut fits,
    )
}

/// Tries every image for `from`'s tables from `at` on, until a whole mapping fits or the
/// budget is spent.
fn extend_mapping(
    from: &Spj,
    onto: &Spj,
    one_to_one: bool,
    at: usize,
    mapping: &mut [usize],
    budget: &mut usize,
    fits: &mut impl FnMut(&[usize]) -> bool,
) -> bool {
    if at == from.tables.len() {
        *budget = budget.saturating_sub(1);
        return fits(mapping);
    }
    for candidate in 0..onto.tables.len() {
        if *budget == 0 {
            return false;
        }
        if onto.tables[candidate] != from.tables[at]
            || (one_to_one && mapping[..at].contains(&candidate))
        {
            continue;
        }
        mapping[at] = candidate;
        if extend_mapping(from, onto, one_to_one, at + 1, mapping, budget, fits) {
            return true;
        }
    }
    false
}

/// Whether `mapping` carries `from`'s output columns onto `onto`'s, in order.
fn carries_head(from: &Spj, onto: &Spj, mapping: &[usize]) -> bool {
    from.head
        .iter()
        .map(|term| carried_term(term, mapping))
        .eq(onto.head.iter().cloned())
}

/// A condition with its columns' tables replaced by their images, in canonical form.
fn carried(condition: &Predicate, mapping: &[usize]) -> Predicate {
    canonical(
        carried_term(&condition.left, mapping),
        condition.op,
        carried_term(&condition.right, mapping),
    )
}

fn carried_term(term: &Term, mapping: &[usize]) -> Term {
    match term {
        Term::Column(table, column) => Term::Column(mapping[*table], column.clone()),
        literal => literal.clone(),
    }
}

/// The comparison with `>` and `>=` turned round, and the sides of `=` and `<>` in order.
fn canonical(left: Term, op: &'static str, right: Term) -> Predicate {
    let (left, op, right) = match op {
        ">" => (right, "<", left),
        ">=" => (right, "<=", left),
        "=" | "<>" if right < left => (right, op, left),
        _ => (left, op, right),
    };
    Predicate { left, op, right }
}

/// The query as the fragment's form (its comparisons sorted), or `None` when it is not one.
/// `blank` is [`blank_select`]'s query.
fn spj(sql: &str, dialect: SqlDialect, blank: &Query) -> Option<Spj> {
    let mut statements = parse(sql, dialect, ParseLimits::default()).ok()?;
    if statements.len() != 1 {
        return None;
    }
    let Statement::Query(query) = statements.pop()? else {
        return None;
    };
    let (select, blank_select) = plain_select(&query, blank)?;
    let blank_table = &blank_select.from.first()?.relation;
    let mut tables = Vec::new();
    let mut names = Vec::new();
    let mut conditions = Vec::new();
    for from in &select.from {
        table(&from.relation, blank_table, &mut tables, &mut names)?;
        for join in &from.joins {
            let constraint = match &join.join_operator {
                JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => c,
                _ => return None,
            };
            table(&join.relation, blank_table, &mut tables, &mut names)?;
            match constraint {
                JoinConstraint::On(on) => conditions.push(on.clone()),
                JoinConstraint::None => {}
                _ => return None,
            }
        }
    }
    conditions.extend(select.selection.clone());
    let resolve = |expr: &Expr| term(expr, &names);
    let mut comparisons = Vec::new();
    for condition in &conditions {
        for part in conjuncts(condition) {
            let Expr::BinaryOp { left, op, right } = part else {
                return None;
            };
            let op = comparison(op)?;
            comparisons.push(canonical(resolve(left)?, op, resolve(right)?));
        }
    }
    comparisons.sort();
    let mut head = Vec::new();
    for item in &select.projection {
        let expr = match item {
            SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => expr,
            _ => return None,
        };
        match resolve(expr)? {
            column @ Term::Column(..) => head.push(column),
            Term::Literal(_) => return None,
        }
    }
    Some(Spj {
        distinct: match &select.distinct {
            None => false,
            Some(Distinct::Distinct) => true,
            Some(_) => return None,
        },
        tables,
        head,
        conditions: comparisons,
    })
}

/// The query's one `SELECT`, when the query has nothing around it (no CTE, order, limit...) and
/// the `SELECT` nothing beyond its columns, tables and filter; with `blank`'s `SELECT`.
fn plain_select<'a, 'b>(
    query: &'a Query,
    blank: &'b Query,
) -> Option<(&'a sqlparser::ast::Select, &'b sqlparser::ast::Select)> {
    let (SetExpr::Select(select), SetExpr::Select(blank_select)) =
        (query.body.as_ref(), blank.body.as_ref())
    else {
        return None;
    };
    let mut around = query.clone();
    around.body = blank.body.clone();
    if around != *blank {
        return None;
    }
    let mut rest = select.as_ref().clone();
    rest.distinct = None;
    rest.projection.clone_from(&blank_select.projection);
    rest.from.clone_from(&blank_select.from);
    rest.selection = None;
    (rest == **blank_select).then_some((select.as_ref(), blank_select.as_ref()))
}

/// `SELECT x FROM t`, parsed: what a query of the fragment is once its own columns, tables and
/// filter are taken out. Comparing with it refuses every clause the fragment does not know,
/// including ones a later parser adds.
fn blank_select() -> Option<Box<Query>> {
    let mut statements = parse(
        "SELECT x FROM t",
        SqlDialect::Generic,
        ParseLimits::default(),
    )
    .ok()?;
    match statements.pop()? {
        Statement::Query(query) => Some(query),
        _ => None,
    }
}

/// A base table with an optional alias (and nothing else: no arguments, hints or sample, as
/// `blank`, the blank query's `t`, has none), pushed with the name it is referred to by.
fn table(
    factor: &TableFactor,
    blank: &TableFactor,
    tables: &mut Vec<String>,
    names: &mut Vec<String>,
) -> Option<()> {
    let TableFactor::Table { name, alias, .. } = factor else {
        return None;
    };
    let mut rest = factor.clone();
    if let TableFactor::Table {
        name: n, alias: a, ..
    } = &mut rest
    {
        *n = ObjectName::from(vec![sqlparser::ast::Ident::new("t")]);
        *a = None;
    }
    if rest != *blank {
        return None;
    }
    if alias.as_ref().is_some_and(|a| !a.columns.is_empty()) {
        return None;
    }
    let written = name.to_string().to_lowercase();
    let referred = alias.as_ref().map_or_else(
        || {
            name.0
                .last()
                .map(|p| p.to_string().to_lowercase())
                .unwrap_or_default()
        },
        |a| a.name.value.to_lowercase(),
    );
    if names.contains(&referred) {
        return None;
    }
    tables.push(written);
    names.push(referred);
    Some(())
}

/// The parts of a conjunction, parentheses taken off.
fn conjuncts(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::Nested(inner) => conjuncts(inner),
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            let mut parts = conjuncts(left);
            parts.extend(conjuncts(right));
            parts
        }
        other => vec![other],
    }
}

fn comparison(op: &BinaryOperator) -> Option<&'static str> {
    Some(match op {
        BinaryOperator::Eq => "=",
        BinaryOperator::NotEq => "<>",
        BinaryOperator::Lt => "<",
        BinaryOperator::LtEq => "<=",
        BinaryOperator::Gt => ">",
        BinaryOperator::GtEq => ">=",
        _ => return None,
    })
}

/// A column of one of the tables (`alias.column`, or `column` when there is one table), or a
/// literal number or string.
fn term(expr: &Expr, names: &[String]) -> Option<Term> {
    match expr {
        Expr::Nested(inner) => term(inner, names),
        Expr::Identifier(column) if names.len() == 1 => {
            Some(Term::Column(0, column.value.to_lowercase()))
        }
        Expr::CompoundIdentifier(parts) if parts.len() == 2 => {
            let table = names
                .iter()
                .position(|n| *n == parts[0].value.to_lowercase())?;
            Some(Term::Column(table, parts[1].value.to_lowercase()))
        }
        Expr::Value(value) => match &value.value {
            sqlparser::ast::Value::Number(..) | sqlparser::ast::Value::SingleQuotedString(_) => {
                Some(Term::Literal(value.value.to_string()))
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proof(a: &str, b: &str) -> Option<ProofKind> {
        spj_proof(a, b, SqlDialect::Generic).map(|p| p.kind)
    }

    fn proved(a: &str, b: &str) -> bool {
        proof(a, b).is_some()
    }

    #[test]
    fn renamed_reordered_and_commuted_queries_are_proved() {
        assert!(proved(
            "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.id WHERE o.total > 10",
            "SELECT a.name FROM orders AS b, users AS a WHERE 10 < b.total AND a.id = b.user_id",
        ));
        assert!(proved(
            "SELECT DISTINCT name FROM users WHERE country = 'DE'",
            "select distinct NAME from USERS where 'DE' = Country",
        ));
        // A self-join: the mapping must send each alias to the other.
        assert!(proved(
            "SELECT a.x FROM t a JOIN t b ON a.y = b.z",
            "SELECT q.x FROM t p JOIN t q ON q.y = p.z",
        ));
    }

    #[test]
    fn distinct_queries_each_contained_in_the_other_are_proved() {
        // A redundant self-join: t2 maps onto t1, and `t1.genre = t2.genre` becomes genre
        // compared with itself, which holds because `genre = 'Drama'` keeps it from being NULL.
        assert_eq!(
            proof(
                "SELECT DISTINCT t1.title FROM movies t1 JOIN movies t2 ON t1.genre = t2.genre \
                 WHERE t1.genre = 'Drama'",
                "SELECT DISTINCT title FROM movies WHERE genre = 'Drama'",
            ),
            Some(ProofKind::MutuallyContained)
        );
        // A join repeated under another alias.
        assert_eq!(
            proof(
                "SELECT DISTINCT m.title FROM movies m JOIN studios s ON m.studio = s.studio \
                 JOIN studios s2 ON m.studio = s2.studio",
                "SELECT DISTINCT m.title FROM movies m JOIN studios s ON s.studio = m.studio",
            ),
            Some(ProofKind::MutuallyContained)
        );
        // A table joined with itself and nothing asked of the second copy.
        assert_eq!(
            proof(
                "SELECT DISTINCT a.x FROM t a, t b",
                "SELECT DISTINCT x FROM t"
            ),
            Some(ProofKind::MutuallyContained)
        );
        // The same query is still the stronger proof.
        assert_eq!(
            proof("SELECT DISTINCT x FROM t", "SELECT DISTINCT t.x FROM t"),
            Some(ProofKind::Isomorphic)
        );
    }

    #[test]
    fn containment_is_not_claimed_where_the_rows_can_differ() {
        // Without DISTINCT the self-join repeats rows.
        assert!(!proved(
            "SELECT t1.title FROM movies t1 JOIN movies t2 ON t1.genre = t2.genre \
             WHERE t1.genre = 'Drama'",
            "SELECT title FROM movies WHERE genre = 'Drama'",
        ));
        // A table only one query reads may be empty.
        assert!(!proved(
            "SELECT DISTINCT a.x FROM t a, u b",
            "SELECT DISTINCT x FROM t"
        ));
        // A condition only one query has.
        assert!(!proved(
            "SELECT DISTINCT x FROM t WHERE y > 1",
            "SELECT DISTINCT x FROM t"
        ));
        // `a.x <> b.x` mapped onto one row is never true.
        assert!(!proved(
            "SELECT DISTINCT a.x FROM t a, t b WHERE a.x <> b.x",
            "SELECT DISTINCT x FROM t",
        ));
        // `a.y = b.y` mapped onto one row holds only where y is not NULL, which the other
        // query does not say (it compares x, not y) ...
        assert!(!proved(
            "SELECT DISTINCT a.x FROM t a, t b WHERE a.y = b.y AND a.x > 0",
            "SELECT DISTINCT x FROM t WHERE x > 0",
        ));
        // ... and does say once it compares y.
        assert!(proved(
            "SELECT DISTINCT a.x FROM t a, t b WHERE a.y = b.y AND a.y > 0",
            "SELECT DISTINCT x FROM t WHERE y > 0",
        ));
    }

    #[test]
    fn what_is_not_the_same_query_is_not_proved() {
        // Columns in another order, DISTINCT on one side, another literal.
        assert!(!proved("SELECT a, b FROM t", "SELECT b, a FROM t"));
        assert!(!proved("SELECT DISTINCT a FROM t", "SELECT a FROM t"));
        assert!(!proved(
            "SELECT a FROM t WHERE b = 1",
            "SELECT a FROM t WHERE b = 1.0"
        ));
        // Equal under two-valued logic, not in SQL: the self-join drops rows where x is NULL.
        assert!(!proved(
            "SELECT DISTINCT a.x FROM t a, t b WHERE a.x = b.x",
            "SELECT DISTINCT x FROM t",
        ));
        // Equality is not closed under transitivity: SQLite's affinities can break it.
        assert!(!proved(
            "SELECT a.v FROM t a, u b, w c WHERE a.x = b.y AND b.y = c.z",
            "SELECT a.v FROM t a, u b, w c WHERE a.x = b.y AND a.x = c.z",
        ));
    }

    #[test]
    fn nothing_outside_the_fragment_is_proved_even_when_identical() {
        for sql in [
            "SELECT * FROM t",
            "SELECT a FROM t GROUP BY a",
            "SELECT COUNT(*) FROM t",
            "SELECT a FROM t ORDER BY a",
            "SELECT a FROM t LIMIT 3",
            "SELECT a FROM t WHERE b = 1 OR c = 2",
            "SELECT t.a FROM t LEFT JOIN u ON t.a = u.a",
            "SELECT a FROM t WHERE b IN (SELECT b FROM u)",
            "WITH c AS (SELECT a FROM t) SELECT a FROM c",
            "SELECT a FROM t UNION SELECT a FROM u",
            "SELECT a + 1 FROM t",
            "SELECT t.a FROM t, u WHERE a = 1",
            "SELECT a FROM t WHERE b IS NULL",
            "SELECT a FROM t; SELECT a FROM t",
            "not sql",
        ] {
            assert!(!proved(sql, sql), "{sql}");
        }
    }
}
