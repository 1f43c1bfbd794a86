//! Constructs of other dialects, translated for SQLite and run on a real SQLite database: each
//! line of `tests/equivalence/constructs.jsonl` is a query and the rows its own dialect gives.

use qeval_core::{
    CompareOptions, Mode, ParseLimits, SqlDialect, compare_results, read_result, to_sqlite,
};
use qeval_sqlite::{Database, Limits};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Construct {
    construct: String,
    dialect: SqlDialect,
    sql: String,
    rows: Vec<Vec<Value>>,
    #[serde(default)]
    ordered: bool,
}

#[test]
fn each_construct_runs_on_sqlite_with_its_own_dialects_result() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/equivalence/constructs.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the constructs file");
    let mut failures = Vec::new();
    let mut count = 0;
    for (line, text) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        count += 1;
        let case: Construct = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("constructs.jsonl line {}: {e}", line + 1));
        let sql = match to_sqlite(&case.sql, case.dialect, ParseLimits::default()) {
            Ok(sql) => sql,
            Err(e) => {
                failures.push(format!("{}: not translated: {e}", case.construct));
                continue;
            }
        };
        let mut db = Database::from_script("").expect("an empty database");
        let got = match db.query(&sql, &Limits::default()) {
            Ok(out) => out.to_json(),
            Err(e) => {
                failures.push(format!("{}: {sql}: {e}", case.construct));
                continue;
            }
        };
        let columns: Vec<String> = got["columns"]
            .as_array()
            .map(|c| c.iter().map(|v| v.to_string()).collect())
            .unwrap_or_default();
        let wanted = json!({ "columns": columns, "rows": case.rows });
        let options = CompareOptions {
            mode: Mode::Bag,
            order_matters: case.ordered,
            ..CompareOptions::default()
        };
        let (wanted_rows, got_rows) = (
            read_result(&wanted).expect("reads"),
            read_result(&got).expect("reads"),
        );
        if !compare_results(&wanted_rows, &got_rows, &options).equal {
            failures.push(format!(
                "{}: {sql}: got {}, wanted {}",
                case.construct, got["rows"], wanted["rows"]
            ));
        }
    }
    assert!(count >= 25, "{count} constructs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
