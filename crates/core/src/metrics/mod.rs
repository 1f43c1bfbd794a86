//! Metric calculators: each a pure function from analysed inputs to a score and its parts.

pub(crate) mod calibration;
pub(crate) mod classification;
pub(crate) mod efficiency;
pub(crate) mod safety_classification;
pub(crate) mod schema_validity;
pub(crate) mod table_accuracy;
pub(crate) mod validation_accuracy;
pub(crate) mod workflow;

pub(crate) use table_accuracy::{TableAccuracy, TableMatch, table_accuracy};
