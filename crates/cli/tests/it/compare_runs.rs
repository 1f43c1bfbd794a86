//! `qeval compare-runs`: two scored runs of the same tests, as a user reads the comparison.

use std::path::Path;
use std::process::Command;

fn record(id: usize, passed: bool) -> String {
    let score = if passed { 0.9 } else { 0.2 };
    format!(
        r#"{{"test_id": {id}, "qas_evaluation": {{"semantic_score": {score}, "execution_score": {score}, "datatype_score": 1, "final_score": {score}, "passed": {passed}}}}}"#
    )
}

fn write(path: &Path, records: &[String]) {
    std::fs::write(path, records.join("\n") + "\n").expect("write records");
}

#[test]
fn the_comparison_gives_both_pass_rates_the_interval_the_p_value_and_the_flips() {
    let dir = std::env::temp_dir().join(format!("qeval-compare-runs-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("before")).expect("folder");
    // 40 tests: 20 pass in both, 12 fail then pass, 2 pass then fail, 6 fail in both; test 99
    // is only in the first run and test 100 only in the second.
    let state = |id: usize| match id {
        0..20 => (true, true),
        20..32 => (false, true),
        32..34 => (true, false),
        _ => (false, false),
    };
    let mut before: Vec<String> = (0..40).map(|id| record(id, state(id).0)).collect();
    let mut after: Vec<String> = (0..40).map(|id| record(id, state(id).1)).collect();
    before.push(record(99, true));
    after.push(record(100, true));
    write(
        &dir.join("before").join("evaluation-results.jsonl"),
        &before,
    );
    write(&dir.join("after.jsonl"), &after);
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["compare-runs"])
        .arg(dir.join("before"))
        .arg(dir.join("after.jsonl"))
        .output()
        .expect("qeval runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("40 tests scored in both runs"), "{text}");
    // 22/40 -> 32/40; McNemar on 2 vs 12 flips: 2 * (1 + 14 + 91) / 2^14 = 0.0129.
    assert!(
        text.contains("Pass rate 55.0% → 80.0%: +25.0 points (95% interval +"),
        "{text}"
    );
    assert!(
        text.contains("McNemar exact p = 0.013): more than chance."),
        "{text}"
    );
    assert!(text.contains("flipped to pass (12): 20, 21,"), "{text}");
    assert!(text.contains("flipped to fail (2): 32, 33\n"), "{text}");
    assert!(text.contains("only in the first run (1): 99\n"), "{text}");
    assert!(text.contains("only in the second run (1): 100\n"), "{text}");

    let json = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["compare-runs", "--json"])
        .arg(dir.join("before"))
        .arg(dir.join("after.jsonl"))
        .output()
        .expect("qeval runs");
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let stats = &value["stats"];
    assert_eq!(stats["tests"], 40);
    assert_eq!(
        (
            stats["flipped_to_pass"].as_u64(),
            stats["flipped_to_fail"].as_u64()
        ),
        (Some(12), Some(2))
    );
    let interval = stats["interval"].as_array().expect("interval");
    let (low, high) = (
        interval[0].as_f64().expect("low"),
        interval[1].as_f64().expect("high"),
    );
    assert!(
        low > 0.0 && low < 0.25 && high > 0.25 && high < 0.5,
        "{interval:?}"
    );

    // The static report of the second run says the same, compared with the first.
    let page = dir.join("report.html");
    let report = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["report"])
        .arg(dir.join("after.jsonl"))
        .arg("--compare")
        .arg(dir.join("before"))
        .arg("-o")
        .arg(&page)
        .output()
        .expect("qeval runs");
    assert!(report.status.success(), "{report:?}");
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.contains("<h2>Compared with before</h2>"), "{html}");
    assert!(html.contains("Pass rate 55.0% → 80.0%: +25.0 points"));
    assert!(html.contains("<strong>Newly failing (2):</strong> 32, 33"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_run_is_named() {
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["compare-runs", "/nonexistent/run-a", "/nonexistent/run-b"])
        .output()
        .expect("qeval runs");
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("/nonexistent/run-a"),
        "{output:?}"
    );
}
