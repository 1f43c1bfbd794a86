//! Feeds generated and mutated queries to parse, table extraction and normalization, in every
//! dialect, and checks that nothing panics and a few properties hold.
//!
//! Runs for `QEVAL_FUZZ_SECONDS` (default 2) so the normal test run stays quick;
//! `cargo xtask fuzz --seconds 300` runs it for five minutes in release mode.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use qeval_core::sql::{ParseLimits, SqlDialect, extract_tables, normalize, parse};
use qeval_core::{PairInput, ScoreOptions, score_pair};

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

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

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
                    _ if at < bytes.len() => bytes[at] = rng.next() as u8,
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
            let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
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
    let normalized = normalize(sql, dialect);
    assert_eq!(
        normalized,
        normalize(sql, dialect),
        "normalization is deterministic"
    );
    if let Ok(statements) = parse(sql, dialect, ParseLimits::default()) {
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
    let mut rng = Rng(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut inputs = 0u64;
    while Instant::now() < deadline {
        for _ in 0..64 {
            let sql = generate(&mut rng, &corpus);
            let dialect = SqlDialect::ALL[rng.below(SqlDialect::ALL.len())];
            if catch_unwind(AssertUnwindSafe(|| check(&sql, dialect))).is_err() {
                panic!("input #{inputs} in {dialect} broke the analysis (seed {seed}):\n{sql:?}");
            }
            inputs += 1;
        }
    }
    println!("fuzz: {inputs} inputs in {seconds} s (seed {seed}), no failure");
}
