//! qeval-wasm built for Node: used by its tests and by the wasm benchmarks.

use std::path::{Path, PathBuf};

use crate::{root, run};

/// Which build of qeval-wasm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeBuild {
    /// The `wasm-node` profile: the npm package users install (`cargo xtask js`).
    Release,
    /// As `Release`, with the `bench` feature's entry points: for the benchmarks.
    Bench,
    /// The `wasm-test` profile: quicker to compile, for the tests under Node.
    Test,
}

impl NodeBuild {
    fn profile(self) -> &'static str {
        match self {
            NodeBuild::Release | NodeBuild::Bench => "wasm-node",
            NodeBuild::Test => "wasm-test",
        }
    }
}

/// Where a Node package goes: `package.json`, `qeval_wasm.js`, its `.d.ts` and its `.wasm`.
pub fn node_dir(build: NodeBuild) -> PathBuf {
    let target = root().join("target");
    match build {
        NodeBuild::Release => target.join("js").join("qeval"),
        NodeBuild::Bench => target.join("bench").join("wasm-node"),
        NodeBuild::Test => target.join("js").join("test"),
    }
}

/// Builds qeval-wasm and binds it for Node into `out`, an npm package (`crates/wasm/package.json`).
pub fn build_for_node(build: NodeBuild, out: &Path) -> Result<(), String> {
    let mut cargo = run::cargo().args([
        "build",
        "--locked",
        "-p",
        "qeval-wasm",
        "--target",
        run::WASM_TARGET,
        "--profile",
        build.profile(),
    ]);
    if build == NodeBuild::Bench {
        cargo = cargo.args(["--features", "bench"]);
    }
    cargo.status_ok("cargo build qeval-wasm")?;
    bind(build, "nodejs", out)?;
    let manifest = root().join("crates").join("wasm").join("package.json");
    std::fs::copy(&manifest, out.join("package.json"))
        .map(drop)
        .map_err(|err| {
            format!(
                "copying {} into {}: {err}",
                manifest.display(),
                out.display()
            )
        })
}

/// qeval-wasm bound for the web (an ES module to import in a page), from the same build as
/// `build_for_node`, which must run first.
pub fn build_for_web(build: NodeBuild, out: &Path) -> Result<(), String> {
    bind(build, "web", out)
}

fn bind(build: NodeBuild, target: &str, out: &Path) -> Result<(), String> {
    // Each profile's folder is named after it.
    let wasm = run::wasm32_artifact(build.profile(), "qeval_wasm");
    run::bind_wasm(target, "qeval_wasm", &wasm, out)
}

/// Node's test runner over `crates/wasm/tests/*.test.mjs`, with the `qeval` binary they compare
/// against.
pub fn node_tests(pkg: &Path) -> Result<(), String> {
    let cli = run::debug_cli()?;
    let dir = root().join("crates").join("wasm").join("tests");
    run::node_test_files(&dir)?
        .env("QEVAL_WASM_PKG", pkg.join("qeval_wasm.js"))
        .env("QEVAL_CLI", cli)
        .status_ok("the qeval-wasm tests under Node")
}
