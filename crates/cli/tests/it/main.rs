//! Every integration test of this crate, one module per concern, built as one binary: a
//! binary per file would link the crate and its dependencies once per file (about 40 MB
//! each, and a link each). Run one concern with `cargo test -p qeval-cli --test it <module>::`.

mod assumptions;
mod bench;
mod cli;
mod compare_runs;
mod db;
mod hostile;
mod judge;
mod outputs;
mod pipes;
mod run;
