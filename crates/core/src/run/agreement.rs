//! Judge calibration: how far each judge of a run agrees with human labels. A person marks some
//! tests correct or incorrect (`human_label` in the record, or a labels file beside the run);
//! for each judge the run carries (the profile's verdict, the semantic judge, the execution
//! comparison, test-suite checking, the equivalence check) this gives the agreement, Cohen's
//! kappa, the confusion matrix and the tests where the judge and the person disagree. A judge
//! whose kappa is low is one to look at before its pass rates are trusted.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::read::{Lines, read_records};
use super::record::{EvaluationRecord, test_key};
use crate::metric::MetricName;
use crate::pairs::label_of;
use crate::scorecard::Scorecard;

/// The record field that holds a person's verdict.
pub const LABEL_FIELD: &str = "human_label";

/// A score at or above this counts as the judge saying "correct" (the profile's verdict is used
/// as it is).
pub(crate) const CORRECT_AT: f64 = 0.9;

/// One line of a labels file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Label {
    #[serde(alias = "id")]
    pub test_id: Value,
    #[serde(alias = "label")]
    pub human_label: Value,
}

/// Reads a labels file (JSON Lines or an array of `{"test_id", "human_label"}`); a line whose
/// label is not one of the accepted words is rejected with its number.
pub fn read_labels(text: &str) -> Lines<Label> {
    let mut lines: Lines<Label> = read_records(text);
    let (kept, bad): (Vec<_>, Vec<_>) = std::mem::take(&mut lines.records)
        .into_iter()
        .partition(|(_, label)| label_of(&label.human_label).is_some());
    lines.records = kept;
    for (line, label) in bad {
        lines.rejected.push(super::read::Rejected {
            line,
            reason: format!(
                "human_label {} is not a verdict (true/false, 1/0, correct/incorrect, pass/fail)",
                label.human_label
            ),
        });
    }
    lines.rejected.sort_by_key(|r| r.line);
    lines
}

/// The labels by test key (`1` and `"1"` are one test).
pub fn labels_by_test(labels: &[Label]) -> std::collections::HashMap<String, &Value> {
    labels
        .iter()
        .map(|l| (test_key(&l.test_id), &l.human_label))
        .collect()
}

/// Writes the labels into the records of the same test; returns how many records got one.
pub fn apply_labels(records: &mut [EvaluationRecord], labels: &[Label]) -> usize {
    let by_key = labels_by_test(labels);
    let mut applied = 0;
    for record in records.iter_mut() {
        if let Some(label) = by_key.get(&record.key()) {
            record
                .extra
                .insert(LABEL_FIELD.to_string(), (*label).clone());
            applied += 1;
        }
    }
    applied
}

/// One judge against the human labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct JudgeAgreement {
    /// The judge, as the record names it: `passed` (the profile's verdict), `semantic_score`,
    /// `execution_score`, `test_suite`, `equivalence`.
    pub judge: String,
    /// Labelled tests this judge gave a verdict on.
    pub labelled: usize,
    /// The share of them where the judge and the person agree.
    pub agreement: f64,
    /// Cohen's kappa: agreement beyond what chance gives with these rates; `None` when chance
    /// alone agrees on every test (one side always says the same).
    pub kappa: Option<f64>,
    /// Confusion matrix: the judge says correct and so does the person...
    pub both_correct: usize,
    /// ...the judge says correct, the person incorrect (the judge is too lenient)...
    pub judge_correct_human_incorrect: usize,
    /// ...the judge says incorrect, the person correct (the judge is too strict)...
    pub judge_incorrect_human_correct: usize,
    /// ...both say incorrect.
    pub both_incorrect: usize,
    /// The test ids where they disagree, in file order.
    pub disagreements: Vec<String>,
}

impl JudgeAgreement {
    /// A person's reading of kappa, by the usual bands (Landis and Koch).
    pub fn strength(&self) -> &'static str {
        match self.kappa {
            None => "undefined",
            Some(k) if k < 0.0 => "worse than chance",
            Some(k) if k < 0.2 => "slight",
            Some(k) if k < 0.4 => "fair",
            Some(k) if k < 0.6 => "moderate",
            Some(k) if k < 0.8 => "substantial",
            Some(_) => "almost perfect",
        }
    }

    /// Kappa as the views show it: "0.19 (slight)", or "undefined".
    pub fn kappa_text(&self) -> String {
        self.kappa.map_or("undefined".to_string(), |k| {
            format!("{k:.2} ({})", self.strength())
        })
    }

    /// One line: "semantic_score: 10 labelled, agreement 80.0%, kappa 0.58 (moderate), 2
    /// disagree: 3, 7".
    pub fn sentence(&self) -> String {
        let kappa = self
            .kappa
            .map_or("undefined".to_string(), |k| format!("{k:.2}"));
        let mut text = format!(
            "{}: {} labelled, agreement {:.1}%, kappa {kappa} ({})",
            self.judge,
            self.labelled,
            self.agreement * 100.0,
            self.strength()
        );
        if !self.disagreements.is_empty() {
            text.push_str(&format!(
                ", {} disagree{}: {}",
                self.disagreements.len(),
                if self.disagreements.len() == 1 {
                    "s"
                } else {
                    ""
                },
                self.disagreements.join(", ")
            ));
        }
        text
    }
}

/// The judges a record carries and what each says: `(judge, correct)`.
pub(crate) fn verdicts(record: &EvaluationRecord) -> Vec<(&'static str, bool)> {
    let mut out = Vec::new();
    if let Some(scores) = &record.qas_evaluation {
        out.push(("passed", scores.passed));
        out.push(("semantic_score", scores.semantic_score >= CORRECT_AT));
        out.push(("execution_score", scores.execution_score >= CORRECT_AT));
    }
    // A record keeps these checks in its own fields, named as the metrics are.
    for judge in [MetricName::TestSuite, MetricName::Equivalence] {
        let judge = judge.as_str();
        if let Some(score) = record.extra_number(judge, "score") {
            out.push((judge, score >= CORRECT_AT));
        }
    }
    out
}

/// Each judge the labelled records carry, against the labels, in the order of [`verdicts`].
pub(crate) fn agreement<'a>(
    records: impl IntoIterator<Item = &'a EvaluationRecord>,
) -> Vec<JudgeAgreement> {
    agreement_of(records.into_iter().filter_map(|record| {
        let human = record.extra.get(LABEL_FIELD).and_then(label_of)?;
        Some(Labelled {
            id: record.key(),
            human,
            verdicts: verdicts(record)
                .into_iter()
                .map(|(name, verdict)| (name.to_string(), verdict))
                .collect(),
        })
    }))
}

/// The judges of a scorecard and what each says: the profile's verdict, then each judging
/// metric it has (a score of [`CORRECT_AT`] or more says "correct").
pub fn scorecard_verdicts(card: &Scorecard) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    if let Some(passed) = card.profile.as_ref().and_then(|p| p.passed) {
        out.push(("passed".to_string(), passed));
    }
    for name in [
        MetricName::QueryCorrectness,
        MetricName::SemanticSimilarity,
        MetricName::Equivalence,
        MetricName::TestSuite,
        MetricName::ResultsMatch,
    ] {
        if let Some(score) = card.metrics.get(&name).and_then(|m| m.score) {
            out.push((name.to_string(), score >= CORRECT_AT));
        }
    }
    out
}

/// A test with a person's verdict and each judge's.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    pub id: String,
    pub human: bool,
    /// `(judge, says correct)`.
    pub verdicts: Vec<(String, bool)>,
}

/// Each judge against the labels; judges in the order they first appear.
pub fn agreement_of(labelled: impl IntoIterator<Item = Labelled>) -> Vec<JudgeAgreement> {
    let mut judges: Vec<JudgeAgreement> = Vec::new();
    for Labelled {
        id,
        human,
        verdicts,
    } in labelled
    {
        for (name, judge) in verdicts {
            let entry = match judges.iter().position(|j| j.judge == name) {
                Some(index) => &mut judges[index],
                None => {
                    judges.push(JudgeAgreement {
                        judge: name.clone(),
                        labelled: 0,
                        agreement: 0.0,
                        kappa: None,
                        both_correct: 0,
                        judge_correct_human_incorrect: 0,
                        judge_incorrect_human_correct: 0,
                        both_incorrect: 0,
                        disagreements: Vec::new(),
                    });
                    judges.last_mut().expect("just pushed")
                }
            };
            entry.labelled += 1;
            match (judge, human) {
                (true, true) => entry.both_correct += 1,
                (true, false) => entry.judge_correct_human_incorrect += 1,
                (false, true) => entry.judge_incorrect_human_correct += 1,
                (false, false) => entry.both_incorrect += 1,
            }
            if judge != human {
                entry.disagreements.push(id.clone());
            }
        }
    }
    for judge in &mut judges {
        let (agreement, kappa) = cohen_kappa(
            judge.both_correct,
            judge.judge_correct_human_incorrect,
            judge.judge_incorrect_human_correct,
            judge.both_incorrect,
        );
        judge.agreement = agreement;
        judge.kappa = kappa;
    }
    judges
}

/// Observed agreement and Cohen's kappa of a 2×2 table: `a` both yes, `b` first yes second no,
/// `c` first no second yes, `d` both no.
pub(crate) fn cohen_kappa(a: usize, b: usize, c: usize, d: usize) -> (f64, Option<f64>) {
    let n = (a + b + c + d) as f64;
    if n == 0.0 {
        return (0.0, None);
    }
    let observed = (a + d) as f64 / n;
    let first_yes = (a + b) as f64 / n;
    let second_yes = (a + c) as f64 / n;
    let chance = first_yes * second_yes + (1.0 - first_yes) * (1.0 - second_yes);
    if (1.0 - chance).abs() < 1e-12 {
        return (observed, None);
    }
    (observed, Some((observed - chance) / (1.0 - chance)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kappa_of_hand_worked_tables() {
        // 20 both yes, 5 + 10 disagreements, 15 both no (n = 50): observed 0.7, chance
        // 0.5 * 0.6 + 0.5 * 0.4 = 0.5, kappa 0.4.
        let (observed, kappa) = cohen_kappa(20, 5, 10, 15);
        assert!((observed - 0.7).abs() < 1e-12);
        assert!((kappa.unwrap() - 0.4).abs() < 1e-12);
        // Perfect agreement with both answers present: kappa 1.
        assert_eq!(cohen_kappa(3, 0, 0, 2), (1.0, Some(1.0)));
        // A judge that always says yes against a person who always says yes: chance agrees on
        // everything, so kappa is undefined.
        assert_eq!(cohen_kappa(4, 0, 0, 0), (1.0, None));
        // Always the opposite: kappa -1.
        assert_eq!(cohen_kappa(0, 2, 2, 0).1, Some(-1.0));
    }

    #[test]
    fn labels_are_read_in_their_usual_spellings_and_bad_ones_named() {
        let text = "{\"test_id\": 1, \"human_label\": \"correct\"}\n{\"id\": 2, \"label\": 0}\n{\"test_id\": 3, \"human_label\": \"maybe\"}\n";
        let lines = read_labels(text);
        assert_eq!(lines.records.len(), 2);
        assert_eq!(label_of(&lines.records[1].1.human_label), Some(false));
        assert_eq!(lines.rejected[0].line, 3);
        assert!(
            lines.rejected[0]
                .reason
                .contains("\"maybe\" is not a verdict")
        );
    }

    #[test]
    fn each_judge_is_compared_on_the_labelled_tests_only() {
        let scored = |id: u32, passed: bool, semantic: f64, label: &str| {
            format!(
                r#"{{"test_id": {id}, {label} "qas_evaluation": {{"semantic_score": {semantic}, "execution_score": 1, "datatype_score": 1, "final_score": 0.9, "passed": {passed}}}}}"#
            )
        };
        let text = [
            scored(1, true, 1.0, r#""human_label": true,"#),
            scored(2, true, 0.5, r#""human_label": false,"#),
            scored(3, false, 0.5, r#""human_label": "incorrect","#),
            scored(4, false, 1.0, r#""human_label": "correct","#),
            scored(5, false, 0.0, ""),
        ]
        .join("\n");
        let records = crate::run::read::records_of(&text);
        let judges = agreement(&records);
        let passed = &judges[0];
        assert_eq!(passed.judge, "passed");
        assert_eq!(passed.labelled, 4);
        assert_eq!(
            (
                passed.both_correct,
                passed.judge_correct_human_incorrect,
                passed.judge_incorrect_human_correct,
                passed.both_incorrect
            ),
            (1, 1, 1, 1)
        );
        assert_eq!(passed.disagreements, ["2", "4"]);
        assert_eq!(passed.kappa, Some(0.0));
        let semantic = &judges[1];
        assert_eq!(semantic.judge, "semantic_score");
        assert_eq!(semantic.agreement, 1.0);
        assert_eq!(semantic.kappa, Some(1.0));
        assert_eq!(
            semantic.sentence(),
            "semantic_score: 4 labelled, agreement 100.0%, kappa 1.00 (almost perfect)"
        );
    }
}
