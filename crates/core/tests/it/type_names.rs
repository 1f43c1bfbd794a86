//! One meaning per word, for type names: no two structs, enums, traits or type aliases in the
//! workspace share a name, so a name read in one crate is never a different type in another
//! (`ARCHITECTURE.md`'s glossary says what each means). Yew's `Props`, one per component file and
//! never imported elsewhere, are the exception; associated types (`type Value = ...` inside an
//! `impl`) are not declarations of a name and are not read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::source_files::rust_files;

/// Names that each component declares for itself, by the framework's convention.
const PER_COMPONENT: &[&str] = &["Props"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// The type names a line declares: `pub(crate) struct Name`, `enum Name<T>`, `trait Name`, and a
/// `type Name =` alias at the start of a line (an indented one is an associated type or local).
fn declared(line: &str) -> Option<&str> {
    let indented = line.starts_with(' ');
    let mut words = line.split_whitespace();
    let mut word = words.next()?;
    if word.starts_with("pub") {
        word = words.next()?;
    }
    let is_type = match word {
        "struct" | "enum" | "trait" => true,
        "type" => !indented,
        _ => false,
    };
    if !is_type {
        return None;
    }
    let name = words.next()?;
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    let name = &name[..end];
    name.starts_with(|c: char| c.is_ascii_uppercase())
        .then_some(name)
}

#[test]
fn no_two_types_in_the_workspace_share_a_name() {
    let root = workspace();
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in rust_files(&root.join("crates")) {
        let text = std::fs::read_to_string(&path).expect("a source file is text");
        let file = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (number, line) in text.lines().enumerate() {
            if let Some(name) = declared(line) {
                places
                    .entry(name.to_string())
                    .or_default()
                    .push(format!("{file}:{}", number + 1));
            }
        }
    }
    assert!(
        places.len() > 300,
        "the scan found only {} type names: is it reading the workspace?",
        places.len()
    );
    let shared: Vec<String> = places
        .iter()
        .filter(|(name, at)| at.len() > 1 && !PER_COMPONENT.contains(&name.as_str()))
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "type names declared more than once (rename one, and say in ARCHITECTURE.md's glossary \
         which is which):\n{}",
        shared.join("\n")
    );
}

#[test]
fn declarations_are_read_and_associated_types_are_not() {
    assert_eq!(declared("pub(crate) struct Options {"), Some("Options"));
    assert_eq!(declared("enum Shape<T> {"), Some("Shape"));
    assert_eq!(declared("pub trait Spread: Sync {"), Some("Spread"));
    assert_eq!(
        declared("pub type LoadProgress = Rc<dyn Fn(f64, f64)>;"),
        Some("LoadProgress")
    );
    assert_eq!(declared("    type Value = Item;"), None);
    assert_eq!(declared("    let structure = 1;"), None);
    assert_eq!(declared("struct lower;"), None);
}
