//! Queries run on a copy, read-only, within limits; the database's own bytes never change.

use qeval_sqlite::{Database, Limits, QueryError};

const SHOP: &str = "
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, active INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);
INSERT INTO users VALUES (1, 'ann', 1), (2, 'bob', 0), (3, 'cy', 1);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 4.5), (3, 3, 7.0);
";

fn shop_bytes() -> Vec<u8> {
    Database::from_script(SHOP)
        .and_then(|mut db| db.to_bytes())
        .expect("a database")
}

#[test]
fn a_file_is_read_with_its_schema_and_queried() {
    let bytes = shop_bytes();
    let mut db = Database::open_bytes(&bytes).expect("opens");
    let tables: Vec<(String, u64)> = db
        .tables()
        .iter()
        .map(|t| (t.name.clone(), t.rows))
        .collect();
    assert_eq!(
        tables,
        [("orders".to_string(), 3), ("users".to_string(), 3)]
    );
    assert_eq!(db.tables()[1].columns[1].name, "name");
    assert_eq!(db.tables()[1].columns[1].kind, "TEXT");
    let out = db
        .query(
            "SELECT u.name, SUM(o.total) AS spent FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY u.name",
            &Limits::default(),
        )
        .expect("runs");
    assert_eq!(out.columns, ["name", "spent"]);
    assert_eq!(
        out.to_json()["rows"],
        serde_json::json!([["ann", 15.0], ["cy", 7.0]])
    );
    assert!(!out.truncated);
}

#[test]
fn writes_attach_pragmas_and_hidden_writes_are_refused_and_the_bytes_never_change() {
    let bytes = shop_bytes();
    let before = bytes.clone();
    let mut db = Database::open_bytes(&bytes).expect("opens");
    for sql in [
        "DROP TABLE users",
        "ATTACH DATABASE '/tmp/other.db' AS other",
        "PRAGMA writable_schema = ON",
        "WITH gone AS (SELECT id FROM users) DELETE FROM users WHERE id IN (SELECT id FROM gone)",
        "SELECT 1; DELETE FROM users",
    ] {
        match db.query(sql, &Limits::default()) {
            Err(QueryError::Refused(reason)) => assert!(!reason.is_empty(), "{sql}"),
            // SQL the validator's parser cannot read goes to SQLite, whose authorizer refuses
            // it: in words, not as the authorizer's debug text.
            Err(QueryError::Denied(reason)) => {
                assert_eq!(reason, "PRAGMA writable_schema is not a read", "{sql}")
            }
            other => panic!("{sql}: {other:?}"),
        }
    }
    // Past the validator (which knows nothing against this function), SQLite's authorizer still
    // stands: no function outside the allow-list runs.
    match db.query("SELECT sqlite_compileoption_get(0)", &Limits::default()) {
        Err(QueryError::Denied(_)) => {}
        other => panic!("{other:?}"),
    }
    let count = db
        .query("SELECT COUNT(*) FROM users", &Limits::default())
        .expect("still there");
    assert_eq!(count.rows, [[serde_json::json!(3)]]);
    assert_eq!(bytes, before, "the file's bytes are unchanged");
    assert_eq!(
        db.to_bytes().expect("serializes"),
        before,
        "and so is the database"
    );
}

#[test]
fn an_endless_recursive_query_is_interrupted_at_the_time_limit() {
    let mut db = Database::open_bytes(&shop_bytes()).expect("opens");
    let limits = Limits {
        time_ms: 300.0,
        ..Limits::default()
    };
    match db.query(
        "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT COUNT(*) FROM forever",
        &limits,
    ) {
        Err(QueryError::TimedOut { ms }) => assert!(ms >= 300.0, "{ms}"),
        other => panic!("{other:?}"),
    }
    // The connection is usable afterwards.
    assert!(db.query("SELECT 1", &Limits::default()).is_ok());
}

#[test]
fn results_stop_at_the_row_cap_and_say_so() {
    let mut db = Database::open_bytes(&shop_bytes()).expect("opens");
    let limits = Limits {
        max_rows: 10,
        ..Limits::default()
    };
    let out = db
        .query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) SELECT i FROM n", &limits)
        .expect("runs");
    assert_eq!(out.rows.len(), 10);
    assert!(out.truncated);
}

#[test]
fn a_file_that_is_not_sqlite_is_named_as_such() {
    let err = Database::open_bytes(b"id,name\n1,ann\n").expect_err("not SQLite");
    assert!(err.to_string().contains("not a SQLite database"), "{err}");
}

#[test]
fn csv_files_become_tables_with_inferred_types() {
    let files = [
        (
            "users.csv".to_string(),
            "id,name,score\n1,ann,9.5\n2,\"Lovelace, Ada\",\n".to_string(),
        ),
        (
            "orders.csv".to_string(),
            "id,user_id\r\n10,1\r\n11,2\r\n".to_string(),
        ),
    ];
    let mut db = Database::from_csv(&files).expect("builds");
    let users = db
        .tables()
        .iter()
        .find(|t| t.name == "users")
        .expect("users");
    let kinds: Vec<&str> = users.columns.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(kinds, ["INTEGER", "TEXT", "REAL"]);
    let out = db
        .query(
            "SELECT u.name, u.score FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id",
            &Limits::default(),
        )
        .expect("runs");
    assert_eq!(
        out.to_json()["rows"],
        serde_json::json!([["ann", 9.5], ["Lovelace, Ada", null]])
    );
    let err = Database::from_csv(&[("bad.csv".to_string(), "a,b\n1\n".to_string())])
        .expect_err("short row");
    assert_eq!(
        err.to_string(),
        "bad.csv: line 2: 1 fields, but the header has 2"
    );
}

#[test]
fn a_value_too_long_to_build_is_refused_and_a_huge_result_is_cut() {
    let mut db = Database::from_script("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
        .expect("a database");
    // One row, one value: a billion characters.
    let err = db
        .query("SELECT printf('%.*c', 1000000000, 'x')", &Limits::default())
        .expect_err("too big");
    assert!(err.to_string().contains("too big"), "{err}");
    let err = db
        .query(
            "SELECT replace(printf('%.*c', 10000000, 'x'), 'x', printf('%.*c', 100, 'y'))",
            &Limits::default(),
        )
        .expect_err("too big");
    assert!(err.to_string().contains("too big"), "{err}");
    // Many rows of large values: cut at the byte cap, and said so.
    let out = db
        .query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT printf('%.*c', 1000000, 'x') FROM n",
            &Limits::default(),
        )
        .expect("runs");
    assert!(out.truncated);
    assert!(
        out.rows.len() < 100 && out.rows.len() >= 64,
        "{}",
        out.rows.len()
    );
}

#[test]
fn a_crafted_schema_that_tries_to_attach_and_write_never_runs() {
    let target = std::env::temp_dir().join(format!("qeval-pwned-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&target);
    let attack = format!(
        "CREATE TABLE t (a INTEGER); ATTACH 'file:{}?mode=rwc' AS p; CREATE TABLE p.x (y)",
        target.display()
    );
    let crafted = {
        let mut connection = rusqlite::Connection::open_in_memory().expect("sqlite");
        connection
            .execute_batch("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1); PRAGMA writable_schema = ON;")
            .expect("a table");
        connection
            .execute(
                "UPDATE sqlite_schema SET sql = ?1 WHERE name = 't'",
                [&attack],
            )
            .expect("the schema text replaced");
        connection
            .serialize(rusqlite::MAIN_DB)
            .expect("bytes")
            .to_vec()
    };
    // Opening it, and generating test-suite databases from it if it opens, writes nothing.
    if let Ok(mut db) = Database::open_bytes(&crafted) {
        let report = qeval_sqlite::check_equivalence(
            "SELECT a FROM t",
            "SELECT a FROM t WHERE a > 0",
            qeval_sqlite::SchemaChoice::Database(&mut db),
            &qeval_sqlite::EquivalenceOptions {
                databases: 5,
                ..Default::default()
            },
        );
        assert!(!report.schema.contains("ATTACH"), "{}", report.schema);
    }
    assert!(
        !target.exists(),
        "the crafted schema wrote {}",
        target.display()
    );
}

#[test]
fn a_script_that_attaches_a_file_writes_no_file() {
    // A built database lives in the in-memory VFS: a database it attaches does too.
    let target = std::env::temp_dir().join(format!("qeval-attach-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&target);
    let script = format!(
        "ATTACH 'file:{}?mode=rwc' AS p; CREATE TABLE p.t (a INTEGER); INSERT INTO p.t VALUES (1);",
        target.display()
    );
    let _ = Database::from_script(&script);
    assert!(!target.exists(), "the script wrote {}", target.display());
}

#[test]
fn a_generated_database_is_built_under_the_build_authorizer_with_no_attachments() {
    // What a schema read from a crafted file could smuggle into a generated database's script.
    for (script, why) in [
        ("ATTACH ':memory:' AS p", "ATTACH"),
        (
            "CREATE TABLE t (a); CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; END",
            "CREATE TRIGGER g",
        ),
        ("PRAGMA writable_schema = ON", "PRAGMA writable_schema"),
        ("CREATE TEMP TABLE t (a)", "sqlite_temp_master"),
        ("CREATE TABLE t (a); UPDATE t SET a = 1", "an UPDATE of t"),
        ("SELECT load_extension('x')", "load_extension"),
    ] {
        let err = Database::scratch(script).expect_err(script).to_string();
        assert!(
            err.starts_with("the script was refused: ") && err.contains(why),
            "{script}: {err}"
        );
    }
    // What a generated script is made of still builds.
    let mut db = Database::scratch(
        "PRAGMA foreign_keys = OFF; CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE); \
         CREATE INDEX i ON t (b); INSERT INTO t VALUES (1, 'x'), (2, NULL);",
    )
    .expect("a generated database");
    let out = db
        .query("SELECT COUNT(*) FROM t", &Limits::default())
        .expect("query");
    assert_eq!(out.rows.len(), 1);
    // A pasted script cannot attach a database either, even one in memory.
    let err = Database::from_script("ATTACH ':memory:' AS p").expect_err("attach");
    assert!(
        err.to_string().contains("too many attached databases"),
        "{err}"
    );
}

/// SQLite's math functions run here as in the page's SQLite (compiled with them in both), so a
/// query with `FLOOR` or `POWER` gets the same result, and the same verdict, in the CLI and the
/// browser.
#[test]
fn the_math_functions_run_as_in_the_page() {
    let mut db = Database::open_bytes(&shop_bytes()).expect("opens");
    let out = db
        .query(
            "SELECT floor(total), ceil(total), power(2, 10), sqrt(16.0), ln(1), mod(7, 3) FROM orders ORDER BY id LIMIT 1",
            &Limits::default(),
        )
        .expect("runs");
    assert_eq!(
        out.rows,
        [[
            serde_json::json!(10.0),
            serde_json::json!(11.0),
            serde_json::json!(1024.0),
            serde_json::json!(4.0),
            serde_json::json!(0.0),
            serde_json::json!(1.0),
        ]]
    );
}
