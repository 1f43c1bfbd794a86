//! qeval-core: scores LLM-generated queries against expected ones.
//!
//! Pure functions only: no I/O, no clock, no threads, no web dependencies. The same code runs in
//! the `qeval` command line, in the browser and under Node, so the same input gives the same
//! scorecard everywhere. Malformed input never panics: it becomes a diagnostic in the scorecard.

pub mod datatype;
pub mod execution;
pub mod judge;
pub mod kql;
pub mod metrics;
pub mod pairs;
pub mod profiles;
pub mod random;
pub mod results;
pub mod run;
pub mod score;
pub mod scorecard;
pub mod sql;
pub mod words;

pub use pairs::{InputError, Language, PairInput, parse_pair_line};
pub use score::{
    Analysis, ScoreOptions, add_equivalence, analyse, judge_tasks, score_pair, score_pair_judged,
    table_accuracy_of_sql,
};
pub use scorecard::{Diagnostic, Metric, MetricError, Scorecard};
