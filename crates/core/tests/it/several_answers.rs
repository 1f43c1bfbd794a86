//! A test with several acceptable answers scores as its best match, and says which it matched.

use qeval_core::{PairInput, ScoreOptions, judge_tasks, parse_pair_line, score_pair};
use serde_json::json;

fn pair(line: serde_json::Value) -> PairInput {
    parse_pair_line(&line.to_string()).expect("a valid pair")
}

#[test]
fn the_best_of_several_expected_queries_is_the_score() {
    let generated = "SELECT name FROM singer ORDER BY age DESC LIMIT 1";
    let one = pair(
        json!({"generated_sql": generated, "expected_sql": "SELECT name FROM singer WHERE age = (SELECT MAX(age) FROM singer)"}),
    );
    let several = pair(json!({"generated_sql": generated, "expected_sql": [
        "SELECT name FROM singer WHERE age = (SELECT MAX(age) FROM singer)",
        "SELECT name FROM singer ORDER BY age DESC LIMIT 1"
    ]}));
    let options = ScoreOptions::default();
    let alone = score_pair(&one, &options);
    let best = score_pair(&several, &options);
    assert!(alone.expected_match.is_none());
    let matched = best.expected_match.as_ref().expect("says which matched");
    assert_eq!((matched.index, matched.of), (1, 2));
    assert_eq!(matched.totals.len(), 2);
    assert!(best.identical, "identical to the second answer");
    assert!(
        best.profile.as_ref().unwrap().total > alone.profile.as_ref().unwrap().total,
        "the second answer scores higher than the first alone"
    );
}

#[test]
fn alternatives_may_be_results_and_the_first_wins_a_tie() {
    let line = json!({
        "generated_sql": "SELECT 1",
        "generated_result": [[3]],
        "expected_result": [[2]],
        "expected_alternatives": [{"expected_result": [[3]]}, {"expected_results": [[3]]}],
        "mode": "bag"
    });
    let card = score_pair(&pair(line), &ScoreOptions::default());
    let matched = card.expected_match.expect("matched");
    assert_eq!(matched.index, 1, "the first of the equal alternatives");
    assert_eq!(card.metrics["results_match"].score, Some(1.0));
}

#[test]
fn malformed_alternatives_name_their_place() {
    let error =
        |line: serde_json::Value| parse_pair_line(&line.to_string()).unwrap_err().to_string();
    assert_eq!(
        error(json!({"generated_sql": "SELECT 1", "expected_sql": ["SELECT 1", 5]})),
        "field `expected_sql[1]`: expected a string, found a number"
    );
    assert_eq!(
        error(
            json!({"generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "expected_alternatives": [{}]})
        ),
        "field `expected_alternatives[0]`: gives neither expected_sql nor expected_result"
    );
}

#[test]
fn each_answer_is_asked_of_the_llm_judge_under_its_own_name() {
    let several = pair(
        json!({"generated_sql": "SELECT a FROM t", "expected_sql": ["SELECT b FROM t", "SELECT c FROM t"]}),
    );
    let metrics: Vec<String> = judge_tasks(&several, &ScoreOptions::default())
        .into_iter()
        .map(|task| task.metric)
        .collect();
    assert_eq!(metrics, ["semantic_similarity", "semantic_similarity@1"]);
}
