//! One metric's verdict, and why a metric could not be computed: the unit every metric gives
//! and the scorecard, the profiles and the reports read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One metric's verdict. `score` is in 0..=1, or null when the metric does not apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct MetricError {
    pub metric: String,
    pub message: String,
    /// The inputs the metric was given, by name (e.g. `generated_sql`).
    pub inputs: BTreeMap<String, String>,
    /// When the failure happened, as given by the caller (the core has no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// The name of a metric, as the scorecard's `metrics` object keys it. Every metric qeval computes
/// is one of these, so a misspelt name is a compile error here and a clear error in a custom
/// profile, never a silent new metric. The JSON names (`as_str`) never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetricName {
    ExactMatch,
    QueryCorrectness,
    SemanticSimilarity,
    Safety,
    SchemaValidity,
    TableAccuracy,
    ResultsMatch,
    Execution,
    Datatype,
    Efficiency,
    Equivalence,
    TestSuite,
    Workflow,
    AnswerQuality,
    FactualCorrectness,
    Completeness,
    SafetyClassification,
    ValidationAccuracy,
}

/// What a metric looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricKind {
    /// The two queries' text and structure: no database needed.
    Query,
    /// The results the queries returned.
    Result,
    /// Both queries run on generated or loaded databases.
    Equivalence,
    /// An agent's steps and final answer.
    Agent,
    /// A query validator's own verdict against the pair's label.
    Validator,
}

impl MetricName {
    pub const ALL: [MetricName; 18] = [
        MetricName::ExactMatch,
        MetricName::QueryCorrectness,
        MetricName::SemanticSimilarity,
        MetricName::Safety,
        MetricName::SchemaValidity,
        MetricName::TableAccuracy,
        MetricName::ResultsMatch,
        MetricName::Execution,
        MetricName::Datatype,
        MetricName::Efficiency,
        MetricName::Equivalence,
        MetricName::TestSuite,
        MetricName::Workflow,
        MetricName::AnswerQuality,
        MetricName::FactualCorrectness,
        MetricName::Completeness,
        MetricName::SafetyClassification,
        MetricName::ValidationAccuracy,
    ];

    /// The three scores one answer-quality judging gives.
    pub const QUALITY: [MetricName; 3] = [
        MetricName::AnswerQuality,
        MetricName::FactualCorrectness,
        MetricName::Completeness,
    ];

    /// The key in the scorecard's JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            MetricName::ExactMatch => "exact_match",
            MetricName::QueryCorrectness => "query_correctness",
            MetricName::SemanticSimilarity => "semantic_similarity",
            MetricName::Safety => "safety",
            MetricName::SchemaValidity => "schema_validity",
            MetricName::TableAccuracy => "table_accuracy",
            MetricName::ResultsMatch => "results_match",
            MetricName::Execution => "execution",
            MetricName::Datatype => "datatype",
            MetricName::Efficiency => "efficiency",
            MetricName::Equivalence => "equivalence",
            MetricName::TestSuite => "test_suite",
            MetricName::Workflow => "workflow",
            MetricName::AnswerQuality => "answer_quality",
            MetricName::FactualCorrectness => "factual_correctness",
            MetricName::Completeness => "completeness",
            MetricName::SafetyClassification => "safety_classification",
            MetricName::ValidationAccuracy => "validation_accuracy",
        }
    }

    /// The name people read: titles in the page and the reports.
    pub fn title(self) -> &'static str {
        match self {
            MetricName::ExactMatch => "Exact match",
            MetricName::QueryCorrectness => "Query correctness",
            MetricName::SemanticSimilarity => "Semantic similarity",
            MetricName::Safety => "Safety (read-only)",
            MetricName::SchemaValidity => "Schema validity",
            MetricName::TableAccuracy => "Table accuracy",
            MetricName::ResultsMatch => "Results match",
            MetricName::Execution => "Execution similarity",
            MetricName::Datatype => "Datatype validity",
            MetricName::Efficiency => "Efficiency",
            MetricName::Equivalence => "Equivalence (generated databases)",
            MetricName::TestSuite => "Test-suite equivalence",
            MetricName::Workflow => "Workflow",
            MetricName::AnswerQuality => "Answer quality",
            MetricName::FactualCorrectness => "Factual correctness",
            MetricName::Completeness => "Completeness",
            MetricName::SafetyClassification => "Safety classification",
            MetricName::ValidationAccuracy => "Validation accuracy",
        }
    }

    pub fn kind(self) -> MetricKind {
        match self {
            MetricName::ExactMatch
            | MetricName::QueryCorrectness
            | MetricName::SemanticSimilarity
            | MetricName::Safety
            | MetricName::SchemaValidity
            | MetricName::TableAccuracy => MetricKind::Query,
            MetricName::ResultsMatch
            | MetricName::Execution
            | MetricName::Datatype
            | MetricName::Efficiency => MetricKind::Result,
            MetricName::Equivalence | MetricName::TestSuite => MetricKind::Equivalence,
            MetricName::Workflow
            | MetricName::AnswerQuality
            | MetricName::FactualCorrectness
            | MetricName::Completeness => MetricKind::Agent,
            MetricName::SafetyClassification | MetricName::ValidationAccuracy => {
                MetricKind::Validator
            }
        }
    }

    /// One sentence on what the metric measures (`docs/scorecard.md` has the whole rule).
    pub fn about(self) -> &'static str {
        match self {
            MetricName::ExactMatch => "1 when the two queries are equal after normalization.",
            MetricName::QueryCorrectness => {
                "1 for a correct query, 0.5 for a partly correct one, 0 otherwise."
            }
            MetricName::SemanticSimilarity => {
                "How alike the two queries are: the structural judge, or an LLM judge when one is set."
            }
            MetricName::Safety => "1 when the generated query only reads.",
            MetricName::SchemaValidity => {
                "1 when the generated query names only tables and columns the schema has."
            }
            MetricName::TableAccuracy => "How well the tables read match the expected tables.",
            MetricName::ResultsMatch => "Whether the two results are equal in the chosen mode.",
            MetricName::Execution => "How similar the two results are, cell by cell.",
            MetricName::Datatype => "Whether the result's columns have the expected types.",
            MetricName::Efficiency => "The generated query's cost against the expected one's.",
            MetricName::Equivalence => {
                "Whether both queries return the same results on generated databases."
            }
            MetricName::TestSuite => {
                "Whether both queries return the same results on every database of a test suite."
            }
            MetricName::Workflow => "Whether the agent's steps follow the expected workflow.",
            MetricName::AnswerQuality => "An LLM judge's grade of the agent's final answer.",
            MetricName::FactualCorrectness => "An LLM judge's grade of the answer's facts.",
            MetricName::Completeness => {
                "An LLM judge's grade of how much of the question is answered."
            }
            MetricName::SafetyClassification => {
                "Whether the validator's safety verdict agrees with the pair's label."
            }
            MetricName::ValidationAccuracy => {
                "Whether the validator's validity verdict agrees with the pair's label."
            }
        }
    }
}

impl std::fmt::Display for MetricName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for MetricName {
    type Err = String;

    fn from_str(name: &str) -> Result<MetricName, String> {
        MetricName::ALL
            .into_iter()
            .find(|metric| metric.as_str() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = MetricName::ALL.iter().map(|m| m.as_str()).collect();
                format!("unknown metric `{name}` (known: {})", known.join(", "))
            })
    }
}

/// Ordered by the JSON name, so maps keyed by metric keep the alphabetical order their JSON has
/// always had, and a `&str` finds its entry (see `Borrow`).
impl Ord for MetricName {
    fn cmp(&self, other: &MetricName) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for MetricName {
    fn partial_cmp(&self, other: &MetricName) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::borrow::Borrow<str> for MetricName {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Serialize for MetricName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MetricName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MetricName, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_keeps_its_json_order() {
        for metric in MetricName::ALL {
            assert_eq!(metric.as_str().parse::<MetricName>(), Ok(metric));
            assert_eq!(
                serde_json::to_string(&metric).ok(),
                Some(format!("\"{}\"", metric.as_str()))
            );
        }
        let mut sorted = MetricName::ALL;
        sorted.sort();
        let names: Vec<&str> = sorted.iter().map(|m| m.as_str()).collect();
        let mut alphabetical = names.clone();
        alphabetical.sort_unstable();
        assert_eq!(names, alphabetical);
    }

    #[test]
    fn a_misspelt_name_is_an_error_that_lists_the_names() {
        let error = "semantc_similarity".parse::<MetricName>().unwrap_err();
        assert!(
            error.contains("unknown metric `semantc_similarity`"),
            "{error}"
        );
        assert!(error.contains("semantic_similarity"), "{error}");
        assert!(serde_json::from_str::<MetricName>("\"Safety\"").is_err());
    }
}
