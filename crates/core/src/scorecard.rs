//! The scorecard: everything qeval says about one generated query, as data.
//!
//! Its JSON form is a public interface (the CLI prints it, the browser shows it); `docs/scorecard.md`
//! documents each field. Add fields, never rename them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::language::Language;
use crate::metric::{Metric, MetricName};
use crate::profiles::ProfileResult;
use crate::sql::{ParseError, SqlDialect, TableName};

/// The result of scoring one generated query against its expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Scorecard {
    /// The input line this came from, when read from a file (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The caller's identifier for the pair, echoed unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    pub language: Language,
    /// The SQL dialect (ignored for KQL).
    pub dialect: SqlDialect,
    /// True when the two queries are equal after normalization (see `sql::normalize`).
    pub identical: bool,
    /// True when the generated query is not read-only (the `safety` metric failed): such a
    /// query fails its profile whatever it scores, and every view marks it UNSAFE.
    #[serde(rename = "unsafe")]
    pub unsafe_query: bool,
    /// Whether the generated query executed without error: false when an error was given, true
    /// when a result was, null when neither.
    pub executed: Option<bool>,
    pub generated: QueryReport,
    /// Absent when only a list of expected tables was given.
    pub expected: Option<QueryReport>,
    /// Each metric by name. A metric that failed is present, with score 0.0 and its error.
    #[cfg_attr(
        feature = "json-schema",
        schemars(schema_with = "crate::json_schema::metrics")
    )]
    pub metrics: BTreeMap<MetricName, Metric>,
    /// The profile's total and verdict.
    pub profile: Option<ProfileResult>,
    /// Problems found in the inputs, each pointing at its source and, where known, position.
    pub diagnostics: Vec<Diagnostic>,
    /// With several acceptable answers: which one this scorecard is against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_match: Option<ExpectedMatch>,
}

/// Which of several acceptable answers a pair matched best.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ExpectedMatch {
    /// 0 for `expected_sql`/`expected_result` (or the first of a list), then the alternatives
    /// in order.
    pub index: usize,
    /// How many answers were acceptable.
    pub of: usize,
    /// The profile's total against each answer, in order.
    pub totals: Vec<Option<f64>>,
}

impl Scorecard {
    /// `(name, score, explanation)` of every metric with a score, then the profile's total as
    /// `<profile>_total`: what observability tools such as Langfuse take as scores. The agent
    /// quality scores carry a `quality_` prefix, as agent evaluations log them to Langfuse:
    /// `quality_answer_quality`, ...
    pub fn named_scores(&self) -> Vec<(String, f64, String)> {
        let mut scores: Vec<(String, f64, String)> = self
            .metrics
            .iter()
            .filter_map(|(name, metric)| {
                let name = if MetricName::QUALITY.contains(name) {
                    format!("quality_{name}")
                } else {
                    name.to_string()
                };
                metric
                    .score
                    .map(|score| (name, score, metric.explanation.clone()))
            })
            .collect();
        if let Some(profile) = &self.profile
            && let Some(total) = profile.total
        {
            scores.push((
                format!("{}_total", profile.name),
                total,
                profile.explanation.clone(),
            ));
        }
        scores
    }
}

/// What the analysis found in one query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QueryReport {
    /// The canonical text used for the exact-match shortcut.
    pub normalized: String,
    /// Base tables read, in order of first appearance (empty when the query does not parse).
    #[cfg_attr(feature = "json-schema", schemars(with = "Vec<String>"))]
    pub tables: Vec<TableName>,
    pub parse_error: Option<ParseError>,
}

/// Where a diagnostic comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum DiagnosticSource {
    GeneratedSql,
    ExpectedSql,
    ExpectedTables,
    /// The LLM judge's endpoint: a judging that failed.
    LlmJudge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum Severity {
    Error,
    Warning,
}

/// A problem in the input, pointing at its place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Diagnostic {
    pub severity: Severity,
    pub source: DiagnosticSource,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}
