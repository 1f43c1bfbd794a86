//! Unknown tables and columns against a schema, in SQL and KQL, with their positions.

use qeval_core::{PairInput, ScoreOptions, parse_pair_line, score_pair};
use serde_json::json;

fn card(line: serde_json::Value, options: &ScoreOptions) -> qeval_core::Scorecard {
    let pair: PairInput = parse_pair_line(&line.to_string()).expect("a valid pair");
    score_pair(&pair, options)
}

#[test]
fn a_misspelt_sql_column_is_found_at_its_place() {
    let options = ScoreOptions {
        schema: Some("CREATE TABLE orders (id INTEGER, customer_id INTEGER, total REAL)".into()),
        ..ScoreOptions::default()
    };
    let scored = card(
        json!({"generated_sql": "SELECT customer_id,\n  SUM(totl) FROM orders GROUP BY customer_id", "expected_sql": "SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id"}),
        &options,
    );
    let metric = &scored.metrics["schema_validity"];
    assert_eq!(metric.score, Some(0.0));
    assert_eq!(
        metric.explanation,
        "Not in the schema: unknown column `totl` (line 2, column 7)"
    );
    let diagnostic = scored
        .diagnostics
        .iter()
        .find(|d| d.message.contains("totl"))
        .expect("a diagnostic");
    assert_eq!((diagnostic.line, diagnostic.column), (Some(2), Some(7)));
    let right = card(
        json!({"generated_sql": "SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id", "expected_sql": "SELECT 1"}),
        &options,
    );
    assert_eq!(right.metrics["schema_validity"].score, Some(1.0));
}

#[test]
fn a_kql_query_is_checked_against_table_and_column_names() {
    let line = |query: &str| {
        json!({"language": "kql", "generated_sql": query, "expected_sql": "Traces | count",
               "schema": r#"{"Traces": ["timestamp", "message", "severityLevel"]}"#})
    };
    let options = ScoreOptions::default();
    let good = card(
        line(
            "Traces | where timestamp > ago(1h) and severityLevel >= 3 | summarize n = count() by bin(timestamp, 5m) | order by n desc",
        ),
        &options,
    );
    assert_eq!(
        good.metrics["schema_validity"].score,
        Some(1.0),
        "{}",
        good.metrics["schema_validity"].explanation
    );
    let bad = card(line("Trace | where timestmp > ago(1h)"), &options);
    assert_eq!(
        bad.metrics["schema_validity"].explanation,
        "Not in the schema: unknown table `Trace`"
    );
    let column = card(line("Traces | where timestmp > ago(1h)"), &options);
    assert_eq!(
        column.metrics["schema_validity"].explanation,
        "Not in the schema: unknown column `timestmp` (line 1, column 16)"
    );
}

#[test]
fn an_unreadable_schema_is_the_metrics_error_and_the_rest_is_scored() {
    let scored = card(
        json!({"generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "schema": "{\"orders\": 5}"}),
        &ScoreOptions::default(),
    );
    let metric = &scored.metrics["schema_validity"];
    assert_eq!(metric.score, Some(0.0));
    assert!(
        metric
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("schema table `orders`: expected a list of column names")
    );
    assert_eq!(scored.metrics["exact_match"].score, Some(1.0));
}
