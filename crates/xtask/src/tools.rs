//! Installing the tools the project needs, at pinned versions, only when missing.
//!
//! Nothing is downloaded from GitHub releases: Rust tools are built with `cargo install` into
//! `.tools/`, npm packages come from the lockfiles of `tests/e2e` (browser tests, wasm-opt) and
//! `www/editor` (CodeMirror, esbuild), the browser from Debian.

use std::path::Path;

use crate::root;
use crate::run::{self, Cmd, program};
use crate::steps::Steps;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Which tools a command needs.
#[derive(Debug, Clone, Copy)]
pub struct Needs {
    pub web: bool,
    pub browser: bool,
}

impl Needs {
    /// Building the web app: wasm target, trunk, wasm-bindgen, wasm-opt.
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
    steps.run("wasm target", WASM_TARGET, ensure_wasm_target)?;
    if needs.web {
        let trunk = pinned_trunk_version()?;
        steps.run("trunk", &format!("trunk {trunk} in .tools/bin"), || {
            ensure_trunk(&trunk)
        })?;
        let bindgen = locked_version("wasm-bindgen")?;
        steps.run(
            "wasm-bindgen-cli",
            &format!("wasm-bindgen {bindgen} (the version in Cargo.lock) in .tools/bin"),
            || ensure_wasm_bindgen(&bindgen),
        )?;
        steps.run(
            "clang",
            "Debian's clang, for SQLite's C in wasm",
            ensure_clang,
        )?;
        steps.run(
            "npm packages",
            "wasm-opt and Playwright (tests/e2e), CodeMirror and esbuild (www/editor), from their lockfiles",
            ensure_npm_packages,
        )?;
        // Trunk builds offline, so every crate must be in the local registry first.
        steps.run(
            "cargo fetch",
            "download the crates Cargo.lock names",
            || {
                run::cargo()
                    .args(["fetch", "--locked"])
                    .status_ok("cargo fetch")
            },
        )?;
    }
    if needs.browser {
        steps.run(
            "chromium",
            "Debian's chromium and chromium-driver",
            ensure_chromium,
        )?;
    }
    Ok(())
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

/// The `trunk-version` requirement in Trunk.toml, which must be an exact `=X.Y.Z`.
fn pinned_trunk_version() -> Result<String, String> {
    let path = root().join("Trunk.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("trunk-version"))
        .filter_map(|rest| rest.trim().strip_prefix('='))
        .map(|value| {
            value
                .trim()
                .trim_matches('"')
                .trim_start_matches('=')
                .to_string()
        })
        .next()
        .ok_or_else(|| format!("{} has no `trunk-version = \"=X.Y.Z\"`", path.display()))
}

/// The version of a package in Cargo.lock.
pub fn locked_version(package: &str) -> Result<String, String> {
    let path = root().join("Cargo.lock");
    let text = std::fs::read_to_string(&path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let wanted = format!("name = \"{package}\"");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted
            && let Some(version) = lines
                .next()
                .and_then(|next| next.trim().strip_prefix("version = "))
        {
            return Ok(version.trim_matches('"').to_string());
        }
    }
    Err(format!("{package} is not in {}", path.display()))
}

/// The version a tool in `.tools/bin` reports, if it runs: `trunk 0.21.14` gives `0.21.14`.
fn installed_version(tool: &str) -> Option<String> {
    let text = run::cargo_tool(tool).args(["--version"]).output_text()?;
    text.split_whitespace().nth(1).map(str::to_string)
}

fn cargo_install(package: &str, version: &str) -> Cmd {
    run::cargo().args([
        "install",
        "--root",
        &root().join(".tools").to_string_lossy(),
        "--version",
        version,
        package,
    ])
}

fn ensure_trunk(version: &str) -> Result<(), String> {
    if installed_version("trunk").as_deref() == Some(version) {
        println!("    already installed");
        return Ok(());
    }
    println!("    building trunk from crates.io (about 10 minutes on 2 cores)");
    cargo_install("trunk", version)
        .args(["--locked", "--force"])
        .status_ok("cargo install trunk")
}

fn ensure_wasm_bindgen(version: &str) -> Result<(), String> {
    if installed_version("wasm-bindgen").as_deref() == Some(version) {
        println!("    already installed");
        return Ok(());
    }
    println!("    building wasm-bindgen-cli from crates.io (about 5 minutes on 2 cores)");
    let locked = cargo_install("wasm-bindgen-cli", version)
        .args(["--locked", "--force"])
        .status_ok("cargo install wasm-bindgen-cli --locked");
    if locked.is_ok() {
        return locked;
    }
    // A locked dependency version can be missing from a registry mirror; the unlocked
    // resolution still gives the same wasm-bindgen.
    println!("    --locked failed; retrying without it");
    cargo_install("wasm-bindgen-cli", version)
        .args(["--force"])
        .status_ok("cargo install wasm-bindgen-cli")
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

fn ensure_chromium() -> Result<(), String> {
    apt_install(
        &["/usr/bin/chromium", "/usr/bin/chromedriver"],
        &["chromium", "chromium-driver"],
    )
}

/// clang compiles SQLite's C for wasm32 (sqlite-wasm-rs, in the web app).
fn ensure_clang() -> Result<(), String> {
    apt_install(&["/usr/bin/clang"], &["--no-install-recommends", "clang"])
}

/// Installs Debian packages unless every one of `paths` already exists.
fn apt_install(paths: &[&str], packages: &[&str]) -> Result<(), String> {
    if paths.iter().all(|path| Path::new(path).exists()) {
        println!("    already installed");
        return Ok(());
    }
    let as_root = program("id")
        .args(["-u"])
        .output_text()
        .is_some_and(|uid| uid.trim() == "0");
    let apt = |args: &[&str]| {
        let cmd = if as_root {
            program("apt-get").args(args)
        } else {
            program("sudo").args(["apt-get"]).args(args)
        };
        cmd.env("DEBIAN_FRONTEND", "noninteractive")
            .status_ok(&format!("apt-get {}", args[0]))
    };
    apt(&["update"])?;
    let mut install = vec!["install", "-y"];
    install.extend_from_slice(packages);
    apt(&install)
}
