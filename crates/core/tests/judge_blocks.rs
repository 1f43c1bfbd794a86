//! The structural judge compares every query block: CTE bodies, derived tables and subqueries in
//! expressions, not only the top-level query. A difference inside any block keeps a pair from
//! being equivalent, while the names given to CTEs and derived tables do not count.

use qeval_core::profiles::{Profile, ProfileName};
use qeval_core::{Metric, PairInput, ScoreOptions, score_pair};

/// Scores `generated` against `expected` and returns the query correctness metric.
fn correctness(generated: &str, expected: &str) -> Metric {
    let pair = PairInput {
        generated_sql: generated.into(),
        expected_sql: Some(expected.into()),
        ..PairInput::default()
    };
    let options = ScoreOptions {
        profile: Profile::preset(ProfileName::SqlMetrics),
        ..ScoreOptions::default()
    };
    let card = score_pair(&pair, &options);
    card.metrics
        .get("query_correctness")
        .cloned()
        .unwrap_or_else(|| panic!("no query_correctness in {card:#?}"))
}

/// Pairs that differ only inside an inner block, each with words its reasoning must contain.
const DIFFERENT: &[(&str, &str, &str, &[&str])] = &[
    (
        "a literal in a CTE's HAVING",
        "WITH c AS (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept HAVING COUNT(id) > 4) \
         SELECT dept FROM c",
        "WITH c AS (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept HAVING COUNT(id) > 5) \
         SELECT dept FROM c",
        &["having condition", "subquery1", "5"],
    ),
    (
        "a grouping column missing in a derived table",
        "SELECT * FROM (SELECT dept, MAX(salary) AS m FROM emp GROUP BY dept) t",
        "SELECT * FROM (SELECT dept, city, MAX(salary) AS m FROM emp GROUP BY dept, city) t",
        &["subquery1", "emp.city"],
    ),
    (
        "GROUP BY dropped from a derived table",
        "SELECT m FROM (SELECT MAX(x) AS m FROM t) s",
        "SELECT m FROM (SELECT MAX(x) AS m FROM t GROUP BY g) s",
        &["grouping", "subquery1", "t.g"],
    ),
    (
        "a literal in a CTE's WHERE",
        "WITH a AS (SELECT id FROM t WHERE y > 11) SELECT COUNT(*) FROM a",
        "WITH a AS (SELECT id FROM t WHERE y > 10) SELECT COUNT(*) FROM a",
        &["filter", "subquery1", "10"],
    ),
    (
        "a literal in an IN subquery",
        "SELECT name FROM users WHERE id IN (SELECT id FROM t WHERE a = 2)",
        "SELECT name FROM users WHERE id IN (SELECT id FROM t WHERE a = 1)",
        &["filter", "t.a = 1"],
    ),
    (
        "a literal in an EXISTS subquery",
        "SELECT name FROM users u WHERE EXISTS \
         (SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.total > 50)",
        "SELECT name FROM users u WHERE EXISTS \
         (SELECT 1 FROM orders o WHERE o.user_id = u.id AND o.total > 100)",
        &["filter", "100"],
    ),
    (
        "the aggregate of a scalar subquery in the projection",
        "SELECT name, (SELECT MIN(total) FROM orders) AS top FROM users",
        "SELECT name, (SELECT MAX(total) FROM orders) AS top FROM users",
        &["column", "max(orders.total)"],
    ),
    (
        "the limit of a derived table",
        "SELECT * FROM (SELECT id FROM t ORDER BY score DESC LIMIT 5) s",
        "SELECT * FROM (SELECT id FROM t ORDER BY score DESC LIMIT 10) s",
        &["limit", "subquery1", "LIMIT 10"],
    ),
    (
        "DISTINCT dropped from a CTE",
        "WITH c AS (SELECT city FROM emp) SELECT COUNT(*) FROM c",
        "WITH c AS (SELECT DISTINCT city FROM emp) SELECT COUNT(*) FROM c",
        &["modifier", "subquery1", "DISTINCT"],
    ),
    (
        "a literal in a derived table joined to a table",
        "SELECT u.name, s.n FROM users u JOIN (SELECT user_id, COUNT(*) AS n FROM orders \
         WHERE status = 'open' GROUP BY user_id) s ON s.user_id = u.id",
        "SELECT u.name, s.n FROM users u JOIN (SELECT user_id, COUNT(*) AS n FROM orders \
         WHERE status = 'paid' GROUP BY user_id) s ON s.user_id = u.id",
        &["filter", "subquery1", "'paid'"],
    ),
    (
        "a literal in a derived table nested in a CTE",
        "WITH a AS (SELECT id FROM (SELECT id, y FROM t WHERE y > 2) s WHERE id > 3) \
         SELECT COUNT(*) FROM a",
        "WITH a AS (SELECT id FROM (SELECT id, y FROM t WHERE y > 1) s WHERE id > 3) \
         SELECT COUNT(*) FROM a",
        &["filter", "subquery1_1", "1"],
    ),
    (
        "a literal in the second of two CTEs",
        "WITH a AS (SELECT user_id, SUM(total) AS s FROM orders GROUP BY user_id), \
         b AS (SELECT user_id FROM a WHERE s > 500) SELECT COUNT(*) FROM b",
        "WITH a AS (SELECT user_id, SUM(total) AS s FROM orders GROUP BY user_id), \
         b AS (SELECT user_id FROM a WHERE s > 100) SELECT COUNT(*) FROM b",
        &["filter", "subquery2", "100"],
    ),
];

/// Pairs that differ only in names or in syntax that does not change the meaning.
const EQUIVALENT: &[(&str, &str, &str)] = &[
    (
        "a CTE renamed",
        "WITH big AS (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept HAVING COUNT(id) > 4) \
         SELECT big.dept FROM big",
        "WITH c AS (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept HAVING COUNT(id) > 4) \
         SELECT dept FROM c",
    ),
    (
        "a derived table aliased differently",
        "SELECT q.m FROM (SELECT MAX(t1.x) AS m FROM t t1 GROUP BY t1.g) AS q",
        "SELECT m FROM (SELECT MAX(x) AS m FROM t GROUP BY g) s",
    ),
    (
        "a CTE that only renames a table",
        "WITH a AS (SELECT * FROM users) SELECT a.name FROM a WHERE a.id = 1",
        "SELECT name FROM users WHERE id = 1",
    ),
    (
        "an identical IN subquery, the outer table aliased",
        "SELECT u.name FROM users u WHERE u.id IN (SELECT user_id FROM orders WHERE total > 100)",
        "SELECT name FROM users WHERE id IN (SELECT user_id FROM orders WHERE total > 100)",
    ),
    (
        "an IN subquery whose table is aliased",
        "SELECT name FROM users WHERE id IN (SELECT o.user_id FROM orders o WHERE o.total > 100)",
        "SELECT name FROM users WHERE id IN (SELECT user_id FROM orders WHERE total > 100)",
    ),
    (
        "BETWEEN, COUNT(1) and a renamed CTE",
        "WITH b AS (SELECT id FROM t WHERE y BETWEEN 1 AND 5) SELECT COUNT(1) FROM b",
        "WITH a AS (SELECT id FROM t WHERE 1 <= y AND y <= 5) SELECT COUNT(*) FROM a",
    ),
    (
        "a CTE written as a derived table",
        "SELECT dept FROM (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept) AS x WHERE n > 2",
        "WITH c AS (SELECT dept, COUNT(id) AS n FROM emp GROUP BY dept) \
         SELECT dept FROM c WHERE n > 2",
    ),
    (
        "two CTEs renamed, one reading the other",
        "WITH x AS (SELECT user_id, SUM(total) AS s FROM orders GROUP BY user_id), \
         y AS (SELECT x.user_id FROM x WHERE x.s > 100) SELECT COUNT(*) FROM y",
        "WITH a AS (SELECT user_id, SUM(total) AS s FROM orders GROUP BY user_id), \
         b AS (SELECT user_id FROM a WHERE s > 100) SELECT COUNT(*) FROM b",
    ),
    (
        "a joined derived table aliased differently, with commuted operands",
        "SELECT p.name, agg.n FROM users p JOIN (SELECT user_id, COUNT(1) AS n FROM orders \
         WHERE 'paid' = status GROUP BY user_id) agg ON p.id = agg.user_id",
        "SELECT u.name, s.n FROM users u JOIN (SELECT user_id, COUNT(*) AS n FROM orders \
         WHERE status = 'paid' GROUP BY user_id) s ON s.user_id = u.id",
    ),
    (
        "an identical scalar subquery, the outer table aliased",
        "SELECT u.name, (SELECT MAX(total) FROM orders) AS top FROM users u",
        "SELECT name, (SELECT MAX(total) FROM orders) AS top FROM users",
    ),
];

#[test]
fn differences_inside_blocks_are_not_equivalent() {
    let mut failures = Vec::new();
    for (what, generated, expected, words) in DIFFERENT {
        let metric = correctness(generated, expected);
        let reasoning = metric.explanation.as_str();
        let named = words.iter().all(|word| reasoning.contains(word));
        if metric.score.is_none_or(|score| score >= 1.0) || !named {
            failures.push(format!("{what}: {:?}, {reasoning}", metric.score));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn equivalent_blocks_stay_equivalent() {
    let mut failures = Vec::new();
    for (what, generated, expected) in EQUIVALENT {
        let metric = correctness(generated, expected);
        if metric.score != Some(1.0) {
            failures.push(format!(
                "{what}: {:?}, {}",
                metric.score, metric.explanation
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
