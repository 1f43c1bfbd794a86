//! Long operator chains: the parser admits `1 + 1 + ... + 1` at any length, and every walk over
//! the tree recurses down it. Past the operator limit a query is a parse error for that pair; at
//! the limit it is scored in full.

use qeval_core::{MAX_OPERATORS, PairInput, ScoreOptions, score_pair};

fn chain(terms: usize, operator: &str) -> String {
    format!("SELECT {} FROM t", vec!["a"; terms].join(operator))
}

fn score(generated: String) -> qeval_core::Scorecard {
    let pair = PairInput {
        generated_sql: generated,
        expected_sql: Some("SELECT a FROM t".into()),
        ..PairInput::default()
    };
    // The stack of a main thread (a test thread has 2 MB).
    std::thread::Builder::new()
        .stack_size(8 * 1024 * 1024)
        .spawn(move || score_pair(&pair, &ScoreOptions::default()))
        .expect("a thread")
        .join()
        .expect("no crash")
}

#[test]
fn a_chain_past_the_limit_is_a_parse_error_for_that_pair() {
    for operator in [" + ", " || ", " AND ", " = "] {
        let card = score(chain(20_000, operator));
        let error = card.generated.parse_error.expect("refused");
        assert!(
            error.message.contains("operators; the limit is"),
            "{}",
            error.message
        );
        assert_eq!(card.metrics["table_accuracy"].score, Some(0.0));
    }
}

#[test]
fn a_chain_at_the_limit_is_scored() {
    let card = score(chain(MAX_OPERATORS + 1, " + "));
    assert!(card.generated.parse_error.is_none());
    assert_eq!(card.metrics["table_accuracy"].score, Some(1.0));
    assert!(card.metrics["query_correctness"].score.is_some());
}
