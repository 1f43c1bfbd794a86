//! Every comparison mode on equal tables with shuffled rows: 1k to 1M rows, 2, 5 and 8 columns.
//! Prints a table (median of several runs) and, with `QEVAL_BENCH_OUT=FILE`, writes it as JSON.
//! `QEVAL_BENCH_MAX_ROWS` caps the sizes (for a quick run).

use std::hint::black_box;
use std::time::Instant;

use qeval_core::results::compare::{CompareOptions, Mode, compare};
use qeval_core::results::sample::{bench_max_rows, shuffled_pair};

fn main() {
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let max_rows = bench_max_rows(1_000_000);
    let mut figures = Vec::new();
    println!(
        "{:<9} {:>9} {:>5} {:>12}",
        "mode", "rows", "cols", "median ms"
    );
    for rows in [1_000usize, 10_000, 100_000, 1_000_000]
        .into_iter()
        .filter(|r| *r <= max_rows)
    {
        for columns in [2usize, 5, 8] {
            let (expected, generated) = shuffled_pair(rows, columns, 7);
            for mode in Mode::ALL {
                let options = CompareOptions {
                    mode,
                    ..CompareOptions::default()
                };
                let runs = if rows >= 1_000_000 {
                    3
                } else if rows >= 100_000 {
                    5
                } else {
                    15
                };
                let mut times: Vec<f64> = (0..runs)
                    .map(|_| {
                        let started = Instant::now();
                        let comparison =
                            compare(black_box(&expected), black_box(&generated), &options);
                        let took = started.elapsed().as_secs_f64() * 1e3;
                        assert!(
                            comparison.score > 0.0 || mode == Mode::SoftF1 || mode == Mode::Set,
                            "{mode} scored 0 on equal tables"
                        );
                        took
                    })
                    .collect();
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                println!(
                    "{:<9} {:>9} {:>5} {:>12.2}",
                    mode.name(),
                    rows,
                    columns,
                    median
                );
                figures.push(serde_json::json!({"mode": mode.name(), "rows": rows, "columns": columns, "median_ms": median}));
            }
        }
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
