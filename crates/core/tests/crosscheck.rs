//! qeval's `bag`, `set` and `soft-f1` modes against the verdicts of the evaluators they
//! reproduce (Spider test-suite, BIRD EX, BIRD mini-dev Soft-F1), case by case. The cases and
//! their provenance: `tests/crosscheck/README.md`.

use std::path::PathBuf;

use qeval_core::results::compare::{CompareOptions, Mode, compare};
use qeval_core::results::read_result;
use serde_json::Value;

fn cases(file: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/crosscheck")
        .join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    text.lines()
        .map(|line| serde_json::from_str(line).expect("JSON case"))
        .collect()
}

fn run(case: &Value, mode: Mode) -> qeval_core::results::compare::Comparison {
    let expected =
        read_result(&case["expected"]).unwrap_or_else(|err| panic!("{}: {err}", case["id"]));
    let generated =
        read_result(&case["generated"]).unwrap_or_else(|err| panic!("{}: {err}", case["id"]));
    let options = CompareOptions {
        mode,
        order_matters: case["order_matters"].as_bool().unwrap_or(false),
        ..CompareOptions::default()
    };
    compare(&expected, &generated, &options)
}

fn check_verdicts(file: &str, mode: Mode) {
    let cases = cases(file);
    let mut disagreements = Vec::new();
    for case in &cases {
        let comparison = run(case, mode);
        if Some(comparison.equal) != case["verdict"].as_bool() {
            disagreements.push(format!(
                "{}: evaluator {}, qeval {} ({})",
                case["id"], case["verdict"], comparison.equal, comparison.explanation
            ));
        }
    }
    assert!(cases.len() > 600, "{file}: {} cases", cases.len());
    assert!(
        disagreements.is_empty(),
        "{} of {} cases disagree:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
}

#[test]
fn bag_agrees_with_spider_result_eq() {
    check_verdicts("bag.jsonl", Mode::Bag);
}

#[test]
fn set_agrees_with_bird_ex() {
    check_verdicts("set.jsonl", Mode::Set);
}

#[test]
fn soft_f1_agrees_with_bird_mini_dev() {
    let cases = cases("soft_f1.jsonl");
    let mut disagreements = Vec::new();
    for case in &cases {
        let comparison = run(case, Mode::SoftF1);
        let want = case["score"].as_f64().expect("score");
        if comparison.score != want {
            disagreements.push(format!(
                "{}: evaluator {want}, qeval {}",
                case["id"], comparison.score
            ));
        }
    }
    assert!(cases.len() > 600);
    assert!(
        disagreements.is_empty(),
        "{} of {} cases disagree:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
}
