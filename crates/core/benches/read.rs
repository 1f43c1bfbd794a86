//! Reading JSON results: MB/s of `read_result_text` on generated tables of 8 columns (integers,
//! short text, decimals, booleans, NULLs) in the three common shapes, at 100k and 1M rows.
//! `records/stream` reads the records through `ResultStream` in blocks, as `qeval compare` reads
//! a file. Prints a table (median of several runs) and, with `QEVAL_BENCH_OUT=FILE`, writes it
//! as JSON. `QEVAL_BENCH_MAX_ROWS` caps the sizes (for a quick run).

use std::hint::black_box;
use std::time::Instant;

use qeval_core::{
    MIXED_COLUMNS, ResultSet, ResultStream, StreamOptions, bench_max_rows, mixed_row_json,
    read_result_text,
};

/// A generated table as JSON text in `shape`; the values follow a fixed seed.
fn table(rows: usize, shape: &str) -> String {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = String::with_capacity(rows * 90);
    let arrays = shape == "arrays";
    if shape == "columns-rows" {
        let names: Vec<String> = MIXED_COLUMNS.iter().map(|n| format!("\"{n}\"")).collect();
        out.push_str(&format!("{{\"columns\":[{}],\"rows\":", names.join(",")));
    }
    out.push('[');
    for i in 0..rows {
        if i > 0 {
            out.push(',');
        }
        let values = mixed_row_json(i, &mut state);
        if shape == "records" {
            let fields: Vec<String> = MIXED_COLUMNS
                .iter()
                .zip(values)
                .map(|(name, value)| format!("\"{name}\":{value}"))
                .collect();
            out.push_str(&format!("{{{}}}", fields.join(",")));
        } else {
            out.push_str(&format!("[{}]", values.join(",")));
        }
    }
    out.push(']');
    if !arrays && shape != "records" {
        out.push('}');
    }
    out
}

/// The text read as `qeval compare` reads a file: in blocks of 1 MiB through `ResultStream`.
fn read_in_blocks(text: &str) -> ResultSet {
    let mut stream = ResultStream::new(StreamOptions {
        total_bytes: Some(text.len() as u64),
        ..StreamOptions::default()
    });
    for block in text.as_bytes().chunks(1 << 20) {
        stream.push(block);
    }
    stream.finish().expect("a shape the stream reads")
}

fn main() {
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let max_rows = bench_max_rows(1_000_000);
    println!(
        "{:<16} {:>9} {:>8} {:>11} {:>8}",
        "shape", "rows", "MB", "median ms", "MB/s"
    );
    let mut figures = Vec::new();
    for rows in [100_000usize, 1_000_000]
        .into_iter()
        .filter(|r| *r <= max_rows)
    {
        for shape in ["arrays", "columns-rows", "records", "records/stream"] {
            let streamed = shape.ends_with("/stream");
            let text = table(rows, shape.trim_end_matches("/stream"));
            let megabytes = text.len() as f64 / 1e6;
            let runs = if rows >= 1_000_000 { 3 } else { 7 };
            let mut times: Vec<f64> = (0..runs)
                .map(|_| {
                    let started = Instant::now();
                    let table = if streamed {
                        read_in_blocks(black_box(&text))
                    } else {
                        read_result_text(black_box(&text)).expect("reads")
                    };
                    let took = started.elapsed().as_secs_f64();
                    assert_eq!(table.rows.len(), rows);
                    drop(black_box(table));
                    took
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            println!(
                "{:<16} {:>9} {:>8.1} {:>11.1} {:>8.0}",
                shape,
                rows,
                megabytes,
                median * 1e3,
                megabytes / median
            );
            figures.push(serde_json::json!({"shape": shape, "rows": rows, "megabytes": megabytes, "median_ms": median * 1e3, "mb_per_s": megabytes / median}));
        }
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
