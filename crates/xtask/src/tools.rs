//! Installing the tools the project needs, at pinned versions, only when missing.
//!
//! Nothing is downloaded from GitHub releases: Trunk is built from crates.io (`cargo install
//! --locked`, its own lockfile); wasm-bindgen is our own `qeval-bindgen`, built from
//! wasm-bindgen's library at the version in `Cargo.lock` and installed beside Trunk as
//! `wasm-bindgen`; npm packages come from the lockfiles of `tests/e2e` (browser tests, wasm-opt)
//! and `www/editor` (CodeMirror, esbuild), the browser and clang from Debian.

use std::path::Path;

use crate::root;
use crate::run::{self, WASM_TARGET, program};
use crate::steps::Steps;

/// Which tools a command needs.
#[derive(Debug, Clone, Copy)]
pub struct Needs {
    pub web: bool,
    pub browser: bool,
}

impl Needs {
    /// Building the web app: wasm target, wasm-bindgen, clang, wasm-opt, esbuild.
    pub const WEB: Needs = Needs {
        web: true,
        browser: false,
    };
    /// Everything, including the browser for end-to-end tests.
    pub const ALL: Needs = Needs {
        web: true,
        browser: true,
    };
}

pub fn setup(steps: &mut Steps, needs: Needs) -> Result<(), String> {
    if needs.web || needs.browser {
        steps.run("debian packages", &debian_package_names(needs), || {
            install_debian_packages(needs, None)
        })?;
    }
    setup_builds(steps, needs)
}

/// [`setup`] less the Debian packages, which the caller installs ([`install_debian_packages`]):
/// `cargo xtask test` does that in the background while these build.
pub fn setup_builds(steps: &mut Steps, needs: Needs) -> Result<(), String> {
    steps.run("wasm target", WASM_TARGET, ensure_wasm_target)?;
    if needs.web {
        steps.run(
            "qeval-bindgen",
            "wasm-bindgen's library at the version in Cargo.lock (about a minute on 2 cores the first time)",
            || {
                run::cargo()
                    .args(["build", "--locked", "--profile", "tool", "-p", "qeval-bindgen"])
                    .status_ok("cargo build -p qeval-bindgen")
            },
        )?;
        steps.run(
            "wasm-bindgen",
            "qeval-bindgen as the wasm-bindgen Trunk calls, in target/tools/bin",
            install_bindgen_for_trunk,
        )?;
        steps.run(
            "trunk",
            &format!(
                "Trunk {TRUNK_VERSION} from crates.io into target/tools (3 to 4 minutes on 2 cores the first time)"
            ),
            ensure_trunk,
        )?;
        steps.run(
            "npm packages",
            "wasm-opt and Playwright (tests/e2e), CodeMirror and esbuild (www/editor), from their lockfiles",
            ensure_npm_packages,
        )?;
    }
    Ok(())
}

/// The Trunk that builds the page. 0.22 needs a newer rustc than `rust-toolchain.toml`'s.
pub const TRUNK_VERSION: &str = "0.21.14";

/// Trunk as `ensure_trunk` installs it.
pub fn trunk() -> std::path::PathBuf {
    run::tools_bin().join(run::executable("trunk"))
}

/// Trunk from crates.io at [`TRUNK_VERSION`], with its own lockfile. A tool that only drives the
/// build: without TLS (it downloads nothing, `TRUNK_OFFLINE`), and in the dev profile without
/// debug information, which compiles in a third of its release build's time (fat LTO, one
/// codegen unit) and runs fast enough for what it does.
fn ensure_trunk() -> Result<(), String> {
    let installed = program(trunk())
        .args(["--version"])
        .output_text()
        .unwrap_or_default();
    if installed.trim() == format!("trunk {TRUNK_VERSION}") {
        println!("    already installed");
        return Ok(());
    }
    let tools = root().join("target").join("tools");
    run::cargo()
        .args(["install", "--locked", "trunk", "--version", TRUNK_VERSION])
        .args(["--no-default-features", "--debug", "--force", "--root"])
        .args([&tools])
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .env("CARGO_TARGET_DIR", tools.join("build"))
        .status_ok("cargo install trunk")
}

/// Copies qeval-bindgen (built by the step before) to `target/tools/bin/wasm-bindgen`, where
/// Trunk finds it on PATH; it says the version Trunk.toml asks for.
fn install_bindgen_for_trunk() -> Result<(), String> {
    let bin = run::tools_bin();
    std::fs::create_dir_all(&bin)
        .map_err(|err| format!("cannot create {}: {err}", bin.display()))?;
    let to = bin.join(run::executable("wasm-bindgen"));
    std::fs::copy(run::bindgen_binary(), &to)
        .map(|_| ())
        .map_err(|err| format!("cannot copy qeval-bindgen to {}: {err}", to.display()))
}

fn ensure_wasm_target() -> Result<(), String> {
    let installed = program("rustup")
        .args(["target", "list", "--installed"])
        .output_text()
        .unwrap_or_default();
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        println!("    already installed");
        return Ok(());
    }
    program("rustup")
        .args(["target", "add", WASM_TARGET])
        .status_ok("rustup target add")
}

fn ensure_npm_packages() -> Result<(), String> {
    for folder in ["tests/e2e", "www/editor"] {
        let dir = root().join(folder);
        if npm_packages_current(&dir) {
            println!("    {folder}: already installed");
            continue;
        }
        program("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status_ok(&format!("npm ci in {folder}"))?;
    }
    Ok(())
}

/// True when every devDependency is installed at the exact version package.json names.
fn npm_packages_current(dir: &Path) -> bool {
    let read = |path: &Path| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    };
    let Some(manifest) = read(&dir.join("package.json")) else {
        return false;
    };
    let Some(wanted) = manifest["devDependencies"].as_object() else {
        return false;
    };
    wanted.iter().all(|(name, version)| {
        read(&dir.join("node_modules").join(name).join("package.json"))
            .is_some_and(|installed| installed["version"] == *version)
    })
}

/// The Debian packages a command needs, each with a program it installs (which tells whether it
/// is there) and whether apt-get also installs what it recommends: clang compiles SQLite's C for
/// wasm32 (sqlite-wasm-rs, in the web app; its recommendations are not needed), the browser tests
/// drive chromium through chromium-driver (with the fonts chromium recommends, which the pages'
/// screenshots and text measures depend on).
fn debian_packages(needs: Needs) -> Vec<(&'static str, &'static str, bool)> {
    let mut packages = Vec::new();
    if needs.web {
        packages.push(("clang", "/usr/bin/clang", false));
    }
    if needs.browser {
        packages.push(("chromium", "/usr/bin/chromium", true));
        packages.push(("chromium-driver", "/usr/bin/chromedriver", true));
    }
    packages
}

/// The Debian packages of [`debian_packages`], named for a step's line.
pub fn debian_package_names(needs: Needs) -> String {
    let names: Vec<&str> = debian_packages(needs)
        .into_iter()
        .map(|(name, ..)| name)
        .collect();
    names.join(", ")
}

/// Whether the Debian packages `needs` asks for can be installed without asking anyone: they
/// are there, or apt-get runs as root or through sudo without a password. Only then does
/// `cargo xtask test` install them in the background, where a password prompt would be lost in
/// the other steps' output.
pub fn debian_packages_unattended(needs: Needs) -> bool {
    let all_there = debian_packages(needs)
        .iter()
        .all(|(_, program, _)| Path::new(program).exists());
    all_there || as_root() || program("sudo").args(["-n", "true"]).output_text().is_some()
}

fn as_root() -> bool {
    program("id")
        .args(["-u"])
        .output_text()
        .is_some_and(|uid| uid.trim() == "0")
}

/// Installs the [`debian_packages`] that are missing: one `apt-get update`, then `apt-get
/// install` (as root, or through sudo). With `log`, as a background step: apt-get's output is
/// added to that file.
pub fn install_debian_packages(needs: Needs, log: Option<&Path>) -> Result<(), String> {
    let missing: Vec<(&str, bool)> = debian_packages(needs)
        .into_iter()
        .filter(|(_, program, _)| !Path::new(program).exists())
        .map(|(name, _, recommends)| (name, recommends))
        .collect();
    if missing.is_empty() {
        let note = "    already installed\n";
        return match log {
            Some(log) => std::fs::write(log, note)
                .map_err(|err| format!("cannot write {}: {err}", log.display())),
            None => {
                print!("{note}");
                Ok(())
            }
        };
    }
    let root = as_root();
    let apt = |args: &[&str]| {
        let cmd = if root {
            program("apt-get").args(args)
        } else {
            program("sudo").args(["apt-get"]).args(args)
        };
        cmd.env("DEBIAN_FRONTEND", "noninteractive")
            .status_logged(&format!("apt-get {}", args.join(" ")), log)
    };
    apt(&["update"])?;
    for recommends in [false, true] {
        let names: Vec<&str> = missing
            .iter()
            .filter(|(_, r)| *r == recommends)
            .map(|(name, _)| *name)
            .collect();
        if names.is_empty() {
            continue;
        }
        let mut install = vec!["install", "-y"];
        if !recommends {
            install.push("--no-install-recommends");
        }
        install.extend(names);
        apt(&install)?;
    }
    Ok(())
}
