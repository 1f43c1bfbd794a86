//! The Python package: a virtual environment in `target/python-venv` with the pinned test
//! requirements, the package built by maturin and installed into it, and its pytest suite.

use std::path::{Path, PathBuf};

use crate::root;
use crate::run;

fn venv() -> PathBuf {
    root().join("target").join("python-venv")
}

/// The environment's interpreter, with the package installed (after [`install`]).
pub fn python() -> PathBuf {
    venv_program("python")
}

fn venv_program(name: &str) -> PathBuf {
    venv().join("bin").join(name)
}

/// How the package is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonBuild {
    /// As `pip install ./crates/python` builds it (profile `python-release`): for benchmarks.
    Release,
    /// Cargo's `dev` profile, which reuses what the native tests compiled: minutes quicker on a
    /// fresh machine, and the tests check behaviour, not speed.
    Test,
}

/// Creates the environment (once) and installs the pinned requirements and the package.
pub fn install(build: PythonBuild) -> Result<(), String> {
    install_requirements(None)?;
    install_package(build)
}

/// Creates the environment (once) and installs the pinned test requirements (pandas, polars,
/// pyarrow, Ray, pytest, maturin). With `log`, as a background step: at the lowest priority and
/// with pip's output added to that file.
pub fn install_requirements(log: Option<&Path>) -> Result<(), String> {
    let program = |name: PathBuf| match log {
        Some(_) => run::background_program(name),
        None => run::program(name),
    };
    if !venv_program("python").exists() {
        program("python3".into())
            .args(["-m".as_ref(), "venv".as_ref(), venv().as_os_str()])
            .status_logged("python3 -m venv target/python-venv", log)?;
    }
    let requirements = root()
        .join("crates")
        .join("python")
        .join("tests")
        .join("requirements.txt");
    pip(program(venv_program("python")))
        .args(["-r".as_ref(), requirements.as_os_str()])
        .status_logged("pip install -r crates/python/tests/requirements.txt", log)
}

/// Builds the package with maturin and installs it into the environment, whose requirements
/// [`install_requirements`] installed.
pub fn install_package(build: PythonBuild) -> Result<(), String> {
    // maturin comes from the requirements, so pip builds with it rather than fetching one.
    let package = root().join("crates").join("python");
    let mut install = pip(run::program(venv_program("python")))
        .args([
            "--no-build-isolation".as_ref(),
            "--force-reinstall".as_ref(),
            "--no-deps".as_ref(),
            package.as_os_str(),
        ])
        .env("PATH", venv_path());
    if build == PythonBuild::Test {
        // maturin's build backend takes extra `maturin build` arguments from this variable.
        install = install.env("MATURIN_PEP517_ARGS", "--profile dev");
    }
    install.status_ok("pip install ./crates/python")
}

/// `pip install --quiet` run by `python`, the environment's interpreter; the caller adds what
/// to install.
fn pip(python: run::Cmd) -> run::Cmd {
    let pip = python.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    if run::on_ci() {
        // A second copy of every wheel (Ray, pyarrow and polars are hundreds of megabytes) in a
        // cache no later run on that machine reads.
        pip.args(["--no-cache-dir"])
    } else {
        pip
    }
}

/// PATH with the environment's programs (maturin) first.
fn venv_path() -> std::ffi::OsString {
    let mut paths = vec![venv().join("bin")];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).unwrap_or_default()
}

/// The pytest suite, against the debug `qeval` binary (built by the native tests) and the LLM
/// providers' test double.
pub fn tests() -> Result<(), String> {
    tests_against(&run::debug_cli()?, &run::judge_double()?, None)
}

/// The pytest suite against the `qeval` binary `cli` and the test double `double`, built before.
/// With `log`, as a background step: pytest's output is added to that file.
pub fn tests_against(cli: &Path, double: &Path, log: Option<&Path>) -> Result<(), String> {
    run::program(venv_program("python"))
        .args(["-m", "pytest", "-q"])
        .args([root().join("crates").join("python").join("tests")])
        .env("QEVAL_CLI", cli)
        .env("QEVAL_JUDGE_DOUBLE", double)
        .status_logged("pytest crates/python/tests", log)
}

/// The row-shape fuzz test (`test_fuzz_rows.py`) for `seconds`, printing its seed.
pub fn fuzz_rows(seconds: u64) -> Result<(), String> {
    run::program(venv_program("python"))
        .args(["-m", "pytest", "-q", "-s"])
        .args([root()
            .join("crates")
            .join("python")
            .join("tests")
            .join("test_fuzz_rows.py")])
        .env("QEVAL_FUZZ_SECONDS", seconds.to_string())
        .status_ok("pytest test_fuzz_rows.py")
}
