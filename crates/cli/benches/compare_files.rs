//! Whole-process `qeval compare` on two JSON files, every mode, for the cases evaluation meets:
//! equal (rows shuffled), a near miss (one cell changed), one row fewer and one column fewer, at
//! 100k and 1M rows of 8 columns. The files are generated from a fixed seed into `target/bench`.
//! Prints a table (median wall time of 3 runs, in seconds) and, with `QEVAL_BENCH_OUT=FILE`,
//! writes it as JSON. `QEVAL_BENCH_MAX_ROWS` caps the sizes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use qeval_core::results::sample::{MIXED_COLUMNS, bench_max_rows, mixed_row_json, xorshift};

const MODES: [&str; 6] = ["bag", "set", "subset", "soft-f1", "f1", "seed"];
const CASES: [&str; 4] = ["equal", "near-miss", "row-fewer", "column-fewer"];

fn write_table(path: &Path, rows: &[Vec<String>], width: usize) {
    let names = MIXED_COLUMNS;
    let mut text = String::with_capacity(rows.len() * 90);
    text.push_str("{\"columns\":[");
    let header: Vec<String> = names[..width].iter().map(|n| format!("\"{n}\"")).collect();
    text.push_str(&header.join(","));
    text.push_str("],\"rows\":[");
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        let _ = write!(text, "[{}]", row[..width].join(","));
    }
    text.push_str("]}");
    std::fs::write(path, text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
}

/// The expected file and one generated file per case.
fn files(dir: &Path, rows: usize) -> (PathBuf, Vec<(&'static str, PathBuf)>) {
    let mut state = 0x5eed_0001 ^ rows as u64;
    let table: Vec<Vec<String>> = (0..rows).map(|i| mixed_row_json(i, &mut state)).collect();
    let expected = dir.join(format!("expected-{rows}.json"));
    write_table(&expected, &table, 8);
    // The generated rows in another order (a fixed shuffle).
    let mut shuffled = table.clone();
    for i in (1..shuffled.len()).rev() {
        let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
        shuffled.swap(i, j);
    }
    let mut out = Vec::new();
    for case in CASES {
        let path = dir.join(format!("{case}-{rows}.json"));
        match case {
            "equal" => write_table(&path, &shuffled, 8),
            "near-miss" => {
                let mut near = shuffled.clone();
                near[rows / 2][2] = "-1.5".into();
                write_table(&path, &near, 8);
            }
            "row-fewer" => write_table(&path, &shuffled[..rows - 1], 8),
            _ => write_table(&path, &shuffled, 7),
        }
        out.push((case, path));
    }
    (expected, out)
}

fn main() {
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let max_rows = bench_max_rows(1_000_000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench/compare-files");
    std::fs::create_dir_all(&dir).expect("bench dir");
    let qeval = env!("CARGO_BIN_EXE_qeval");
    let mut figures = Vec::new();
    println!(
        "{:<8} {:>9} {:>8} {:>8} {:>10} {:>10} {:>12}",
        "mode", "rows", "file MB", "equal", "near-miss", "row-fewer", "column-fewer"
    );
    for rows in [100_000usize, 1_000_000]
        .into_iter()
        .filter(|r| *r <= max_rows)
    {
        let (expected, cases) = files(&dir, rows);
        let megabytes = std::fs::metadata(&expected).map_or(0.0, |m| m.len() as f64 / 1e6);
        for mode in MODES {
            let mut line = format!("{mode:<8} {rows:>9} {megabytes:>8.1}");
            for (case, generated) in &cases {
                let mut times: Vec<f64> = (0..3)
                    .map(|_| {
                        let started = Instant::now();
                        let status = Command::new(qeval)
                            .args(["compare", "--mode", mode])
                            .arg(&expected)
                            .arg(generated)
                            .stdout(std::process::Stdio::null())
                            .status()
                            .expect("qeval runs");
                        assert!(status.code().is_some_and(|c| c < 2), "{mode} {case}");
                        started.elapsed().as_secs_f64()
                    })
                    .collect();
                times.sort_by(f64::total_cmp);
                let median = times[1];
                let width = if *case == "column-fewer" { 12 } else { 10 };
                let _ = write!(line, " {median:>width$.2}");
                figures.push(serde_json::json!({"mode": mode, "rows": rows, "case": case, "megabytes": megabytes, "median_s": median}));
            }
            println!("{line}");
        }
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
