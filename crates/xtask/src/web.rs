//! Building the web app with Trunk (`Trunk.toml`, `www/index.html`): `dist/` for what ships, a
//! test build into `target/web/test/` for the browser tests, or for `serve` a dev build into
//! `target/web/dev/`. Trunk runs offline with the project's own tools on PATH (`tools::setup`):
//! the pinned Trunk, qeval-bindgen as `wasm-bindgen`, npm's wasm-opt; its hooks bundle the query
//! editors and finish the page (`www/post-build.mjs`).

use std::path::PathBuf;

use crate::run::{self, Cmd};
use crate::{root, steps::Steps, tools};

/// Which build: what ships, what the browser tests load, or a quicker one to work on. All three
/// are the same Trunk pipeline over the same `www/index.html` (hooks, content hashes, integrity,
/// the security policy); they differ only in how the compiler optimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebBuild {
    /// The `wasm-release` profile (small over fast, fat LTO, one codegen unit) and wasm-opt:
    /// what ships (`cargo xtask dist`). 6 to 9 minutes on two cores the first time.
    Release,
    /// The `wasm-test` profile, no wasm-opt: what the browser tests load. qeval-wasm's tests
    /// under Node build with the same profile, and with the same features under qeval-core
    /// (`feature_sets.rs`), so the two share their compiled dependencies: a first build after
    /// them took 73 s on two cores. The code is still optimised (level 1): the page runs its
    /// queries and checks at a speed the tests' time limits fit.
    Test,
    /// Cargo's `dev` profile, no wasm-opt: a fraction of the release build's time, larger and
    /// slower files. What `cargo xtask serve` builds.
    Dev,
}

/// Where the page goes: `dist/` for what ships (and what the browser tests load), a folder of
/// its own for the dev build, so serving never replaces a release build.
pub fn out_dir(build: WebBuild) -> PathBuf {
    match build {
        WebBuild::Release => root().join("dist"),
        WebBuild::Test => root().join("target").join("web").join("test"),
        WebBuild::Dev => root().join("target").join("web").join("dev"),
    }
}

/// `trunk <command>` for `build`, offline, into [`out_dir`], with the crates fetched first (an
/// offline cargo finds nothing it has not fetched).
pub fn trunk(command: &str, build: WebBuild) -> Result<Cmd, String> {
    run::cargo()
        .args(["fetch", "--locked"])
        .status_ok("cargo fetch")?;
    let trunk = run::program(tools::trunk())
        .args([command, "--dist"])
        .args([out_dir(build)])
        .env("TRUNK_OFFLINE", "true")
        .env("TRUNK_SKIP_VERSION_CHECK", "true");
    Ok(match build {
        WebBuild::Release => trunk.args(["--release"]),
        // `www/index.html` names a profile for release builds only, so this one applies.
        WebBuild::Test => trunk.args(["--cargo-profile", "wasm-test"]),
        WebBuild::Dev => trunk,
    })
}

/// Builds the page with `trunk build`.
pub fn build(steps: &mut Steps, build: WebBuild) -> Result<(), String> {
    let (label, what) = match build {
        WebBuild::Release => (
            "release",
            "trunk build --release: the app and its two workers for wasm32 (profile \
             wasm-release) bound and shrunk with wasm-opt -Oz, the editors, content-named files \
             and the CSP, into dist/ (6 to 9 minutes on 2 cores the first time)",
        ),
        WebBuild::Test => (
            "test",
            "trunk build --cargo-profile wasm-test: the app and its two workers for wasm32 \
             (optimised at level 1, the profile the wasm package built), the editors, \
             content-named files and the CSP, into target/web/test (about 1.5 minutes on 2 \
             cores after the wasm package)",
        ),
        WebBuild::Dev => (
            "dev",
            "trunk build: the app and its two workers for wasm32 (profile dev), into \
             target/web/dev (about 2 minutes on 2 cores the first time)",
        ),
    };
    steps.run(&format!("web {label} build"), what, || {
        trunk("build", build)?.status_ok("trunk build")
    })
}
