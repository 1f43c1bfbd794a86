//! One module per subcommand.

pub mod compare;
pub mod compare_runs;
pub mod report;
pub mod run;
pub mod safety;
pub mod score;
pub mod tables;

use std::io::Read;
use std::path::{Path, PathBuf};

use qeval_core::run::folder::{FileKind, choose};

/// How a command that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Clean,
    /// Some input could not be used, or a check failed; everything else was processed.
    SomeInputRejected,
}

/// A command that could not run at all, as a message for the user.
pub type Failure = String;

/// The query given on the command line, or standard input for `-` or none.
pub fn query_text(query: Option<&str>) -> Result<String, Failure> {
    match query {
        Some(text) if text != "-" => Ok(text.to_string()),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|err| format!("cannot read the query from standard input: {err}"))?;
            Ok(text)
        }
    }
}

/// A file's bytes (JSON Lines are decoded line by line, so one bad byte loses one line).
pub fn file_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|err| format!("cannot read {}: {err}", path.display()))
}

/// The file of `kind` for the run folder `run_dir`, by the rules every reader of run folders
/// uses (`qeval_core::run::folder`); `None` when there is none.
pub fn run_file(run_dir: &Path, kind: FileKind) -> Result<Option<PathBuf>, Failure> {
    for dir in kind.folders(run_dir) {
        let entries = std::fs::read_dir(&dir)
            .map_err(|err| format!("cannot list {}: {err}", dir.display()))?;
        let names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .filter(|entry| entry.path().is_file())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        let chosen = choose(names.iter().map(String::as_str), kind)
            .map_err(|err| format!("{}: {err}", dir.display()))?;
        if let Some(name) = chosen {
            return Ok(Some(dir.join(name)));
        }
    }
    Ok(None)
}

/// A file's text, or standard input for `-`.
pub fn file_text(path: &Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        return query_text(None);
    }
    std::fs::read_to_string(path).map_err(|err| format!("cannot read {}: {err}", path.display()))
}
