//! The numbers at the top of a report, and the data behind its charts.

use std::collections::BTreeMap;

use serde::Serialize;

use super::agreement::{JudgeAgreement, agreement};
use super::groups::{Group, Grouping, groupings};
use super::record::EvaluationRecord;
use crate::metric::MetricName;
use crate::metrics::classification::{
    ClassificationInput, ClassificationSummary, summarize_classification,
};
use crate::metrics::efficiency::{Efficiency, r_ves};

/// The QAS pass threshold (a final score of 0.7), drawn on the histogram.
pub const PASS_THRESHOLD: f64 = 0.7;
/// Final-score histogram bins: [0, 0.1), [0.1, 0.2), ... [0.9, 1.0].
pub const BINS: usize = 10;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Summary {
    pub tests: usize,
    /// Records with scores.
    pub scored: usize,
    pub passed: usize,
    pub failed: usize,
    /// Passed over scored; 0 with nothing scored.
    pub pass_rate: f64,
    pub mean_final: f64,
    pub mean_semantic: f64,
    pub mean_execution: f64,
    pub mean_datatype: f64,
    /// Records carrying an error.
    pub errors: usize,
    /// Records whose generated query is not read-only (they fail whatever they score).
    pub unsafe_queries: usize,
    /// Final scores per bin (see [`BINS`]).
    pub histogram: [usize; BINS],
    pub by_difficulty: BTreeMap<String, Group>,
    pub by_agent: BTreeMap<String, Group>,
    /// Pass rates by each field the records carry (see [`super::groups`]), levels in order.
    pub groupings: Vec<Grouping>,
    /// Each judge against the human labels of the records that have one (none without labels).
    pub agreement: Vec<JudgeAgreement>,
    /// Safety classification, validation accuracy and confidence calibration, from the records'
    /// `safety_valid`, `is_valid`, `validation_errors`, `should_pass` and `confidence` (a part
    /// is absent when no record has its fields; a record whose fields are malformed is left out).
    pub classification: ClassificationSummary,
    /// R-VES by SQLite VM steps over the records that ran on a database (`efficiency`).
    pub efficiency: Option<Efficiency>,
    /// Records checked against a schema: (those naming unknown tables or columns, all checked).
    pub schema_validity: Option<(usize, usize)>,
}

impl Summary {
    /// The grouping by `field`, when the summary has one.
    pub fn grouping(&self, field: &str) -> Option<&Grouping> {
        self.groupings.iter().find(|g| g.field == field)
    }
}

fn classification_of(records: &[&EvaluationRecord]) -> ClassificationSummary {
    let inputs: Vec<(String, ClassificationInput, Option<bool>)> = records
        .iter()
        .filter_map(|r| {
            let input = ClassificationInput::from_object(&r.extra).ok()?;
            (!input.is_empty()).then(|| (r.key(), input, r.passed()))
        })
        .collect();
    summarize_classification(
        inputs
            .iter()
            .map(|(id, input, ok)| (id.clone(), input, *ok)),
    )
}

/// Summarizes records. Unscored records count as tests, not as passes or failures.
pub fn summarize<'a>(records: impl IntoIterator<Item = &'a EvaluationRecord>) -> Summary {
    summarize_by(records, &[])
}

/// Summarizes records, grouping them by `fields` as well as by the default fields they carry.
pub fn summarize_by<'a>(
    records: impl IntoIterator<Item = &'a EvaluationRecord>,
    fields: &[String],
) -> Summary {
    let records: Vec<&EvaluationRecord> = records.into_iter().collect();
    let mut summary = Summary {
        groupings: groupings(records.iter().copied(), fields),
        agreement: agreement(records.iter().copied()),
        classification: classification_of(&records),
        schema_validity: {
            let scores: Vec<f64> = records
                .iter()
                .filter_map(|r| r.extra_number(MetricName::SchemaValidity.as_str(), "score"))
                .collect();
            (!scores.is_empty())
                .then(|| (scores.iter().filter(|s| **s < 1.0).count(), scores.len()))
        },
        efficiency: r_ves(
            records
                .iter()
                .filter_map(|r| r.extra_number("efficiency", "reward")),
        ),
        ..Summary::default()
    };
    let mut sums = [0.0f64; 4];
    for record in records {
        summary.tests += 1;
        if record.error().is_some() {
            summary.errors += 1;
        }
        let Some(scores) = &record.qas_evaluation else {
            continue;
        };
        summary.scored += 1;
        if record.is_unsafe() {
            summary.unsafe_queries += 1;
        }
        if scores.passed {
            summary.passed += 1;
        } else {
            summary.failed += 1;
        }
        for (sum, value) in sums.iter_mut().zip([
            scores.final_score,
            scores.semantic_score,
            scores.execution_score,
            scores.datatype_score,
        ]) {
            *sum += value;
        }
        let bin = ((scores.final_score.clamp(0.0, 1.0) * BINS as f64) as usize).min(BINS - 1);
        summary.histogram[bin] += 1;
        let label = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .unwrap_or("(none)")
                .to_string()
        };
        for (groups, key) in [
            (&mut summary.by_difficulty, label(&record.difficulty)),
            (&mut summary.by_agent, label(&record.agent_used)),
        ] {
            let group = groups.entry(key).or_default();
            group.tests += 1;
            group.passed += usize::from(scores.passed);
        }
    }
    if summary.scored > 0 {
        let n = summary.scored as f64;
        summary.pass_rate = summary.passed as f64 / n;
        summary.mean_final = sums[0] / n;
        summary.mean_semantic = sums[1] / n;
        summary.mean_execution = sums[2] / n;
        summary.mean_datatype = sums[3] / n;
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read::read_records;

    #[test]
    fn counts_means_bins_and_groups() {
        let text = r#"
{"test_id": 1, "difficulty": "easy", "agent_used": "sql", "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
{"test_id": 2, "difficulty": "hard", "agent_used": "sql", "qas_evaluation": {"semantic_score": 0.3, "execution_score": 0.2, "datatype_score": 1, "final_score": 0.4, "passed": false}}
{"test_id": 3, "difficulty": "hard", "error": "timeout"}
"#;
        let lines = read_records::<EvaluationRecord>(text);
        let summary = summarize(lines.records.iter().map(|(_, r)| r));
        assert_eq!(
            (
                summary.tests,
                summary.scored,
                summary.passed,
                summary.errors
            ),
            (3, 2, 1, 1)
        );
        assert_eq!(summary.pass_rate, 0.5);
        assert!((summary.mean_final - 0.7).abs() < 1e-12);
        assert_eq!(summary.histogram[9], 1);
        assert_eq!(summary.histogram[4], 1);
        assert_eq!(
            summary.by_difficulty["hard"],
            Group {
                tests: 1,
                passed: 0
            }
        );
        assert_eq!(
            summary.by_agent["sql"],
            Group {
                tests: 2,
                passed: 1
            }
        );
    }
}
