//! The equivalence check's speed: a typical Spider-size pair (a join, grouping, a threshold, an
//! order and a limit) with 40 generated databases, equivalent and near miss, and every pair of
//! the labelled sets, each also without the boundary search, so its cost shows on its own (its
//! worst case: the most it added to one pair). Prints a table; `QEVAL_BENCH_OUT` also gets the
//! figures as JSON.

use std::time::Instant;

use qeval_core::SqlDialect;
use qeval_sqlite::{EquivalenceOptions, SchemaChoice, check_equivalence};
use serde_json::json;

/// A typical pair: the rewrite is equivalent (an alias, `COUNT(*)` written as `COUNT(1)`,
/// `> 1` as `>= 2`, operands swapped, the order by position).
pub const EQUIVALENT: (&str, &str) = (
    "SELECT T1.name, COUNT(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE T1.age > 20 GROUP BY T1.singer_id, T1.name HAVING COUNT(*) > 1 ORDER BY COUNT(*) DESC, T1.name LIMIT 3",
    "SELECT s.name, COUNT(1) FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id WHERE 20 < s.age GROUP BY s.singer_id, s.name HAVING COUNT(1) >= 2 ORDER BY 2 DESC, 1 LIMIT 3",
);

/// The same with a near miss in the threshold.
pub const NEAR_MISS: (&str, &str) = (
    EQUIVALENT.0,
    "SELECT s.name, COUNT(1) FROM singer s JOIN singer_in_concert sc ON sc.singer_id = s.singer_id WHERE 20 < s.age GROUP BY s.singer_id, s.name HAVING COUNT(1) >= 1 ORDER BY 2 DESC, 1 LIMIT 3",
);

fn time_ms(expected: &str, generated: &str, dialect: SqlDialect, runs: usize) -> (f64, String) {
    time_with(
        expected,
        generated,
        dialect,
        runs,
        EquivalenceOptions::default().search,
    )
}

fn time_with(
    expected: &str,
    generated: &str,
    dialect: SqlDialect,
    runs: usize,
    search: usize,
) -> (f64, String) {
    let options = EquivalenceOptions {
        dialect,
        search,
        ..EquivalenceOptions::default()
    };
    let mut times = Vec::with_capacity(runs);
    let mut verdict = String::new();
    for _ in 0..runs {
        let started = Instant::now();
        let report = check_equivalence(expected, generated, SchemaChoice::Infer, &options);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        verdict = format!("{:?}", report.verdict);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], verdict)
}

fn main() {
    let runs = 21;
    let (equivalent, equivalent_verdict) =
        time_ms(EQUIVALENT.0, EQUIVALENT.1, SqlDialect::Generic, runs);
    let (near_miss, near_miss_verdict) =
        time_ms(NEAR_MISS.0, NEAR_MISS.1, SqlDialect::Generic, runs);
    let mut all = Vec::new();
    let mut added_by_search: Vec<f64> = Vec::new();
    for set in ["pairs.jsonl", "heldout.jsonl", "classes.jsonl"] {
        let path = format!(
            "{}/../../tests/equivalence/{set}",
            env!("CARGO_MANIFEST_DIR")
        );
        for line in std::fs::read_to_string(path).unwrap_or_default().lines() {
            let Ok(pair) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let dialect = pair["dialect"]
                .as_str()
                .and_then(|d| d.parse().ok())
                .unwrap_or_default();
            let (expected, generated) = (
                pair["expected_sql"].as_str().unwrap_or_default(),
                pair["generated_sql"].as_str().unwrap_or_default(),
            );
            let (ms, _) = time_ms(expected, generated, dialect, 3);
            let (without, _) = time_with(expected, generated, dialect, 3, 0);
            all.push(ms);
            added_by_search.push(ms - without);
        }
    }
    let search_worst = added_by_search.iter().copied().fold(0.0, f64::max);
    all.sort_by(f64::total_cmp);
    let at = |q: f64| {
        all.get(((all.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!("| equivalence check, K = 40, native (release) | median |");
    println!("|---|---|");
    println!(
        "| typical Spider-size pair, equivalent ({equivalent_verdict}) | {equivalent:.1} ms |"
    );
    println!("| typical Spider-size pair, near miss ({near_miss_verdict}) | {near_miss:.1} ms |");
    println!(
        "| the {} labelled pairs: p50 / p90 / max | {:.1} / {:.1} / {:.1} ms |",
        all.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
    println!("| the most the boundary search added to one pair | {search_worst:.1} ms |");
    if let Ok(path) = std::env::var("QEVAL_BENCH_OUT") {
        let figures = json!({
            "equivalent_ms": equivalent,
            "near_miss_ms": near_miss,
            "labelled_pairs": all.len(),
            "labelled_p50_ms": at(0.5),
            "labelled_p90_ms": at(0.9),
            "labelled_max_ms": at(1.0),
            "search_worst_ms": search_worst,
        });
        let _ = std::fs::write(path, figures.to_string());
    }
}
