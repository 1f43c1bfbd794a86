//! Running programs: inherited output, the project's tool folders on PATH, clear failures.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::{root, web};

/// Where npm puts the packages of `tests/e2e/package.json` (Playwright, wasm-opt).
pub fn node_bin() -> PathBuf {
    root()
        .join("tests")
        .join("e2e")
        .join("node_modules")
        .join(".bin")
}

/// Where `cargo xtask setup` installs the programs it builds: Trunk, and qeval-bindgen under
/// the name Trunk calls, `wasm-bindgen`.
pub fn tools_bin() -> PathBuf {
    root().join("target").join("tools").join("bin")
}

/// PATH with the project's tools first, so the pinned versions win.
pub fn path_with_tools() -> OsString {
    let mut paths = vec![tools_bin(), node_bin()];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).unwrap_or_default()
}

pub struct Cmd {
    command: Command,
    shown: String,
}

/// The SQLite amalgamation the native build compiles (libsqlite3-sys's bundled `sqlite3/`
/// folder). The wasm build is pointed at the same source through sqlite-wasm-rs's
/// `SQLITE_WASM_RS_SOURCE_DIR`, so the command line and the page run one SQLite version; by
/// itself sqlite-wasm-rs would compile its own, older copy.
fn sqlite_source_dir() -> Option<&'static Path> {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    if let Some(dir) = DIR.get() {
        return Some(dir);
    }
    // Not remembered when it fails (say, before the crates are fetched): the next call asks again.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .ok()?;
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    let manifest = metadata["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "libsqlite3-sys")?["manifest_path"]
        .as_str()?
        .to_string();
    let dir = Path::new(&manifest).parent()?.join("sqlite3");
    if !dir.join("sqlite3.c").is_file() {
        return None;
    }
    Some(DIR.get_or_init(|| dir))
}

/// A program run from the repository root with the project's tools on PATH.
pub fn program(name: impl AsRef<OsStr>) -> Cmd {
    let mut command = Command::new(name.as_ref());
    command.current_dir(root()).env("PATH", path_with_tools());
    if on_ci() {
        // A CI machine builds once from a fresh clone, so incremental caches are never reused;
        // they would take a gigabyte of its disk.
        command.env("CARGO_INCREMENTAL", "0");
    }
    if let Some(dir) = sqlite_source_dir() {
        command.env("SQLITE_WASM_RS_SOURCE_DIR", dir);
    }
    Cmd {
        command,
        shown: name.as_ref().to_string_lossy().into_owned(),
    }
}

/// A program run as [`program`] runs it, at the lowest scheduling priority (`nice -n 19`): for
/// work in the background, which then takes only the processor time the steps in the foreground
/// leave idle, and so slows neither them nor the timing the browser tests hold the page to.
pub fn background_program(name: impl AsRef<OsStr>) -> Cmd {
    if cfg!(unix) {
        program("nice").args(["-n".as_ref(), "19".as_ref(), name.as_ref()])
    } else {
        program(name)
    }
}

/// Whether xtask runs in CI (`CI` set and not `false`, as CI services and `.ci/run` set it).
pub fn on_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty() && value != "false")
}

pub fn cargo() -> Cmd {
    program(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The target the page and the JavaScript package are compiled for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// A wasm binary cargo built for [`WASM_TARGET`] into `profile_dir` (`debug` for the dev
/// profile, else the profile's own name).
pub fn wasm32_artifact(profile_dir: &str, name: &str) -> PathBuf {
    root()
        .join("target")
        .join(WASM_TARGET)
        .join(profile_dir)
        .join(format!("{name}.wasm"))
}

/// `qeval-bindgen` as `tools::setup` builds it.
pub fn bindgen_binary() -> PathBuf {
    root()
        .join("target")
        .join("tool")
        .join(executable("qeval-bindgen"))
}

/// Binds `wasm` with `qeval-bindgen` (built by `tools::setup`) for a wasm-bindgen `target`
/// (`nodejs`, the npm package) into `out` as `<name>.js` and `<name>_bg.wasm`.
pub fn bind_wasm(target: &str, name: &str, wasm: &Path, out: &Path) -> Result<(), String> {
    program(bindgen_binary())
        .args(["--target", target, "--out-name", name, "--out-dir"])
        .args([out, wasm])
        .status_ok(&format!("qeval-bindgen --target {target} {name}"))
}

/// A program's file name on this system (`.exe` on Windows).
pub fn executable(name: &str) -> String {
    format!("{name}{}", std::env::consts::EXE_SUFFIX)
}

/// A binary of the debug build.
fn debug_binary(name: &str) -> PathBuf {
    root().join("target").join("debug").join(executable(name))
}

impl Cmd {
    pub fn args<I, S>(mut self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for arg in args {
            self.shown.push(' ');
            self.shown.push_str(&arg.as_ref().to_string_lossy());
            self.command.arg(arg);
        }
        self
    }

    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Cmd {
        self.command.env(key, value);
        self
    }

    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Cmd {
        self.command.current_dir(dir.into());
        self
    }

    /// Runs with output shown; an error names `what` and the exit status.
    pub fn status_ok(mut self, what: &str) -> Result<(), String> {
        let status = self
            .command
            .status()
            .map_err(|err| format!("cannot start `{}` ({what}): {err}", self.shown))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{what} failed ({status}): `{}`", self.shown))
        }
    }

    /// As [`Cmd::status_ok`], or, given a `log` (a background step's), with its output
    /// (standard output and error) added to that file; an error then names the file too.
    pub fn status_logged(mut self, what: &str, log: Option<&Path>) -> Result<(), String> {
        let Some(log) = log else {
            return self.status_ok(what);
        };
        let open = || {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .map_err(|err| format!("cannot write {}: {err}", log.display()))
        };
        self.command.stdout(open()?).stderr(open()?);
        self.status_ok(what)
            .map_err(|err| format!("{err}; its output is in {}", log.display()))
    }

    /// Runs quietly and returns standard output, or `None` if it cannot run or fails.
    pub fn output_text(mut self) -> Option<String> {
        let output = self.command.output().ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
    }
}

/// `node --test` over every `*.test.mjs` file in `dir`, run from `dir`.
pub fn node_test_files(dir: &Path) -> Result<Cmd, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|err| format!("cannot list {}: {err}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.test.mjs files in {}", dir.display()));
    }
    Ok(program("node")
        .args(["--test", "--test-concurrency=1"])
        .args(&files)
        .current_dir(dir))
}

/// The native test build, as the `native tests` step makes it (so after that step this does
/// nothing). Its `qeval` binary is what the JavaScript, Python and browser tests compare with:
/// a `cargo build -p qeval-cli` would resolve features differently and compile much of the
/// workspace a second time.
pub fn native_test_build() -> Cmd {
    cargo().args([
        "test",
        "--workspace",
        // qeval-bindgen is tested in the tool profile setup builds it in (`bindgen tests`);
        // building it in the dev profile too would only cost time.
        "--exclude",
        "qeval-bindgen",
        "--locked",
    ])
}

/// Builds the command line (debug) and gives its path.
pub fn debug_cli() -> Result<PathBuf, String> {
    native_test_build()
        .args(["--no-run"])
        .status_ok("cargo test --workspace --no-run")?;
    Ok(debug_binary("qeval"))
}

/// Builds the LLM providers' test double (debug) and gives its path.
pub fn judge_double() -> Result<PathBuf, String> {
    cargo()
        .args(["build", "--locked", "-p", "qeval-judge-double"])
        .status_ok("cargo build -p qeval-judge-double")?;
    Ok(debug_binary("qeval-judge-double"))
}

/// The browser tests: Node's test runner over `tests/e2e/*.test.mjs`, against the test build
/// (`WebBuild::Test`), with the LLM providers' test double and the CLI (to compare verdicts with)
/// built for them.
pub fn browser_tests() -> Result<(), String> {
    let cli = debug_cli()?;
    let double = judge_double()?;
    let e2e = root().join("tests").join("e2e");
    node_test_files(&e2e)?
        .env("QEVAL_DIST", web::out_dir(web::WebBuild::Test))
        .env("QEVAL_JUDGE_DOUBLE", double)
        .env("QEVAL_CLI", cli)
        .env("QEVAL_ARTIFACTS", e2e.join("artifacts"))
        .status_ok("the browser tests")
}
