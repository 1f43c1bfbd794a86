//! The core's modules stay in layers: each top-level module may use only the modules of lower
//! layers, and no group of modules, at any depth, uses itself round a cycle. `ARCHITECTURE.md`
//! draws the same layers; this test is what keeps them.
//!
//! Dependencies are read from the source text: every `crate::a::b` and `super::c` path outside a
//! file's `#[cfg(test)] mod tests`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::source_files::rust_files;

/// Lowest first. A module may use the modules of the layers before its own, not its own layer's
/// nor later ones.
const LAYERS: &[&[&str]] = &[
    // Words for messages, escaping for outputs, seeded randomness, the two languages, one
    // metric's verdict, SQL.
    &["words", "escape", "random", "language", "metric", "sql"],
    // Result sets and their comparison; KQL's tokens and pipelines; how a field of a JSON line
    // is read; the JSON Schema of what a field's reader or a metric's name does not declare.
    &["results", "kql", "fields", "json_schema"],
    // What uses results alone or a metric alone.
    &["datatype", "execution_similarity", "profiles"],
    // The scorecard's shape; the metrics computed from queries.
    &["scorecard", "metrics"],
    // One query, parsed and analysed.
    &["analysis"],
    // The structural judge.
    &["judge"],
    // The input files: pairs and records.
    &["pairs"],
    // Scoring a pair.
    &["score"],
    // Runs: folders of evaluation files, summaries, comparisons.
    &["run"],
    // Public benchmarks' files and official rules.
    &["bench"],
    // The run pipeline: runs and benchmarks planned into jobs, answers into records.
    &["pipeline"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every module file, by module path (`results::compare::bag`); `lib.rs` is the empty path.
fn modules() -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for path in rust_files(&src()) {
        let relative = path
            .strip_prefix(src())
            .expect("a file under src")
            .with_extension("");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
            parts.pop();
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => text[..at].to_string(),
            None => text,
        };
        found.insert(parts.join("::"), code);
    }
    found
}

/// The module paths a file's code names, resolved to the deepest module that exists.
fn uses(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    for (prefix, base) in [("crate::", ""), ("super::", parent)] {
        for (at, _) in code.match_indices(prefix) {
            // A word before the prefix (`my_crate::`, `a::super::`) means it is not a path
            // that starts here.
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut target = base.to_string();
            for part in path.split("::").filter(|p| !p.is_empty()) {
                let next = if target.is_empty() {
                    part.to_string()
                } else {
                    format!("{target}::{part}")
                };
                if !known.contains(&next) {
                    break;
                }
                target = next;
            }
            if target != base && target != module {
                out.insert(target);
            }
        }
    }
    out
}

fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or("")
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(module, code)| (module.clone(), uses(module, code, &known)))
        .collect()
}

#[test]
fn every_top_level_module_uses_only_lower_layers() {
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| layer.iter().map(move |m| (*m, i)))
        .collect();
    let graph = graph();
    let mut against = Vec::new();
    for (module, targets) in &graph {
        if module.is_empty() {
            continue; // lib.rs declares and re-exports every module.
        }
        let from = top(module);
        let Some(&level) = layer_of.get(from) else {
            against.push(format!(
                "{module}: `{from}` is in no layer; add it to LAYERS"
            ));
            continue;
        };
        for target in targets {
            let to = top(target);
            if to == from {
                continue;
            }
            match layer_of.get(to) {
                Some(&other) if other < level => {}
                _ => against.push(format!("{module} uses {target}")),
            }
        }
    }
    assert!(
        against.is_empty(),
        "dependencies against the layers:\n{}",
        against.join("\n")
    );
}

#[test]
fn no_modules_use_each_other_round_a_cycle() {
    // Modules grouped one level down (`results::compare`, not each of its files), whose files may
    // use each other freely.
    let group = |m: &str| m.split("::").take(2).collect::<Vec<_>>().join("::");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, targets) in graph() {
        if module.is_empty() {
            continue;
        }
        let from = group(&module);
        for target in targets {
            let to = group(&target);
            // A module and its own submodules are one unit.
            if to != from
                && !to.starts_with(&format!("{from}::"))
                && !from.starts_with(&format!("{to}::"))
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    let cycles = cycles(&edges);
    assert!(cycles.is_empty(), "modules in a cycle: {cycles:?}");
}

/// The strongly connected groups of more than one module (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, node: &'a str) {
            let at = self.index.len();
            self.index.insert(node, at);
            self.low.insert(node, at);
            self.stack.push(node);
            for next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.stack.contains(&next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    group.push(member.to_string());
                    if member == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found
}

#[test]
fn the_check_sees_a_dependency_against_the_layers() {
    // Guards the reader itself: were paths not resolved, both checks above would pass vacuously.
    let known: BTreeSet<String> = ["sql", "score", "results", "results::compare"]
        .into_iter()
        .map(String::from)
        .collect();
    let code = "use crate::score::ScoreOptions;\nfn f() { super::compare::Mode::Bag; my_crate::sql::x(); }";
    let found = uses("results::python", code, &known);
    assert_eq!(
        found,
        BTreeSet::from(["score".to_string(), "results::compare".to_string()])
    );
    let cycle = BTreeMap::from([
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]);
    assert_eq!(cycles(&cycle), vec![vec!["a".to_string(), "b".to_string()]]);
    assert!(graph().values().map(BTreeSet::len).sum::<usize>() > 100);
}
