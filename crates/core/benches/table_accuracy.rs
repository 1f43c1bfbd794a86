//! Table accuracy on the generated corpus (`tests/fixtures/corpus.jsonl`, 1,200 varied queries).
//!
//! Two parts: criterion measures the whole corpus (stable, comparable over time), then each query
//! is timed on its own to give the per-query p50 and p99. Set `QEVAL_BENCH_OUT=FILE` to also
//! write the percentiles as JSON (`cargo xtask bench` does).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::Criterion;
use qeval_core::{
    PairInput, ScoreOptions, SqlDialect, TableName, score_pair, table_accuracy_of_sql,
};

struct AccuracyCase {
    sql: String,
    tables: Vec<TableName>,
    options: ScoreOptions,
}

fn corpus() -> Vec<AccuracyCase> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corpus.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    text.lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
            let dialect: SqlDialect = value["dialect"]
                .as_str()
                .unwrap_or("generic")
                .parse()
                .expect("dialect");
            AccuracyCase {
                sql: value["sql"].as_str().unwrap_or_default().to_string(),
                tables: value["tables"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| TableName::parse_listed(t.as_str()?).ok())
                    .collect(),
                options: ScoreOptions {
                    dialect,
                    ..ScoreOptions::default()
                },
            }
        })
        .collect()
}

fn one(case: &AccuracyCase) -> f64 {
    table_accuracy_of_sql(&case.sql, &case.tables, &case.options)
        .map(|accuracy| accuracy.score)
        .unwrap_or(-1.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// Per-query time in microseconds: the fastest of five batches of 40 runs. Noise on a shared
/// machine only ever adds time, so the fastest batch is the closest to the query's own cost.
fn per_query_micros(cases: &[AccuracyCase]) -> Vec<f64> {
    cases
        .iter()
        .map(|case| {
            black_box(one(case));
            let batches: Vec<f64> = (0..5)
                .map(|_| {
                    const RUNS: u32 = 40;
                    let started = Instant::now();
                    for _ in 0..RUNS {
                        black_box(one(black_box(case)));
                    }
                    started.elapsed().as_secs_f64() * 1e6 / f64::from(RUNS)
                })
                .collect();
            batches.into_iter().fold(f64::INFINITY, f64::min)
        })
        .collect()
}

fn main() {
    let cases = corpus();
    assert!(
        cases.len() >= 1000,
        "the corpus has {} queries",
        cases.len()
    );
    let failures = cases.iter().filter(|case| one(case) != 1.0).count();
    assert_eq!(
        failures, 0,
        "every corpus query should score 1.0 against its own tables"
    );

    let mut criterion = Criterion::default().configure_from_args();
    criterion.bench_function("table_accuracy/corpus of 1200", |b| {
        b.iter(|| cases.iter().map(one).sum::<f64>())
    });
    criterion.bench_function("score_pair/corpus of 1200", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|case| {
                    let pair = PairInput {
                        generated_sql: case.sql.clone(),
                        expected_sql: Some(case.sql.clone()),
                        ..PairInput::default()
                    };
                    score_pair(&pair, &case.options).identical as usize
                })
                .sum::<usize>()
        })
    });
    criterion.final_summary();

    // `cargo test --benches` runs benches as tests: skip the slow part there.
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let mut micros = per_query_micros(&cases);
    micros.sort_by(f64::total_cmp);
    let (p50, p99, max) = (
        percentile(&micros, 50.0),
        percentile(&micros, 99.0),
        micros[micros.len() - 1],
    );
    println!(
        "table accuracy per query, native, {} queries: p50 {p50:.1} µs, p99 {p99:.1} µs, max {max:.1} µs",
        micros.len()
    );
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        let json = serde_json::json!({
            "queries": micros.len(), "p50_us": p50, "p99_us": p99, "max_us": max,
        });
        std::fs::write(&out, json.to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
