//! A run's files on disk, found by the core's rules (`qeval_core::run_files`, `qeval_core::file_kind_of`).

use std::path::{Path, PathBuf};

use qeval_core::{FileKind, choose_run_file};

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
        let chosen = choose_run_file(names.iter().map(String::as_str), kind)
            .map_err(|err| format!("{}: {err}", dir.display()))?;
        if let Some(name) = chosen {
            return Ok(Some(dir.join(name)));
        }
    }
    Ok(None)
}

/// Writes `bytes` to `path` as a new file renamed into place. A symlink planted at `path` (a
/// run folder others can write to) is replaced, never written through, and a reader never sees
/// half a file. A device or pipe (`/dev/stdout`) is written to as it is. The error names the
/// path.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    let fail = |err: std::io::Error| format!("cannot write {}: {err}", path.display());
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
        && !meta.file_type().is_symlink()
    {
        return std::fs::write(path, bytes).map_err(fail);
    }
    let name = path
        .file_name()
        .ok_or_else(|| format!("cannot write {}: it names no file", path.display()))?;
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let temp = dir.join(format!(
        ".{}.{}.partial",
        name.to_string_lossy(),
        std::process::id()
    ));
    // `create_new` refuses an existing file or link at the temporary name as well.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(fail(err));
    }
    Ok(())
}
