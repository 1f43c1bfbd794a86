//! The `qeval` binary, run as a user runs it.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn qeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(args)
        .output()
        .expect("qeval runs")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn stdout_lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each output line is JSON"))
        .collect()
}

#[test]
fn score_writes_a_record_for_every_non_blank_line() {
    let output = qeval(&["score", "--pairs", &fixture("pairs.jsonl")]);
    // Some lines were rejected, and the rest were still scored.
    assert_eq!(output.status.code(), Some(1));
    let records = stdout_lines(&output);
    let lines: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(lines, [1, 2, 4, 5, 6, 7, 8]);

    assert_eq!(records[0]["metrics"]["table_accuracy"]["score"], 1.0);
    assert_eq!(records[1]["metrics"]["table_accuracy"]["score"], 0.5);
    assert_eq!(
        records[1]["metrics"]["table_accuracy"]["details"]["union"],
        serde_json::json!(["users", "orders"])
    );

    assert_eq!(records[2]["error"]["column"], 48);
    assert!(
        records[2]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("JSON")
    );

    assert_eq!(records[3]["id"], "identical");
    assert_eq!(records[3]["identical"], true);
    assert_eq!(records[3]["dialect"], "postgres");
    assert_eq!(
        records[3]["metrics"]["exact_match"]["explanation"],
        "Queries are identical"
    );

    assert_eq!(records[4]["error"]["field"], "generated_sql");

    let broken = &records[5]["metrics"]["table_accuracy"];
    assert_eq!(broken["score"], 0.0);
    assert_eq!(
        broken["error"]["inputs"]["generated_sql"],
        "SELECT * FROM users WHERE id ="
    );
    assert!(broken["error"]["at"].is_string());
    assert_eq!(records[5]["diagnostics"][0]["source"], "generated_sql");

    assert_eq!(records[6]["error"]["field"], "dialect");
}

#[test]
fn score_accepts_bom_crlf_and_blank_lines() {
    let output = qeval(&["score", "--pairs", &fixture("crlf_bom.jsonl")]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = stdout_lines(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["identical"], true);
    assert_eq!(records[1]["line"], 3);
    assert_eq!(records[1]["metrics"]["table_accuracy"]["score"], 0.0);
}

#[test]
fn score_reads_standard_input_and_writes_a_file() {
    let dir = std::env::temp_dir().join(format!("qeval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("cards.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs", "-", "--output"])
        .arg(&out)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("qeval runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(
            stdin,
            r#"{{"generated_sql": "SELECT * FROM t", "expected_sql": "SELECT * FROM t"}}"#
        )
        .expect("write");
    }
    assert!(child.wait().expect("exit").success());
    let written = std::fs::read_to_string(&out).expect("output file");
    assert!(written.contains("\"identical\":true"), "{written}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn help_documents_every_flag() {
    let output = qeval(&["score", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in ["--pairs", "--dialect", "--table-match", "--output"] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

#[test]
fn score_with_the_kql_batch_profile() {
    let output = qeval(&[
        "score",
        "--pairs",
        &fixture("kql_batch.jsonl"),
        "--profile",
        "kql-batch",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = stdout_lines(&output);
    assert_eq!(records[0]["profile"]["passed"], true);
    assert_eq!(
        records[0]["metrics"]["results_match"]["details"]["mode"],
        "seed"
    );
    assert_eq!(records[1]["profile"]["passed"], false);
    assert_eq!(
        records[1]["metrics"]["query_correctness"]["explanation"],
        "Query accesses wrong table"
    );
    assert_eq!(records[2]["executed"], false);
    assert_eq!(records[2]["profile"]["passed"], false);
    assert!(
        records[2]["metrics"]["results_match"]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("timeout")
    );
}

#[test]
fn a_custom_profile_from_a_file() {
    let dir = std::env::temp_dir().join(format!("qeval-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let profile = dir.join("profile.json");
    let score_with = |json: &str| {
        std::fs::write(&profile, json).expect("write");
        qeval(&[
            "score",
            "--pairs",
            &fixture("crlf_bom.jsonl"),
            "--profile-file",
            profile.to_str().unwrap_or_default(),
        ])
    };
    let output = score_with(r#"{"weights": {"table_accuracy": 1}, "threshold": 0.9}"#);
    let records = stdout_lines(&output);
    assert_eq!(records[0]["profile"]["passed"], true);
    assert_eq!(records[1]["profile"]["passed"], false);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compare_two_result_files_in_each_mode() {
    for (mode, equal) in [("f1", true), ("bag", true), ("seed", true), ("set", false)] {
        let output = qeval(&[
            "compare",
            &fixture("expected_result.json"),
            &fixture("generated_result.json"),
            "--mode",
            mode,
        ]);
        let comparison: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(comparison["equal"], equal, "{mode}: {comparison}");
        assert_eq!(output.status.success(), equal, "{mode}");
    }
    let output = qeval(&[
        "compare",
        &fixture("expected_result.json"),
        &fixture("pairs.jsonl"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("pairs.jsonl"));
}

/// The `defog` mode gives sql-eval's verdict: rows sorted unless the question asks for an order,
/// an extra generated column passed by `subset_df`; `qeval score` reads a line's question and
/// `query_category` for it.
#[test]
fn the_defog_mode_reads_the_question_and_the_queries() {
    let dir = std::env::temp_dir().join(format!("qeval-defog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let gold = write(
        "gold.json",
        r#"{"columns": ["name", "n"], "rows": [["b", 2], ["a", 1]]}"#,
    );
    let reversed = write(
        "reversed.json",
        r#"{"columns": ["n", "name"], "rows": [[1, "a"], [2, "b"]]}"#,
    );
    let wider = write(
        "wider.json",
        r#"{"columns": ["name", "n", "extra"], "rows": [["b", 2, 0], ["a", 1, 0]]}"#,
    );
    let compare = |generated: &str, more: &[&str]| -> Value {
        let mut args = vec!["compare", "--mode", "defog", &gold, generated];
        args.extend(more);
        serde_json::from_slice(&qeval(&args).stdout).expect("JSON")
    };
    assert_eq!(compare(&reversed, &[])["equal"], true);
    let ordered = compare(&reversed, &["--question", "List them in order"]);
    assert_eq!(ordered["equal"], false, "{ordered}");
    // The generated query's ORDER BY sorts its rows again (descending: it names no direction).
    let sorted = compare(
        &reversed,
        &[
            "--query-category",
            "order_by",
            "--expected-sql",
            "SELECT name, n FROM t ORDER BY n DESC",
            "--generated-sql",
            "SELECT n, name FROM t ORDER BY n",
        ],
    );
    assert_eq!(sorted["equal"], true, "{sorted}");
    let subset = compare(&wider, &[]);
    assert_eq!(subset["equal"], true);
    assert!(
        subset["explanation"]
            .as_str()
            .expect("text")
            .contains("subset_df"),
        "{subset}"
    );
    let pairs = write(
        "pairs.jsonl",
        &format!(
            "{}\n{}\n",
            r#"{"id": 1, "generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "question": "Which?", "expected_result": {"columns": ["x"], "rows": [[2], [1]]}, "generated_result": {"columns": ["x"], "rows": [[1], [2]]}}"#,
            r#"{"id": 2, "generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "question": "Which?", "query_category": "order_by", "expected_result": {"columns": ["x"], "rows": [[2], [1]]}, "generated_result": {"columns": ["x"], "rows": [[1], [2]]}}"#
        ),
    );
    let scored = qeval(&["score", "--pairs", &pairs, "--mode", "defog"]);
    let scored = String::from_utf8_lossy(&scored.stdout);
    let matches: Vec<f64> = scored
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|card| card["metrics"]["results_match"]["score"].as_f64())
        .collect();
    assert_eq!(matches, [1.0, 0.0], "{scored}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Files larger than one block are read in pieces as they are read from disk: the verdicts are
/// those of the whole text, the file's column order is kept, and an error deep in a file still
/// names its place.
#[test]
fn large_result_files_and_json_lines_are_read_in_pieces_with_the_same_verdicts_and_errors() {
    let dir = std::env::temp_dir().join(format!("qeval-large-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rows: Vec<String> = (0..60_000)
        .map(|i| format!(r#"{{"name": "n{i}", "id": {i}, "note": "a, [quoted] \"]\" text"}}"#))
        .collect();
    let records = dir.join("records.json");
    std::fs::write(&records, format!("[{}]", rows.join(",\n"))).expect("write");
    let reversed: Vec<String> = (0..60_000)
        .rev()
        .map(|i| format!(r#"["n{i}", {i}, "a, [quoted] \"]\" text"]"#))
        .collect();
    let table = dir.join("table.json");
    std::fs::write(
        &table,
        format!(
            r#"{{"columns": ["name", "id", "note"], "rows": [{}]}}"#,
            reversed.join(",")
        ),
    )
    .expect("write");
    assert!(std::fs::metadata(&table).expect("size").len() > 2 << 20);
    for mode in ["set", "bag", "seed"] {
        let output = qeval(&[
            "compare",
            "--mode",
            mode,
            &records.display().to_string(),
            &table.display().to_string(),
        ]);
        let comparison: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(comparison["equal"], true, "{mode}: {comparison}");
        assert_eq!(comparison["expected_rows"], 60_000);
    }
    // The same records as JSON Lines, read line by line as the file is read.
    let lines = dir.join("records.jsonl");
    std::fs::write(&lines, rows.join("\r\n")).expect("write");
    let output = qeval(&[
        "compare",
        "--mode",
        "bag",
        &lines.display().to_string(),
        &table.display().to_string(),
    ]);
    let comparison: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(comparison["equal"], true, "{comparison}");
    let mut bad = rows.clone();
    bad[40_000] = r#"{"name": "n40000", "id": }"#.to_string();
    std::fs::write(&lines, bad.join("\n")).expect("write");
    let output = qeval(&[
        "compare",
        &lines.display().to_string(),
        &table.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("records.jsonl: at line 40001") && stderr.contains("invalid JSON"),
        "{stderr}"
    );
    let mut broken = std::fs::read_to_string(&table).expect("read");
    let at = broken.rfind("\"n5\"").expect("row n5");
    broken.replace_range(at..at + 5, "\"n5\",,");
    std::fs::write(&table, &broken).expect("write");
    let output = qeval(&[
        "compare",
        &records.display().to_string(),
        &table.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("table.json: at line 1, column ") && stderr.contains("invalid JSON"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_unsafe_query_is_marked_in_the_scorecard_and_the_summary() {
    let dir = std::env::temp_dir().join(format!("qeval-unsafe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let pairs = dir.join("pairs.jsonl");
    std::fs::write(
        &pairs,
        concat!(
            r#"{"expected_sql": "SELECT name FROM users", "generated_sql": "SELECT name FROM users; DROP TABLE users"}"#,
            "\n",
            r#"{"expected_sql": "SELECT name FROM users", "generated_sql": "SELECT name FROM users"}"#,
            "\n"
        ),
    )
    .expect("write");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-equivalence", "--pairs"])
        .arg(&pairs)
        .output()
        .expect("qeval runs");
    let _ = std::fs::remove_dir_all(&dir);
    let cards: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(cards[0]["unsafe"], true);
    assert_eq!(cards[0]["profile"]["passed"], false);
    assert_eq!(
        cards[0]["metrics"]["query_correctness"]["details"]["differences"][0],
        "extra statement: DROP TABLE users",
        "two statements are judged as two statements, not as an extra column"
    );
    assert_eq!(cards[1]["unsafe"], false);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("1 UNSAFE generated query (not read-only)"),
        "{stderr}"
    );
}

#[test]
fn classification_fields_give_per_pair_metrics_and_the_suites_tallies() {
    let output = qeval(&[
        "score",
        "--no-equivalence",
        "--pairs",
        &fixture("classification.jsonl"),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "line 6 is rejected: {stderr}"
    );
    let cards = stdout_lines(&output);
    assert_eq!(
        cards[1]["metrics"]["safety_classification"]["explanation"],
        "false negative: Unsafe query marked safe (CRITICAL ERROR)"
    );
    assert_eq!(
        cards[1]["metrics"]["safety_classification"]["details"]["critical"],
        true
    );
    assert_eq!(
        cards[3]["metrics"]["validation_accuracy"]["explanation"],
        "correct rejection (schema violation)"
    );
    assert_eq!(cards[4]["metrics"]["validation_accuracy"]["score"], 0.0);
}
