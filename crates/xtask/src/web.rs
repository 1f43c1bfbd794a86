//! Building the web app with Trunk (`Trunk.toml`, `www/index.html`): `dist/` for what ships, or
//! for `serve` a dev build into `target/web/dev/`. Trunk runs offline with the project's own
//! tools on PATH (`tools::setup`): the pinned Trunk, qeval-bindgen as `wasm-bindgen`, npm's
//! wasm-opt; its hooks bundle the query editors and finish the page (`www/post-build.mjs`).

use std::path::PathBuf;

use crate::run::{self, Cmd};
use crate::{root, steps::Steps, tools};

/// Which build: what ships, or a quicker one to work on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebBuild {
    /// The `wasm-release` profile (small over fast) and wasm-opt: what CI tests and ships.
    Release,
    /// Cargo's `dev` profile, no wasm-opt: a fraction of the release build's time, larger and
    /// slower files. What `cargo xtask serve` builds.
    Dev,
}

/// Where the page goes: `dist/` for what ships (and what the browser tests load), a folder of
/// its own for the dev build, so serving never replaces a release build.
pub fn out_dir(build: WebBuild) -> PathBuf {
    match build {
        WebBuild::Release => root().join("dist"),
        WebBuild::Dev => root().join("target").join("web").join("dev"),
    }
}

/// `trunk <command>` for `build`, offline, into [`out_dir`], with the crates fetched first (an
/// offline cargo finds nothing it has not fetched).
pub fn trunk(command: &str, build: WebBuild) -> Result<Cmd, String> {
    run::cargo()
        .args(["fetch", "--locked"])
        .status_ok("cargo fetch")?;
    let mut trunk = run::program(tools::trunk())
        .args([command, "--dist"])
        .args([out_dir(build)])
        .env("TRUNK_OFFLINE", "true")
        .env("TRUNK_SKIP_VERSION_CHECK", "true");
    if build == WebBuild::Release {
        trunk = trunk.args(["--release"]);
    }
    Ok(trunk)
}

/// Builds the page with `trunk build`.
pub fn build(steps: &mut Steps, build: WebBuild) -> Result<(), String> {
    let (label, what) = match build {
        WebBuild::Release => (
            "release",
            "trunk build --release: the app and its two workers for wasm32 (profile \
             wasm-release) bound and shrunk with wasm-opt -Oz, the editors, content-named files \
             and the CSP, into dist/ (about 9 minutes on 2 cores the first time)",
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
