//! What the project builds on: every crate in Cargo.lock's resolved graph comes from crates.io
//! (or this repository), under a licence on the allowed list, and no crate is built at two
//! versions unless the reason is written down below. `cargo deny` checks the same three things
//! and also advisories; its advisory database is a git repository on GitHub, which this
//! project's machines cannot reach, so advisories are not checked here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::run;

/// Licences a dependency may be used under (SPDX identifiers).
const ALLOWED_LICENCES: [&str; 14] = [
    "MIT",
    "Apache-2.0",
    "Apache-2.0 WITH LLVM-exception",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "ISC",
    "Zlib",
    "0BSD",
    "CC0-1.0",
    "Unlicense",
    "BSL-1.0",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "CDLA-Permissive-2.0",
];

/// Crates built at more than one version, and why that is accepted. A new duplicate fails the
/// check until it is removed or written here.
const ACCEPTED_DUPLICATES: [(&str, &str); 9] = [
    (
        "base64",
        "wasm-bindgen-cli-support (qeval-bindgen, a build tool) is a version behind",
    ),
    (
        "getrandom",
        "arrow (Python), ring (the CLI's TLS) and gloo each pin their own",
    ),
    (
        "hashbrown",
        "arrow and wasmparser (qeval-bindgen) are a version behind indexmap",
    ),
    ("http", "yew's gloo-net is on 0.2, the CLI's ureq on 1"),
    (
        "r-efi",
        "getrandom's versions each pin their own (UEFI only, never built here)",
    ),
    (
        "syn",
        "yew-macro still needs syn 1; others moved to 2 and 3",
    ),
    ("thiserror", "dependencies are split between 1 and 2"),
    ("thiserror-impl", "follows thiserror"),
    (
        "windows-sys",
        "ring and clap pin different versions (Windows only)",
    ),
];

/// Checks the resolved dependency graph; the error lists every finding.
pub fn check() -> Result<(), String> {
    let metadata = run::cargo()
        .args(["metadata", "--format-version", "1", "--locked"])
        .output_text()
        .ok_or("cargo metadata failed")?;
    let metadata: Value =
        serde_json::from_str(&metadata).map_err(|err| format!("cargo metadata: {err}"))?;
    let findings = findings(&metadata);
    if findings.is_empty() {
        println!(
            "    sources, licences and duplicate versions: as allowed (advisories: not checked, see supply_chain.rs)"
        );
        Ok(())
    } else {
        Err(format!("supply chain:\n  {}", findings.join("\n  ")))
    }
}

/// What is wrong with the packages `cargo metadata` resolved.
fn findings(metadata: &Value) -> Vec<String> {
    let resolved: BTreeSet<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|node| node["id"].as_str())
        .collect();
    let packages = metadata["packages"].as_array().into_iter().flatten();
    let mut findings = Vec::new();
    let mut versions: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for package in packages.filter(|p| p["id"].as_str().is_some_and(|id| resolved.contains(id))) {
        let name = package["name"].as_str().unwrap_or("?");
        let version = package["version"].as_str().unwrap_or("?");
        versions.entry(name).or_default().insert(version);
        match package["source"].as_str() {
            // In this repository.
            None => continue,
            Some(source)
                if source.starts_with("registry+https://github.com/rust-lang/crates.io-index") => {}
            Some(source) => findings.push(format!(
                "{name} {version} comes from {source}, not crates.io"
            )),
        }
        match package["license"].as_str() {
            Some(expression) if allowed(expression) => {}
            Some(expression) => findings.push(format!(
                "{name} {version}: licence `{expression}` is not on the allowed list"
            )),
            None => findings.push(format!("{name} {version} names no SPDX licence")),
        }
    }
    for (name, found) in versions.iter().filter(|(_, found)| found.len() > 1) {
        if !ACCEPTED_DUPLICATES
            .iter()
            .any(|(accepted, _)| accepted == name)
        {
            let found: Vec<&str> = found.iter().copied().collect();
            findings.push(format!(
                "{name} is built at {}: align the versions, or write the reason in ACCEPTED_DUPLICATES",
                found.join(" and ")
            ));
        }
    }
    for (name, _) in ACCEPTED_DUPLICATES {
        if versions.get(name).is_none_or(|found| found.len() < 2) {
            findings.push(format!(
                "{name} is no longer built twice: take it out of ACCEPTED_DUPLICATES"
            ));
        }
    }
    findings
}

/// Whether an SPDX expression lets us use the crate: some alternative (`OR`, or the old `/`)
/// whose every part (`AND`) is allowed.
fn allowed(expression: &str) -> bool {
    let plain = expression.replace(['(', ')'], "");
    plain
        .split(" OR ")
        .flat_map(|part| part.split('/'))
        .any(|alternative| {
            alternative
                .split(" AND ")
                .all(|licence| ALLOWED_LICENCES.contains(&licence.trim()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn licence_expressions_are_read_as_cargo_writes_them() {
        assert!(allowed("MIT OR Apache-2.0"));
        assert!(allowed("MIT/Apache-2.0"));
        assert!(allowed("Apache-2.0 / MIT"));
        assert!(allowed("(MIT OR Apache-2.0) AND Unicode-3.0"));
        assert!(allowed(
            "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"
        ));
        assert!(allowed("MIT OR Apache-2.0 OR LGPL-2.1-or-later"));
        assert!(!allowed("GPL-3.0-only"));
        assert!(!allowed("MIT AND GPL-3.0-only"));
    }

    #[test]
    fn a_git_source_an_unknown_licence_and_a_new_duplicate_are_each_named() {
        let metadata = serde_json::json!({
            "resolve": {"nodes": [{"id": "a"}, {"id": "b1"}, {"id": "b2"}, {"id": "c"}]},
            "packages": [
                {"id": "a", "name": "a", "version": "1.0.0", "license": "MIT", "source": "git+https://example.com/a"},
                {"id": "b1", "name": "b", "version": "1.0.0", "license": "MIT", "source": "registry+https://github.com/rust-lang/crates.io-index"},
                {"id": "b2", "name": "b", "version": "2.0.0", "license": "MIT", "source": "registry+https://github.com/rust-lang/crates.io-index"},
                {"id": "c", "name": "c", "version": "0.1.0", "license": "SSPL-1.0", "source": "registry+https://github.com/rust-lang/crates.io-index"},
                {"id": "unused", "name": "d", "version": "0.1.0", "license": "SSPL-1.0", "source": null},
            ]
        });
        let findings = findings(&metadata).join("\n");
        assert!(
            findings.contains("a 1.0.0 comes from git+https://example.com/a"),
            "{findings}"
        );
        assert!(
            findings.contains("c 0.1.0: licence `SSPL-1.0`"),
            "{findings}"
        );
        assert!(
            findings.contains("b is built at 1.0.0 and 2.0.0"),
            "{findings}"
        );
        assert!(!findings.contains("d 0.1.0"), "{findings}");
    }
}
