//! qeval's `bag`, `set` and `soft-f1` modes against the verdicts of the evaluators they
//! reproduce (Spider test-suite, BIRD EX, BIRD mini-dev Soft-F1), case by case. The cases and
//! their provenance: `tests/crosscheck/README.md`.

use std::path::PathBuf;

use qeval_core::{CompareOptions, Comparison, Mode, compare_results, read_result};
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

fn run(case: &Value, mode: Mode) -> Comparison {
    let expected =
        read_result(&case["expected"]).unwrap_or_else(|err| panic!("{}: {err}", case["id"]));
    let generated =
        read_result(&case["generated"]).unwrap_or_else(|err| panic!("{}: {err}", case["id"]));
    let options = CompareOptions {
        mode,
        order_matters: case["order_matters"].as_bool().unwrap_or(false),
        ..CompareOptions::default()
    };
    compare_results(&expected, &generated, &options)
}

/// Runs every case of `file` in `mode`; `disagreement` says how a case's outcome differs from
/// the evaluator's, if it does.
fn check(file: &str, mode: Mode, disagreement: impl Fn(&Value, &Comparison) -> Option<String>) {
    let cases = cases(file);
    let disagreements: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            disagreement(case, &run(case, mode)).map(|how| format!("{}: {how}", case["id"]))
        })
        .collect();
    assert!(cases.len() > 600, "{file}: {} cases", cases.len());
    assert!(
        disagreements.is_empty(),
        "{} of {} cases disagree:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
}

fn check_verdicts(file: &str, mode: Mode) {
    check(file, mode, |case, comparison| {
        (Some(comparison.equal) != case["verdict"].as_bool()).then(|| {
            format!(
                "evaluator {}, qeval {} ({})",
                case["verdict"], comparison.equal, comparison.explanation
            )
        })
    });
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
    check("soft_f1.jsonl", Mode::SoftF1, |case, comparison| {
        let want = case["score"].as_f64().unwrap_or(f64::NAN);
        (comparison.score != want).then(|| format!("evaluator {want}, qeval {}", comparison.score))
    });
}
