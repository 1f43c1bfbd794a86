//! Every integration test of this crate, one module per concern, built as one binary: a
//! binary per file would link the crate and its dependencies once per file (about 40 MB
//! each, and a link each). Run one concern with `cargo test -p qeval-sqlite --test it <module>::`.

mod constructs;
mod csv_import;
mod equivalence;
mod fuzz_equivalence;
mod labelled;
mod read_only;
