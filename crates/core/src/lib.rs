//! qeval-core: scores LLM-generated queries against expected ones.
//!
//! Pure functions only: no I/O, no clock, no threads, no web dependencies. The same code runs in
//! the `qeval` command line, in the browser and under Node, so the same input gives the same
//! scorecard everywhere. Malformed input never panics: it becomes a diagnostic in the scorecard.

pub mod analysis;
pub mod bench;
pub mod datatype;
pub mod escape;
pub mod execution_similarity;
pub mod fields;
pub mod judge;
pub mod kql;
pub mod language;
pub mod metric;
pub mod metrics;
pub mod pairs;
pub mod pipeline;
pub mod profiles;
pub mod random;
pub mod results;
pub mod run;
pub mod score;
pub mod scorecard;
pub mod sql;
pub mod words;

pub use analysis::{Analysis, analyse, analyse_as};
pub use language::Language;
pub use metric::{Metric, MetricError, MetricKind, MetricName};
pub use pairs::{InputError, PairInput, parse_pair_line};
pub use score::{
    ScoreOptions, add_equivalence, judge_tasks, score_pair, score_pair_judged,
    table_accuracy_of_sql,
};
pub use scorecard::{Diagnostic, Scorecard};
