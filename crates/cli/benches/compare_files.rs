//! Whole-process `qeval compare` on two JSON files, every mode, for the cases evaluation meets:
//! equal (rows shuffled), a near miss (one cell changed), one row fewer and one column fewer, at
//! 100k and 1M rows of 8 columns, in two layouts: `{"columns": [...], "rows": [[...]]}` and an
//! array of records (`[{"id": 1, ...}]`, what pandas and most drivers write; the larger file).
//! The files are generated from a fixed seed into `target/bench`. Prints a table (median wall
//! time of 5 runs, in seconds, and on Linux the largest peak resident size of the runs of the
//! row, against the two files' size) and, with `QEVAL_BENCH_OUT=FILE`, writes it as JSON.
//! `QEVAL_BENCH_MAX_ROWS` caps the sizes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use qeval_core::{MIXED_COLUMNS, bench_max_rows, mixed_row_json, xorshift};

const MODES: [&str; 6] = ["bag", "set", "subset", "soft-f1", "f1", "seed"];
const CASES: [&str; 4] = ["equal", "near-miss", "row-fewer", "column-fewer"];

#[derive(Clone, Copy, PartialEq)]
enum ResultLayout {
    Rows,
    Records,
}

impl ResultLayout {
    fn name(self) -> &'static str {
        match self {
            ResultLayout::Rows => "rows",
            ResultLayout::Records => "records",
        }
    }
}

fn write_table(path: &Path, rows: &[Vec<String>], width: usize, layout: ResultLayout) {
    let names = &MIXED_COLUMNS[..width];
    let mut text = String::with_capacity(rows.len() * 110);
    if layout == ResultLayout::Rows {
        text.push_str("{\"columns\":[");
        let header: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        text.push_str(&header.join(","));
        text.push_str("],\"rows\":");
    }
    text.push('[');
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        match layout {
            ResultLayout::Rows => {
                let _ = write!(text, "[{}]", row[..width].join(","));
            }
            ResultLayout::Records => {
                let fields: Vec<String> = names
                    .iter()
                    .zip(row)
                    .map(|(name, cell)| format!("\"{name}\":{cell}"))
                    .collect();
                let _ = write!(text, "{{{}}}", fields.join(","));
            }
        }
    }
    text.push(']');
    if layout == ResultLayout::Rows {
        text.push('}');
    }
    std::fs::write(path, text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
}

/// One run of `qeval compare`.
struct Timing {
    seconds: f64,
    /// Peak resident size in bytes, where the system says (read from `/proc` while it runs:
    /// the peak only grows).
    peak: Option<u64>,
    equal: bool,
}

/// Runs `qeval compare` to its end.
fn timed_run(qeval: &str, mode: &str, expected: &Path, generated: &Path) -> Timing {
    let started = Instant::now();
    let mut child = Command::new(qeval)
        .args(["compare", "--mode", mode])
        .arg(expected)
        .arg(generated)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("qeval runs");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = None;
    let status = loop {
        if let Some(status) = child.try_wait().expect("qeval waits") {
            break status;
        }
        if let Some(kilobytes) = std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|status| peak_kilobytes(&status))
        {
            peak = Some(kilobytes * 1024);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    assert!(status.code().is_some_and(|c| c < 2), "{mode} {generated:?}");
    Timing {
        seconds: started.elapsed().as_secs_f64(),
        peak,
        equal: status.success(),
    }
}

/// BIRD's own comparison, `set(predicted) == set(ground_truth)`, run by Python on the same
/// files (`peers/bird_ex.py`): its verdict, and the time of the comparison alone, in memory,
/// and of `json.load` before it (the run with the median comparison time of 3). `None` without
/// a `python3`.
fn bird_ex(expected: &Path, generated: &Path) -> Option<(bool, f64, f64)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/bird_ex.py");
    let mut runs = Vec::new();
    for _ in 0..3 {
        let output = Command::new("python3")
            .arg(&script)
            .arg(expected)
            .arg(generated)
            .output()
            .ok()
            .filter(|output| output.status.success())?;
        let line: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
        runs.push((
            line["equal"].as_bool()?,
            line["compare_s"].as_f64()?,
            line["load_s"].as_f64()?,
        ));
    }
    runs.sort_by(|a, b| a.1.total_cmp(&b.1));
    Some(runs[1])
}

fn peak_kilobytes(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The expected file and one generated file per case.
fn files(dir: &Path, rows: usize, layout: ResultLayout) -> (PathBuf, Vec<(&'static str, PathBuf)>) {
    let layout_name = layout.name();
    let mut state = 0x5eed_0001 ^ rows as u64;
    let table: Vec<Vec<String>> = (0..rows).map(|i| mixed_row_json(i, &mut state)).collect();
    let expected = dir.join(format!("expected-{layout_name}-{rows}.json"));
    write_table(&expected, &table, 8, layout);
    // The generated rows in another order (a fixed shuffle).
    let mut shuffled = table.clone();
    for i in (1..shuffled.len()).rev() {
        let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
        shuffled.swap(i, j);
    }
    let mut out = Vec::new();
    for case in CASES {
        let path = dir.join(format!("{case}-{layout_name}-{rows}.json"));
        match case {
            "equal" => write_table(&path, &shuffled, 8, layout),
            "near-miss" => {
                let mut near = shuffled.clone();
                near[rows / 2][2] = "-1.5".into();
                write_table(&path, &near, 8, layout);
            }
            "row-fewer" => write_table(&path, &shuffled[..rows - 1], 8, layout),
            _ => write_table(&path, &shuffled, 7, layout),
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
        "{:<8} {:<8} {:>9} {:>8} {:>8} {:>10} {:>10} {:>12} {:>9}",
        "mode",
        "layout",
        "rows",
        "file MB",
        "equal",
        "near-miss",
        "row-fewer",
        "column-fewer",
        "peak/files"
    );
    let mut set_runs = Vec::new();
    let sizes = [100_000usize, 1_000_000]
        .into_iter()
        .filter(|r| *r <= max_rows);
    for rows in sizes {
        for layout in [ResultLayout::Rows, ResultLayout::Records] {
            let (expected, cases) = files(&dir, rows, layout);
            let megabytes = std::fs::metadata(&expected).map_or(0.0, |m| m.len() as f64 / 1e6);
            for mode in MODES {
                let layout_name = layout.name();
                let mut line = format!("{mode:<8} {layout_name:<8} {rows:>9} {megabytes:>8.1}");
                let mut row_peak: Option<u64> = None;
                for (case, generated) in &cases {
                    let mut runs: Vec<Timing> = (0..5)
                        .map(|_| timed_run(qeval, mode, &expected, generated))
                        .collect();
                    runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
                    let median = runs[2].seconds;
                    let peak = runs.iter().filter_map(|run| run.peak).max();
                    if mode == "set" {
                        set_runs.push((
                            layout_name,
                            rows,
                            *case,
                            expected.clone(),
                            generated.clone(),
                            median,
                            runs[2].equal,
                        ));
                    }
                    row_peak = row_peak.max(peak);
                    let width = if *case == "column-fewer" { 12 } else { 10 };
                    let _ = write!(line, " {median:>width$.2}");
                    let files_bytes = std::fs::metadata(generated).map_or(0, |m| m.len())
                        + std::fs::metadata(&expected).map_or(0, |m| m.len());
                    figures.push(serde_json::json!({
                        "mode": mode, "layout": layout_name, "rows": rows, "case": case,
                        "megabytes": megabytes, "median_s": median,
                        "peak_bytes": peak, "files_bytes": files_bytes,
                    }));
                }
                let both_files = 2.0 * megabytes * 1e6;
                match row_peak {
                    Some(peak) => {
                        let _ = write!(line, " {:>9.2}", peak as f64 / both_files);
                    }
                    None => line.push_str("         -"),
                }
                println!("{line}");
            }
        }
    }
    println!();
    println!(
        "BIRD's set(predicted) == set(ground_truth) in memory (and Python's json.load before it) against qeval's whole process"
    );
    println!(
        "{:<8} {:>9} {:<13} {:>9} {:>11} {:>9} {:>10}",
        "layout", "rows", "case", "BIRD s", "BIRD load s", "qeval s", "BIRD/qeval"
    );
    for (layout, rows, case, expected, generated, ours, our_verdict) in set_runs {
        let Some((verdict, bird, load)) = bird_ex(&expected, &generated) else {
            println!("(no python3: BIRD's comparison not run)");
            break;
        };
        assert_eq!(
            verdict, our_verdict,
            "BIRD and qeval disagree on {generated:?}"
        );
        println!(
            "{layout:<8} {rows:>9} {case:<13} {bird:>9.2} {load:>11.2} {ours:>9.2} {:>9.1}x",
            bird / ours
        );
        figures.push(serde_json::json!({
            "peer": "bird_set", "layout": layout, "rows": rows, "case": case,
            "peer_s": bird, "peer_load_s": load, "qeval_s": ours,
        }));
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
