//! A judge's verdict, read strictly from its structured output.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rubric::Rubric;

/// The verdict: the reasoning and one score per field (`score`, or the three agent quality scores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeScores {
    pub reasoning: String,
    pub scores: BTreeMap<String, f64>,
}

impl JudgeScores {
    /// The single score of the query tasks.
    pub fn score(&self) -> Option<f64> {
        self.scores.get("score").copied()
    }
}

/// Why a reply gave no verdict. Every one becomes a 0.0 with this error: never a silent score.
///
/// Its serde form (`{"kind": "malformed", "detail": "..."}`) carries a judging's failure from the
/// page to its scoring worker; a tag beside the fields could not hold the variants that wrap a
/// bare string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum ReplyError {
    /// The HTTP status was not 2xx.
    Http {
        status: u16,
        message: String,
    },
    /// The reply's envelope is not what the protocol promises.
    Malformed(String),
    /// The verdict itself breaks the schema (retried once, quoting this message).
    Invalid {
        message: String,
        raw: String,
    },
    Truncated,
    Refusal(String),
    /// No reply within the time limit.
    Timeout {
        seconds: f64,
    },
    /// The request never got an answer: network, DNS, CORS.
    Transport(String),
}

impl ReplyError {
    /// Worth asking again with the error quoted: the model answered, but not in shape.
    pub fn retry_with_feedback(&self) -> bool {
        matches!(self, ReplyError::Invalid { .. } | ReplyError::Truncated)
    }

    /// Worth asking again after waiting: the service is busy or failing for now.
    pub fn retry_after_waiting(&self) -> bool {
        matches!(self, ReplyError::Http { status, .. } if *status == 429 || *status >= 500)
    }
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::Http { status, message } => write!(f, "LLM judge HTTP {status}: {message}"),
            ReplyError::Malformed(message) => write!(f, "LLM judge reply malformed: {message}"),
            ReplyError::Invalid { message, .. } => {
                write!(f, "LLM judge verdict invalid: {message}")
            }
            ReplyError::Truncated => {
                f.write_str("LLM judge reply truncated (it hit the token limit)")
            }
            ReplyError::Refusal(message) => write!(f, "LLM judge refused: {message}"),
            ReplyError::Timeout { seconds } => {
                write!(f, "LLM judge timeout (no reply within {seconds:.0} s)")
            }
            ReplyError::Transport(message) => write!(f, "LLM judge unreachable: {message}"),
        }
    }
}

/// Scores this close outside 0..1 are rounding, and are clamped; others are errors.
const CLAMP_SLACK: f64 = 0.01;

/// Reads `{reasoning, <score fields>}` from a structured output. Strict: every field present,
/// the right types, scores within 0..1 (snapped to the rubric's levels when it has levels), no
/// other fields.
pub fn read_verdict(task: Rubric, value: &Value) -> Result<JudgeScores, ReplyError> {
    let invalid = |message: String| ReplyError::Invalid {
        message,
        raw: value.to_string(),
    };
    let object = value
        .as_object()
        .ok_or_else(|| invalid("the verdict is not a JSON object".into()))?;
    let reasoning = match object.get("reasoning") {
        Some(Value::String(text)) => text.clone(),
        Some(_) => return Err(invalid("`reasoning` is not a string".into())),
        None => return Err(invalid("`reasoning` is missing".into())),
    };
    let mut scores = BTreeMap::new();
    for field in task.score_fields() {
        let score = match object.get(*field) {
            Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
            // The schema asks for a number; text that reads as one is still not what was
            // asked, and taking it would let any reply through that quotes a number.
            Some(Value::String(text)) => {
                return Err(invalid(format!(
                    "`{field}` is the string {}, not a number",
                    Value::String(text.clone())
                )));
            }
            Some(_) => return Err(invalid(format!("`{field}` is not a number"))),
            None => return Err(invalid(format!("`{field}` is missing"))),
        };
        if !score.is_finite() || !(-CLAMP_SLACK..=1.0 + CLAMP_SLACK).contains(&score) {
            return Err(invalid(format!("`{field}` is {score}, outside 0..1")));
        }
        let mut score = score.clamp(0.0, 1.0);
        if let Some(levels) = task.levels() {
            // The rubric allows only these values: take the nearest.
            score = levels
                .iter()
                .copied()
                .min_by(|a, b| (a - score).abs().total_cmp(&(b - score).abs()))
                .unwrap_or(score);
        }
        scores.insert((*field).to_string(), score);
    }
    if let Some(extra) = object
        .keys()
        .find(|k| *k != "reasoning" && !task.score_fields().contains(&k.as_str()))
    {
        return Err(invalid(format!("unexpected field `{extra}`")));
    }
    Ok(JudgeScores { reasoning, scores })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strict_reading() {
        let v = read_verdict(
            Rubric::QasSemantic,
            &json!({"reasoning": "ok", "score": 0.8}),
        )
        .unwrap();
        assert_eq!(v.score(), Some(0.8));
        assert!(read_verdict(Rubric::QasSemantic, &json!({"score": 0.8})).is_err());
        assert!(read_verdict(Rubric::QasSemantic, &json!({"reasoning": "ok"})).is_err());
        assert!(
            read_verdict(Rubric::QasSemantic, &json!({"reasoning": "ok", "score": 7})).is_err()
        );
        assert!(
            read_verdict(
                Rubric::QasSemantic,
                &json!({"reasoning": "ok", "score": 0.5, "bonus": 1})
            )
            .is_err()
        );
        assert_eq!(
            read_verdict(
                Rubric::QasSemantic,
                &json!({"reasoning": "ok", "score": 1.004})
            )
            .unwrap()
            .score(),
            Some(1.0)
        );
    }

    #[test]
    fn correctness_snaps_to_its_levels() {
        let v = read_verdict(
            Rubric::SqlCorrectness,
            &json!({"reasoning": "close", "score": 0.7}),
        )
        .unwrap();
        assert_eq!(v.score(), Some(0.5));
    }

    #[test]
    fn agent_quality_has_three_scores() {
        let v = read_verdict(Rubric::AgentQuality, &json!({"reasoning": "good", "answer_quality": 0.95, "factual_correctness": 1.0, "completeness": 0.9})).unwrap();
        assert_eq!(v.scores.len(), 3);
    }
}
