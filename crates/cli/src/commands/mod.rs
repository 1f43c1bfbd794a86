//! One module per subcommand.

pub mod bench;
pub mod compare;
pub mod compare_runs;
pub mod report;
pub mod run;
pub mod safety;
pub mod score;
pub mod tables;

use std::io::Read;
use std::path::Path;

pub use qeval_native::folder::run_file;

/// How a command that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
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

/// A file's text, or standard input for `-`.
pub fn file_text(path: &Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        return query_text(None);
    }
    std::fs::read_to_string(path).map_err(|err| format!("cannot read {}: {err}", path.display()))
}
