//! Every comparison mode in memory. Two tables:
//! - equal tables with shuffled rows: 1k to 1M rows, 2, 5 and 8 columns;
//! - every case of `sample::Case` (equal, a near miss, a row or a column fewer, and columns
//!   alike enough to defeat a column-order search) at 100k and 1M rows x 8 columns, so a wrong
//!   answer's cost stands next to a right one's.
//!
//! Prints both tables (median of several runs) and, with `QEVAL_BENCH_OUT=FILE`, writes them as
//! JSON. `QEVAL_BENCH_MAX_ROWS` caps the sizes (for a quick run).

use std::hint::black_box;
use std::time::Instant;

use qeval_core::{
    Case, CompareOptions, Mode, ResultSet, bench_max_rows, case_pair, compare_results,
    shuffled_pair,
};

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
                let median = median_ms(&expected, &generated, mode, Case::Equal);
                println!(
                    "{:<9} {:>9} {:>5} {:>12.2}",
                    mode.name(),
                    rows,
                    columns,
                    median
                );
                figures.push(serde_json::json!({"mode": mode.name(), "rows": rows, "columns": columns, "case": "equal", "median_ms": median}));
            }
        }
    }

    println!();
    print!("{:<9} {:>9}", "mode", "rows");
    for case in Case::ALL {
        print!(" {:>16}", case.name());
    }
    println!("   (median ms, 8 columns)");
    for rows in [100_000usize, 1_000_000]
        .into_iter()
        .filter(|r| *r <= max_rows)
    {
        let pairs: Vec<(Case, (ResultSet, ResultSet))> = Case::ALL
            .into_iter()
            .map(|case| (case, case_pair(case, rows, 8, 7)))
            .collect();
        for mode in Mode::ALL {
            print!("{:<9} {:>9}", mode.name(), rows);
            for (case, (expected, generated)) in &pairs {
                let median = median_ms(expected, generated, mode, *case);
                print!(" {median:>16.2}");
                figures.push(serde_json::json!({"mode": mode.name(), "rows": rows, "columns": 8, "case": case.name(), "median_ms": median}));
            }
            println!();
        }
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}

/// The median time of comparing the pair in `mode`, checking on each run that `bag` gives the
/// case's verdict and that other modes give equal tables a score.
fn median_ms(expected: &ResultSet, generated: &ResultSet, mode: Mode, case: Case) -> f64 {
    let options = CompareOptions {
        mode,
        ..CompareOptions::default()
    };
    let rows = expected.rows.len();
    let runs = if rows >= 1_000_000 {
        5
    } else if rows >= 100_000 {
        9
    } else {
        15
    };
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let comparison = compare_results(black_box(expected), black_box(generated), &options);
            let took = started.elapsed().as_secs_f64() * 1e3;
            if mode == Mode::Bag {
                assert_eq!(comparison.equal, case.is_equal(), "bag on {case:?}");
            } else if case == Case::Equal {
                assert!(
                    comparison.score > 0.0 || mode == Mode::SoftF1 || mode == Mode::Set,
                    "{mode} scored 0 on equal tables"
                );
            }
            took
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
