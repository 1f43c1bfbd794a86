//! Two runs side by side, matched by `test_id`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::record::EvaluationRecord;
use super::stats::{PairedStats, RESAMPLES, TestDelta, paired_stats};

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct RunComparison {
    pub matched: Vec<TestDelta>,
    pub newly_failing: Vec<String>,
    pub newly_passing: Vec<String>,
    /// Tests only in the first (`before`) or the second (`after`) run.
    pub only_before: Vec<String>,
    pub only_after: Vec<String>,
    /// Mean shift of final, semantic, execution, datatype over the matched tests.
    pub mean_shift: [f64; 4],
    /// Both pass rates over the matched tests, a 95% bootstrap interval for their difference and
    /// McNemar's exact p-value (resampled from seed 1, so a rerun gives the same interval).
    pub stats: PairedStats,
}

/// Compares `before` with `after`. Records without scores are matched by id but not compared.
pub fn compare_runs(before: &[EvaluationRecord], after: &[EvaluationRecord]) -> RunComparison {
    let index = |records: &[EvaluationRecord]| -> BTreeMap<String, usize> {
        records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.key(), i))
            .collect()
    };
    let (a, b) = (index(before), index(after));
    let mut comparison = RunComparison::default();
    for (key, &i) in &a {
        let Some(&j) = b.get(key) else {
            comparison.only_before.push(key.clone());
            continue;
        };
        let (Some(x), Some(y)) = (&before[i].qas_evaluation, &after[j].qas_evaluation) else {
            continue;
        };
        let deltas = [
            y.final_score - x.final_score,
            y.semantic_score - x.semantic_score,
            y.execution_score - x.execution_score,
            y.datatype_score - x.datatype_score,
        ];
        if x.passed && !y.passed {
            comparison.newly_failing.push(key.clone());
        }
        if !x.passed && y.passed {
            comparison.newly_passing.push(key.clone());
        }
        comparison.matched.push(TestDelta {
            test_id: key.clone(),
            before_final: x.final_score,
            after_final: y.final_score,
            before_passed: x.passed,
            after_passed: y.passed,
            deltas,
        });
    }
    comparison.only_after = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    if !comparison.matched.is_empty() {
        let n = comparison.matched.len() as f64;
        for (k, shift) in comparison.mean_shift.iter_mut().enumerate() {
            *shift = comparison.matched.iter().map(|d| d.deltas[k]).sum::<f64>() / n;
        }
    }
    comparison.stats = paired_stats(&comparison.matched, RESAMPLES, 1);
    // Biggest movements first.
    comparison.matched.sort_by(|x, y| {
        y.deltas[0]
            .abs()
            .total_cmp(&x.deltas[0].abs())
            .then(x.test_id.cmp(&y.test_id))
    });
    comparison
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read::records_of as run;

    #[test]
    fn newly_failing_passing_and_shifts() {
        let before = run(r#"
{"test_id": 1, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
{"test_id": 2, "qas_evaluation": {"semantic_score": 0.5, "execution_score": 0, "datatype_score": 1, "final_score": 0.4, "passed": false}}
{"test_id": 3, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
"#);
        let after = run(r#"
{"test_id": "1", "qas_evaluation": {"semantic_score": 0.5, "execution_score": 0, "datatype_score": 1, "final_score": 0.4, "passed": false}}
{"test_id": 2, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
{"test_id": 4, "qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}}
"#);
        let c = compare_runs(&before, &after);
        assert_eq!(c.newly_failing, vec!["1"]);
        assert_eq!(c.newly_passing, vec!["2"]);
        assert_eq!(c.only_before, vec!["3"]);
        assert_eq!(c.only_after, vec!["4"]);
        assert_eq!(c.matched.len(), 2);
        assert!(c.mean_shift[0].abs() < 1e-12, "one up 0.6, one down 0.6");
    }
}
