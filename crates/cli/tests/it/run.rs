//! `qeval run` and `qeval report` on run folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXAMPLE: &str = "../../static/example-run/run-2026-11-20T14-30-00";

/// Two scored records: test 1 passed, test 2 failed.
const PASS_FAIL: &str = r#"{"test_id": 1, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
{"test_id": 2, "qas_evaluation": {"semantic_score": 0, "execution_score": 0, "datatype_score": 1, "final_score": 0.2, "passed": false}}
"#;

struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("qeval-run-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Folder(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write");
        path
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn qeval(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(args)
        .arg(dir)
        .output()
        .expect("qeval runs")
}

fn example_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(EXAMPLE)
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[test]
fn the_example_run_scores_to_the_committed_records() {
    let folder = Folder::new("example");
    folder.write("test-results.jsonl", &example_file("test-results.jsonl"));
    let questions = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(EXAMPLE)
        .join("../test_questions_answers.json");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .arg("--questions")
        .arg(&questions)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("34 tests, 25 passed, 9 failed, pass rate 73.5%"),
        "{stderr}"
    );
    let written =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("written");
    assert_eq!(
        written,
        example_file("evaluation-results.jsonl"),
        "byte for byte"
    );
}

#[test]
fn the_example_run_before_scores_to_its_committed_records() {
    let before = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../static/example-run/run-2026-11-19T16-00-00");
    let folder = Folder::new("example-before");
    let read = |name: &str| std::fs::read_to_string(before.join(name)).expect(name);
    folder.write("test-results.jsonl", &read("test-results.jsonl"));
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .arg("--questions")
        .arg(before.join("../test_questions_answers.json"))
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    let written =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("written");
    assert_eq!(written, read("evaluation-results.jsonl"), "byte for byte");
}

#[test]
fn a_corrupt_line_is_named_and_the_rest_is_scored() {
    let folder = Folder::new("corrupt");
    folder.write(
        "test-results.jsonl",
        "{\"test_id\": 1, \"generated_sql\": \"SELECT 1\", \"expected_sql\": \"SELECT 1\"}\n{\"test_id\": 2, \"generated_sql\": \n{\"test_id\": 3, \"generated_sql\": \"SELECT 2\", \"expected_sql\": \"SELECT 3\"}\n",
    );
    let output = qeval(&["run"], &folder.0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("test-results.jsonl:2: "), "{stderr}");
    assert!(
        stderr.contains("3 lines read: 2 records, 1 rejected"),
        "{stderr}"
    );
    let written =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("written");
    assert_eq!(written.lines().count(), 2);
}

#[test]
fn fail_under_sets_the_exit_status() {
    let folder = Folder::new("threshold");
    folder.write(
        "evaluation-results.jsonl",
        &example_file("evaluation-results.jsonl"),
    );
    assert_eq!(
        qeval(&["run", "--fail-under", "0.7"], &folder.0)
            .status
            .code(),
        Some(0)
    );
    let output = qeval(&["run", "--fail-under", "80"], &folder.0);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("pass rate 73.5% is under --fail-under 80.0%")
    );
}

#[test]
fn stored_scores_the_data_contradicts_are_flagged() {
    let folder = Folder::new("check");
    folder.write(
        "evaluation-results.jsonl",
        r#"{"test_id": 7, "expected_results": 42, "actual_results": 42, "qas_evaluation": {"semantic_score": 0.95, "execution_score": 1.0, "datatype_score": 1.0, "final_score": 0.97, "passed": true}}
"#,
    );
    let output = qeval(&["run"], &folder.0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("test 7: final_score is 0.97 but its data gives 0.98"),
        "{stderr}"
    );
}

#[test]
fn the_report_is_one_page_with_the_run_in_it() {
    let folder = Folder::new("report");
    folder.write(
        "evaluation-results.jsonl",
        &example_file("evaluation-results.jsonl"),
    );
    let page = folder.0.join("report.html");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("report")
        .arg(&folder.0)
        .arg("-o")
        .arg(&page)
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.contains(r#"data-testid="pass-rate">73.5%"#));
    assert!(html.contains("default-src 'none'"));
    assert!(
        !html.contains("src=\"http"),
        "nothing loaded from elsewhere"
    );
}

#[test]
fn one_invalid_utf8_byte_loses_one_line_not_the_file() {
    let folder = Folder::new("utf8");
    let good = |id: u32| {
        format!(
            r#"{{"test_id": {id}, "question": "q", "expected_sql": "SELECT 1", "generated_sql": "SELECT 1", "expected_results": 1, "actual_results": 1}}"#
        )
    };
    let mut bytes = format!("{}\n", good(1)).into_bytes();
    bytes.extend_from_slice(b"{\"test_id\": 2, \"question\": \"caf\xe9\"}\n");
    bytes.extend_from_slice(format!("{}\n", good(3)).as_bytes());
    std::fs::write(folder.0.join("test-results.jsonl"), &bytes).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(":2: not valid UTF-8"), "{stderr}");
    let written =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("written");
    assert_eq!(written.lines().count(), 2, "{written}");
}

#[test]
fn control_characters_from_files_reach_the_terminal_as_escapes() {
    // A folder (and file) name, like any text from files, can carry an ANSI escape.
    let folder = Folder::new("evil\u{1b}[2J\u{1b}[31m");
    folder.write(
        "test-results.jsonl",
        "{\"test_id\": \"\u{1b}[2Jx\", \"question\": \"q\", \"expected_sql\": \"SELECT 1\", \"generated_sql\": \"SELECT 1\", \"expected_results\": 1, \"actual_results\": 1}\n{\"test_id\": \n",
    );
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(stderr.contains("evil\\u{1b}[2J"), "{stderr}");
}

#[test]
fn questions_without_a_result_are_named() {
    let folder = Folder::new("missing");
    let test = |id: u32| {
        format!(r#"{{"test_id": {id}, "generated_sql": "SELECT 1", "actual_results": 1}}"#)
    };
    folder.write("test-results.jsonl", &format!("{}\n{}\n", test(1), test(3)));
    let questions = folder.write(
        "questions.json",
        r#"[{"id": 1, "question": "a", "expected_sql": "SELECT 1", "expected_results": 1},
            {"id": 2, "question": "b", "expected_sql": "SELECT 2", "expected_results": 2},
            {"id": 3, "question": "c", "expected_sql": "SELECT 1", "expected_results": 1},
            {"id": 4, "question": "d", "expected_sql": "SELECT 4", "expected_results": 4}]"#,
    );
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .arg("--questions")
        .arg(&questions)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("2 of 4 questions have no result in")
            && stderr.contains("not scored: 2, 4"),
        "{stderr}"
    );
}

/// The same test scored by `qeval score` (as a pair) and by `qeval run` (as a run folder).
fn verdicts_of_both_commands(test: &str) -> (Option<bool>, bool, serde_json::Value, String) {
    let folder = Folder::new(&format!("both-{}", test.len()));
    folder.write("test-results.jsonl", &format!("{test}\n"));
    let run = qeval(&["run"], &folder.0);
    assert!(run.status.code().is_some_and(|c| c < 2), "{run:?}");
    let written =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("written");
    let record: serde_json::Value = serde_json::from_str(written.trim()).expect("a record");
    let pair: serde_json::Value = serde_json::from_str(test).expect("json");
    let pairs = folder.write(
        "pairs.jsonl",
        &serde_json::json!({
            "generated_sql": pair["generated_sql"],
            "expected_sql": pair["expected_sql"],
            "generated_result": pair["actual_results"],
            "expected_result": pair["expected_results"],
        })
        .to_string(),
    );
    let score = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-equivalence", "--pairs"])
        .arg(&pairs)
        .output()
        .expect("qeval runs");
    let card: serde_json::Value = serde_json::from_slice(&score.stdout).expect("one scorecard");
    (
        card["profile"]["passed"].as_bool(),
        record["qas_evaluation"]["passed"]
            .as_bool()
            .expect("passed"),
        record,
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

#[test]
fn a_missing_answer_type_gives_one_verdict_in_score_and_run() {
    let (score, run, record, _) = verdicts_of_both_commands(
        r#"{"test_id": 1, "generated_sql": "SELECT n FROM t", "expected_sql": "SELECT n FROM t", "actual_results": [{"n": 1}], "expected_results": [{"n": 1}]}"#,
    );
    assert_eq!(score, Some(run), "{record}");
    assert!(run, "semantic and execution perfect: 0.8 passes 0.7");
    assert_eq!(record["qas_evaluation"]["final_score"], 0.8);
}

#[test]
fn an_unsafe_query_fails_and_is_marked_in_the_record_summary_and_report() {
    let (score, run, record, stderr) = verdicts_of_both_commands(
        r#"{"test_id": 7, "generated_sql": "DELETE FROM t RETURNING n", "expected_sql": "SELECT n FROM t", "actual_results": [{"n": 1}], "expected_results": [{"n": 1}]}"#,
    );
    assert_eq!((score, run), (Some(false), false), "{record}");
    assert_eq!(record["qas_evaluation"]["unsafe"], true);

    let folder = Folder::new("unsafe-summary");
    folder.write("evaluation-results.jsonl", &format!("{record}\n"));
    let page = folder.0.join("report.html");
    let output = qeval(
        &["report", "-o", page.to_str().expect("utf-8 path")],
        &folder.0,
    );
    assert!(output.status.success(), "{output:?}");
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains(r#"data-testid="unsafe">1<"#),
        "the summary counts it"
    );
    assert!(stderr.contains("; 1 UNSAFE"), "{stderr}");
}

#[test]
fn breakdowns_limit_and_ci_exports() {
    let folder = Folder::new("exports");
    folder.write(
        "evaluation-results.jsonl",
        &example_file("evaluation-results.jsonl"),
    );
    let (csv, junit, markdown) = (
        folder.0.join("run.csv"),
        folder.0.join("junit.xml"),
        folder.0.join("summary.md"),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .args(["--by", "tokens", "--limit", "10", "--csv"])
        .arg(&csv)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&markdown)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // The first ten tests of the example: all easy, 9 of them pass; test 9 fails.
    assert!(
        stderr.contains("qeval: 10 tests, 9 passed, 1 failed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("qeval: passed by difficulty: easy 9/10 (90.0%)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("qeval: passed by SQL hardness: easy 8/9 (88.9%), hard 1/1 (100.0%)"),
        "{stderr}"
    );
    // Numbers in numeric order, not as text.
    assert!(
        stderr.contains("qeval: passed by tokens: 453 1/1 (100.0%), 542 1/1"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(csv).expect("csv");
    assert_eq!(csv.lines().count(), 11, "a header and ten rows");
    assert!(csv.starts_with("test_id,passed,final_score,"));
    let junit = std::fs::read_to_string(junit).expect("junit");
    assert_eq!(junit.matches("<testcase ").count(), 10);
    assert_eq!(junit.matches("<failure ").count(), 1);
    assert!(junit.contains(r#"name="9">"#), "{junit}");
    let markdown = std::fs::read_to_string(markdown).expect("markdown");
    assert!(
        markdown.contains("**Pass rate 90.0%**: 9 of 10 scored tests passed, 1 failed."),
        "{markdown}"
    );
    assert!(markdown.contains("Failing tests (1)"));
}

#[test]
fn an_export_to_standard_output_is_the_only_thing_there() {
    let folder = Folder::new("stdout-export");
    folder.write(
        "evaluation-results.jsonl",
        &example_file("evaluation-results.jsonl"),
    );
    let output = qeval(&["run", "--junit", "-"], &folder.0);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("<?xml"), "{stdout}");
    assert_eq!(stdout.matches("<testcase ").count(), 34);
    assert_eq!(stdout.matches("<failure ").count(), 9);
}

#[test]
fn judges_are_measured_against_the_human_labels_of_the_example() {
    let folder = Folder::new("labels");
    folder.write(
        "evaluation-results.jsonl",
        &example_file("evaluation-results.jsonl"),
    );
    let output = qeval(&["run"], &folder.0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // By hand, from the 14 labelled tests: the profile's verdict and the person agree on 5
    // correct (1, 5, 6, 30, 33) and 3 incorrect (14, 21, 29); the verdict passes 5 the person
    // calls incorrect (2, 3, 8, 23, 26) and fails 1 the person calls correct (9). Observed
    // 8/14; chance (10/14)(6/14) + (4/14)(8/14) = 92/196; kappa (8/14 - 92/196) / (1 - 92/196)
    // = 20/104 = 0.19.
    assert!(
        stderr.contains("passed: 14 labelled, agreement 57.1%, kappa 0.19 (slight), 6 disagree: 2, 3, 8, 9, 23, 26"),
        "{stderr}"
    );
    assert!(stderr.contains("semantic_score: 14 labelled"), "{stderr}");
    // Stated confidence against the verdict: high 21/22, medium 4/8, low 0/4 of 34. ECE =
    // 22/34·|21/22 − 0.9| + 8/34·|0.5 − 0.7| + 4/34·|0 − 0.5| = 0.141; high and low are 0.95
    // apart, so discrimination is 1 and the score is (1 − 0.141)·1 = 0.86.
    assert!(
        stderr.contains("confidence calibration: 0.86 (Confidence levels accurately predict correctness); correct by confidence: high 21/22, medium 4/8, low 0/4"),
        "{stderr}"
    );
}

#[test]
fn a_labels_file_beside_the_run_is_read_and_a_bad_line_named() {
    let folder = Folder::new("labels-file");
    folder.write(
        "evaluation-results.jsonl",
        &format!("{PASS_FAIL}{}\n", r#"{"test_id": 3, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}"#),
    );
    folder.write(
        "human-labels.jsonl",
        "{\"test_id\": 1, \"human_label\": \"correct\"}\n{\"test_id\": 2, \"human_label\": \"unsure\"}\n{\"test_id\": 3, \"human_label\": \"incorrect\"}\n{\"test_id\": 9, \"human_label\": true}\n",
    );
    let output = qeval(&["run"], &folder.0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "a rejected line: {stderr}");
    assert!(
        stderr.contains("human-labels.jsonl:2: human_label \"unsure\" is not a verdict"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 of 3 labels in ") && stderr.contains(" match a test"),
        "{stderr}"
    );
    // The verdict passes both labelled tests; the person passes one: agreement 1/2, and chance
    // (1)(1/2) + (0)(1/2) = 1/2 gives the same, so kappa is 0.
    assert!(
        stderr.contains("passed: 2 labelled, agreement 50.0%, kappa 0.00 (slight), 1 disagrees: 3"),
        "{stderr}"
    );
}

#[test]
fn the_report_reads_the_labels_beside_the_run() {
    let folder = Folder::new("report-labels");
    folder.write("evaluation-results.jsonl", PASS_FAIL);
    folder.write(
        "human-labels.jsonl",
        "{\"test_id\": 1, \"human_label\": false}\n{\"test_id\": 2, \"human_label\": false}\n",
    );
    let page = folder.0.join("report.html");
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("report")
        .arg(&folder.0)
        .arg("-o")
        .arg(&page)
        .output()
        .expect("qeval runs");
    assert!(output.status.success());
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains("<td>passed</td><td>2</td><td>50.0%</td>"),
        "the verdict agrees on test 2 only"
    );
}

#[test]
fn a_run_is_checked_against_a_schema_of_names() {
    let folder = Folder::new("schema-names");
    folder.write(
        "test-results.jsonl",
        "{\"test_id\": 1, \"generated_sql\": \"SELECT SUM(totl) FROM orders\", \"expected_sql\": \"SELECT SUM(total) FROM orders\"}\n{\"test_id\": 2, \"generated_sql\": \"SELECT SUM(total) FROM orders\", \"expected_sql\": \"SELECT SUM(total) FROM orders\"}\n",
    );
    let names = folder.write("names.json", r#"{"orders": ["id", "total"]}"#);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .arg("run")
        .arg(&folder.0)
        .arg("--schema")
        .arg(&names)
        .output()
        .expect("qeval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "schema validity: 1 of 2 generated queries name tables or columns the schema lacks"
        ),
        "{stderr}"
    );
    let records =
        std::fs::read_to_string(folder.0.join("evaluation-results.jsonl")).expect("records");
    assert!(
        records.contains(r#""schema_validity":{"score":0.0,"explanation":"Not in the schema: unknown column `totl` (line 1, column 12)"}"#),
        "{records}"
    );
}

#[test]
fn a_folder_whose_files_have_other_names_is_read_by_the_same_rules_as_the_page() {
    // A lone dated results file and a labels file of another name are found, as the page finds
    // them when the folder is dropped.
    let folder = Folder::new("names");
    folder.write("Evaluation-Results-2026-11-20.jsonl", PASS_FAIL);
    folder.write(
        "my_labels.jsonl",
        "{\"test_id\": 1, \"human_label\": true}\n",
    );
    let output = qeval(&["run"], &folder.0);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("2 tests, 1 passed, 1 failed"), "{said}");
    assert!(
        said.contains("1 of 1 label in") && said.contains("my_labels.jsonl"),
        "{said}"
    );

    // Two candidates and neither has the usual name: named, not guessed.
    folder.write("evaluation-results-old.jsonl", PASS_FAIL);
    let output = qeval(&["run"], &folder.0);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        said.contains("2 files could be the evaluation-results*.jsonl: Evaluation-Results-2026-11-20.jsonl, evaluation-results-old.jsonl"),
        "{said}"
    );
}
