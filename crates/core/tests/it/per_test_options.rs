//! A pair's (or a test's) own comparison options override the command line's: mode,
//! ignore_order, tolerance and condition_cols (Spider 2.0's columns that matter).

use qeval_core::{
    EvaluationRecord, PairInput, ScoreOptions, TestLine, evaluate_test, pair_of_test,
    parse_pair_line, score_pair,
};
use serde_json::{Value, json};

fn results_match(line: Value) -> (Option<f64>, String) {
    let pair: PairInput = parse_pair_line(&line.to_string()).expect("a valid pair");
    let card = score_pair(&pair, &ScoreOptions::default());
    let metric = &card.metrics["results_match"];
    let text = match &metric.error {
        Some(error) => error.message.clone(),
        None => metric.explanation.clone(),
    };
    (metric.score, text)
}

const EXPECTED: &str =
    r#"{"columns": ["id", "name", "note"], "rows": [[1, "a", "x"], [2, "b", "y"]]}"#;

#[test]
fn condition_cols_compare_only_the_columns_that_matter_matched_by_value() {
    let expected: Value = serde_json::from_str(EXPECTED).unwrap();
    // The generated result has the two columns that matter, reordered and renamed, plus one more;
    // it lacks `note`.
    let generated =
        json!([{"label": "b", "k": 2, "extra": true}, {"label": "a", "k": 1, "extra": false}]);
    let pair = |cols: Value| json!({"generated_sql": "SELECT 1", "expected_result": expected, "generated_result": generated, "condition_cols": cols});
    assert_eq!(results_match(pair(json!([0, 1]))).0, Some(1.0));
    // Every column counts without condition_cols: `note` is nowhere in the generated result.
    let mut all = pair(Value::Null);
    all["mode"] = json!("subset");
    assert_eq!(results_match(all).0, Some(0.0));
    let (score, message) = results_match(pair(json!([0, 3])));
    assert_eq!(score, Some(0.0), "a failed metric is 0.0 with its error");
    assert_eq!(
        message,
        "condition_cols names column 3, but the expected result has 3 columns (positions start at 0)"
    );
}

#[test]
fn ignore_order_and_tolerance_override_the_defaults() {
    let expected = json!([[1.0], [2.0]]);
    let reversed = json!([[2.0], [1.0]]);
    let pair = |extra: Value| {
        let mut line = json!({"generated_sql": "SELECT x FROM t ORDER BY x DESC", "expected_sql": "SELECT x FROM t ORDER BY x", "expected_result": expected, "generated_result": reversed, "mode": "bag"});
        line.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        line
    };
    // The expected query orders its rows, so by Spider's rule order counts...
    assert_eq!(results_match(pair(json!({}))).0, Some(0.0));
    // ...unless the test says to ignore it.
    assert_eq!(
        results_match(pair(json!({"ignore_order": true}))).0,
        Some(1.0)
    );
    let near = |tolerance: Value| json!({"generated_sql": "SELECT 1", "expected_result": [[1.0]], "generated_result": [[1.3]], "mode": "subset", "tolerance": tolerance});
    assert_eq!(
        results_match(near(Value::Null)).0,
        Some(0.0),
        "0.01 by default"
    );
    assert_eq!(results_match(near(json!(0.5))).0, Some(1.0));
}

#[test]
fn a_malformed_option_names_its_field() {
    let line = |extra: &str| {
        format!(r#"{{"generated_sql": "SELECT 1", "expected_sql": "SELECT 1", {extra}}}"#)
    };
    let error = |extra: &str| parse_pair_line(&line(extra)).unwrap_err().to_string();
    assert_eq!(
        error(r#""tolerance": -1"#),
        "field `tolerance`: expected a number of zero or more, found -1"
    );
    assert_eq!(
        error(r#""condition_cols": [0, "a"]"#),
        "field `condition_cols[1]`: expected a column position (0, 1, ...), found \"a\""
    );
    assert_eq!(
        error(r#""ignore_order": "yes""#),
        "field `ignore_order`: expected true or false, found a string"
    );
}

#[test]
fn a_run_takes_options_from_its_questions_file_and_keeps_them_in_the_record() {
    let test: TestLine = serde_json::from_value(json!({"test_id": 1, "generated_sql": "SELECT label, k FROM t", "actual_results": [{"label": "a", "k": 1}], "ignore_order": true, "latency_ms": 5})).unwrap();
    let question: TestLine = serde_json::from_value(json!({"id": 1, "expected_sql": "SELECT id, name, note FROM t", "expected_results": serde_json::from_str::<Value>(EXPECTED).unwrap(), "condition_cols": [0, 1], "tolerance": 0.5})).unwrap();
    assert_eq!(
        test.extra.get("ignore_order"),
        None,
        "read as an option, not an unknown field"
    );
    let pair = pair_of_test(&test, Some(&question));
    assert_eq!(pair.condition_cols, Some(vec![0, 1]));
    assert_eq!(pair.ignore_order, Some(true));
    let options = ScoreOptions::default();
    let card = score_pair(&pair, &options);
    let record: EvaluationRecord =
        evaluate_test(&test, Some(&question), &pair, &card, &options.profile);
    let text = serde_json::to_string(&record).unwrap();
    assert!(
        text.ends_with(
            r#""latency_ms":5,"ignore_order":true,"tolerance":0.5,"condition_cols":[0,1]}"#
        ),
        "{text}"
    );
    // One of the two expected rows is found: subset compares whole columns, so it fails.
    assert_eq!(card.metrics["results_match"].score, Some(0.0));
}
