//! Profiles: how the metrics of a scorecard add up to one total and a pass.
//!
//! | profile | total | pass |
//! |---|---|---|
//! | `kql-batch` | 0.5 query similarity + 0.5 results match (`seed` mode) | executed without error and total >= 0.9 |
//! | `qas` (run-folder evaluation) | 0.4 semantic + 0.4 execution + 0.2 datatype | total >= 0.7 |
//! | `sql-metrics` | query correctness (1 / 0.5 / 0) | correct (1.0) and safe |
//! | `agent` | mean of the quality scores | the workflow passes (quality has no threshold unless set) |
//! | `custom` | weights and threshold from JSON | total >= threshold (and executed, if required) |
//!
//! The `qas` preset is the "QAS (Query Affinity Score)" weighting of run-folder evaluation; it is
//! not the "Query Accuracy Score" of the literature (`w * S_T + (1 - w) * S_C`).
//!
//! A weighted metric that was not computed (no results given, say) leaves the total computed
//! from the others, reweighted, and the verdict open (`passed: null`): a pass needs every part.
//! A metric that failed counts as 0.0.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::metric::{Metric, MetricName};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum ProfileName {
    KqlBatch,
    Qas,
    SqlMetrics,
    Agent,
    Custom,
}

impl ProfileName {
    pub const ALL: [ProfileName; 5] = [
        ProfileName::Qas,
        ProfileName::KqlBatch,
        ProfileName::SqlMetrics,
        ProfileName::Agent,
        ProfileName::Custom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ProfileName::KqlBatch => "kql-batch",
            ProfileName::Qas => "qas",
            ProfileName::SqlMetrics => "sql-metrics",
            ProfileName::Agent => "agent",
            ProfileName::Custom => "custom",
        }
    }
}

impl fmt::Display for ProfileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProfileName {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        ProfileName::ALL
            .into_iter()
            .find(|p| p.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = ProfileName::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown profile \"{s}\" (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// A profile ready to apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: ProfileName,
    pub label: String,
    /// Metric -> weight. Weights need not sum to 1: the total divides by their sum.
    pub weights: BTreeMap<MetricName, f64>,
    pub threshold: f64,
    /// Pass only when the generated query executed without error.
    pub require_execution: bool,
    /// Pass only when these metrics scored 1.0 (e.g. `safety`).
    #[serde(default)]
    pub require_perfect: Vec<MetricName>,
}

fn weights(pairs: &[(MetricName, f64)]) -> BTreeMap<MetricName, f64> {
    pairs.iter().copied().collect()
}

impl Profile {
    pub fn preset(name: ProfileName) -> Profile {
        match name {
            ProfileName::KqlBatch => Profile {
                name,
                label: "KQL batch testing: 50% query similarity + 50% results match; pass = executed and total ≥ 0.9".into(),
                weights: weights(&[(MetricName::SemanticSimilarity, 0.5), (MetricName::ResultsMatch, 0.5)]),
                threshold: 0.9,
                require_execution: true,
                require_perfect: Vec::new(),
            },
            ProfileName::Qas => Profile {
                name,
                label: "QAS preset: 40% semantic + 40% execution + 20% datatype; pass ≥ 0.7 (not the literature's Query Accuracy Score)".into(),
                weights: weights(&[(MetricName::SemanticSimilarity, 0.4), (MetricName::Execution, 0.4), (MetricName::Datatype, 0.2)]),
                threshold: 0.7,
                require_execution: false,
                require_perfect: Vec::new(),
            },
            ProfileName::SqlMetrics => Profile {
                name,
                label: "SQL metric calculators: query correctness 1 / 0.5 / 0; pass = correct and safe".into(),
                weights: weights(&[(MetricName::QueryCorrectness, 1.0)]),
                threshold: 1.0,
                require_execution: false,
                require_perfect: vec![MetricName::Safety],
            },
            ProfileName::Agent => Profile {
                name,
                label: "Agent evaluation: workflow validation pass/fail; quality scores averaged, no threshold".into(),
                weights: weights(&[(MetricName::AnswerQuality, 1.0), (MetricName::FactualCorrectness, 1.0), (MetricName::Completeness, 1.0)]),
                threshold: 0.0,
                require_execution: false,
                require_perfect: vec![MetricName::Workflow],
            },
            ProfileName::Custom => Profile {
                name,
                label: "Custom".into(),
                weights: BTreeMap::new(),
                threshold: 0.0,
                require_execution: false,
                require_perfect: Vec::new(),
            },
        }
    }

    /// A custom profile from JSON:
    /// `{"weights": {"semantic_similarity": 0.5, "results_match": 0.5}, "threshold": 0.8,
    ///   "require_execution": true, "require_perfect": ["safety"], "label": "..."}`. A metric
    /// name qeval does not compute is an error that lists the names, never a weight on nothing.
    pub fn custom_from_json(text: &str) -> Result<Profile, String> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Custom {
            weights: BTreeMap<MetricName, f64>,
            threshold: f64,
            #[serde(default)]
            require_execution: bool,
            #[serde(default)]
            require_perfect: Vec<MetricName>,
            #[serde(default)]
            label: Option<String>,
        }
        let custom: Custom =
            serde_json::from_str(text).map_err(|err| format!("custom profile: {err}"))?;
        if custom.weights.is_empty() {
            return Err("custom profile: `weights` names no metric".into());
        }
        if let Some((name, weight)) = custom
            .weights
            .iter()
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return Err(format!(
                "custom profile: weight of `{name}` is {weight}; weights must be zero or more"
            ));
        }
        if !(0.0..=1.0).contains(&custom.threshold) {
            return Err(format!(
                "custom profile: threshold {} is outside 0..1",
                custom.threshold
            ));
        }
        Ok(Profile {
            name: ProfileName::Custom,
            label: custom.label.unwrap_or_else(|| "Custom profile".into()),
            weights: custom.weights,
            threshold: custom.threshold,
            require_execution: custom.require_execution,
            require_perfect: custom.require_perfect,
        })
    }
}

/// The profile applied to one scorecard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ProfileResult {
    pub name: ProfileName,
    pub label: String,
    /// The weighted total in 0..=1 over the metrics present.
    pub total: Option<f64>,
    /// Null when a weighted metric is missing: no verdict on partial data.
    pub passed: Option<bool>,
    pub threshold: f64,
    /// Each weighted metric's score and weight, as used.
    pub parts: BTreeMap<String, ProfilePart>,
    /// Weighted metrics that were not computed.
    pub missing: Vec<String>,
    /// Result metrics that no result was given for, taken from the equivalence check instead
    /// (metric -> the check's metric name).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stand_ins: BTreeMap<String, String>,
    /// Weighted metrics left out because they grade a result nobody supplied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_applicable: Vec<String>,
    pub explanation: String,
}

/// Metrics that compare the two queries' results.
const RESULT_METRICS: [MetricName; 2] = [MetricName::Execution, MetricName::ResultsMatch];

/// The metrics of an equivalence check on generated databases: without a database, and on a
/// loaded one (test-suite checking).
pub(crate) const EQUIVALENCE_METRICS: [MetricName; 2] =
    [MetricName::Equivalence, MetricName::TestSuite];

/// The equivalence check's metric, when it reached a verdict.
fn equivalence_of(metrics: &BTreeMap<MetricName, Metric>) -> Option<(MetricName, f64)> {
    EQUIVALENCE_METRICS
        .into_iter()
        .find_map(|name| metrics.get(&name).and_then(|m| m.score).map(|s| (name, s)))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ProfilePart {
    pub score: f64,
    pub weight: f64,
}

/// Applies `profile` to computed metrics. `executed`: the query ran without error (None when
/// unknown).
pub fn apply(
    profile: &Profile,
    metrics: &BTreeMap<MetricName, Metric>,
    executed: Option<bool>,
) -> ProfileResult {
    let mut parts = BTreeMap::new();
    let mut missing = Vec::new();
    let mut stand_ins = BTreeMap::new();
    let mut not_applicable = Vec::new();
    // With no result given at all, the equivalence check (both queries run on generated
    // databases) stands in for the result metrics, and a result's datatype is not gradable.
    let equivalence = equivalence_of(metrics).filter(|_| executed.is_none());
    for (name, weight) in &profile.weights {
        match metrics.get(name).and_then(|m| m.score.map(|s| (s, m))) {
            Some((score, _)) => {
                parts.insert(
                    name.to_string(),
                    ProfilePart {
                        score,
                        weight: *weight,
                    },
                );
            }
            None => match equivalence {
                Some((check, score)) if RESULT_METRICS.contains(name) => {
                    stand_ins.insert(name.to_string(), check.to_string());
                    parts.insert(
                        name.to_string(),
                        ProfilePart {
                            score,
                            weight: *weight,
                        },
                    );
                }
                Some(_) if *name == MetricName::Datatype => not_applicable.push(name.to_string()),
                _ => missing.push(name.to_string()),
            },
        }
    }
    let weight_sum: f64 = parts.values().map(|p| p.weight).sum();
    let total = (weight_sum > 0.0).then(|| {
        // Added in name order, so every platform sums the same floats in the same order.
        parts.values().map(|p| p.score * p.weight).sum::<f64>() / weight_sum
    });
    let mut blockers = Vec::new();
    // A query that is not read-only fails whatever else it scores: a DELETE whose result
    // happens to match must not pass.
    if metrics.get(&MetricName::Safety).and_then(|m| m.score) == Some(0.0) {
        blockers.push("the generated query is not read-only (UNSAFE)".to_string());
    }
    // Results that differ on a generated database prove the queries different, whatever the
    // weighted total says.
    if let Some((check, score)) = equivalence_of(metrics)
        && score < 1.0
    {
        blockers.push(format!(
            "{check}: the queries return different results on a generated database"
        ));
    }
    if profile.require_execution && executed == Some(false) {
        blockers.push("the query did not execute without error".to_string());
    }
    for name in &profile.require_perfect {
        match metrics.get(name).and_then(|m| m.score) {
            Some(score) if score >= 1.0 => {}
            Some(_) => blockers.push(format!("{name} did not pass")),
            None => missing.push(name.to_string()),
        }
    }
    let unknown_execution = profile.require_execution && executed.is_none() && stand_ins.is_empty();
    let passed =
        if !missing.is_empty() || total.is_none() || (unknown_execution && blockers.is_empty()) {
            if blockers.is_empty() {
                None
            } else {
                Some(false)
            }
        } else {
            Some(blockers.is_empty() && total.is_some_and(|t| t >= profile.threshold - 1e-12))
        };
    let total_text = total.map_or("—".to_string(), |t| format!("{:.1}%", t * 100.0));
    let mut explanation = match passed {
        Some(true) => format!(
            "Total {total_text} ≥ {:.0}% → PASS",
            profile.threshold * 100.0
        ),
        Some(false) if !blockers.is_empty() => {
            format!("Total {total_text} → FAIL: {}", blockers.join("; "))
        }
        Some(false) => format!(
            "Total {total_text} < {:.0}% → FAIL",
            profile.threshold * 100.0
        ),
        None if !missing.is_empty() => format!(
            "Total {total_text} from the metrics present; no verdict without: {}",
            missing.join(", ")
        ),
        None => {
            format!("Total {total_text}; no verdict without knowing whether the query executed")
        }
    };
    if !stand_ins.is_empty() {
        let names: Vec<&str> = stand_ins.keys().map(String::as_str).collect();
        let check = stand_ins
            .values()
            .next()
            .map_or("equivalence", String::as_str);
        explanation.push_str(&format!(
            " ({} from the {check} check on generated databases, no result given",
            names.join(" and ")
        ));
        if !not_applicable.is_empty() {
            explanation.push_str(&format!("; {} not applicable", not_applicable.join(", ")));
        }
        explanation.push(')');
    }
    ProfileResult {
        name: profile.name,
        label: profile.label.clone(),
        total,
        passed,
        threshold: profile.threshold,
        parts,
        missing,
        stand_ins,
        not_applicable,
        explanation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(scores: &[(&str, f64)]) -> BTreeMap<MetricName, Metric> {
        scores
            .iter()
            .map(|(name, score)| {
                (
                    name.parse().unwrap(),
                    Metric {
                        score: Some(*score),
                        passed: None,
                        explanation: String::new(),
                        details: serde_json::Value::Null,
                        error: None,
                    },
                )
            })
            .collect()
    }

    fn total(
        profile: ProfileName,
        scores: &[(&str, f64)],
        executed: Option<bool>,
    ) -> (f64, Option<bool>) {
        let result = apply(&Profile::preset(profile), &metrics(scores), executed);
        (result.total.unwrap(), result.passed)
    }

    #[test]
    fn kql_batch_totals() {
        let (t, p) = total(
            ProfileName::KqlBatch,
            &[("semantic_similarity", 1.0), ("results_match", 1.0)],
            Some(true),
        );
        assert_eq!((t, p), (1.0, Some(true)));
        let (t, p) = total(
            ProfileName::KqlBatch,
            &[("semantic_similarity", 0.95), ("results_match", 1.0)],
            Some(true),
        );
        assert!((t - 0.975).abs() < 1e-12 && p == Some(true), "{t}");
        let (t, p) = total(
            ProfileName::KqlBatch,
            &[("semantic_similarity", 0.6), ("results_match", 0.3)],
            Some(true),
        );
        assert!((t - 0.45).abs() < 1e-12 && p == Some(false), "{t}");
        // A perfect score does not pass a query that failed to execute.
        let (_, p) = total(
            ProfileName::KqlBatch,
            &[("semantic_similarity", 1.0), ("results_match", 1.0)],
            Some(false),
        );
        assert_eq!(p, Some(false));
    }

    #[test]
    fn qas_totals() {
        let (t, p) = total(
            ProfileName::Qas,
            &[
                ("semantic_similarity", 1.0),
                ("execution", 1.0),
                ("datatype", 1.0),
            ],
            None,
        );
        assert_eq!((t, p), (1.0, Some(true)));
        let (t, p) = total(
            ProfileName::Qas,
            &[
                ("semantic_similarity", 0.8),
                ("execution", 0.8),
                ("datatype", 1.0),
            ],
            None,
        );
        assert!((t - 0.84).abs() < 1e-12 && p == Some(true), "{t}");
        let (t, p) = total(
            ProfileName::Qas,
            &[
                ("semantic_similarity", 0.3),
                ("execution", 0.2),
                ("datatype", 1.0),
            ],
            None,
        );
        assert!((t - 0.40).abs() < 1e-12 && p == Some(false), "{t}");
    }

    #[test]
    fn an_unsafe_query_fails_whatever_its_total() {
        let result = apply(
            &Profile::preset(ProfileName::Qas),
            &metrics(&[
                ("semantic_similarity", 1.0),
                ("execution", 1.0),
                ("datatype", 1.0),
                ("safety", 0.0),
            ]),
            Some(true),
        );
        assert_eq!((result.total, result.passed), (Some(1.0), Some(false)));
        assert!(
            result.explanation.contains("UNSAFE"),
            "{}",
            result.explanation
        );
    }

    #[test]
    fn a_missing_part_leaves_the_verdict_open() {
        let result = apply(
            &Profile::preset(ProfileName::Qas),
            &metrics(&[("semantic_similarity", 1.0)]),
            None,
        );
        assert_eq!(result.passed, None);
        assert_eq!(result.total, Some(1.0));
        assert_eq!(result.missing, ["datatype", "execution"]);
    }

    #[test]
    fn custom_profiles_from_json() {
        let profile = Profile::custom_from_json(
            r#"{"weights": {"table_accuracy": 1, "exact_match": 1}, "threshold": 0.75}"#,
        )
        .unwrap();
        let result = apply(
            &profile,
            &metrics(&[("table_accuracy", 1.0), ("exact_match", 0.0)]),
            None,
        );
        assert_eq!((result.total, result.passed), (Some(0.5), Some(false)));
        assert!(Profile::custom_from_json(r#"{"weights": {}, "threshold": 0.5}"#).is_err());
        let error = |json: &str| Profile::custom_from_json(json).unwrap_err();
        assert!(
            error(r#"{"weights": {"safety": -1}, "threshold": 0.5}"#)
                .contains("weights must be zero or more")
        );
        assert!(error(r#"{"weights": {"safety": 1}, "threshold": 2}"#).contains("outside 0..1"));
        assert!(
            error(r#"{"weights": {"safety": 1}, "threshold": 0.5, "extra": 1}"#)
                .contains("unknown field")
        );
    }

    #[test]
    fn a_misspelt_metric_in_a_custom_profile_is_an_error_not_a_weight_on_nothing() {
        let error = Profile::custom_from_json(
            r#"{"weights": {"semantc_similarity": 1}, "threshold": 0.5}"#,
        )
        .unwrap_err();
        assert!(
            error.contains("unknown metric `semantc_similarity`"),
            "{error}"
        );
        assert!(error.contains("semantic_similarity"), "{error}");
        let error = Profile::custom_from_json(
            r#"{"weights": {"safety": 1}, "threshold": 0.5, "require_perfect": ["saftey"]}"#,
        )
        .unwrap_err();
        assert!(error.contains("unknown metric `saftey`"), "{error}");
    }
}
