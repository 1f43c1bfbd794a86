//! KQL (Kusto Query Language): tokenizing, the pipeline structure, source tables, the canonical
//! form for the exact-match shortcut, and the structural judge.
//!
//! A query is optional `let` statements followed by a tabular expression: a source (a table,
//! `union`, `datatable`, `print`, a function call) and `|`-separated operators. Names in KQL are
//! case-sensitive, so the canonical form keeps case; timespans are canonical whatever their
//! unit (`1h` = `60m` = `3600s`).

mod lexer;
mod pipeline;

pub use lexer::{Token, TokenKind, format_timespan, tokenize};
pub use pipeline::{KqlQuery, Operator, judge, parse};
