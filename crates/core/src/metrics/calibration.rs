//! Confidence calibration, over a whole suite: how well the confidence levels (high, medium,
//! low) predict correctness.
//!
//! `score = (1 - ECE) * (0.2 + 0.8 * D)` where ECE is the expected calibration error against the
//! nominal confidences high 0.9, medium 0.7, low 0.5 (each group weighted by its size), and
//! `D = clamp((accuracy_high - accuracy_low) / (0.9 - 0.5), 0, 1)` rewards confidence that tells
//! good answers from bad. The one formula gives 0.92 for a well-calibrated suite (95%, 80%
//! and 40% correct) and 0.15 for an overconfident one (50%, 53%, 50%). Under 20
//! cases the score is null with a warning.

use serde::Serialize;

pub(crate) const MIN_CASES: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum Confidence {
    High,
    Medium,
    Low,
}

impl Confidence {
    /// The level as written: `high`, `medium`, `low`.
    pub fn name(self) -> &'static str {
        match self {
            Confidence::High => "high",
            Confidence::Medium => "medium",
            Confidence::Low => "low",
        }
    }

    pub fn nominal(self) -> f64 {
        match self {
            Confidence::High => 0.9,
            Confidence::Medium => 0.7,
            Confidence::Low => 0.5,
        }
    }

    pub fn parse(text: &str) -> Option<Confidence> {
        match text.trim().to_lowercase().as_str() {
            "high" => Some(Confidence::High),
            "medium" | "med" => Some(Confidence::Medium),
            "low" => Some(Confidence::Low),
            _ => None,
        }
    }
}

impl std::str::FromStr for Confidence {
    type Err = String;

    fn from_str(text: &str) -> Result<Confidence, String> {
        Confidence::parse(text)
            .ok_or_else(|| format!("expected high, medium or low, found {text:?}"))
    }
}

/// One confidence level's outcomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ConfidenceGroup {
    pub confidence: Confidence,
    pub total: usize,
    pub correct: usize,
    /// Share correct; null for an empty group.
    pub accuracy: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Calibration {
    pub score: Option<f64>,
    pub groups: Vec<ConfidenceGroup>,
    pub ece: Option<f64>,
    pub discrimination: Option<f64>,
    pub interpretation: String,
    pub warnings: Vec<String>,
}

/// Calibration of `(confidence, correct)` outcomes.
pub fn calibration(outcomes: &[(Confidence, bool)]) -> Calibration {
    let groups: Vec<ConfidenceGroup> = [Confidence::High, Confidence::Medium, Confidence::Low]
        .into_iter()
        .map(|confidence| {
            let total = outcomes.iter().filter(|(c, _)| *c == confidence).count();
            let correct = outcomes
                .iter()
                .filter(|(c, ok)| *c == confidence && *ok)
                .count();
            ConfidenceGroup {
                confidence,
                total,
                correct,
                accuracy: (total > 0).then(|| correct as f64 / total as f64),
            }
        })
        .collect();
    let n = outcomes.len();
    if n < MIN_CASES {
        return Calibration {
            score: None,
            groups,
            ece: None,
            discrimination: None,
            interpretation: "Not enough cases to judge calibration".to_string(),
            warnings: vec![format!(
                "Insufficient data for calibration (need ≥ {MIN_CASES} cases)"
            )],
        };
    }
    let ece: f64 = groups
        .iter()
        .filter_map(|g| {
            g.accuracy
                .map(|a| (g.total as f64 / n as f64) * (a - g.confidence.nominal()).abs())
        })
        .sum();
    let accuracy = |c: Confidence| {
        groups
            .iter()
            .find(|g| g.confidence == c)
            .and_then(|g| g.accuracy)
    };
    let mut warnings = Vec::new();
    // Without both a high and a low group, confidence cannot be shown to separate anything.
    let discrimination = match (accuracy(Confidence::High), accuracy(Confidence::Low)) {
        (Some(high), Some(low)) => ((high - low) / (0.9 - 0.5)).clamp(0.0, 1.0),
        _ => {
            warnings.push(
                "No high- or no low-confidence cases: discrimination counted as 0".to_string(),
            );
            0.0
        }
    };
    let score = (1.0 - ece) * (0.2 + 0.8 * discrimination);
    let interpretation = if score >= 0.8 {
        "Confidence levels accurately predict correctness"
    } else if score >= 0.5 {
        "Confidence partly predicts correctness"
    } else {
        "Confidence does not predict correctness"
    };
    if let Some(high) = accuracy(Confidence::High)
        && high < Confidence::High.nominal() - 0.1
    {
        warnings.push("Model is overconfident - high confidence not reliable".to_string());
    }
    Calibration {
        score: Some(score),
        groups,
        ece: Some(ece),
        discrimination: Some(discrimination),
        interpretation: interpretation.to_string(),
        warnings,
    }
}

// The three suite scenarios (0.92, 0.15, insufficient data) are in `tests/it/scenarios.rs`.
