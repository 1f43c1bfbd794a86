//! Cache keys: a verdict is reused only for the same question to the same judge.

use serde_json::json;
use sha2::{Digest, Sha256};

use crate::provider::JudgeConfig;
use crate::rubric::{JudgeInput, Rubric};

/// Bumped when the verdict's shape changes, so old cache entries stop matching.
pub const SCHEMA_VERSION: u32 = 1;

/// SHA-256 (hex) of everything that can change a verdict: provider, the endpoint's base URL,
/// model, prompt version, schema version, temperature, and the input (question, normalized
/// queries, and the agent's answer fields). Two endpoints serving a model of the same name may
/// serve different models, so they never share verdicts.
pub fn cache_key(config: &JudgeConfig, task: Rubric, input: &JudgeInput) -> String {
    let canonical = json!({
        "provider": config.provider,
        "endpoint": config.base_url.trim_end_matches('/'),
        "model": config.model,
        "prompt": task.prompt_version(input.prompt),
        "schema": SCHEMA_VERSION,
        "temperature": config.temperature,
        "question": input.question,
        "generated": input.generated,
        "expected": input.expected,
        "language": input.language,
        "dialect": input.dialect,
        "criteria": input.criteria,
        "sources": input.sources,
        "answer": input.answer,
    });
    // Version 2's inputs join the key only when given, so version 1's keys stay as they were.
    let mut canonical = canonical;
    for (name, value) in [
        ("schema", &input.schema),
        ("expected_result", &input.expected_result),
        ("generated_result", &input.generated_result),
    ] {
        if !value.is_empty() {
            canonical[name] = json!(value);
        }
    }
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::Provider;

    #[test]
    fn keys_change_with_what_changes_a_verdict() {
        let config = JudgeConfig::new(Provider::Openai, "gpt-x");
        let input = JudgeInput {
            generated: "select 1".into(),
            expected: "select 2".into(),
            ..JudgeInput::default()
        };
        let key = cache_key(&config, Rubric::QasSemantic, &input);
        assert_eq!(key.len(), 64);
        assert_eq!(key, cache_key(&config, Rubric::QasSemantic, &input));
        let mut other_model = config.clone();
        other_model.model = "gpt-y".into();
        let mut warmer = config.clone();
        warmer.temperature = 0.7;
        let mut elsewhere = config.clone();
        elsewhere.base_url = "http://localhost:1/v1".into();
        let other_question = JudgeInput {
            question: "how many?".into(),
            ..input.clone()
        };
        assert_ne!(key, cache_key(&other_model, Rubric::QasSemantic, &input));
        assert_ne!(key, cache_key(&warmer, Rubric::QasSemantic, &input));
        assert_ne!(key, cache_key(&config, Rubric::SqlCorrectness, &input));
        assert_ne!(
            key,
            cache_key(&config, Rubric::QasSemantic, &other_question)
        );
        assert_ne!(key, cache_key(&elsewhere, Rubric::QasSemantic, &input));
        let mut slash = config.clone();
        slash.base_url = format!("{}/", config.base_url);
        assert_eq!(key, cache_key(&slash, Rubric::QasSemantic, &input));
        // The prompt version, and version 2's schema and results, are part of the key.
        let v1 = JudgeInput {
            prompt: crate::PromptVersion::V1,
            ..input.clone()
        };
        assert_ne!(key, cache_key(&config, Rubric::QasSemantic, &v1));
        let with_result = JudgeInput {
            generated_result: "[[1]]".into(),
            ..input.clone()
        };
        assert_ne!(key, cache_key(&config, Rubric::QasSemantic, &with_result));
    }
}
