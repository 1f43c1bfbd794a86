//! Run folders: raw results scored into records, records checked against their own data, unknown
//! fields kept.

use qeval_core::{
    EvaluationRecord, Profile, ProfileName, ScoreOptions, TestLine, evaluate_test, pair_of_test,
    read_records, recheck_record, score_pair,
};
use serde_json::{Value, json};

fn scored(test: Value, question: Option<Value>) -> EvaluationRecord {
    let test: TestLine = serde_json::from_value(test).expect("a test result");
    let question: Option<TestLine> =
        question.map(|q| serde_json::from_value(q).expect("a question"));
    let pair = pair_of_test(&test, question.as_ref());
    let profile = Profile::preset(ProfileName::Qas);
    let options = ScoreOptions {
        profile: profile.clone(),
        ..ScoreOptions::default()
    };
    let card = score_pair(&pair, &options);
    evaluate_test(&test, question.as_ref(), &pair, &card, &profile)
}

#[test]
fn a_raw_result_becomes_an_evaluation_record() {
    let record = scored(
        json!({"test_id": 1, "agent": "sql", "generated_sql": "SELECT COUNT(*) FROM users", "results": [{"count": 42}], "latency_ms": 812}),
        Some(
            json!({"id": 1, "question": "How many users?", "expected_sql": "select count(*) from users", "expected_results": 42, "expected_answer_type": "number", "difficulty": "easy"}),
        ),
    );
    let text = serde_json::to_string(&record).expect("serializes");
    assert!(
        text.starts_with(r#"{"test_id":1,"question":"How many users?","agent_used":"sql","difficulty":"easy","sql_hardness":"easy","expected_sql":"select count(*) from users","generated_sql":"SELECT COUNT(*) FROM users","expected_results":42,"actual_results":[{"count":42}],"qas_evaluation":{"semantic_score":1.0,"execution_score":1.0,"datatype_score":1.0,"final_score":1.0,"passed":true,"breakdown":{"semantic_explanation":"#),
        "{text}"
    );
    assert!(
        text.contains(r#""execution_explanation":"Numeric match: 42 ≈ 42""#),
        "{text}"
    );
    assert!(
        text.contains(r#""latency_ms":812"#),
        "unknown fields are kept: {text}"
    );
    assert!(
        recheck_record(&record).is_empty(),
        "{:?}",
        recheck_record(&record)
    );
}

#[test]
fn missing_components_are_zero_with_a_reason_and_the_final_score_follows() {
    let record = scored(
        json!({"test_id": "t2", "generated_sql": "SELECT name FROM users", "expected_sql": "SELECT name FROM users WHERE active"}),
        None,
    );
    let qas = record.qas_evaluation.expect("scored");
    assert_eq!(qas.execution_score, 0.0);
    assert!(
        qas.breakdown
            .execution_explanation
            .starts_with("Not scored")
    );
    let formula = 0.4 * qas.semantic_score + 0.4 * qas.execution_score + 0.2 * qas.datatype_score;
    assert!((qas.final_score - formula).abs() < 1e-4);
    assert!(!qas.passed);
}

#[test]
fn an_agent_error_fails_execution_and_is_kept() {
    let record = scored(
        json!({"test_id": 3, "generated_sql": "SELECT x FROM t", "error": "no such column: x"}),
        Some(
            json!({"id": 3, "expected_sql": "SELECT y FROM t", "expected_results": [[1]], "expected_answer_type": "table"}),
        ),
    );
    assert_eq!(record.error().as_deref(), Some("no such column: x"));
    let qas = record.qas_evaluation.as_ref().expect("scored");
    assert_eq!(qas.execution_score, 0.0);
    assert!(!qas.passed);
    assert!(
        recheck_record(&record).is_empty(),
        "{:?}",
        recheck_record(&record)
    );
}

#[test]
fn a_final_score_that_disagrees_with_its_components_is_flagged() {
    // A hand-written record: 0.4 × 0.95 + 0.4 × 1.0 + 0.2 × 1.0 is 0.98, not the 0.97 it stores.
    let text = r#"{"test_id": 1, "question": "...", "agent_used": "sql", "difficulty": "easy", "expected_sql": "...", "generated_sql": "...", "expected_results": 42, "actual_results": 42, "qas_evaluation": {"semantic_score": 0.95, "execution_score": 1.0, "datatype_score": 1.0, "final_score": 0.97, "passed": true, "breakdown": {"semantic_explanation": "Semantically identical SQL", "execution_explanation": "Numeric match: 42 ≈ 42", "datatype_explanation": "Valid numeric value"}}}"#;
    let lines = read_records::<EvaluationRecord>(text);
    let flags = recheck_record(&lines.records[0].1);
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert_eq!(flags[0].field, "final_score");
    assert_eq!(flags[0].recomputed, json!(0.98));
}

#[test]
fn a_stored_execution_score_the_data_contradicts_is_flagged() {
    let text = r#"{"test_id": 9, "expected_results": 100, "actual_results": 90, "qas_evaluation": {"semantic_score": 1, "execution_score": 1.0, "datatype_score": 1, "final_score": 1.0, "passed": true}}"#;
    let lines = read_records::<EvaluationRecord>(text);
    let flags = recheck_record(&lines.records[0].1);
    assert_eq!(flags[0].field, "execution_score");
    assert_eq!(flags[0].recomputed, json!(0.9));
}
