//! Metric calculators: each a pure function from analysed inputs to a score and its parts.

pub mod calibration;
pub mod classification;
pub mod efficiency;
pub mod safety_classification;
pub mod schema_validity;
mod table_accuracy;
pub mod validation_accuracy;
pub mod workflow;

pub use table_accuracy::{TableAccuracy, TableMatch, table_accuracy};
