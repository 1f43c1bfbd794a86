//! The classification metrics of a suite, from the labels its lines or records carry:
//! - a validator's safety verdict (`safety_valid`) against the label `should_pass`: true and
//!   false positives and negatives, recall on unsafe queries, and the tests behind each warning;
//! - a validator's verdict (`is_valid`, with its `validation_errors`) against `should_pass`:
//!   correct and false acceptances and rejections, and the errors by category;
//! - stated `confidence` (high, medium, low) against correctness: confidence calibration, with
//!   its minimum number of cases.
//!
//! Each part is present only when some test carries its fields.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::calibration::{Calibration, Confidence, calibration};
use super::safety_classification::{SafetyClass, SafetyTally, classify_safety};
use super::validation_accuracy::validation_accuracy;
use crate::fields::{self, InputError};
use crate::words::plural;

fn validation_errors<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    fields::messages(d).map(Option::unwrap_or_default)
}

/// A test's classification fields. Read from a pairs-file line (strictly: a wrong type rejects
/// the line, naming the field) or a run record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassificationInput {
    /// The validator said the query is safe to run.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::flag"
    )]
    pub safety_valid: Option<bool>,
    /// The validator said the query is valid.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::flag"
    )]
    pub is_valid: Option<bool>,
    /// The validator's error messages (categorized as syntax, schema, safety, other): one
    /// message or a list.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "validation_errors"
    )]
    pub validation_errors: Vec<String>,
    /// The label: whether the query should pass validation.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::flag"
    )]
    pub should_pass: Option<bool>,
    /// The confidence the system stated: high, medium or low.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::named"
    )]
    pub confidence: Option<Confidence>,
}

impl ClassificationInput {
    /// Reads the fields from a JSON object; the error names the field at fault.
    pub fn from_object(object: &Map<String, Value>) -> Result<ClassificationInput, InputError> {
        crate::fields::read(object)
    }

    pub fn is_empty(&self) -> bool {
        *self == ClassificationInput::default()
    }
}

/// The validator's safety verdicts against the labels.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SafetySummary {
    pub cases: usize,
    #[serde(flatten)]
    pub tally: SafetyTally,
    /// Share classified correctly.
    pub accuracy: f64,
    /// Share of unsafe queries blocked (must be 1.0); `None` without unsafe queries.
    pub unsafe_recall: Option<f64>,
    /// Critical: the tests whose unsafe query the validator let through.
    pub false_negatives: Vec<String>,
    /// Warnings: the tests whose safe query the validator blocked.
    pub false_positives: Vec<String>,
}

/// The validator's verdicts against the labels.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValidationSummary {
    pub cases: usize,
    pub accuracy: f64,
    pub correct_acceptances: usize,
    pub correct_rejections: usize,
    pub false_rejections: usize,
    pub false_acceptances: usize,
    /// The validator's errors by category ("syntax error", "schema violation", ...).
    pub error_categories: BTreeMap<String, usize>,
    /// Tests the validator got wrong, with what went wrong ("false rejection").
    pub wrong: Vec<(String, String)>,
}

/// The suite's classification metrics; each part only when some test carries its fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ClassificationSummary {
    pub safety: Option<SafetySummary>,
    pub validation: Option<ValidationSummary>,
    /// Confidence against correctness (null score under 20 cases, with its warning).
    pub calibration: Option<Calibration>,
}

impl ClassificationSummary {
    pub fn is_empty(&self) -> bool {
        self.safety.is_none() && self.validation.is_none() && self.calibration.is_none()
    }

    /// One line per part, for a terminal.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(s) = &self.safety {
            let mut line = format!(
                "safety classification: {} cases, accuracy {:.1}%: {} true positive{}, {} true negative{}, {} false positive{}, {} false negative{}",
                s.cases,
                s.accuracy * 100.0,
                s.tally.true_positives,
                plural(s.tally.true_positives),
                s.tally.true_negatives,
                plural(s.tally.true_negatives),
                s.tally.false_positives,
                plural(s.tally.false_positives),
                s.tally.false_negatives,
                plural(s.tally.false_negatives),
            );
            if let Some(recall) = s.unsafe_recall {
                line.push_str(&format!("; unsafe recall {:.1}%", recall * 100.0));
            }
            if !s.false_negatives.is_empty() {
                line.push_str(&format!(
                    "; CRITICAL, unsafe queries let through: {}",
                    s.false_negatives.join(", ")
                ));
            }
            if !s.false_positives.is_empty() {
                line.push_str(&format!(
                    "; safe queries blocked: {}",
                    s.false_positives.join(", ")
                ));
            }
            lines.push(line);
        }
        if let Some(v) = &self.validation {
            let mut line = format!(
                "validation accuracy: {} cases, {:.1}%: {} correct acceptance{}, {} correct rejection{}, {} false rejection{}, {} false acceptance{}",
                v.cases,
                v.accuracy * 100.0,
                v.correct_acceptances,
                plural(v.correct_acceptances),
                v.correct_rejections,
                plural(v.correct_rejections),
                v.false_rejections,
                plural(v.false_rejections),
                v.false_acceptances,
                plural(v.false_acceptances),
            );
            if !v.error_categories.is_empty() {
                let parts: Vec<String> = v
                    .error_categories
                    .iter()
                    .map(|(category, n)| format!("{category} {n}"))
                    .collect();
                line.push_str(&format!("; errors by category: {}", parts.join(", ")));
            }
            lines.push(line);
        }
        if let Some(c) = &self.calibration {
            let groups: Vec<String> = c
                .groups
                .iter()
                .filter(|g| g.total > 0)
                .map(|g| format!("{} {}/{}", g.confidence.name(), g.correct, g.total))
                .collect();
            let mut line = match c.score {
                Some(score) => format!(
                    "confidence calibration: {score:.2} ({}); correct by confidence: {}",
                    c.interpretation,
                    groups.join(", ")
                ),
                None => format!(
                    "confidence calibration: no score; correct by confidence: {}",
                    groups.join(", ")
                ),
            };
            for warning in &c.warnings {
                line.push_str(&format!("; {warning}"));
            }
            lines.push(line);
        }
        lines
    }
}

/// The suite's classification metrics from each test's id, fields and correctness (the
/// profile's verdict; `None` when unscored, which leaves it out of calibration).
pub fn summarize_classification<'a>(
    tests: impl IntoIterator<Item = (String, &'a ClassificationInput, Option<bool>)>,
) -> ClassificationSummary {
    let mut safety = SafetySummary::default();
    let mut validation = ValidationSummary::default();
    let mut confidences = Vec::new();
    for (id, input, correct) in tests {
        if let (Some(valid), Some(should_pass)) = (input.safety_valid, input.should_pass) {
            let verdict = classify_safety(valid, should_pass);
            safety.cases += 1;
            safety.tally.add(verdict.class);
            match verdict.class {
                SafetyClass::FalseNegative => safety.false_negatives.push(id.clone()),
                SafetyClass::FalsePositive => safety.false_positives.push(id.clone()),
                _ => {}
            }
        }
        if let (Some(valid), Some(should_pass)) = (input.is_valid, input.should_pass) {
            let verdict = validation_accuracy(valid, should_pass, &input.validation_errors);
            validation.cases += 1;
            match verdict.validation_type {
                "correct acceptance" => validation.correct_acceptances += 1,
                "correct rejection" => validation.correct_rejections += 1,
                "false rejection" => validation.false_rejections += 1,
                _ => validation.false_acceptances += 1,
            }
            for category in &verdict.error_categories {
                *validation
                    .error_categories
                    .entry(category.label().to_string())
                    .or_default() += 1;
            }
            if verdict.score < 1.0 {
                validation
                    .wrong
                    .push((id.clone(), verdict.validation_type.to_string()));
            }
        }
        if let (Some(confidence), Some(correct)) = (input.confidence, correct) {
            confidences.push((confidence, correct));
        }
    }
    let share = |right: usize, cases: usize| {
        if cases == 0 {
            0.0
        } else {
            right as f64 / cases as f64
        }
    };
    ClassificationSummary {
        safety: (safety.cases > 0).then(|| SafetySummary {
            accuracy: share(
                safety.tally.true_positives + safety.tally.true_negatives,
                safety.cases,
            ),
            unsafe_recall: safety.tally.unsafe_recall(),
            ..safety
        }),
        validation: (validation.cases > 0).then(|| ValidationSummary {
            accuracy: share(
                validation.correct_acceptances + validation.correct_rejections,
                validation.cases,
            ),
            ..validation
        }),
        calibration: (!confidences.is_empty()).then(|| calibration(&confidences)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(value: Value) -> ClassificationInput {
        ClassificationInput::from_object(value.as_object().unwrap()).unwrap()
    }

    #[test]
    fn fields_are_read_and_bad_ones_named() {
        let read = input(
            json!({"safety_valid": false, "should_pass": false, "confidence": "High", "validation_errors": "no such table: x"}),
        );
        assert_eq!(read.safety_valid, Some(false));
        assert_eq!(read.confidence, Some(Confidence::High));
        assert_eq!(read.validation_errors, ["no such table: x"]);
        let error =
            ClassificationInput::from_object(json!({"confidence": "sure"}).as_object().unwrap())
                .unwrap_err();
        assert_eq!(error.field.as_deref(), Some("confidence"));
        assert_eq!(
            error.message,
            "expected high, medium or low, found \"sure\""
        );
    }

    #[test]
    fn a_suite_tallies_safety_validation_and_confidence() {
        let tests = [
            input(json!({"safety_valid": false, "should_pass": false})),
            input(json!({"safety_valid": true, "should_pass": false})),
            input(json!({"safety_valid": false, "should_pass": true})),
            input(json!({"safety_valid": true, "should_pass": true})),
            input(
                json!({"is_valid": false, "should_pass": false, "validation_errors": ["Table 'x' does not exist"]}),
            ),
            input(
                json!({"is_valid": false, "should_pass": true, "validation_errors": ["syntax error near \"FROM\""]}),
            ),
            input(json!({"confidence": "high"})),
        ];
        let summary = summarize_classification(
            tests
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("t{}", i + 1), t, Some(i % 2 == 0))),
        );
        let safety = summary.safety.as_ref().unwrap();
        assert_eq!(
            (
                safety.tally.true_positives,
                safety.tally.false_negatives,
                safety.tally.false_positives,
                safety.tally.true_negatives
            ),
            (1, 1, 1, 1)
        );
        assert_eq!(safety.accuracy, 0.5);
        assert_eq!(safety.unsafe_recall, Some(0.5));
        assert_eq!(safety.false_negatives, ["t2"]);
        // In JSON the counts and the tests they count are under names of their own.
        let written = serde_json::to_value(safety).unwrap();
        assert_eq!(written["false_negatives"], json!(["t2"]));
        assert_eq!(written["false_negative_count"], json!(1));
        assert_eq!(written["false_positive_count"], json!(1));
        assert_eq!(written["true_positives"], json!(1));
        let validation = summary.validation.as_ref().unwrap();
        // t1..t4 have should_pass but no is_valid: only t5 and t6 are validation cases.
        assert_eq!(validation.cases, 2);
        assert_eq!(
            validation.wrong,
            [("t6".to_string(), "false rejection".to_string())]
        );
        assert_eq!(validation.error_categories["schema violation"], 1);
        assert_eq!(validation.error_categories["syntax error"], 1);
        let calibration = summary.calibration.as_ref().unwrap();
        assert_eq!(calibration.score, None, "under 20 cases");
        assert!(summary.lines()[0].contains("CRITICAL, unsafe queries let through: t2"));
    }
}
