//! Standard output as a user sees it: quiet when the reader of a pipe goes away (as Unix tools
//! are), and no control character from a query reaching the terminal.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qeval-pipes-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

fn assert_quiet(stderr: &str) {
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

#[test]
fn compare_into_a_closed_pipe_exits_quietly() {
    let a = temp("a.json", "[[1], [2]]");
    let b = temp("b.json", "[[2], [1]]");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("compare")
        .args([&a, &b])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qeval runs");
    // The reader is gone before qeval writes anything.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("qeval ends");
    assert_quiet(&String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{:?}", output.status);
}

#[test]
fn score_into_a_pipe_closed_after_one_line_exits_quietly() {
    let line = r#"{"generated_sql": "SELECT 1", "expected_tables": ["t"]}"#;
    let pairs = temp("pairs.jsonl", &format!("{line}\n").repeat(20_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-equivalence", "--pairs"])
        .arg(&pairs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qeval runs");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("one line");
    assert!(first.starts_with('{'), "{first}");
    drop(reader);
    let output = child.wait_with_output().expect("qeval ends");
    assert_quiet(&String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{:?}", output.status);
}

#[test]
fn a_table_name_with_an_escape_sequence_is_printed_as_text() {
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["tables", "SELECT * FROM \"a\u{1b}[2Jb\""])
        .output()
        .expect("qeval runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout, "a\\u{1b}[2jb\n");
}

#[test]
fn a_60000_term_operator_chain_loses_its_own_line_only() {
    let chain = vec!["1"; 60_000].join("+");
    let pairs = temp(
        "deep.jsonl",
        &format!(
            "{{\"generated_sql\": \"SELECT {chain}\", \"expected_sql\": \"SELECT 1\"}}\n{{\"generated_sql\": \"SELECT 2\", \"expected_sql\": \"SELECT 1\"}}\n"
        ),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--pairs"])
        .arg(&pairs)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_quiet(&stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].contains("operators; the limit is 1000"),
        "{}",
        &lines[0][..300.min(lines[0].len())]
    );
    assert!(lines[1].contains("\"line\":2"));
}
