//! qeval-wasm built for Node: used by its tests and by the wasm benchmarks.

use std::path::{Path, PathBuf};

use crate::{root, run};

/// Where the Node package goes: `qeval_wasm.js` and its `.wasm`.
pub fn node_dir() -> PathBuf {
    root().join("target").join("bench").join("wasm-node")
}

/// Builds qeval-wasm for JavaScript users (the `wasm-node` profile: optimised for speed) and
/// binds it for Node.
pub fn build_for_node(out: &Path) -> Result<(), String> {
    run::cargo()
        .args([
            "build",
            "--locked",
            "-p",
            "qeval-wasm",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm-node",
        ])
        .status_ok("cargo build qeval-wasm")?;
    let wasm = root().join("target/wasm32-unknown-unknown/wasm-node/qeval_wasm.wasm");
    run::cargo_tool("wasm-bindgen")
        .args(["--target", "nodejs", "--out-dir"])
        .args([out, &wasm])
        .status_ok("wasm-bindgen --target nodejs")
}

/// qeval-wasm bound for the web (an ES module to import in a page), from the same build as
/// `build_for_node`, which must run first.
pub fn build_for_web(out: &Path) -> Result<(), String> {
    let wasm = root().join("target/wasm32-unknown-unknown/wasm-node/qeval_wasm.wasm");
    run::cargo_tool("wasm-bindgen")
        .args(["--target", "web", "--out-dir"])
        .args([out, &wasm])
        .status_ok("wasm-bindgen --target web")
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
