//! LLM judges in the scorecard: which judgings a pair needs, and how their verdicts replace the
//! structural judge's. The calls themselves are the caller's (the CLI and the browser each have
//! their own transport); the core stays pure.

use std::collections::BTreeMap;

use qeval_judge::{JudgeInput, JudgeScores, PromptVersion, ReplyError, Rubric, result_text};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::ScoreOptions;
use crate::language::Language;
use crate::metric::{Metric, MetricName};
use crate::pairs::PairInput;
use crate::profiles::{Profile, ProfileName};
use crate::scorecard::{Diagnostic, DiagnosticSource, Severity};

/// One judging a pair needs: the metric it fills, the task and what is judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judging {
    pub metric: String,
    pub task: Rubric,
    pub input: JudgeInput,
}

/// A verdict with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgedVerdict {
    pub verdict: JudgeScores,
    pub provider: String,
    pub model: String,
    /// Served from a cache, without a call.
    pub cached: bool,
}

impl JudgedVerdict {
    /// A metric's `details` when an LLM gave its score.
    fn details(&self) -> serde_json::Value {
        json!({
            "judge": "llm",
            "provider": self.provider,
            "model": self.model,
            "cached": self.cached,
            "reasoning": self.verdict.reasoning,
        })
    }
}

/// What a judging gave: a verdict, or the error that stands in for it (0.0 with the error).
pub type JudgeOutcome = Result<JudgedVerdict, ReplyError>;

/// The judgings a pair needs: one per LLM-judged metric its profile weighs (semantic similarity,
/// query correctness), and one for the three agent quality scores when the pair carries an
/// agent's answer. No query judging without an expected query, and none for queries that are
/// identical after normalization: they score 1.0 without a call (the exact match shortcut).
pub fn judge_tasks(pair: &PairInput, options: &ScoreOptions) -> Vec<Judging> {
    let profile = pair
        .profile
        .map_or_else(|| options.profile.clone(), Profile::preset);
    // Each further acceptable answer is judged too; its tasks' metrics carry `@<index>`.
    let mut tasks = judge_tasks_of_one(&pair.with_expected(0), options, &profile);
    for index in 1..=pair.alternatives.len() {
        tasks.extend(
            query_tasks(&pair.with_expected(index), options, &profile)
                .into_iter()
                .map(|mut task| {
                    task.metric = format!("{}@{index}", task.metric);
                    task
                }),
        );
    }
    tasks
}

/// The verdicts that belong to acceptable answer `index` (see [`judge_tasks`]), under their
/// metrics' own names; the answer's quality (no query) is judged once and shared.
pub(crate) fn verdicts_for(
    judged: &BTreeMap<String, JudgeOutcome>,
    index: usize,
) -> BTreeMap<String, JudgeOutcome> {
    judged
        .iter()
        .filter_map(|(name, outcome)| match name.split_once('@') {
            None if index == 0 || name == QUALITY => Some((name.clone(), outcome.clone())),
            Some((metric, at)) if at.parse() == Ok(index) => {
                Some((metric.to_string(), outcome.clone()))
            }
            _ => None,
        })
        .collect()
}

fn judge_tasks_of_one(pair: &PairInput, options: &ScoreOptions, profile: &Profile) -> Vec<Judging> {
    let mut tasks = query_tasks(pair, options, profile);
    // An agent's answer, judged once for its three quality scores.
    // An answer without a query stands in for the query: its factual correctness against the
    // expected answer is the semantic score of a profile that weighs one.
    let answer_only = pair.generated_sql.trim().is_empty();
    if let Some(answer) = &pair.answer
        && (MetricName::QUALITY
            .iter()
            .any(|m| profile.weights.contains_key(m))
            || (answer_only
                && profile
                    .weights
                    .contains_key(&MetricName::SemanticSimilarity)))
    {
        tasks.push(Judging {
            metric: QUALITY.into(),
            task: Rubric::AgentQuality,
            input: JudgeInput {
                question: pair.question.clone().unwrap_or_default(),
                criteria: pair.answer_criteria.clone().unwrap_or_default(),
                sources: pair.sources.clone().unwrap_or_default(),
                answer: answer.clone(),
                prompt: options.judge_prompt,
                ..JudgeInput::default()
            },
        });
    }
    tasks
}

/// The quality judging's key in the outcomes; its verdict fills three metrics.
const QUALITY: &str = "quality";

fn query_tasks(pair: &PairInput, options: &ScoreOptions, profile: &Profile) -> Vec<Judging> {
    let Some(expected_sql) = pair.expected_sql.as_deref() else {
        return Vec::new();
    };
    if pair.generated_sql.trim().is_empty() && pair.answer.is_some() {
        return Vec::new();
    }
    let language = pair.language.unwrap_or(options.language);
    let dialect = pair.dialect.unwrap_or(options.dialect);
    let generated =
        crate::analysis::analyse_as(language, &pair.generated_sql, dialect, options.limits);
    let expected = crate::analysis::analyse_as(language, expected_sql, dialect, options.limits);
    if expected.same_query_as(&generated) {
        return Vec::new();
    }
    // Version 2 shows the judge the schema and both results, when known.
    let v2 = options.judge_prompt == PromptVersion::V2;
    let shown = |result: &Option<serde_json::Value>| {
        result
            .as_ref()
            .filter(|_| v2)
            .map(result_text)
            .unwrap_or_default()
    };
    let input = JudgeInput {
        prompt: options.judge_prompt,
        schema: if v2 {
            pair.schema
                .clone()
                .or_else(|| options.schema.clone())
                .unwrap_or_default()
        } else {
            String::new()
        },
        expected_result: shown(&pair.expected_result),
        generated_result: shown(&pair.generated_result),
        question: pair.question.clone().unwrap_or_default(),
        generated: generated.normalized.clone(),
        expected: expected.normalized.clone(),
        language: match language {
            Language::Sql => "sql".into(),
            Language::Kql => "kql".into(),
        },
        dialect: if language == Language::Sql {
            dialect.name().into()
        } else {
            String::new()
        },
        ..JudgeInput::default()
    };
    let mut tasks = Vec::new();
    if profile
        .weights
        .contains_key(&MetricName::SemanticSimilarity)
    {
        let task = if profile.name == ProfileName::KqlBatch || language == Language::Kql {
            Rubric::QuerySimilarity
        } else {
            Rubric::QasSemantic
        };
        tasks.push(Judging {
            metric: MetricName::SemanticSimilarity.as_str().into(),
            task,
            input: input.clone(),
        });
    }
    if profile.weights.contains_key(&MetricName::QueryCorrectness) {
        tasks.push(Judging {
            metric: MetricName::QueryCorrectness.as_str().into(),
            task: Rubric::SqlCorrectness,
            input,
        });
    }
    tasks
}

/// Puts LLM verdicts in place of the structural judge's, metric by metric.
///
/// A failed judging never reads as a low score. Where the structural judge scored the metric, its
/// score stands and says that the LLM judge failed; elsewhere the metric is not scored (no score,
/// the error kept), so the profile's total leaves it out and gives no verdict. Either way a
/// diagnostic names the failure, so an export cannot pass for a judged result.
pub(super) fn apply(
    metrics: &mut BTreeMap<MetricName, Metric>,
    judged: &BTreeMap<String, JudgeOutcome>,
    pair: &PairInput,
    options: &ScoreOptions,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (name, outcome) in judged {
        if name == QUALITY {
            apply_quality(metrics, outcome, pair, options, diagnostics);
            continue;
        }
        // The keys are the tasks' own metric names (`judge_tasks`); anything else has no
        // metric to fill.
        let Ok(name) = name.parse::<MetricName>() else {
            continue;
        };
        let metric = match outcome {
            Ok(judged) => {
                let score = judged.verdict.score().unwrap_or(0.0);
                Metric {
                    score: Some(score),
                    passed: (name == MetricName::QueryCorrectness).then_some(score >= 1.0),
                    explanation: judged.verdict.reasoning.clone(),
                    details: judged.details(),
                    error: None,
                }
            }
            Err(error) => {
                let structural = metrics
                    .get(&name)
                    .filter(|m| m.score.is_some() && m.error.is_none());
                let fallback = structural.is_some();
                diagnostics.push(judge_failed(name.as_str(), error, fallback));
                match structural {
                    Some(structural) => {
                        let mut metric = structural.clone();
                        metric.explanation = format!(
                            "LLM judge failed ({error}); the structural judge's score stands: {}",
                            metric.explanation
                        );
                        if let Some(details) = metric.details.as_object_mut() {
                            details.insert("llm_judge_error".into(), json!(error.to_string()));
                        }
                        metric
                    }
                    None => not_scored(
                        name,
                        error,
                        options,
                        &[
                            ("generated_sql", &pair.generated_sql),
                            (
                                "expected_sql",
                                pair.expected_sql.as_deref().unwrap_or_default(),
                            ),
                        ],
                    ),
                }
            }
        };
        metrics.insert(name, metric);
    }
}

/// A metric the failed LLM judge was to score: no score, and the reason.
fn not_scored(
    name: MetricName,
    error: &ReplyError,
    options: &ScoreOptions,
    inputs: &[(&str, &str)],
) -> Metric {
    let mut metric = options.error(name, error.to_string(), inputs);
    metric.score = None;
    metric.passed = None;
    metric.explanation = format!("Not scored: the LLM judge failed ({error})");
    metric
}

fn judge_failed(name: &str, error: &ReplyError, fallback: bool) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        source: DiagnosticSource::LlmJudge,
        message: if fallback {
            format!(
                "The LLM judge failed for {name} ({error}); the structural judge's score is used"
            )
        } else {
            format!("The LLM judge failed for {name} ({error}); {name} is not scored")
        },
        line: None,
        column: None,
    }
}

/// One quality verdict into the three quality metrics (answer quality, factual correctness,
/// completeness), or the one error into all three.
fn apply_quality(
    metrics: &mut BTreeMap<MetricName, Metric>,
    outcome: &JudgeOutcome,
    pair: &PairInput,
    options: &ScoreOptions,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Err(error) = outcome {
        diagnostics.push(judge_failed("the answer's quality", error, false));
    }
    for name in MetricName::QUALITY {
        let metric = match outcome {
            Ok(judged) => Metric {
                score: Some(
                    judged
                        .verdict
                        .scores
                        .get(name.as_str())
                        .copied()
                        .unwrap_or(0.0),
                ),
                passed: None,
                explanation: judged.verdict.reasoning.clone(),
                details: judged.details(),
                error: None,
            },
            Err(error) => not_scored(
                name,
                error,
                options,
                &[("answer", pair.answer.as_deref().unwrap_or_default())],
            ),
        };
        metrics.insert(name, metric);
    }
}
