//! qeval-sqlite: runs the expected and the generated query on a SQLite database and hands back
//! their results as data the comparison modes read; and checks two queries for equivalence on
//! generated databases (test-suite checking), with or without a database to start from.
//!
//! Read-only for real, in layers: the core's safety validator refuses what is not a query; the
//! database is a copy in memory opened read-only (the user's file is never touched); an
//! authorizer denies every write, `ATTACH`, `PRAGMA` and any function outside an allow-list; a
//! progress handler interrupts a query past its time limit; results stop at a row cap and say so.

mod authorizer;
mod csv;
mod database;
mod equivalence;
mod generate;
mod value;

pub use database::{Column, Database, DbError, Limits, QueryError, QueryOutput, Table};
pub use equivalence::{
    Assumption, Counterexample, EquivalenceOptions, EquivalenceReport, SchemaChoice, SchemaSource,
    ShownResult, ShownTable, Verdict, check_equivalence,
};
pub use generate::{Cell, TestDatabase, generate};

/// The SQLite library's version (`3.54.1`). The command line and the page are built from the same
/// SQLite source (`cargo xtask` points the wasm build at the native build's amalgamation), so
/// they give the same results; each shows this version so that can be checked.
pub fn sqlite_version() -> &'static str {
    rusqlite::version()
}
