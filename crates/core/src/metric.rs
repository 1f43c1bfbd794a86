//! One metric's verdict, and why a metric could not be computed: the unit every metric gives
//! and the scorecard, the profiles and the reports read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One metric's verdict. `score` is in 0..=1, or null when the metric does not apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    pub score: Option<f64>,
    /// Whether the metric's own pass rule held, for metrics that have one.
    pub passed: Option<bool>,
    pub explanation: String,
    /// The parts the score was computed from; the shape depends on the metric.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
    pub error: Option<MetricError>,
}

impl Metric {
    /// A metric that could not be computed: score 0.0 with the error that stopped it, so the other
    /// metrics still run.
    pub fn failed(error: MetricError) -> Metric {
        Metric {
            score: Some(0.0),
            passed: Some(false),
            explanation: error.message.clone(),
            details: serde_json::Value::Null,
            error: Some(error),
        }
    }
}

/// Why a metric failed: which metric, on what input, with what message, and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricError {
    pub metric: String,
    pub message: String,
    /// The inputs the metric was given, by name (e.g. `generated_sql`).
    pub inputs: BTreeMap<String, String>,
    /// When the failure happened, as given by the caller (the core has no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}
