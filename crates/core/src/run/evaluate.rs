//! From a raw test result to a scored record, and back: checking a record's stored scores
//! against what its own data gives.

use std::collections::BTreeMap;

use serde_json::Value;

use super::record::{Breakdown, EvaluationRecord, QasEvaluation, TestLine};
use crate::datatype::AnswerType;
use crate::language::Language;
use crate::metric::{Metric, MetricName};
use crate::pairs::{PairInput, PairLine, TestOptions};
use crate::profiles::{Profile, ProfileName};
use crate::score::{JudgeOutcome, ScoreOptions, result_metrics_of, score_pair_judged};
use crate::scorecard::Scorecard;
use crate::sql::hardness;

/// Scores one test of a run into its record: its pair scored with the LLM judge's verdicts
/// (already asked for; empty without a judge), and the `test_suite` metric when test-suite
/// checking ran on it (see [`suite_queries`]). `qeval run` and the page's scoring worker both
/// score runs through this, so their records are the same bytes.
pub(crate) fn score_test(
    test: &TestLine,
    question: Option<&TestLine>,
    pair: &PairInput,
    judged: &BTreeMap<String, JudgeOutcome>,
    suite: Option<&Metric>,
    options: &ScoreOptions,
) -> EvaluationRecord {
    let card = score_pair_judged(pair, options, judged);
    let mut record = evaluate_test(test, question, pair, &card, &options.profile);
    if let Some(metric) = suite {
        record.extra.insert(
            MetricName::TestSuite.as_str().into(),
            serde_json::json!({
                "score": metric.score,
                "explanation": metric.explanation,
                "details": metric.details,
            }),
        );
    }
    record
}

/// The expected and generated queries test-suite checking runs for a test, or `None` when it
/// does not apply: no expected query, no generated one, or a generated query that already
/// failed.
pub fn suite_queries(pair: &PairInput) -> Option<(&str, &str)> {
    let expected = pair.expected_sql.as_deref()?;
    if pair.generated_error.is_some() || pair.generated_sql.trim().is_empty() {
        return None;
    }
    Some((expected, &pair.generated_sql))
}

/// The pair a test result is scored as: the agent's query and results, and the expectation from
/// the questions file (or from the result itself, when it carries one).
pub fn pair_of_test(test: &TestLine, question: Option<&TestLine>) -> PairInput {
    let asked = question.map(|q| &q.line);
    let given = &test.line;
    let answer = answer_of(given);
    let (asked_sql, asked_result, asked_alternatives) =
        asked.map(PairLine::expectation).unwrap_or_default();
    let (given_sql, given_result, given_alternatives) = given.expectation();
    let options = test_options(test, question);
    PairInput {
        mode: options.mode,
        ignore_order: options.ignore_order,
        tolerance: options.tolerance,
        condition_cols: options.condition_cols,
        id: Some(test.test_id.clone()),
        generated_sql: given.generated_sql.clone().unwrap_or_default(),
        expected_sql: asked_sql.or(given_sql),
        question: asked
            .and_then(|q| q.question.clone())
            .filter(|q| !q.is_empty())
            .or_else(|| given.question.clone()),
        expected_result: asked_result.or(given_result),
        // An answer given without a query is the result it is compared as.
        generated_result: given.generated_result.clone().or_else(|| {
            answer.as_ref().map(|answer| {
                answer
                    .trim()
                    .parse::<serde_json::Number>()
                    .map_or(Value::String(answer.clone()), Value::Number)
            })
        }),
        expected_answer_type: asked
            .and_then(|q| q.expected_answer_type)
            .or(given.expected_answer_type),
        generated_error: given.generated_error.clone(),
        answer_criteria: answer.as_ref().and_then(|_| expected_answer(given, asked)),
        answer,
        alternatives: if asked_alternatives.is_empty() {
            given_alternatives
        } else {
            asked_alternatives
        },
        ..PairInput::default()
    }
}

/// The agent's answer when it gave one in words or a number and no query (`answer`,
/// `final_answer` or `response`).
fn answer_of(test: &PairLine) -> Option<String> {
    if test
        .generated_sql
        .as_deref()
        .is_some_and(|sql| !sql.trim().is_empty())
    {
        return None;
    }
    test.answer.clone().filter(|text| !text.trim().is_empty())
}

/// What a judge checks an answer against: the question's `expected_answer`, else its expected
/// results.
fn expected_answer(test: &PairLine, question: Option<&PairLine>) -> Option<String> {
    let given = question
        .and_then(|q| q.expected_answer.as_ref())
        .or(test.expected_answer.as_ref());
    if let Some(value) = given {
        return Some(format!(
            "The correct answer is: {}",
            value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_string)
        ));
    }
    question
        .and_then(|q| q.expected_result.as_ref())
        .or(test.expected_result.as_ref())
        .map(|v| format!("The correct answer is the result: {v}"))
}

/// Why a test has no scores when nothing says what was expected: the rule `qeval score` applies
/// to a pair without `expected_sql` (it rejects the line), so neither counts it as a failure.
pub const NOTHING_EXPECTED: &str = "Not scored: nothing to compare with: no question with this test_id gives an expected query, tables or result, and the test result gives none";

/// Why an answer without a query has no scores: no judge compared it with the expected answer.
pub(crate) const ANSWER_NOT_SCORED: &str = "Not scored: the agent answered without a query; an LLM judge (--judge, or the page's LLM judge) scores the answer against the expected answer";

/// A test's comparison options: the questions file's, then the test result's.
fn test_options(test: &TestLine, question: Option<&TestLine>) -> TestOptions {
    match question {
        Some(question) => question.line.options().or(&test.line.options()),
        None => test.line.options(),
    }
}

/// The record of a scored test. Components that were not scored (no expected results, say)
/// are 0.0 with a reason, and the final score is the profile's weighted sum with them at 0.0, so
/// `final_score` always follows from the three stored components.
pub fn evaluate_test(
    test: &TestLine,
    question: Option<&TestLine>,
    pair: &PairInput,
    card: &Scorecard,
    profile: &Profile,
) -> EvaluationRecord {
    let component = |name: MetricName, absent: &str| match card.metrics.get(&name) {
        Some(metric) => (
            metric.score.unwrap_or(0.0),
            match &metric.error {
                Some(error) if metric.explanation.is_empty() => error.message.clone(),
                _ => metric.explanation.clone(),
            },
        ),
        None => (0.0, format!("Not scored: {absent}")),
    };
    if !pair.has_expectation() {
        let mut record = unscored_record(test, question, pair);
        record
            .extra
            .insert("not_scored".into(), Value::String(NOTHING_EXPECTED.into()));
        return record;
    }
    if pair.answer.is_some() && !card.metrics.contains_key(&MetricName::SemanticSimilarity) {
        let mut record = unscored_record(test, question, pair);
        record
            .extra
            .insert("not_scored".into(), Value::String(ANSWER_NOT_SCORED.into()));
        return record;
    }
    let (semantic, semantic_explanation) =
        component(MetricName::SemanticSimilarity, "no expected query");
    let (execution, execution_explanation) = component(
        MetricName::Execution,
        "needs both the expected and the actual results",
    );
    let (datatype, datatype_explanation) = component(
        MetricName::Datatype,
        "needs expected_answer_type and the actual results",
    );
    let (final_score, passed) = match &card.profile {
        Some(result) => {
            let sum: f64 = result.parts.values().map(|p| p.score * p.weight).sum();
            let weights: f64 = profile.weights.values().sum();
            let total = if weights > 0.0 { sum / weights } else { 0.0 };
            let passed = result.passed.unwrap_or(total >= result.threshold);
            (round(total), passed)
        }
        None => (0.0, false),
    };
    let mut qas_extra = serde_json::Map::new();
    if card.unsafe_query {
        qas_extra.insert("unsafe".into(), Value::Bool(true));
    }
    let mut extra = test.extra.clone();
    // Written by scoring from the expected query; a value the input carried is only kept when
    // there is no SQL to compute it from.
    let given_hardness = extra
        .remove("sql_hardness")
        .and_then(|v| v.as_str().map(str::to_string));
    let sql_hardness = match card.language {
        Language::Sql => pair
            .expected_sql
            .as_deref()
            .and_then(|sql| hardness(sql, card.dialect))
            .map(|h| h.name().to_string()),
        Language::Kql => None,
    }
    .or(given_hardness);
    if let Some(error) = &pair.generated_error {
        extra.insert("error".into(), Value::String(error.clone()));
    }
    // Which acceptable answer the test matched, when it had several.
    if let Some(matched) = &card.expected_match {
        let alternative = pair.with_expected(matched.index);
        extra.insert(
            "matched_expected".into(),
            serde_json::json!({
                "index": matched.index,
                "of": matched.of,
                "expected_sql": alternative.expected_sql,
            }),
        );
    }
    if !pair.alternatives.is_empty() {
        extra.insert(
            "expected_alternatives".into(),
            serde_json::to_value(&pair.alternatives).unwrap_or_default(),
        );
    }
    // Unknown tables and columns, when a schema was given.
    if let Some(metric) = card.metrics.get(&MetricName::SchemaValidity) {
        extra.insert(
            MetricName::SchemaValidity.as_str().into(),
            serde_json::json!({"score": metric.score, "explanation": metric.explanation}),
        );
    }
    // Deterministic efficiency, when both queries ran on a database: BIRD's reward by VM steps.
    if let Some(metric) = card.metrics.get(&MetricName::Efficiency) {
        extra.insert(
            MetricName::Efficiency.as_str().into(),
            metric.details.clone(),
        );
    }
    // The test's own comparison options stay with its record.
    if let Ok(Value::Object(options)) = serde_json::to_value(test_options(test, question)) {
        extra.extend(options);
    }
    if let Some(kind) = pair.expected_answer_type {
        extra.insert(
            "expected_answer_type".into(),
            Value::String(kind.name().into()),
        );
    }
    EvaluationRecord {
        sql_hardness,
        actual_results: pair
            .generated_result
            .clone()
            .or_else(|| test.line.generated_result.clone()),
        extra,
        qas_evaluation: Some(QasEvaluation {
            semantic_score: round(semantic),
            execution_score: round(execution),
            datatype_score: round(datatype),
            final_score,
            passed,
            breakdown: Breakdown {
                semantic_explanation,
                execution_explanation,
                datatype_explanation,
                extra: Default::default(),
            },
            extra: qas_extra,
        }),
        ..unscored_record(test, question, pair)
    }
}

/// A test's record without scores: its fields from the test result, the question and the pair.
fn unscored_record(
    test: &TestLine,
    question: Option<&TestLine>,
    pair: &PairInput,
) -> EvaluationRecord {
    EvaluationRecord {
        test_id: test.test_id.clone(),
        question: pair.question.clone().unwrap_or_default(),
        agent_used: test
            .line
            .agent_used
            .clone()
            .or_else(|| question.and_then(|q| q.line.agent_used.clone())),
        difficulty: test
            .line
            .difficulty
            .clone()
            .or_else(|| question.and_then(|q| q.line.difficulty.clone())),
        sql_hardness: None,
        expected_sql: pair.expected_sql.clone(),
        generated_sql: test.line.generated_sql.clone(),
        expected_results: pair.expected_result.clone(),
        actual_results: test.line.generated_result.clone(),
        qas_evaluation: None,
        extra: test.extra.clone(),
    }
}

/// Scores as written: four decimals, so files stay readable and byte-stable.
pub fn round(score: f64) -> f64 {
    (score * 10_000.0).round() / 10_000.0
}

/// A stored score that the record's own data contradicts.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Disagreement {
    pub field: &'static str,
    pub stored: Value,
    pub recomputed: Value,
    pub reason: String,
}

/// Stored scores further than this from the recomputed ones are flagged (files often round to
/// two decimals).
const SLACK: f64 = 0.005;

/// Recomputes what a record's own data determines, without any judge: the execution score
/// (both results given), the datatype score (`expected_answer_type` given), the final score from
/// the three stored components with the QAS weights (0.4, 0.4, 0.2), and the verdict from the
/// final score.
///
/// A benchmark's record (`qeval bench`, with a `benchmark` object) carries the official verdict
/// as its score, not the QAS formula: it is not checked against the formula.
pub fn recheck(record: &EvaluationRecord) -> Vec<Disagreement> {
    let Some(stored) = &record.qas_evaluation else {
        return Vec::new();
    };
    if record.extra.contains_key("benchmark") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let number = |x: f64| serde_json::json!(round(x));
    let answer_type = record
        .extra
        .get("expected_answer_type")
        .and_then(Value::as_str)
        .and_then(|t| t.parse::<AnswerType>().ok());
    let pair = PairInput {
        generated_sql: record.generated_sql.clone().unwrap_or_default(),
        expected_sql: record.expected_sql.clone(),
        expected_result: record.expected_results.clone().filter(|v| !v.is_null()),
        generated_result: record.actual_results.clone().filter(|v| !v.is_null()),
        expected_answer_type: answer_type,
        generated_error: record.error(),
        ..PairInput::default()
    };
    let options = ScoreOptions {
        profile: Profile::preset(ProfileName::Qas),
        ..ScoreOptions::default()
    };
    let metrics = result_metrics_of(&pair, &options);
    let checks = [
        ("execution_score", "execution", stored.execution_score),
        ("datatype_score", "datatype", stored.datatype_score),
    ];
    for (field, metric, value) in checks {
        // Without a type to check against, the record's own data cannot confirm its score.
        if metric == "datatype" && answer_type.is_none() {
            continue;
        }
        if let Some(score) = metrics.get(metric).and_then(|m| m.score)
            && (score - value).abs() > SLACK
        {
            found.push(Disagreement {
                field,
                stored: number(value),
                recomputed: number(score),
                reason: metrics[metric].explanation.clone(),
            });
        }
    }
    let formula =
        0.4 * stored.semantic_score + 0.4 * stored.execution_score + 0.2 * stored.datatype_score;
    if (formula - stored.final_score).abs() > SLACK {
        found.push(Disagreement {
            field: "final_score",
            stored: number(stored.final_score),
            recomputed: number(formula),
            reason: format!(
                "0.4 × {} + 0.4 × {} + 0.2 × {} = {}",
                stored.semantic_score,
                stored.execution_score,
                stored.datatype_score,
                round(formula)
            ),
        });
    }
    if stored.passed != (stored.final_score >= 0.7) {
        found.push(Disagreement {
            field: "passed",
            stored: Value::Bool(stored.passed),
            recomputed: Value::Bool(stored.final_score >= 0.7),
            reason: format!(
                "final score {} against the 0.7 threshold",
                stored.final_score
            ),
        });
    }
    found
}
