//! qeval-wasm built for Node: used by its tests and by the wasm benchmarks.

use std::path::{Path, PathBuf};

use crate::{root, run};

/// Which build of qeval-wasm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// The `wasm-node` profile, what JavaScript users get: for the benchmarks.
    Release,
    /// The `wasm-test` profile: quicker to compile, for the tests under Node.
    Test,
}

impl Build {
    fn profile(self) -> &'static str {
        match self {
            Build::Release => "wasm-node",
            Build::Test => "wasm-test",
        }
    }
}

/// Where a Node package goes: `qeval_wasm.js` and its `.wasm`.
pub fn node_dir(build: Build) -> PathBuf {
    match build {
        Build::Release => root().join("target").join("bench").join("wasm-node"),
        Build::Test => root().join("target").join("wasm-test"),
    }
}

/// Builds qeval-wasm and binds it for Node.
pub fn build_for_node(build: Build, out: &Path) -> Result<(), String> {
    run::cargo()
        .args([
            "build",
            "--locked",
            "-p",
            "qeval-wasm",
            "--target",
            run::WASM_TARGET,
            "--profile",
            build.profile(),
        ])
        .status_ok("cargo build qeval-wasm")?;
    bind(build, "nodejs", out)
}

/// qeval-wasm bound for the web (an ES module to import in a page), from the same build as
/// `build_for_node`, which must run first.
pub fn build_for_web(build: Build, out: &Path) -> Result<(), String> {
    bind(build, "web", out)
}

fn bind(build: Build, target: &str, out: &Path) -> Result<(), String> {
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
