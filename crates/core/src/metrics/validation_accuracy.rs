//! Validation accuracy: did the validator's `isValid` agree with the expected `shouldPass`, and why
//! did validation fail? Errors are sorted into syntax, schema and safety categories from their
//! messages.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCategory {
    SyntaxError,
    SchemaViolation,
    SafetyViolation,
    Other,
}

impl ErrorCategory {
    /// The category's label in reports: "syntax error", "schema violation", ...
    pub fn label(self) -> &'static str {
        match self {
            ErrorCategory::SyntaxError => "syntax error",
            ErrorCategory::SchemaViolation => "schema violation",
            ErrorCategory::SafetyViolation => "safety violation",
            ErrorCategory::Other => "other",
        }
    }
}

/// Sorts a validator's error message into a category by what it talks about.
pub(crate) fn categorize(message: &str) -> ErrorCategory {
    let text = message.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if any(&[
        "unsafe",
        "not allowed",
        "forbidden",
        "read-only",
        "read only",
        "dangerous",
        "drop ",
        "delete",
        "injection",
        "permission",
    ]) {
        ErrorCategory::SafetyViolation
    } else if any(&[
        "does not exist",
        "doesn't exist",
        "no such",
        "unknown column",
        "unknown table",
        "not found",
        "undefined",
        "ambiguous",
        "schema",
    ]) {
        ErrorCategory::SchemaViolation
    } else if any(&[
        "syntax",
        "parse",
        "unexpected",
        "expected",
        "unterminated",
        "near \"",
    ]) {
        ErrorCategory::SyntaxError
    } else {
        ErrorCategory::Other
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationAccuracy {
    pub score: f64,
    /// "correct acceptance", "correct rejection", "false rejection" or "false acceptance".
    pub validation_type: &'static str,
    /// The categories of the validator's errors, one per error.
    pub error_categories: Vec<ErrorCategory>,
    /// The label of the first error's category, e.g. "schema violation".
    pub error_category: Option<&'static str>,
    /// What to look into when the verdict is wrong.
    pub investigation: Option<&'static str>,
}

pub fn validation_accuracy(
    is_valid: bool,
    should_pass: bool,
    errors: &[String],
) -> ValidationAccuracy {
    let validation_type = match (is_valid, should_pass) {
        (true, true) => "correct acceptance",
        (false, false) => "correct rejection",
        (false, true) => "false rejection",
        (true, false) => "false acceptance",
    };
    let error_categories: Vec<ErrorCategory> = errors.iter().map(|e| categorize(e)).collect();
    ValidationAccuracy {
        score: if is_valid == should_pass { 1.0 } else { 0.0 },
        validation_type,
        error_category: error_categories.first().map(|c| c.label()),
        error_categories,
        investigation: match (is_valid, should_pass) {
            (false, true) => Some("Why was valid query rejected?"),
            (true, false) => Some("Why was invalid query accepted?"),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_accuracy_scenarios() {
        let accepted = validation_accuracy(true, true, &[]);
        assert_eq!(
            (accepted.score, accepted.validation_type),
            (1.0, "correct acceptance")
        );
        let rejected = validation_accuracy(
            false,
            false,
            &["Table 'nonexistent' does not exist".to_string()],
        );
        assert_eq!(
            (rejected.score, rejected.validation_type),
            (1.0, "correct rejection")
        );
        assert_eq!(rejected.error_category, Some("schema violation"));
        let wrong = validation_accuracy(false, true, &[]);
        assert_eq!(
            (wrong.score, wrong.validation_type),
            (0.0, "false rejection")
        );
        assert_eq!(wrong.investigation, Some("Why was valid query rejected?"));
    }

    #[test]
    fn categories() {
        assert_eq!(
            categorize("syntax error at or near \"FORM\""),
            ErrorCategory::SyntaxError
        );
        assert_eq!(
            categorize("no such column: agee"),
            ErrorCategory::SchemaViolation
        );
        assert_eq!(
            categorize("DROP statements are not allowed"),
            ErrorCategory::SafetyViolation
        );
        assert_eq!(categorize("timeout"), ErrorCategory::Other);
    }
}
