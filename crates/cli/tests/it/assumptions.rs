//! Constraints as stated assumptions, from the command line: pairs that differ only when a
//! constraint the queries cannot show is absent are "equivalent if" it holds, with the
//! `CREATE TABLE` text to say so; given that text as `--schema`, they are plainly equivalent.

use std::process::{Command, Output, Stdio};

fn score(args: &[&str], pair: &serde_json::Value) -> serde_json::Value {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("score")
        .args(args)
        .args(["--pairs", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qeval starts");
    let line = format!("{pair}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(line.as_bytes())
        .expect("writes");
    let output: Output = child.wait_with_output().expect("qeval ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.lines().next().expect("a scorecard")).expect("JSON")
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

#[test]
fn differences_only_a_constraint_removes_are_stated_and_the_schema_settles_them() {
    let cases = [
        (
            "SELECT name FROM singer WHERE age <> 7 OR age <> 8",
            "SELECT name FROM singer",
            "generic",
            "`singer.age` is never NULL",
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
        let file = dir.join("schema.sql");
        std::fs::write(&file, &schema).expect("writes the schema");
        let (explanation, _) =
            equivalence(&score(&["--schema", file.to_str().expect("a path")], &pair));
        assert!(
            explanation.starts_with("Same results on all"),
            "{generated} on its stated schema: {explanation}"
        );
    }
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
