//! The workspace's Rust source files, for the tests that read the code itself (`layers`,
//! `type_names`).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `root`, build output and installed packages aside.
pub fn rust_files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the source folder is readable") {
            let path = entry.expect("the source folder is readable").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() && !matches!(name, "target" | "node_modules" | "pkg") {
                stack.push(path);
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }
    found
}
