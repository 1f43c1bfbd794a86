//! `cargo xtask`: everything beyond `cargo build` and `cargo test`.
//!
//! Each command installs what it needs and is missing, at the versions pinned in the repository
//! (`rust-toolchain.toml`, `Cargo.lock`, `tests/e2e/package-lock.json`,
//! `www/editor/package-lock.json`), prints each step with its duration, and stops at the first
//! failing step, naming it.

mod bench;
mod corpus;
mod doc_links;
mod feature_sets;
mod python;
mod run;
mod serve;
mod steps;
mod supply_chain;
mod tools;
mod wasm_pkg;
mod web;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use steps::{Background, Steps};

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  setup              install what the other commands need (wasm target, qeval-bindgen, Trunk,
                     clang, wasm-opt, Playwright, CodeMirror, chromium), skipping what is there
  serve [--port N] [--release]
                     `trunk serve`: build the web app (a dev build unless --release), serve it
                     on http://127.0.0.1:N (default 8080), and rebuild when a source changes
  test               setup, then fmt check, clippy, native tests, wasm32 checks, the supply
                     chain (sources, licences, duplicate versions), the wasm32 feature sets,
                     the npm package and its tests, the Python package and its tests, the
                     page's test build (trunk) and the browser tests; the equivalence labels,
                     the Python requirements and the Debian packages in the background: what
                     CI runs
  python             build the Python package into target/python-venv and run its tests
  dist               `trunk build --release` into dist/, and print its size
  js [--out DIR]     build the npm package: qeval-wasm for Node with its TypeScript declarations
                     and package.json, into DIR (default target/js/qeval); `npm install DIR`
  supply-chain       check Cargo.lock's dependencies: from crates.io, licences allowed, no crate
                     at two versions without a written reason (part of `test`)
  bench              benchmarks, native and wasm (Node), with a summary table
  fuzz [--seconds N] feed generated and mutated queries, results and files to every entry point for N seconds (default 300)
  corpus             regenerate tests/fixtures/corpus.jsonl, the benchmark and test corpus
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let mut steps = Steps::new();
    let result = match command.as_str() {
        "setup" => tools::setup(&mut steps, tools::Needs::ALL),
        "serve" => serve(&mut steps, rest),
        "test" => test(&mut steps),
        "dist" => dist(&mut steps),
        "js" => js_package(&mut steps, rest),
        "python" => python_package(&mut steps),
        "bench" => bench::run(&mut steps),
        "supply-chain" => supply_chain::check(),
        "fuzz" => option_u64(rest, "--seconds", 300).and_then(|seconds| fuzz(&mut steps, seconds)),
        "corpus" => corpus::write(&root().join(corpus::PATH)),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    steps.summary();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("\nxtask {command}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root (xtask lives in `crates/xtask`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn option_u64(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|arg| arg == name) {
        None => match args.first() {
            Some(unknown) => Err(format!("unknown option `{unknown}`")),
            None => Ok(default),
        },
        Some(at) => args
            .get(at + 1)
            .and_then(|value| value.parse().ok())
            .ok_or_else(|| format!("{name} needs a whole number")),
    }
}

fn serve(steps: &mut Steps, args: &[String]) -> Result<(), String> {
    let release = args.iter().any(|arg| arg == "--release");
    let rest: Vec<String> = args
        .iter()
        .filter(|arg| *arg != "--release")
        .cloned()
        .collect();
    let port = option_u64(&rest, "--port", 8080)?;
    tools::setup(steps, tools::Needs::WEB)?;
    let build = if release {
        web::WebBuild::Release
    } else {
        web::WebBuild::Dev
    };
    serve::serve(steps, port, build)
}

fn dist(steps: &mut Steps) -> Result<(), String> {
    tools::setup(steps, tools::Needs::WEB)?;
    web::build(steps, web::WebBuild::Release)?;
    bench::report_dist_sizes()
}

fn js_package(steps: &mut Steps, args: &[String]) -> Result<(), String> {
    let out = match args {
        [] => wasm_pkg::node_dir(wasm_pkg::NodeBuild::Release),
        // Relative to where the command was typed; the tools run from the repository root.
        [flag, dir] if flag == "--out" => std::env::current_dir()
            .map_err(|err| format!("the current folder: {err}"))?
            .join(dir),
        _ => return Err(format!("usage: cargo xtask js [--out DIR]\n\n{USAGE}")),
    };
    tools::setup(steps, tools::Needs::WEB)?;
    steps.run(
        "npm package",
        "qeval-wasm, wasm-node profile, bound for Node (about 2 minutes the first time)",
        || wasm_pkg::build_for_node(wasm_pkg::NodeBuild::Release, &out),
    )?;
    println!(
        "\nThe package is in {}: `npm install {}`, then `require(\"qeval\")`.",
        out.display(),
        out.display()
    );
    Ok(())
}

/// The labels the equivalence check is held to, re-checked apart from it: Python's standard
/// library and its SQLite, on each set's own constraint-free schemas. A background step of
/// `test` (it needs nothing built): at the lowest priority, its output added to `log`.
fn verify_equivalence_labels(log: &Path) -> Result<(), String> {
    for set in ["pairs.jsonl", "heldout.jsonl", "classes.jsonl"] {
        run::background_program("python3")
            .args([
                "tests/equivalence/verify_labels.py".to_string(),
                "--jobs".into(),
                "2".into(),
                "--pairs".into(),
                format!("tests/equivalence/{set}"),
            ])
            .status_logged(&format!("verify_labels.py --pairs {set}"), Some(log))?;
    }
    Ok(())
}

/// Where a background step writes its programs' output.
fn background_log(name: &str) -> PathBuf {
    root()
        .join("target")
        .join("xtask")
        .join(format!("{name}.log"))
}

fn python_package(steps: &mut Steps) -> Result<(), String> {
    steps.run(
        "python package",
        "maturin wheel (dev profile) into target/python-venv, with pandas, polars, pyarrow and Ray (about 2.5 minutes the first time)",
        || python::install(python::PythonBuild::Test),
    )?;
    steps.run("python tests", "pytest crates/python/tests", python::tests)
}

/// What CI runs. Three steps need nothing built and run in the background from the start: the
/// Debian packages (unless sudo would ask for a password) and the Python test requirements
/// (mostly downloads; the requirements at the lowest priority), and the equivalence labels (pure
/// Python, about 4 minutes of one core's time, at the lowest priority, so that they take the
/// processor time the builds leave idle rather than time of their own). With the Python tests beside the page's build, this took a first run
/// on two cores from 23.7 minutes to 18.6 to 20.6.
fn test(steps: &mut Steps) -> Result<(), String> {
    let packages = tools::debian_package_names(tools::Needs::ALL);
    let mut debian = if tools::debian_packages_unattended(tools::Needs::ALL) {
        Some(steps.background(
            "debian packages",
            &packages,
            background_log("debian-packages"),
            |log| tools::install_debian_packages(tools::Needs::ALL, Some(log)),
        )?)
    } else {
        // sudo will ask for a password: in the foreground, where it can be seen.
        steps.run("debian packages", &packages, || {
            tools::install_debian_packages(tools::Needs::ALL, None)
        })?;
        None
    };
    let labels = steps.background(
        "equivalence labels",
        "tests/equivalence/verify_labels.py re-checks every label of the three labelled sets on SQLite",
        background_log("equivalence-labels"),
        verify_equivalence_labels,
    )?;
    let mut requirements = Some(steps.background(
        "python requirements",
        "a virtual environment in target/python-venv with pandas, polars, pyarrow, Ray, pytest and maturin",
        background_log("python-requirements"),
        |log| python::install_requirements(Some(log)),
    )?);
    let mut result = test_in_foreground(steps, &mut debian, &mut requirements);
    // Whatever happened, nothing is left running: a failure waits for the background steps
    // too, and the first failure is the one reported.
    for background in debian.into_iter().chain(requirements).chain([labels]) {
        let joined = steps.join(background);
        if result.is_ok() {
            result = joined;
        }
    }
    result
}

/// The steps of `test` in the foreground, joining the background steps where their work is first
/// needed.
fn test_in_foreground(
    steps: &mut Steps,
    debian_packages: &mut Option<Background>,
    python_requirements: &mut Option<Background>,
) -> Result<(), String> {
    tools::setup_builds(steps, tools::Needs::ALL)?;
    steps.run("format", "cargo fmt --all -- --check", || {
        run::cargo()
            .args(["fmt", "--all", "--", "--check"])
            .status_ok("cargo fmt")
    })?;
    steps.run(
        "lint",
        "cargo clippy --workspace --all-targets -- -D warnings (about 2 minutes the first time)",
        || {
            run::cargo()
                .args([
                    "clippy",
                    "--workspace",
                    // A thin wrapper over wasm-bindgen's library; checking that library costs a
                    // cold run more time than the wrapper's few lines are worth.
                    "--exclude",
                    "qeval-bindgen",
                    "--all-targets",
                    "--locked",
                    "--",
                    "-D",
                    "warnings",
                ])
                .status_ok("cargo clippy")
        },
    )?;
    steps.run(
        "native tests",
        "cargo test --workspace (about 3 minutes the first time)",
        || run::native_test_build().status_ok("cargo test"),
    )?;
    steps.run(
        "bindgen tests",
        "cargo test -p qeval-bindgen in the tool profile setup built it in (Trunk's arguments, the version it says)",
        || {
            run::cargo()
                .args(["test", "--locked", "--profile", "tool", "-p", "qeval-bindgen"])
                .status_ok("cargo test -p qeval-bindgen")
        },
    )?;
    // clang, for the first build for wasm32.
    if let Some(debian_packages) = debian_packages.take() {
        steps.join(debian_packages)?;
    }
    steps.run(
        "wasm32 check",
        "core and wasm bindings for wasm32, warnings denied (about a minute the first time)",
        || {
            run::cargo()
                .args([
                    "clippy",
                    "--target",
                    run::WASM_TARGET,
                    "--locked",
                    "-p",
                    "qeval-core",
                    "-p",
                    "qeval-wasm",
                    "-p",
                    "qeval-web",
                    "--features",
                    "qeval-wasm/bench",
                    "--",
                    "-D",
                    "warnings",
                ])
                .status_ok("cargo clippy --target wasm32-unknown-unknown")
        },
    )?;
    steps.run(
        "supply chain",
        "sources, licences and duplicate versions in Cargo.lock (cargo metadata)",
        supply_chain::check,
    )?;
    steps.run(
        "wasm32 feature sets",
        "the four wasm32 builds build what qeval-core is built from with the same features, so it compiles once (cargo tree)",
        feature_sets::check,
    )?;
    let pkg = wasm_pkg::node_dir(wasm_pkg::NodeBuild::Test);
    steps.run(
        "wasm package",
        "qeval-wasm for Node (wasm-test profile; about 2.5 minutes the first time)",
        || wasm_pkg::build_for_node(wasm_pkg::NodeBuild::Test, &pkg),
    )?;
    steps.run("wasm under Node", "crates/wasm/tests/*.test.mjs", || {
        wasm_pkg::node_tests(&pkg)
    })?;
    if let Some(requirements) = python_requirements.take() {
        steps.join(requirements)?;
    }
    steps.run(
        "python package",
        "maturin wheel (dev profile) into target/python-venv",
        || python::install_package(python::PythonBuild::Test),
    )?;
    // The Python tests wait on subprocesses and Ray a third of the time and the page's build
    // leaves a tenth of the processor idle: side by side they take less time than one after
    // the other. The binaries the tests run are built first, so the tests start no build.
    let (cli, double) = (run::debug_cli()?, run::judge_double()?);
    let python_tests = steps.background(
        "python tests",
        "pytest crates/python/tests, beside the page's build",
        background_log("python-tests"),
        move |log| python::tests_against(&cli, &double, Some(log)),
    )?;
    // The page as the browser tests load it: after the wasm package, whose compiled
    // dependencies it shares (`WebBuild::Test`).
    let built = web::build(steps, web::WebBuild::Test);
    let tested = steps.join(python_tests);
    built.and(tested)?;
    // No build beside them: one browser test holds the page's main thread to no task over 100 ms
    // while a query runs in its worker, which a build beside it on two cores breaks (it was
    // tried). The labels may still be finishing, at the lowest priority: the tests pass, more
    // slowly (a quarter more time when all of the labels' work fell in them).
    steps.run(
        "browser tests",
        "Playwright + chromium against target/web/test/ on 127.0.0.1 (about 4 minutes)",
        run::browser_tests,
    )
}

/// Fuzzing, split between three fuzz tests: the analysis, scoring and file readers (qeval-core,
/// half the time), the equivalence check and database loaders (qeval-sqlite, three tenths) and the
/// Python entry points that take rows (the rest: ragged, wide and odd row shapes). Each prints
/// how many inputs it ran.
fn fuzz(steps: &mut Steps, seconds: u64) -> Result<(), String> {
    let analysis = seconds / 2;
    let equivalence = seconds * 3 / 10;
    let python_rows = seconds - analysis - equivalence;
    for (package, test, share) in [
        ("qeval-core", "fuzz_analysis", analysis),
        ("qeval-sqlite", "fuzz_equivalence", equivalence),
    ] {
        steps.run(
            &format!("fuzz {package}"),
            &format!("{share} s of generated and mutated inputs"),
            || {
                run::cargo()
                    .args([
                        "test",
                        "--release",
                        "-p",
                        package,
                        "--test",
                        "it",
                        "--",
                        &format!("{test}::"),
                        "--nocapture",
                    ])
                    .env("QEVAL_FUZZ_SECONDS", share.to_string())
                    .status_ok("the fuzz run")
            },
        )?;
    }
    steps.run(
        "python package",
        "maturin wheel (dev profile) into target/python-venv",
        || python::install(python::PythonBuild::Test),
    )?;
    steps.run(
        "fuzz python rows",
        &format!("{python_rows} s of generated row shapes through qeval.compare and the drop-ins"),
        || python::fuzz_rows(python_rows),
    )
}
