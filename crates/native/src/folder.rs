//! A run's files on disk, found by the core's rules (`qeval_core::run::folder`).

use std::path::{Path, PathBuf};

use qeval_core::run::folder::{FileKind, choose};

/// The file of `kind` for the run folder `run_dir`: looked for in the folders the kind is kept
/// in, the usual name first, else the only file of that kind. An error names the folder that
/// cannot be listed, or the files among which none can be chosen.
pub fn run_file(run_dir: &Path, kind: FileKind) -> Result<Option<PathBuf>, String> {
    for dir in kind.folders(run_dir) {
        let listing = std::fs::read_dir(&dir)
            .map_err(|err| format!("cannot list {}: {err}", dir.display()))?;
        let names: Vec<String> = listing
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| dir.join(name).is_file())
            .collect();
        let chosen = choose(names.iter().map(String::as_str), kind)
            .map_err(|err| format!("{}: {err}", dir.display()))?;
        if let Some(name) = chosen {
            return Ok(Some(dir.join(name)));
        }
    }
    Ok(None)
}
