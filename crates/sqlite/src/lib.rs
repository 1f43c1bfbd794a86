//! qeval-sqlite: runs the expected and the generated query on a SQLite database and hands back
//! their results as data the comparison modes read; and checks two queries for equivalence on
//! generated databases (test-suite checking), with or without a database to start from.
//!
//! Read-only for real, in layers: the core's safety validator refuses what is not a query; the
//! database is a copy in memory opened read-only (the user's file is never touched); an
//! authorizer denies every write, `ATTACH`, `PRAGMA` and any function outside an allow-list; a
//! progress handler interrupts a query past its time limit; results stop at a row cap and say so.

//!
//! Without the `engine` feature (on by default) the crate is only its data: query outputs and
//! equivalence reports, for a program that shows them but runs no SQLite (the page's main
//! bundle; the engine runs in its worker).

#[cfg(feature = "engine")]
mod assumption;
#[cfg(feature = "engine")]
mod authorizer;
#[cfg(feature = "engine")]
mod csv;
#[cfg(feature = "engine")]
mod database;
#[cfg(feature = "engine")]
mod equivalence;
#[cfg(feature = "engine")]
mod generate;
mod output;
mod report;
#[cfg(feature = "engine")]
mod search;
#[cfg(feature = "engine")]
mod value;

#[cfg(feature = "engine")]
pub use database::{Database, Limits};
#[cfg(feature = "engine")]
pub use equivalence::{
    EquivalenceOptions, PairCheck, SchemaChoice, check_equivalence, suite_metric,
};
#[cfg(feature = "engine")]
pub use generate::{Cell, TestDatabase, generate};
pub use output::{
    Column, DbError, QueryError, QueryOutput, Table, schema_names, schema_names_value,
};
pub use report::{
    Assumption, BoundarySearch, Counterexample, EquivalenceReport, EquivalenceVerdict,
    SchemaSource, ShownResult, ShownTable,
};

/// The SQLite library's version (`3.54.1`). The command line and the page are built from the same
/// SQLite source (`cargo xtask` points the wasm build at the native build's amalgamation), so
/// they give the same results; each shows this version so that can be checked.
#[cfg(feature = "engine")]
pub fn sqlite_version() -> &'static str {
    rusqlite::version()
}
