//! Building the web app into `dist/` (or, for `serve`, a dev build into `target/web/dev/`): the three wasm binaries with cargo, bound with wasm-bindgen,
//! shrunk with wasm-opt (release only), then `www/assemble.mjs` names each file after its
//! content and writes the page with its Content Security Policy.

use std::path::{Path, PathBuf};

use crate::run;
use crate::{root, steps::Steps};

/// Which build: what ships, or a quicker one to work on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebBuild {
    /// The `wasm-release` profile (small over fast) and wasm-opt: what CI tests and ships.
    Release,
    /// Cargo's `dev` profile, no wasm-opt: a fraction of the release build's time, larger and
    /// slower files. What `cargo xtask serve` builds.
    Dev,
}

impl WebBuild {
    fn profile(self) -> &'static str {
        match self {
            WebBuild::Release => "wasm-release",
            WebBuild::Dev => "dev",
        }
    }

    /// The folder under `target/wasm32-unknown-unknown/` cargo writes the profile to.
    fn profile_dir(self) -> &'static str {
        match self {
            WebBuild::Release => "wasm-release",
            WebBuild::Dev => "debug",
        }
    }
}

/// One wasm binary of the page.
struct Binary {
    package: &'static str,
    bin: &'static str,
    /// The crate's default features; the scoring worker leaves SQLite out.
    default_features: bool,
    /// wasm-bindgen's output: `web` (an ES module) for the app, `no-modules` (a classic script
    /// that `importScripts` loads) for the workers.
    bindgen_target: &'static str,
}

/// The app, the scoring worker (parsing, comparing, scoring; started with the page) and the
/// database worker (SQLite, test suites, equivalence checks; started on the first database
/// action). `www/assemble.mjs` knows the same three names.
const BINARIES: [Binary; 3] = [
    Binary {
        package: "qeval-web",
        bin: "qeval-web",
        default_features: true,
        bindgen_target: "web",
    },
    Binary {
        package: "qeval-worker",
        bin: "qeval-scorer",
        default_features: false,
        bindgen_target: "no-modules",
    },
    Binary {
        package: "qeval-worker",
        bin: "qeval-worker",
        default_features: true,
        bindgen_target: "no-modules",
    },
];

/// The wasm features the browsers qeval supports have, which wasm-opt may then use.
const WASM_OPT_FEATURES: [&str; 7] = [
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Where wasm-bindgen writes, before `assemble.mjs` picks the files up.
fn bindings_dir() -> PathBuf {
    root().join("target").join("web").join("bindings")
}

/// Where the page goes: `dist/` for what ships (and what the browser tests load), a folder of
/// its own for the dev build, so serving never replaces a release build.
pub fn out_dir(build: WebBuild) -> PathBuf {
    match build {
        WebBuild::Release => root().join("dist"),
        WebBuild::Dev => root().join("target").join("web").join("dev"),
    }
}

/// Builds the page into `dist/`, one named step per stage.
pub fn build(steps: &mut Steps, build: WebBuild) -> Result<(), String> {
    let label = match build {
        WebBuild::Release => "release",
        WebBuild::Dev => "dev",
    };
    steps.run(
        "query editors",
        "CodeMirror bundled by esbuild into target/editor (www/editor/build.mjs)",
        || {
            run::program("node")
                .args([root().join("www").join("editor").join("build.mjs")])
                .status_ok("node www/editor/build.mjs")
        },
    )?;
    let what = match build {
        WebBuild::Release => {
            "the app and its two workers for wasm32 (profile wasm-release), each bound by \
             qeval-bindgen and shrunk by wasm-opt -Oz while the next compiles (about 3 minutes \
             on 2 cores the first time)"
        }
        WebBuild::Dev => {
            "the app and its two workers for wasm32 (profile dev), each bound by qeval-bindgen \
             (about 2 minutes on 2 cores the first time)"
        }
    };
    steps.run(&format!("web {label} build"), what, || {
        compile_and_bind(build)
    })?;
    steps.run(
        "assemble",
        &format!(
            "www/assemble.mjs: content-named files, integrity hashes, the CSP, into {}",
            out_dir(build).display()
        ),
        || {
            run::program("node")
                .args([root().join("www").join("assemble.mjs")])
                .args([bindings_dir(), out_dir(build)])
                .status_ok("node www/assemble.mjs")
        },
    )
}

/// Compiles each binary, and binds (and for a release, shrinks) it on a second thread while the
/// next one compiles: a release link and wasm-opt each keep one core busy, and there are two.
fn compile_and_bind(build: WebBuild) -> Result<(), String> {
    let bindings = bindings_dir();
    // Nothing from an earlier build may stand in for a binding that failed.
    if bindings.exists() {
        std::fs::remove_dir_all(&bindings)
            .map_err(|err| format!("cannot clear {}: {err}", bindings.display()))?;
    }
    std::thread::scope(|scope| {
        let mut binding = Vec::new();
        for binary in &BINARIES {
            // On a failure, what already runs finishes; its outcome does not matter any more.
            compile(build, binary)?;
            let bindings = &bindings;
            binding.push(scope.spawn(move || bind(build, binary, bindings)));
        }
        binding.into_iter().try_for_each(|thread| {
            thread
                .join()
                .unwrap_or_else(|_| Err("a binding thread panicked".to_string()))
        })
    })
}

fn compile(build: WebBuild, binary: &Binary) -> Result<(), String> {
    let mut cargo = run::cargo().args([
        "build",
        "--locked",
        "--target",
        run::WASM_TARGET,
        "--profile",
        build.profile(),
        "-p",
        binary.package,
        "--bin",
        binary.bin,
    ]);
    if !binary.default_features {
        cargo = cargo.args(["--no-default-features"]);
    }
    cargo.status_ok(&format!("cargo build {} for wasm32", binary.bin))
}

fn bind(build: WebBuild, binary: &Binary, bindings: &Path) -> Result<(), String> {
    let wasm = run::wasm32_artifact(build.profile_dir(), binary.bin);
    run::bind_wasm(binary.bindgen_target, binary.bin, &wasm, bindings)?;
    if build == WebBuild::Release {
        let bound = bindings.join(format!("{}_bg.wasm", binary.bin));
        run::program("wasm-opt")
            .args(["-Oz"])
            .args(WASM_OPT_FEATURES)
            .args([&bound])
            .args(["-o".as_ref(), bound.as_os_str()])
            .status_ok(&format!("wasm-opt {}", binary.bin))?;
        println!("    {} bound and shrunk", binary.bin);
    }
    Ok(())
}
