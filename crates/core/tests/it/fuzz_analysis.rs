//! Feeds generated and mutated queries to parse, table extraction, normalization and the whole
//! scorecard (SQL in every dialect, and KQL), random JSON results to reading and every comparison
//! mode, and mutated input files (pairs lines, run records, questions) to the readers the CLI,
//! qeval-wasm and the page share, and checks that nothing panics and a few properties hold.
//!
//! Runs for `QEVAL_FUZZ_SECONDS` (default 2) so the normal test run stays quick;
//! `cargo xtask fuzz --seconds 300` runs it for five minutes in release mode.

use qeval_core::{
    CompareOptions, Language, Mode, PairInput, ParseLimits, ScoreOptions, SplitMix64 as Rng,
    SqlDialect, compare_results, extract_tables, normalize_sql, parse_sql, read_result, score_pair,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

const FRAGMENTS: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "JOIN",
    "LEFT",
    "ON",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "LIMIT",
    "UNION",
    "ALL",
    "WITH",
    "RECURSIVE",
    "AS",
    "IN",
    "EXISTS",
    "NOT",
    "AND",
    "OR",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "OVER",
    "PARTITION BY",
    "DISTINCT",
    "*",
    ",",
    "(",
    ")",
    ";",
    ".",
    "=",
    "<>",
    "::",
    "'",
    "\"",
    "`",
    "[",
    "]",
    "--",
    "/*",
    "*/",
    "$$",
    "1",
    "1.5e3",
    "NULL",
    "t",
    "u",
    "users",
    "x.y",
    "\"Mixed Case\"",
    "'str''ing'",
    "?",
    ":name",
    "@v",
    "\n",
    " ",
    "\t",
    "é",
    "𝕊",
    "INSERT INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE",
    "DROP TABLE",
    "LATERAL",
    "TOP 5",
    "QUALIFY",
];

fn corpus() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corpus.jsonl");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|value| value["sql"].as_str().map(str::to_string))
        .collect()
}

/// One input: token soup, a mutated corpus query, a splice of two, deep nesting, or raw bytes.
fn generate(rng: &mut Rng, corpus: &[String]) -> String {
    match rng.below(6) {
        0 => (0..rng.below(40))
            .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
            .collect::<Vec<_>>()
            .join(" "),
        1 | 2 if !corpus.is_empty() => {
            let mut bytes = corpus[rng.below(corpus.len())].clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(3) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => {
                        let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())].as_bytes();
                        bytes.splice(at..at, fragment.iter().copied());
                    }
                    _ if at < bytes.len() => bytes[at] = rng.next_u64() as u8,
                    _ => {}
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        3 if !corpus.is_empty() => {
            let a = &corpus[rng.below(corpus.len())];
            let b = &corpus[rng.below(corpus.len())];
            let (i, j) = (rng.below(a.len()), rng.below(b.len()));
            let (i, j) = (floor_char(a, i), floor_char(b, j));
            format!("{}{}", &a[..i], &b[j..])
        }
        4 => {
            let depth = rng.below(300);
            let open = ["(", "(SELECT ", "CASE WHEN ", "NOT ", "-"][rng.below(5)];
            format!(
                "SELECT {}1{}",
                open.repeat(depth),
                ")".repeat(rng.below(depth + 1))
            )
        }
        _ => {
            let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn check(sql: &str, dialect: SqlDialect) {
    let normalized = normalize_sql(sql, dialect);
    assert_eq!(
        normalized,
        normalize_sql(sql, dialect),
        "normalization is deterministic"
    );
    if let Ok(statements) = parse_sql(sql, dialect, ParseLimits::default()) {
        let tables = extract_tables(&statements);
        assert!(
            tables.iter().all(|t| !t.name().is_empty()),
            "no empty table names"
        );
    }
    let pair = PairInput {
        generated_sql: sql.to_string(),
        expected_sql: Some(sql.to_string()),
        dialect: Some(dialect),
        ..PairInput::default()
    };
    let card = score_pair(&pair, &ScoreOptions::default());
    assert!(card.identical, "a query is identical to itself");
    for metric in card.metrics.values() {
        if let Some(score) = metric.score {
            assert!((0.0..=1.0).contains(&score), "score {score} out of range");
        }
    }
}

/// A random JSON value shaped like results: tables, rows, scalars, nesting, mixed types.
fn random_json(rng: &mut Rng, depth: usize) -> Value {
    let scalars = [
        Value::Null,
        Value::from(true),
        Value::from(1),
        Value::from(1.0),
        Value::from(-0.0),
        Value::from(1e16),
        Value::from("1"),
        Value::from("a"),
        Value::from(""),
    ];
    match rng.below(if depth > 2 { 1 } else { 5 }) {
        0 => scalars[rng.below(scalars.len())].clone(),
        1 | 2 => Value::Array(
            (0..rng.below(5))
                .map(|_| random_json(rng, depth + 1))
                .collect(),
        ),
        3 => {
            let keys = [
                "a", "A", "b", "columns", "rows", "data", "tables", "name", "index", "schema",
            ];
            Value::Object(
                (0..rng.below(4))
                    .map(|_| {
                        (
                            keys[rng.below(keys.len())].to_string(),
                            random_json(rng, depth + 1),
                        )
                    })
                    .collect(),
            )
        }
        _ => {
            let width = 1 + rng.below(3);
            Value::Array(
                (0..rng.below(6))
                    .map(|_| {
                        Value::Array(
                            (0..width)
                                .map(|_| scalars[rng.below(scalars.len())].clone())
                                .collect(),
                        )
                    })
                    .collect(),
            )
        }
    }
}

fn check_results(rng: &mut Rng) {
    let (a, b) = (random_json(rng, 0), random_json(rng, 0));
    if let (Ok(expected), Ok(generated)) = (read_result(&a), read_result(&b)) {
        for mode in Mode::ALL {
            for order_matters in [false, true] {
                let comparison = compare_results(
                    &expected,
                    &generated,
                    &CompareOptions {
                        mode,
                        order_matters,
                        ..CompareOptions::default()
                    },
                );
                assert!(
                    (0.0..=1.0).contains(&comparison.score),
                    "{mode}: {} on {a} vs {b}",
                    comparison.score
                );
            }
        }
    }
    let pair = PairInput {
        generated_sql: "SELECT 1".into(),
        expected_result: Some(a),
        generated_result: Some(b),
        ..PairInput::default()
    };
    let _ = score_pair(&pair, &ScoreOptions::default());
}

/// One line of each input file users have, valid to start with, then damaged byte by byte.
const FILE_LINES: &[&str] = &[
    r#"{"id": 1, "generated_sql": "SELECT a FROM t", "expected_sql": "SELECT a FROM t WHERE b > 1", "generated_result": [{"a": 1}], "expected_result": {"columns": ["a"], "rows": [[1]]}, "expected_answer_type": "table", "dialect": "postgres", "mode": "bag"}"#,
    r#"{"test_id": "q7", "question": "How many?", "generated_sql": "SELECT COUNT(*) FROM t", "actual_results": [[3]], "error": null, "agent_used": "sql", "difficulty": "easy"}"#,
    r#"{"test_id": 2, "expected_sql": "Traces | take 5", "generated_sql": "Traces | limit 5", "language": "kql", "qas_evaluation": {"semantic_score": 1, "execution_score": 0.5, "datatype_score": 1, "final_score": 0.8, "passed": true}}"#,
    r#"{"id": 3, "answer": "Ada", "question": "Who?", "agents_called": ["a"], "agents_should_include": ["a"], "tools_used": [], "expected_tables": ["users", "orders"]}"#,
];

fn damaged_file(rng: &mut Rng) -> Vec<u8> {
    let mut text = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let mut line = FILE_LINES[rng.below(FILE_LINES.len())].as_bytes().to_vec();
        for _ in 0..rng.below(4) {
            if line.is_empty() {
                break;
            }
            let at = rng.below(line.len());
            match rng.below(3) {
                0 => {
                    line.remove(at);
                }
                1 => line[at] = rng.next_u64() as u8,
                _ => line.truncate(at),
            }
        }
        text.extend(line);
        text.push(b'\n');
    }
    text
}

fn check_files(rng: &mut Rng) {
    use qeval_core::{EvaluationRecord, TestLine, read_questions, read_record_bytes};
    let bytes = damaged_file(rng);
    let lines = bytes.split(|b| *b == b'\n').count();
    let results = read_record_bytes::<TestLine>(&bytes);
    assert!(
        results.records.len() + results.rejected.len() <= lines,
        "no line read twice"
    );
    let _ = read_record_bytes::<EvaluationRecord>(&bytes);
    let text = String::from_utf8_lossy(&bytes);
    let _ = read_questions(&text);
    for line in text.lines() {
        if let Ok(pair) = qeval_core::parse_pair_line(line) {
            let card = score_pair(&pair, &ScoreOptions::default());
            assert!(
                card.metrics
                    .values()
                    .all(|m| m.score.is_none_or(|s| (0.0..=1.0).contains(&s)))
            );
        }
    }
}

fn check_kql(text: &str) {
    let pair = PairInput {
        generated_sql: text.to_string(),
        expected_sql: Some(text.to_string()),
        language: Some(Language::Kql),
        ..PairInput::default()
    };
    let card = score_pair(&pair, &ScoreOptions::default());
    assert!(card.identical, "a KQL query is identical to itself");
}

#[test]
fn analysis_never_panics() {
    let seconds: u64 = std::env::var("QEVAL_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let seed = std::env::var("QEVAL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0f0f_2026);
    let corpus = corpus();
    let mut rng = Rng::new(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut inputs = 0u64;
    while Instant::now() < deadline {
        for _ in 0..64 {
            let sql = generate(&mut rng, &corpus);
            let dialect = SqlDialect::ALL[rng.below(SqlDialect::ALL.len())];
            if catch_unwind(AssertUnwindSafe(|| check(&sql, dialect))).is_err() {
                panic!("input #{inputs} in {dialect} broke the analysis (seed {seed}):\n{sql:?}");
            }
            let kql = sql.replace(" FROM ", " | where ").replace("SELECT", "T |");
            if catch_unwind(AssertUnwindSafe(|| check_kql(&kql))).is_err() {
                panic!("input #{inputs} broke the KQL analysis (seed {seed}):\n{kql:?}");
            }
            // Each check draws from its own generator, started from a number said on failure.
            let start = rng.next_u64();
            if catch_unwind(AssertUnwindSafe(|| check_files(&mut Rng::new(start)))).is_err() {
                panic!("input #{inputs} broke an input file reader (seed {seed}, start {start})");
            }
            let start = rng.next_u64();
            if catch_unwind(AssertUnwindSafe(|| check_results(&mut Rng::new(start)))).is_err() {
                panic!(
                    "input #{inputs} broke result reading or comparison (seed {seed}, start {start})"
                );
            }
            inputs += 1;
        }
    }
    println!("fuzz: {inputs} inputs in {seconds} s (seed {seed}), no failure");
}
