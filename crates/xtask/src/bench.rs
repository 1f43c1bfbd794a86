//! `cargo xtask bench`: the benchmarks, native and in wasm under Node, and a summary table.

use std::path::{Path, PathBuf};

use crate::steps::Steps;
use crate::{root, run, tools, wasm_pkg};

fn bench_dir() -> PathBuf {
    root().join("target").join("bench")
}

pub fn run(steps: &mut Steps) -> Result<(), String> {
    tools::setup(steps, tools::Needs::ALL)?;
    let out = bench_dir();
    std::fs::create_dir_all(&out)
        .map_err(|err| format!("cannot create {}: {err}", out.display()))?;
    let native = out.join("table_accuracy_native.json");
    let wasm = out.join("table_accuracy_wasm.json");
    let compare_native = out.join("compare_native.json");
    let compare_wasm = out.join("compare_wasm.json");
    let metrics_native = out.join("metrics_native.json");
    let equivalence = out.join("equivalence_native.json");
    let cache = out.join("judge_cache_native.json");

    // Each native bench writes its figures as JSON to its file (QEVAL_BENCH_OUT).
    for (name, package, bench, file) in [
        ("native bench", "qeval-core", "table_accuracy", &native),
        (
            "native compare bench",
            "qeval-core",
            "compare",
            &compare_native,
        ),
        (
            "result reading bench",
            "qeval-core",
            "read",
            &out.join("read_native.json"),
        ),
        (
            "whole-process compare bench",
            "qeval-cli",
            "compare_files",
            &out.join("compare_files_native.json"),
        ),
        (
            "native metrics bench",
            "qeval-core",
            "metrics",
            &metrics_native,
        ),
        (
            "equivalence bench",
            "qeval-sqlite",
            "equivalence",
            &equivalence,
        ),
        ("judge cache bench", "qeval-native", "cache", &cache),
    ] {
        steps.run(
            name,
            &format!("cargo bench -p {package} --bench {bench}"),
            || {
                run::cargo()
                    .args(["bench", "-p", package, "--bench", bench])
                    .env("QEVAL_BENCH_OUT", file)
                    .status_ok(&format!("cargo bench --bench {bench}"))
            },
        )?;
    }
    let pkg = wasm_pkg::node_dir(wasm_pkg::NodeBuild::Bench);
    steps.run(
        "wasm build",
        "qeval-wasm, wasm-node profile with its bench entry points, bound for Node",
        || wasm_pkg::build_for_node(wasm_pkg::NodeBuild::Bench, &pkg),
    )?;
    steps.run(
        "wasm bench",
        "crates/wasm/bench/table_accuracy.mjs under Node",
        || {
            run::program("node")
                .args([root().join("crates/wasm/bench/table_accuracy.mjs")])
                .env("QEVAL_WASM_PKG", pkg.join("qeval_wasm.js"))
                .env("QEVAL_CORPUS", root().join(crate::corpus::PATH))
                .env("QEVAL_BENCH_OUT", &wasm)
                .status_ok("the wasm bench")
        },
    )?;
    let web_pkg = out.join("wasm-web");
    steps.run(
        "wasm read bench",
        "crates/wasm/bench/read.mjs under Node and in headless Chromium",
        || {
            wasm_pkg::build_for_web(wasm_pkg::NodeBuild::Bench, &web_pkg)?;
            run::program("node")
                .args([root().join("crates/wasm/bench/read.mjs")])
                .current_dir(root().join("tests").join("e2e"))
                .env("QEVAL_WASM_PKG", pkg.join("qeval_wasm.js"))
                .env("QEVAL_WASM_WEB_PKG", &web_pkg)
                .env("QEVAL_E2E", root().join("tests").join("e2e"))
                .env("QEVAL_BENCH_OUT", out.join("read_wasm.json"))
                .status_ok("the wasm read bench")
        },
    )?;
    steps.run(
        "wasm compare bench",
        "crates/wasm/bench/compare.mjs under Node",
        || {
            run::program("node")
                .args([root().join("crates/wasm/bench/compare.mjs")])
                .env("QEVAL_WASM_PKG", pkg.join("qeval_wasm.js"))
                .env("QEVAL_BENCH_OUT", &compare_wasm)
                .status_ok("the wasm compare bench")
        },
    )?;
    crate::web::build(steps, crate::web::WebBuild::Release)?;

    steps.run(
        "python package",
        "maturin wheel (profile python-release) into target/python-venv",
        || crate::python::install(crate::python::PythonBuild::Release),
    )?;
    steps.run(
        "python drop-ins bench",
        "crates/python/bench/dropins.py: qeval.compat against the peers' functions",
        || {
            run::program(crate::python::python())
                .args([root().join("crates/python/bench/dropins.py")])
                .env("QEVAL_BENCH_OUT", out.join("python_dropins.json"))
                .status_ok("the drop-ins bench")
        },
    )?;
    steps.run(
        "ray bench",
        "crates/python/bench/ray_score.py: 100k pairs on a local Ray cluster against qeval score",
        || {
            run::cargo()
                .args(["build", "--release", "--locked", "-p", "qeval-cli"])
                .status_ok("cargo build --release -p qeval-cli")?;
            run::program(crate::python::python())
                .args([
                    root().join("crates/python/bench/ray_score.py"),
                    root().join("target/release/qeval"),
                ])
                .env("QEVAL_BENCH_OUT", out.join("ray_score.json"))
                .status_ok("the Ray bench")
        },
    )?;

    steps.run(
        "benchmarks bench",
        "qeval bench on a seeded Spider test-suite layout and BIRD layout (1,000 examples, 80 databases), end to end",
        || {
            run::cargo()
                .args(["build", "--release", "--locked", "-p", "qeval-cli"])
                .status_ok("cargo build --release -p qeval-cli")?;
            run::cargo()
                .args([
                    "run",
                    "--release",
                    "-p",
                    "qeval-native",
                    "--example",
                    "bench_benchmarks",
                    "--",
                ])
                .args([root().join("target/release/qeval"), out.join("benchmarks")])
                .env("QEVAL_BENCH_OUT", out.join("benchmarks.json"))
                .status_ok("the benchmarks bench")
        },
    )?;

    let e2e = root().join("tests").join("e2e");
    let orders = out.join("orders.sqlite");
    steps.run(
        "sqlite native bench",
        "build a 1,000,000-row database, join + aggregate (release)",
        || {
            run::cargo()
                .args([
                    "run",
                    "--release",
                    "-p",
                    "qeval-sqlite",
                    "--example",
                    "bench_db",
                    "--",
                ])
                .args([&orders])
                .status_ok("the sqlite bench")
        },
    )?;
    steps.run(
        "sqlite browser bench",
        "the same database and query in the playground of headless chromium",
        || {
            run::program("node")
                .args(["bench/database.bench.mjs"])
                .current_dir(&e2e)
                .env("QEVAL_DIST", root().join("dist"))
                .env("QEVAL_BENCH_DB", &orders)
                .status_ok("the sqlite browser bench")
        },
    )?;
    steps.run(
        "equivalence browser bench",
        "a typical pair, 40 generated databases, in the playground of headless chromium",
        || {
            run::program("node")
                .args(["bench/equivalence.bench.mjs"])
                .current_dir(&e2e)
                .env("QEVAL_DIST", root().join("dist"))
                .status_ok("the equivalence browser bench")
        },
    )?;
    steps.run(
        "startup bench",
        "navigation to usable editors in headless chromium, median of 5",
        || {
            run::program("node")
                .args(["bench/startup.bench.mjs"])
                .current_dir(&e2e)
                .env("QEVAL_DIST", root().join("dist"))
                .status_ok("the startup bench")
        },
    )?;
    steps.run(
        "worker bench",
        "the page's thread while a query runs in the worker, and Cancel, in headless chromium",
        || {
            run::program("node")
                .args(["bench/worker.bench.mjs"])
                .current_dir(&e2e)
                .env("QEVAL_DIST", root().join("dist"))
                .status_ok("the worker bench")
        },
    )?;
    steps.run(
        "report bench",
        "10,000 and 100,000 records in the report view of headless chromium",
        || {
            run::program("node")
                .args(["bench/report.bench.mjs"])
                .current_dir(&e2e)
                .env("QEVAL_DIST", root().join("dist"))
                .status_ok("the report bench")
        },
    )?;

    println!("\n| table accuracy per query (1,200-query corpus) | p50 | p99 |");
    println!("|---|---|---|");
    for (label, path) in [
        ("native", &native),
        ("wasm (Node 20, via qeval-wasm)", &wasm),
    ] {
        let figures = read_json(path)?;
        println!(
            "| {label} | {:.1} µs | {:.1} µs |",
            figures["p50_us"].as_f64().unwrap_or(f64::NAN),
            figures["p99_us"].as_f64().unwrap_or(f64::NAN)
        );
    }
    print_compare_table(&read_json(&compare_native)?, &read_json(&compare_wasm)?);
    println!("\n| metric calculator | mean | budget (target / 100) |");
    println!("|---|---|---|");
    for row in read_json(&metrics_native)?.as_array().into_iter().flatten() {
        let budget = row["budget_us"]
            .as_f64()
            .map_or("—".to_string(), |b| format!("{b:.0} µs"));
        println!(
            "| {} | {:.3} µs | {budget} |",
            row["calculator"].as_str().unwrap_or_default(),
            row["mean_us"].as_f64().unwrap_or(f64::NAN)
        );
    }
    let equivalence = read_json(&equivalence)?;
    println!(
        "\nequivalence check, K = 40, native: typical pair equivalent {:.1} ms, near miss {:.1} ms; {} labelled pairs p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms; the boundary search added at most {:.1} ms to one pair (target < 150 ms; the browser figure is printed above)",
        equivalence["equivalent_ms"].as_f64().unwrap_or(f64::NAN),
        equivalence["near_miss_ms"].as_f64().unwrap_or(f64::NAN),
        equivalence["labelled_pairs"].as_u64().unwrap_or(0),
        equivalence["labelled_p50_ms"].as_f64().unwrap_or(f64::NAN),
        equivalence["labelled_p90_ms"].as_f64().unwrap_or(f64::NAN),
        equivalence["labelled_max_ms"].as_f64().unwrap_or(f64::NAN),
        equivalence["search_worst_ms"].as_f64().unwrap_or(f64::NAN)
    );
    let cache = read_json(&cache)?;
    println!(
        "\njudge cache hit (disk, 1,000 verdicts): median {:.3} ms, p99 {:.3} ms (target < 10 ms)",
        cache["median_ms"].as_f64().unwrap_or(f64::NAN),
        cache["p99_ms"].as_f64().unwrap_or(f64::NAN)
    );
    report_dist_sizes()
}

/// One row per size, one column pair (native, wasm) per mode.
fn print_compare_table(native: &serde_json::Value, wasm: &serde_json::Value) {
    let find = |figures: &serde_json::Value, mode: &str, rows: u64, columns: u64| -> String {
        figures
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["mode"] == mode && f["rows"] == rows && f["columns"] == columns)
            .and_then(|f| f["median_ms"].as_f64())
            .map_or("—".to_string(), |ms| {
                if ms < 10.0 {
                    format!("{ms:.2}")
                } else {
                    format!("{ms:.0}")
                }
            })
    };
    let modes = ["f1", "seed", "bag", "set", "subset", "soft-f1"];
    println!(
        "\n| rows × cols | {} |",
        modes.map(|m| format!("{m} native / wasm")).join(" | ")
    );
    println!("|---|{}", "---|".repeat(modes.len()));
    for rows in [1_000u64, 10_000, 100_000, 1_000_000] {
        for columns in [2u64, 5, 8] {
            let cells: Vec<String> = modes
                .iter()
                .map(|m| {
                    format!(
                        "{} / {}",
                        find(native, m, rows, columns),
                        find(wasm, m, rows, columns)
                    )
                })
                .collect();
            println!("| {rows} × {columns} | {} |", cells.join(" | "));
        }
    }
    println!("(median milliseconds; equal tables, rows shuffled)");
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    serde_json::from_str(&text).map_err(|err| format!("{} is not JSON: {err}", path.display()))
}

/// Prints the size of every file the web app ships in dist/ (the example run folder aside),
/// raw and gzip -9: what a first visit downloads.
pub fn report_dist_sizes() -> Result<(), String> {
    let dist = root().join("dist");
    let entries =
        std::fs::read_dir(&dist).map_err(|err| format!("cannot list {}: {err}", dist.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    println!("\n| file in dist/ | raw | gzip -9 |\n|---|---|---|");
    let (mut raw_total, mut gzip_total) = (0, 0);
    for path in files {
        let raw = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let gzip = run::program("sh")
            .args(["-c", &format!("gzip -9 -c '{}' | wc -c", path.display())])
            .output_text()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(0);
        raw_total += raw;
        gzip_total += gzip;
        println!(
            "| {} | {:.1} KB | {:.1} KB |",
            path.file_name().unwrap_or_default().to_string_lossy(),
            raw as f64 / 1024.0,
            gzip as f64 / 1024.0
        );
    }
    println!(
        "| total | {:.1} KB | {:.1} KB |",
        raw_total as f64 / 1024.0,
        gzip_total as f64 / 1024.0
    );
    Ok(())
}
