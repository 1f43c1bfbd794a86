//! Snapshot of the scorecards for `fixtures/scorecards.jsonl`: the query correctness, table
//! accuracy and parse-error scenarios, and a few more.
//! The JSON is a public interface; a change here is a change users see (`docs/scorecard.md`).

use qeval_core::{ScoreOptions, parse_pair_line, score_pair};

#[test]
fn scorecards_of_the_fixture_pairs() {
    let text = include_str!("../fixtures/scorecards.jsonl");
    let options = ScoreOptions {
        evaluated_at: Some("2026-01-01T00:00:00Z".to_string()),
        ..ScoreOptions::default()
    };
    let cards: Vec<_> = text
        .lines()
        .map(|line| {
            score_pair(
                &parse_pair_line(line).expect("fixture lines are valid"),
                &options,
            )
        })
        .collect();
    insta::assert_json_snapshot!(cards);
}
