//! qeval's strict verdicts, beside the official ones (`--strict`): the same example judged
//! with the official evaluators' documented errors fixed, and the rule that changed the
//! verdict named. The official number stays the headline.

use serde::Serialize;

/// A documented error of an official evaluator that the strict verdict fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrictRule {
    /// Spider 2.0 matches each gold column on its own, so a prediction whose rows are
    /// scrambled across columns passes (xlang-ai/Spider2 issues 200 and 226). Strict: the gold
    /// columns matched one to one with predicted columns, rows whole.
    RowScramble,
    /// BIRD's EX compares sets, so a prediction with duplicated rows, or missing a gold's
    /// duplicates, passes. Strict: rows compared as a multiset.
    Duplicates,
    /// BIRD's Soft-F1 pairs rows by position, so the right rows in another order score low
    /// when the gold has no `ORDER BY`. Strict: rows paired by content first.
    PositionPairing,
    /// Spider removes every `DISTINCT`, inside `COUNT(DISTINCT x)` too, which changes what is
    /// counted. Strict: a `DISTINCT` inside an aggregate stays.
    DistinctInAggregate,
    /// Spider takes the gold's rows under `ORDER BY ... LIMIT n` as the only answer, though
    /// rows tied on the sort key at the cut are as right. Strict: any of the tied answers
    /// passes.
    TiedRows,
}

impl StrictRule {
    pub const ALL: [StrictRule; 5] = [
        StrictRule::RowScramble,
        StrictRule::Duplicates,
        StrictRule::PositionPairing,
        StrictRule::DistinctInAggregate,
        StrictRule::TiedRows,
    ];

    /// The rule's name, as records and summaries give it.
    pub fn name(self) -> &'static str {
        match self {
            StrictRule::RowScramble => "row_scramble",
            StrictRule::Duplicates => "duplicates",
            StrictRule::PositionPairing => "position_pairing",
            StrictRule::DistinctInAggregate => "distinct_in_aggregate",
            StrictRule::TiedRows => "tied_rows",
        }
    }

    /// What the rule fixes, in words.
    pub fn describe(self) -> &'static str {
        match self {
            StrictRule::RowScramble => {
                "rows scrambled across columns, or one predicted column standing for several (Spider 2.0 matches each gold column on its own)"
            }
            StrictRule::Duplicates => "duplicate rows (BIRD's EX compares sets)",
            StrictRule::PositionPairing => {
                "rows paired by position without ORDER BY (BIRD's Soft-F1)"
            }
            StrictRule::DistinctInAggregate => {
                "DISTINCT inside an aggregate (Spider removes every DISTINCT)"
            }
            StrictRule::TiedRows => {
                "rows tied at ORDER BY ... LIMIT (Spider takes the gold's as the only answer)"
            }
        }
    }
}

/// An example's strict verdict for one prediction file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrictVerdict {
    pub passed: bool,
    /// The headline score by the strict rules (1 or 0, or BIRD's Soft-F1 when that is the
    /// headline).
    pub score: f64,
    /// The rules that made the strict verdict differ from the official one.
    pub changed_by: Vec<StrictRule>,
}

/// A record's official and strict verdicts, read back from its `benchmark` field: what the
/// page's Run report shows side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictRow {
    /// The record's place in its file.
    pub index: usize,
    pub test_id: String,
    pub official: bool,
    pub strict: bool,
    /// The names of the rules that changed the verdict.
    pub changed_by: Vec<String>,
}

/// The records that carry a strict verdict (`qeval bench ... --strict`), in order.
pub fn strict_rows(records: &[crate::run::EvaluationRecord]) -> Vec<StrictRow> {
    records
        .iter()
        .enumerate()
        .filter_map(|(index, record)| {
            let strict = record.extra.get("benchmark")?.get("strict")?;
            Some(StrictRow {
                index,
                test_id: match &record.test_id {
                    serde_json::Value::String(id) => id.clone(),
                    other => other.to_string(),
                },
                official: record.qas_evaluation.as_ref().is_some_and(|q| q.passed),
                strict: strict.get("passed")?.as_bool()?,
                changed_by: strict
                    .get("changed_by")?
                    .as_array()?
                    .iter()
                    .filter_map(|rule| Some(rule.as_str()?.to_string()))
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_verdicts_are_read_back_from_records() {
        let lines = [
            r#"{"test_id": "local008", "qas_evaluation": {"semantic_score": 0, "execution_score": 1, "datatype_score": 0, "final_score": 1, "passed": true}, "benchmark": {"strict": {"passed": false, "score": 0, "changed_by": ["row_scramble"]}}}"#,
            r#"{"test_id": 2, "benchmark": {"exec": 1}}"#,
        ];
        let records: Vec<crate::run::EvaluationRecord> = lines
            .iter()
            .map(|line| serde_json::from_str(line).expect("a record"))
            .collect();
        let rows = strict_rows(&records);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].test_id, "local008");
        assert!(rows[0].official && !rows[0].strict);
        assert_eq!(rows[0].changed_by, ["row_scramble"]);
    }
}
