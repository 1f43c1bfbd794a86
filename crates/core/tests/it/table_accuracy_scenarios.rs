//! Table accuracy (Jaccard similarity of the tables read and expected, aliases resolved, case
//! ignored), the exact-match shortcut for identical queries, and a parse error that fails one
//! metric while the others still run, all scored through the public entry point.

use qeval_core::{PairInput, ScoreOptions, Scorecard, TableMatch, score_pair};
use serde_json::{Value, json};

fn score_against_tables(generated: &str, expected: &[&str]) -> Scorecard {
    let pair = PairInput {
        generated_sql: generated.to_string(),
        expected_tables: Some(expected.iter().map(|t| t.to_string()).collect()),
        ..PairInput::default()
    };
    score_pair(&pair, &ScoreOptions::default())
}

fn table_accuracy(card: &Scorecard) -> (f64, Value) {
    let metric = &card.metrics["table_accuracy"];
    (metric.score.expect("a score"), metric.details.clone())
}

#[test]
fn perfect_table_match() {
    let card = score_against_tables(
        "SELECT * FROM users JOIN orders ON users.id = orders.user_id;",
        &["users", "orders"],
    );
    let (score, details) = table_accuracy(&card);
    assert_eq!(score, 1.0);
    assert_eq!(details["generated"], json!(["users", "orders"]));
    assert_eq!(details["intersection"].as_array().map(Vec::len), Some(2));
    assert_eq!(details["union"].as_array().map(Vec::len), Some(2));
}

#[test]
fn partial_table_match() {
    let card = score_against_tables("SELECT * FROM users;", &["users", "orders"]);
    let (score, details) = table_accuracy(&card);
    assert_eq!(score, 0.5);
    assert_eq!(details["generated"], json!(["users"]));
    assert_eq!(details["intersection"], json!(["users"]));
    assert_eq!(details["union"], json!(["users", "orders"]));
    assert!(
        card.metrics["table_accuracy"]
            .explanation
            .contains("missing: orders")
    );
}

#[test]
fn table_aliases_are_normalized() {
    let card = score_against_tables("SELECT u.name FROM users AS u;", &["users"]);
    assert_eq!(table_accuracy(&card).0, 1.0);
    assert_eq!(table_accuracy(&card).1["generated"], json!(["users"]));
}

#[test]
fn comparison_is_case_insensitive() {
    let card = score_against_tables("SELECT * FROM USERS;", &["users"]);
    assert_eq!(table_accuracy(&card).0, 1.0);
    let card = score_against_tables("SELECT * FROM users;", &["Users"]);
    assert_eq!(table_accuracy(&card).0, 1.0);
}

#[test]
fn expected_tables_default_to_those_of_the_expected_query() {
    let pair = PairInput {
        generated_sql: "SELECT * FROM products".to_string(),
        expected_sql: Some("SELECT * FROM users".to_string()),
        ..PairInput::default()
    };
    let card = score_pair(&pair, &ScoreOptions::default());
    assert_eq!(table_accuracy(&card).0, 0.0);
    assert_eq!(table_accuracy(&card).1["expected_from"], "expected_sql");
    assert!(!card.identical);
}

#[test]
fn schema_is_ignored_unless_asked_for() {
    let pair = PairInput {
        generated_sql: "SELECT * FROM sales.orders".to_string(),
        expected_sql: Some("SELECT * FROM orders".to_string()),
        ..PairInput::default()
    };
    let by_name = score_pair(&pair, &ScoreOptions::default());
    assert_eq!(table_accuracy(&by_name).0, 1.0);
    let qualified = ScoreOptions {
        table_match: TableMatch::Qualified,
        ..ScoreOptions::default()
    };
    let by_full_name = score_pair(&pair, &qualified);
    assert_eq!(table_accuracy(&by_full_name).0, 0.0);
}

#[test]
fn identical_queries_take_the_exact_match_shortcut() {
    let pair = PairInput {
        generated_sql: "SELECT * FROM users WHERE id = 1;".to_string(),
        expected_sql: Some("SELECT * FROM users WHERE id = 1;".to_string()),
        ..PairInput::default()
    };
    let card = score_pair(&pair, &ScoreOptions::default());
    assert!(card.identical);
    let exact = &card.metrics["exact_match"];
    assert_eq!(exact.score, Some(1.0));
    assert_eq!(exact.explanation, "Queries are identical");
}

#[test]
fn unparseable_generated_sql_is_zero_with_an_error_flag() {
    let pair = PairInput {
        generated_sql: "SELEC * FORM users".to_string(),
        expected_sql: Some("SELECT * FROM users".to_string()),
        ..PairInput::default()
    };
    let options = ScoreOptions {
        evaluated_at: Some("2026-11-21T00:00:00Z".to_string()),
        ..ScoreOptions::default()
    };
    let card = score_pair(&pair, &options);
    let metric = &card.metrics["table_accuracy"];
    assert_eq!(metric.score, Some(0.0));
    let error = metric.error.as_ref().expect("an error flag");
    assert_eq!(error.metric, "table_accuracy");
    assert_eq!(error.inputs["generated_sql"], "SELEC * FORM users");
    assert!(
        error.message.contains("could not be parsed"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("line 1, column 1"),
        "{}",
        error.message
    );
    assert_eq!(error.at.as_deref(), Some("2026-11-21T00:00:00Z"));
    // The other metric still ran.
    assert_eq!(card.metrics["exact_match"].score, Some(0.0));
    assert_eq!(card.diagnostics.len(), 1);
    assert_eq!(card.diagnostics[0].line, Some(1));
}

#[test]
fn a_bad_listed_table_name_fails_only_table_accuracy() {
    let pair = PairInput {
        generated_sql: "SELECT 1".to_string(),
        expected_sql: Some("SELECT 1".to_string()),
        expected_tables: Some(vec!["\"unclosed".to_string()]),
        ..PairInput::default()
    };
    let card = score_pair(&pair, &ScoreOptions::default());
    assert!(card.metrics["table_accuracy"].error.is_some());
    assert_eq!(card.metrics["exact_match"].score, Some(1.0));
}
