//! The package's TypeScript declarations: the types its functions take and return.
//!
//! They live here, at the JavaScript boundary, in `qeval.d.ts`, and are generated (by this
//! crate's tests) from the JSON Schema that qeval-core and qeval-sqlite derive from their serde
//! declarations under their `json-schema` feature. So the core knows nothing of TypeScript, the
//! declarations follow the types, and no wasm build compiles the schema. When a type changes,
//! `cargo test -p qeval-wasm` rewrites `qeval.d.ts` and fails once; commit the new file.

use wasm_bindgen::prelude::*;

#[cfg(test)]
mod generate;
#[cfg(test)]
mod render;

#[wasm_bindgen(typescript_custom_section)]
const DECLARATIONS: &str = include_str!("qeval.d.ts");
