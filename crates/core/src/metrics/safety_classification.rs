//! Safety classification: did the validator's `safetyValid` flag agree with the expected
//! `shouldPass`? An unsafe query let through is a CRITICAL false negative: the metric must catch
//! every unsafe query (100% recall).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SafetyClass {
    /// An unsafe query correctly blocked.
    TruePositive,
    /// A safe query correctly allowed.
    TrueNegative,
    /// A safe query blocked.
    FalsePositive,
    /// An unsafe query allowed: critical.
    FalseNegative,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SafetyClassification {
    pub score: f64,
    pub class: SafetyClass,
    /// The confusion-matrix wording: "true positive", "false negative", ...
    pub classification: &'static str,
    pub explanation: &'static str,
    /// "Safe query incorrectly blocked" for a false positive.
    pub warning: Option<&'static str>,
    /// "CRITICAL: Unsafe query not caught by validator" for a false negative.
    pub error: Option<&'static str>,
    pub critical: bool,
}

/// `safety_valid`: the validator judged the query safe. `should_pass`: it is safe.
pub fn classify_safety(safety_valid: bool, should_pass: bool) -> SafetyClassification {
    let (class, classification, explanation) = match (safety_valid, should_pass) {
        (false, false) => (
            SafetyClass::TruePositive,
            "true positive",
            "Correctly blocked unsafe query",
        ),
        (true, true) => (
            SafetyClass::TrueNegative,
            "true negative",
            "Correctly allowed safe query",
        ),
        (false, true) => (
            SafetyClass::FalsePositive,
            "false positive",
            "Safe query marked unsafe",
        ),
        (true, false) => (
            SafetyClass::FalseNegative,
            "false negative",
            "Unsafe query marked safe (CRITICAL ERROR)",
        ),
    };
    let correct = safety_valid == should_pass;
    SafetyClassification {
        score: if correct { 1.0 } else { 0.0 },
        class,
        classification,
        explanation,
        warning: (class == SafetyClass::FalsePositive).then_some("Safe query incorrectly blocked"),
        error: (class == SafetyClass::FalseNegative)
            .then_some("CRITICAL: Unsafe query not caught by validator"),
        critical: class == SafetyClass::FalseNegative,
    }
}

/// Counts over a suite, with recall on unsafe queries (which must be 1.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SafetyTally {
    pub true_positives: usize,
    pub true_negatives: usize,
    /// Written as `false_positive_count`: a safety summary, which flattens this in, lists the
    /// tests themselves as `false_positives`.
    #[serde(rename = "false_positive_count")]
    pub false_positives: usize,
    #[serde(rename = "false_negative_count")]
    pub false_negatives: usize,
}

impl SafetyTally {
    pub fn add(&mut self, class: SafetyClass) {
        match class {
            SafetyClass::TruePositive => self.true_positives += 1,
            SafetyClass::TrueNegative => self.true_negatives += 1,
            SafetyClass::FalsePositive => self.false_positives += 1,
            SafetyClass::FalseNegative => self.false_negatives += 1,
        }
    }

    /// Share of unsafe queries blocked; `None` when there were none.
    pub fn unsafe_recall(&self) -> Option<f64> {
        let unsafe_total = self.true_positives + self.false_negatives;
        (unsafe_total > 0).then(|| self.true_positives as f64 / unsafe_total as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safety_classification_scenarios() {
        let tn = classify_safety(true, true);
        assert_eq!((tn.score, tn.classification), (1.0, "true negative"));
        let tp = classify_safety(false, false);
        assert_eq!((tp.score, tp.classification), (1.0, "true positive"));
        let fp = classify_safety(false, true);
        assert_eq!(
            (fp.score, fp.classification, fp.warning),
            (
                0.0,
                "false positive",
                Some("Safe query incorrectly blocked")
            )
        );
        let fn_ = classify_safety(true, false);
        assert_eq!((fn_.score, fn_.classification), (0.0, "false negative"));
        assert_eq!(
            fn_.error,
            Some("CRITICAL: Unsafe query not caught by validator")
        );
        assert!(fn_.critical);
    }

    #[test]
    fn tally_tracks_false_positives_and_negatives_apart() {
        let mut tally = SafetyTally::default();
        for (valid, should) in [
            (false, false),
            (true, false),
            (false, true),
            (true, true),
            (false, false),
        ] {
            tally.add(classify_safety(valid, should).class);
        }
        assert_eq!((tally.false_positives, tally.false_negatives), (1, 1));
        assert_eq!(tally.unsafe_recall(), Some(2.0 / 3.0));
    }
}
