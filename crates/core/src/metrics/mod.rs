//! Metric calculators: each a pure function from analysed inputs to a score and its parts.

mod table_accuracy;

pub use table_accuracy::{TableAccuracy, TableMatch, table_accuracy};
