//! Constraints as stated assumptions, from the command line: pairs that differ only when a
//! constraint the queries cannot show is absent are "equivalent if" it holds, with the
//! `CREATE TABLE` text to say so; given that text as `--schema` (or as the pair's own `schema`),
//! they are plainly equivalent.

use crate::hostile::score_lines;

/// The one scorecard `qeval score` gives for `pair`.
fn score(args: &[&str], pair: &serde_json::Value) -> serde_json::Value {
    let mut all = vec!["score"];
    all.extend_from_slice(args);
    let (mut records, stderr, _) = score_lines(&all, &format!("{pair}\n"));
    assert_eq!(records.len(), 1, "{stderr}");
    records.remove(0)
}

fn equivalence(card: &serde_json::Value) -> (String, String) {
    let metric = &card["metrics"]["equivalence"];
    let explanation = metric["explanation"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let schema = metric["details"]["assumption"]["schema"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (explanation, schema)
}

/// The explanation `qeval score --schema` gives `pair` with `schema` written to a file in `dir`,
/// and `more` arguments.
fn on_schema(
    dir: &std::path::Path,
    schema: &str,
    pair: &serde_json::Value,
    more: &[&str],
) -> String {
    let file = dir.join("schema.sql");
    std::fs::write(&file, schema).expect("writes the schema");
    let mut args = vec!["--schema", file.to_str().expect("a path")];
    args.extend_from_slice(more);
    equivalence(&score(&args, pair)).0
}

#[test]
fn differences_only_a_constraint_removes_are_stated_and_the_schema_settles_them() {
    let cases = [
        (
            "SELECT name FROM singer WHERE singer_id <> 7 OR singer_id <> 8",
            "SELECT name FROM singer",
            "generic",
            "`singer.singer_id` is never NULL",
        ),
        (
            "SELECT e.empno FROM emp e LEFT JOIN dept d ON e.deptno = d.deptno",
            "SELECT empno FROM emp",
            "postgres",
            "`dept.deptno` is unique",
        ),
        (
            "SELECT deptno, job FROM emp GROUP BY deptno, empno, job",
            "SELECT deptno, job FROM emp",
            "postgres",
            "`emp.empno` is unique and never NULL",
        ),
        (
            "SELECT CAST(sal AS INTEGER) FROM emp",
            "SELECT sal FROM emp",
            "postgres",
            "`emp.sal` is a whole number",
        ),
        (
            // The cast of what `sal` computes changes nothing when `sal` is whole.
            "SELECT job, CAST(SUM(sal) * 2 AS INTEGER) FROM emp GROUP BY job",
            "SELECT job, SUM(sal) * 2 FROM emp GROUP BY job",
            "postgres",
            "`emp.sal` is a whole number",
        ),
        (
            "SELECT * FROM singer",
            "SELECT name FROM singer",
            "sqlite",
            "`singer` has no columns besides those the queries name",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("qeval-assumptions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (generated, expected, dialect, stated) in cases {
        let pair = serde_json::json!({
            "generated_sql": generated, "expected_sql": expected, "dialect": dialect
        });
        let (explanation, schema) = equivalence(&score(&[], &pair));
        assert!(
            explanation.starts_with(&format!("Equivalent if {stated}:")),
            "{generated}: {explanation}"
        );
        let explanation = on_schema(&dir, &schema, &pair, &[]);
        assert!(
            explanation.starts_with("Same results on all"),
            "{generated} on its stated schema: {explanation}"
        );
        // The pair's own schema serves as `--schema` does.
        let mut own = pair.clone();
        own["schema"] = serde_json::Value::String(schema);
        let (explanation, _) = equivalence(&score(&[], &own));
        assert!(
            explanation.starts_with("Same results on all"),
            "{generated} on the pair's own schema: {explanation}"
        );
    }
    // "Never NULL" of a column that is no key and joins no other table is stated beside the
    // difference, not assumed; given as the schema, it settles the pair all the same.
    let pair = serde_json::json!({
        "generated_sql": "SELECT name FROM singer WHERE age <> 7 OR age <> 8",
        "expected_sql": "SELECT name FROM singer"
    });
    let (explanation, schema) = equivalence(&score(&[], &pair));
    assert!(
        explanation.starts_with("Different results")
            && explanation.contains("they agree if `singer.age` is never NULL"),
        "{explanation}"
    );
    let explanation = on_schema(&dir, &schema, &pair, &[]);
    assert!(
        explanation.starts_with("Same results on all"),
        "{explanation}"
    );
    // An assumption about the engine: `AVG` of whole numbers whole, as in SQL Server. Most
    // engines' is not, so it is stated beside the difference, naming the dialect to check in;
    // checked in it with its schema, the pair agrees.
    let pair = serde_json::json!({
        "generated_sql": "SELECT name, CAST(SUM(deptno) / COUNT(*) AS INTEGER) FROM dept GROUP BY name",
        "expected_sql": "SELECT name, AVG(deptno) FROM dept GROUP BY name"
    });
    let card = score(&[], &pair);
    let assumption = &card["metrics"]["equivalence"]["details"]["assumption"];
    assert_eq!(assumption["dialect"], "mssql", "{card}");
    let (explanation, schema) = equivalence(&card);
    assert!(
        explanation.starts_with("Different results")
            && explanation.contains("; they agree if `dept.deptno` is a whole number and never NULL, and the engine's `AVG` of whole numbers is a whole number (as in SQL Server; not in SQLite, PostgreSQL or MySQL) (most engines' `AVG` of whole numbers is a fraction, so that is not assumed: check in SQL Server's dialect if the queries run there)"),
        "{explanation}"
    );
    let explanation = on_schema(&dir, &schema, &pair, &["--dialect", "mssql"]);
    assert!(
        explanation.starts_with("Same results on all"),
        "{explanation}"
    );
    // A difference no constraint removes stays a difference.
    let pair = serde_json::json!({
        "generated_sql": "SELECT name FROM singer WHERE age > 30",
        "expected_sql": "SELECT name FROM singer WHERE age >= 30"
    });
    let (explanation, schema) = equivalence(&score(&[], &pair));
    assert!(
        explanation.starts_with("Different results"),
        "{explanation}"
    );
    assert!(schema.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--search N`: the boundary search builds what the generated databases miss (a sum exactly on
/// its threshold while each value stays under another); `--search 0` turns it off and the pair
/// agrees on the evidence alone; past the limit the flag is refused, naming it.
#[test]
fn the_boundary_search_is_on_by_default_and_search_sets_it() {
    let pair = serde_json::json!({
        "generated_sql": "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) > 120 AND MAX(hours) < 50",
        "expected_sql": "SELECT dept FROM staff GROUP BY dept HAVING SUM(hours) >= 120 AND MAX(hours) < 50",
    });
    let card = score(&[], &pair);
    let details = &card["metrics"]["equivalence"]["details"];
    assert_eq!(details["verdict"], "different", "{details}");
    assert_eq!(details["search"]["tries"], 200);
    assert!(
        details["search"]["found_at"].as_u64().is_some(),
        "{details}"
    );
    let (explanation, _) = equivalence(&card);
    assert!(
        explanation.starts_with("Different results on a database the boundary search built"),
        "{explanation}"
    );
    let off = score(&["--search", "0"], &pair);
    assert_eq!(
        off["metrics"]["equivalence"]["details"]["verdict"],
        "equivalent"
    );
    assert!(
        off["metrics"]["equivalence"]["details"]
            .get("search")
            .is_none()
    );
    let (_, stderr, status) = score_lines(&["score", "--search", "20000"], &format!("{pair}\n"));
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("--search takes 0 to 10000 databases, not 20000"),
        "{stderr}"
    );
}
