//! `--db FILE.sqlite`: queries run on the database to get the results the lines do not carry.

use std::process::Command;

use qeval_sqlite::Database;
use serde_json::{Value, json};

const SHOP: &str = "
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, active INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);
INSERT INTO users VALUES (1, 'ann', 1), (2, 'bob', 0), (3, 'cy', 1);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 4.5), (3, 3, 7.0);
";

/// A folder with the shop database as a file: (folder, file, its bytes).
fn shop_file(name: &str) -> (std::path::PathBuf, std::path::PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("qeval-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("shop.sqlite");
    let bytes = Database::from_script(SHOP)
        .and_then(|mut d| d.to_bytes())
        .expect("a database");
    std::fs::write(&db, &bytes).expect("write db");
    (dir, db, bytes)
}

#[test]
fn pairs_are_scored_on_the_database_and_its_file_is_untouched() {
    let (dir, db, bytes) = shop_file("db");
    let pairs = dir.join("pairs.jsonl");
    let lines = [
        json!({"id": "same", "generated_sql": "SELECT u.name FROM users u WHERE u.id IN (SELECT user_id FROM orders)", "expected_sql": "SELECT DISTINCT name FROM users JOIN orders ON orders.user_id = users.id"}),
        json!({"id": "differs", "generated_sql": "SELECT name FROM users", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
        json!({"id": "drop", "generated_sql": "DROP TABLE users", "expected_sql": "SELECT name FROM users"}),
    ];
    std::fs::write(
        &pairs,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .expect("pairs");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--mode", "bag", "--pairs"])
        .arg(&pairs)
        .arg("--db")
        .arg(&db)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let cards: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(cards.len(), 3, "{stderr}");
    assert!(
        stderr.contains("2 tables (orders 3 rows, users 3 rows)"),
        "{stderr}"
    );
    assert_eq!(
        cards[0]["metrics"]["results_match"]["score"], 1.0,
        "{}",
        cards[0]
    );
    assert_eq!(cards[1]["metrics"]["results_match"]["score"], 0.0);
    let refused = &cards[2]["metrics"]["execution"];
    assert_eq!(refused["score"], 0.0);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("refused before running"),
        "{refused}"
    );
    assert_eq!(
        std::fs::read(&db).expect("db"),
        bytes,
        "the file's bytes are unchanged"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_suite_checking_catches_a_pair_that_agrees_only_on_the_given_data() {
    let (dir, db, _) = shop_file("suite");
    let pairs = dir.join("pairs.jsonl");
    let lines = [
        json!({"id": "accident", "generated_sql": "SELECT name FROM users WHERE id IN (1, 3)", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
        json!({"id": "same", "generated_sql": "SELECT u.name FROM users AS u WHERE 1 = u.active", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
    ];
    std::fs::write(
        &pairs,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .expect("pairs");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args([
            "score", "--mode", "bag", "--suite", "20", "--seed", "7", "--pairs",
        ])
        .arg(&pairs)
        .arg("--db")
        .arg(&db)
        .output()
        .expect("qeval runs");
    let cards: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(
        cards[0]["metrics"]["results_match"]["score"], 1.0,
        "agree on the file"
    );
    assert_eq!(
        cards[0]["metrics"]["test_suite"]["score"], 0.0,
        "{}",
        cards[0]["metrics"]["test_suite"]
    );
    assert!(cards[0]["metrics"]["test_suite"]["details"]["first_difference"]["database"].is_u64());
    let counterexample = &cards[0]["metrics"]["test_suite"]["details"]["counterexample"];
    assert!(
        counterexample["tables"][0]["rows"]
            .as_array()
            .is_some_and(|r| r.len() <= 5),
        "{counterexample}"
    );
    assert_eq!(
        cards[0]["profile"]["passed"], false,
        "a counterexample fails the pair: {}",
        cards[0]["profile"]
    );
    assert_eq!(
        cards[1]["metrics"]["test_suite"]["score"], 1.0,
        "{}",
        cards[1]["metrics"]["test_suite"]
    );
    assert_eq!(
        cards[1]["metrics"]["test_suite"]["explanation"],
        "Proved equivalent: both are the same select-project-join query (1 table, 1 condition) up to aliases, the order of tables and conditions, and the sides of each comparison, so they return the same rows on every database; the 20 generated databases agree too (seed 7)",
        "the same query up to an alias and a commuted comparison is proved"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_pairs_on_every_core_come_out_in_input_order_and_the_same_every_time() {
    let (dir, db, _) = shop_file("parallel");
    let pairs = dir.join("pairs.jsonl");
    let text: String = (0..120)
        .map(|i| {
            let generated = if i % 3 == 0 {
                format!("SELECT name FROM users WHERE id > {}", i % 4)
            } else {
                format!("SELECT name FROM users WHERE id >= {}", i % 4)
            };
            format!(
                "{}\n",
                json!({"id": i, "generated_sql": generated, "expected_sql": format!("SELECT name FROM users WHERE id > {}", i % 4)})
            )
        })
        .collect();
    std::fs::write(&pairs, text).expect("pairs");
    let score = || {
        let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--mode", "bag", "--suite", "5", "--pairs"])
            .arg(&pairs)
            .arg("--db")
            .arg(&db)
            .output()
            .expect("qeval runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let (first, second) = (score(), score());
    let _ = std::fs::remove_dir_all(&dir);
    let cards: Vec<Value> = first
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let ids: Vec<i64> = cards
        .iter()
        .map(|c| c["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(ids, (0..120).collect::<Vec<_>>(), "input order");
    assert!(
        cards
            .iter()
            .all(|c| c["metrics"]["test_suite"]["score"].is_number())
    );
    // `>` against `>=`: the suite tells them apart wherever the database alone cannot.
    assert_eq!(
        cards[1]["metrics"]["test_suite"]["score"], 0.0,
        "{}",
        cards[1]
    );
    assert_eq!(cards[0]["metrics"]["test_suite"]["score"], 1.0);
    assert_eq!(first, second, "the same output every time");
}

#[test]
fn efficiency_counts_sqlite_vm_steps_the_same_on_every_run() {
    let (dir, db, _) = shop_file("efficiency");
    let pairs = dir.join("pairs.jsonl");
    let lines = [
        // The same rows, the generated query with a needless self-join: more steps, same result.
        json!({"id": "slower", "generated_sql": "SELECT DISTINCT a.name FROM users a JOIN users b ON a.id = b.id JOIN users c ON c.id = a.id WHERE a.active = 1", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
        json!({"id": "same", "generated_sql": "SELECT name FROM users WHERE active = 1", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
        json!({"id": "wrong", "generated_sql": "SELECT name FROM users", "expected_sql": "SELECT name FROM users WHERE active = 1"}),
    ];
    std::fs::write(
        &pairs,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .expect("pairs");
    let score = || {
        let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--mode", "bag", "--pairs"])
            .arg(&pairs)
            .arg("--db")
            .arg(&db)
            .output()
            .expect("qeval runs");
        let cards: Vec<Value> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        (cards, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (cards, stderr) = score();
    let efficiency = |i: usize| cards[i]["metrics"]["efficiency"].clone();
    let slower = efficiency(0);
    let (expected, generated) = (
        slower["details"]["expected_vm_steps"].as_u64().unwrap(),
        slower["details"]["generated_vm_steps"].as_u64().unwrap(),
    );
    assert!(generated > expected, "{slower}");
    assert!(slower["score"].as_f64().unwrap() < 1.0, "{slower}");
    assert_eq!(efficiency(1)["score"], 1.0, "the same query: ratio 1");
    assert_eq!(
        efficiency(2)["score"],
        0.0,
        "different results earn nothing"
    );
    assert!(
        stderr.contains("qeval: efficiency: R-VES ")
            && stderr.contains(" by SQLite VM steps over 3 pairs"),
        "{stderr}"
    );
    // Counted, not timed: a second run gives the same steps.
    let (again, _) = score();
    for i in 0..3 {
        assert_eq!(
            again[i]["metrics"]["efficiency"],
            cards[i]["metrics"]["efficiency"]
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_database_schema_checks_names_and_a_json_schema_does_without_one() {
    let (dir, db, _) = shop_file("names");
    let pairs = dir.join("pairs.jsonl");
    std::fs::write(
        &pairs,
        format!(
            "{}\n",
            json!({"id": "typo", "generated_sql": "SELECT SUM(totl) FROM orders", "expected_sql": "SELECT SUM(total) FROM orders"})
        ),
    )
    .expect("pairs");
    let explanation = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
            .args(["score", "--pairs"])
            .arg(&pairs)
            .args(extra)
            .output()
            .expect("qeval runs");
        let card: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        card["metrics"]["schema_validity"]["explanation"].clone()
    };
    let db = db.to_string_lossy().into_owned();
    assert_eq!(
        explanation(&["--db", &db]),
        "Not in the schema: unknown column `totl` (line 1, column 12)"
    );
    let names = dir.join("names.json");
    std::fs::write(&names, r#"{"orders": ["id", "user_id", "total"]}"#).expect("names");
    let names = names.to_string_lossy().into_owned();
    assert_eq!(
        explanation(&["--schema", &names]),
        "Not in the schema: unknown column `totl` (line 1, column 12)",
        "names alone, and the equivalence check still runs on an inferred schema"
    );
    assert_eq!(
        explanation(&["--no-equivalence"]),
        Value::Null,
        "no schema, no check"
    );
    let _ = std::fs::remove_dir_all(dir);
}
