//! The wasm32 builds compile the core once. Cargo compiles a crate again for every set of
//! features it is built with, and a feature one build turns on deep in the graph (serde_core's
//! `default`, say, which only csv asks for) changes the crates above it too. The page is three
//! wasm builds (the app, the scorer and the SQLite worker) and the npm package a fourth; when
//! their features differ under qeval-core, each compiles the core, the judge and serde_json
//! again (the page's test build took 182 s instead of 73 s). qeval-worker and qeval-wasm turn on
//! what the others turn on; this check keeps it so: every crate qeval-core is built from has one
//! set of features in all four builds, or the check names it.

use std::collections::{BTreeMap, BTreeSet};

use crate::run::{self, WASM_TARGET};

/// The four wasm32 builds, as `cargo tree` selects them.
const BUILDS: [(&str, &[&str]); 4] = [
    ("the npm package", &["-p", "qeval-wasm"]),
    ("the page's app", &["-p", "qeval-web"]),
    (
        "the page's scorer",
        &["-p", "qeval-worker", "--no-default-features"],
    ),
    ("the page's SQLite worker", &["-p", "qeval-worker"]),
];

pub fn check() -> Result<(), String> {
    let core = tree(&["-p", "qeval-core"])?;
    let mut seen: BTreeMap<&str, BTreeMap<String, BTreeSet<&str>>> = BTreeMap::new();
    let builds = BUILDS
        .iter()
        .map(|(build, args)| Ok((*build, tree(args)?)))
        .collect::<Result<Vec<_>, String>>()?;
    for (build, features) in &builds {
        for name in core.keys() {
            let of_build = features.get(name).cloned().unwrap_or_default();
            seen.entry(name.as_str())
                .or_default()
                .entry(of_build)
                .or_default()
                .insert(build);
        }
    }
    let split: Vec<String> = seen
        .into_iter()
        .filter(|(_, sets)| sets.len() > 1)
        .map(|(name, sets)| {
            let sets: Vec<String> = sets
                .into_iter()
                .map(|(features, builds)| {
                    let builds: Vec<&str> = builds.into_iter().collect();
                    format!("[{features}] in {}", builds.join(", "))
                })
                .collect();
            format!("  {name}: {}", sets.join("; "))
        })
        .collect();
    if split.is_empty() {
        println!(
            "    the {} crates qeval-core is built from have one set of features in all four wasm32 builds",
            core.len()
        );
        return Ok(());
    }
    Err(format!(
        "crates under qeval-core are built with different features in the wasm32 builds, so \
         each compiles them again; turn the missing features on in qeval-worker's and \
         qeval-wasm's Cargo.toml:\n{}",
        split.join("\n")
    ))
}

/// `cargo tree` of one build for wasm32: each package ("name vX.Y.Z") with its features, the
/// sets it is built with joined by " / " (a crate built for the host too can have two).
fn tree(selection: &[&str]) -> Result<BTreeMap<String, String>, String> {
    let output = run::cargo()
        .args(["tree", "--locked", "--target", WASM_TARGET, "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}|{f}"])
        .args(selection)
        .output_text()
        .ok_or_else(|| format!("`cargo tree {}` failed", selection.join(" ")))?;
    let mut sets: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in output.lines() {
        let Some((package, features)) = line.split_once('|') else {
            continue;
        };
        // "qeval-core v0.1.0 (/path)" is "qeval-core v0.1.0"; " (*)" marks a repeat.
        let package = package.split(" (").next().unwrap_or(package).trim();
        let features = features.trim().trim_end_matches("(*)").trim();
        sets.entry(package.to_string())
            .or_default()
            .insert(features.to_string());
    }
    Ok(sets
        .into_iter()
        .map(|(package, features)| {
            let features: Vec<String> = features.into_iter().collect();
            (package, features.join(" / "))
        })
        .collect())
}
