//! Scoring one pair: analyse both queries, run every metric on its own, apply the profile.
//!
//! Each metric runs in isolation: one that cannot be computed becomes 0.0 with its error and the
//! others still run. Metrics whose inputs are absent are left out.

pub(crate) mod llm;
mod query_metrics;
mod result_metrics;

use std::collections::BTreeMap;

pub(crate) use llm::JudgeOutcome;

use crate::analysis::{Analysis, analyse_as};
use crate::language::Language;
use crate::metric::{Metric, MetricError, MetricName};
use crate::metrics::workflow::check_workflow;
use crate::metrics::{TableAccuracy, TableMatch, table_accuracy};
use crate::pairs::{PairInput, WorkflowInput};
use crate::profiles::{self, Profile, ProfileName};
use crate::results::compare::Mode;
use crate::scorecard::{Diagnostic, DiagnosticSource, ExpectedMatch, Scorecard, Severity};
use crate::sql::{self, ParseError, ParseLimits, SqlDialect, TableName};

/// How pairs are scored. `Default` gives the documented defaults.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    /// For pairs that do not name their own.
    pub language: Language,
    /// For SQL pairs that do not name their own.
    pub dialect: SqlDialect,
    pub table_match: TableMatch,
    pub limits: ParseLimits,
    /// For pairs that do not name their own; `qas` by default.
    pub profile: Profile,
    /// The comparison mode for results; `None` uses the profile's (`seed` for `kql-batch`,
    /// `f1` otherwise).
    pub mode: Option<Mode>,
    /// Relative tolerance for numbers when comparing result tables.
    pub tolerance: f64,
    /// Relative tolerance for a single number in execution similarity (default 1%).
    pub numeric_tolerance: f64,
    /// Compare text in results ignoring case.
    pub ignore_case: bool,
    /// A timestamp for error records, supplied by the caller because the core has no clock.
    pub evaluated_at: Option<String>,
    /// The LLM judge's prompt version (`v2` gives it the schema and the results).
    pub judge_prompt: qeval_judge::PromptVersion,
    /// `CREATE TABLE` statements shown to the LLM judge (version 2) for pairs without their own
    /// `schema`.
    pub schema: Option<String>,
}

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions {
            language: Language::Sql,
            dialect: SqlDialect::Generic,
            table_match: TableMatch::Name,
            limits: ParseLimits::default(),
            profile: Profile::preset(ProfileName::Qas),
            mode: None,
            tolerance: 1e-9,
            numeric_tolerance: 0.01,
            ignore_case: false,
            evaluated_at: None,
            judge_prompt: qeval_judge::PromptVersion::default(),
            schema: None,
        }
    }
}

impl ScoreOptions {
    /// The mode a pair's results are compared in.
    pub fn mode_for(&self, pair: &PairInput, profile: &Profile) -> Mode {
        pair.mode
            .or(pair.condition_cols.as_ref().map(|_| Mode::Subset))
            .or(self.mode)
            .unwrap_or(if profile.name == ProfileName::KqlBatch {
                Mode::Seed
            } else {
                Mode::F1
            })
    }

    pub(crate) fn error(
        &self,
        metric: MetricName,
        message: String,
        inputs: &[(&str, &str)],
    ) -> Metric {
        Metric::failed(MetricError {
            metric: metric.as_str().to_string(),
            message,
            inputs: inputs
                .iter()
                .map(|(n, v)| ((*n).to_string(), crate::words::echo(v)))
                .collect(),
            at: self.evaluated_at.clone(),
        })
    }
}

/// The generated query against the schema's table and column names, each unknown name also a
/// diagnostic at its position. An unreadable schema is the metric's error.
fn schema_validity(
    schema: &str,
    pair: &PairInput,
    generated: &Analysis,
    language: Language,
    dialect: SqlDialect,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Metric, String> {
    use crate::metrics::schema_validity::{
        KnownNames, kql_unknown_names, schema_validity_metric, sql_unknown_names,
    };
    let known = KnownNames::parse(schema, dialect)?;
    let unknown = match language {
        Language::Sql => sql_unknown_names(&pair.generated_sql, dialect, &known),
        Language::Kql => generated
            .kql
            .as_ref()
            .map(|query| kql_unknown_names(query, &known))
            .unwrap_or_default(),
    };
    for name in &unknown {
        diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            source: DiagnosticSource::GeneratedSql,
            message: format!("{} is not in the schema", name.describe()),
            line: name.line,
            column: name.column,
        });
    }
    Ok(schema_validity_metric(&unknown))
}

/// The pair's own classification metrics, when it carries a validator's verdict and its label:
/// `safety_classification` (`safety_valid` against `should_pass`) and `validation_accuracy`
/// (`is_valid` against `should_pass`, errors by category). No profile weighs them; the suite's
/// tallies are in `metrics::classification`.
fn add_classification_metrics(
    metrics: &mut BTreeMap<MetricName, Metric>,
    input: &crate::metrics::classification::ClassificationInput,
) {
    use crate::metrics::{safety_classification, validation_accuracy};
    let Some(should_pass) = input.should_pass else {
        return;
    };
    if let Some(valid) = input.safety_valid {
        let verdict = safety_classification::classify_safety(valid, should_pass);
        metrics.insert(
            MetricName::SafetyClassification,
            Metric {
                score: Some(verdict.score),
                passed: Some(verdict.score == 1.0),
                explanation: format!("{}: {}", verdict.classification, verdict.explanation),
                details: serde_json::json!({
                    "class": verdict.class,
                    "critical": verdict.critical,
                    "warning": verdict.warning,
                    "error": verdict.error,
                }),
                error: None,
            },
        );
    }
    if let Some(valid) = input.is_valid {
        let verdict =
            validation_accuracy::validation_accuracy(valid, should_pass, &input.validation_errors);
        let mut explanation = verdict.validation_type.to_string();
        if let Some(category) = verdict.error_category {
            explanation.push_str(&format!(" ({category})"));
        }
        if let Some(question) = verdict.investigation {
            explanation.push_str(&format!(": {question}"));
        }
        metrics.insert(
            MetricName::ValidationAccuracy,
            Metric {
                score: Some(verdict.score),
                passed: Some(verdict.score == 1.0),
                explanation,
                details: serde_json::json!({
                    "validation_type": verdict.validation_type,
                    "error_categories": verdict.error_categories,
                }),
                error: None,
            },
        );
    }
}

/// Table accuracy of a generated query against listed tables: parse, extract, Jaccard. The
/// pair-free form of the `table_accuracy` metric, for callers that only want this one number.
pub fn table_accuracy_of_sql(
    generated_sql: &str,
    expected: &[TableName],
    options: &ScoreOptions,
) -> Result<TableAccuracy, ParseError> {
    let statements = sql::parse(generated_sql, options.dialect, options.limits)?;
    let generated = sql::extract_tables(&statements);
    Ok(table_accuracy(&generated, expected, options.table_match))
}

/// Only the metrics a pair's results determine (results match, execution, datatype): what a
/// stored record can be checked against without parsing or judging its queries.
pub(crate) fn result_metrics_of(
    pair: &PairInput,
    options: &ScoreOptions,
) -> BTreeMap<MetricName, Metric> {
    let profile = pair
        .profile
        .map_or_else(|| options.profile.clone(), Profile::preset);
    let mut metrics = BTreeMap::new();
    result_metrics::add(&mut metrics, pair, &profile, options);
    metrics
}

/// Scores one pair with the structural judge.
pub fn score_pair(pair: &PairInput, options: &ScoreOptions) -> Scorecard {
    score_pair_judged(pair, options, &BTreeMap::new())
}

/// Scores one pair, with the LLM verdicts (see [`judge_tasks`]) in place of the structural
/// judge's for the metrics they name. A pair with several acceptable answers is scored against
/// each and gets the best scorecard (passed first, then the highest total, then the first
/// given), which says which answer it matched (`expected_match`).
pub fn score_pair_judged(
    pair: &PairInput,
    options: &ScoreOptions,
    judged: &BTreeMap<String, JudgeOutcome>,
) -> Scorecard {
    if pair.alternatives.is_empty() {
        return score_one(pair, options, judged);
    }
    let count = pair.alternatives.len() + 1;
    let cards: Vec<Scorecard> = (0..count)
        .map(|index| {
            let judged = llm::verdicts_for(judged, index);
            score_one(&pair.with_expected(index), options, &judged)
        })
        .collect();
    let rank = |card: &Scorecard| {
        let profile = card.profile.as_ref();
        (
            profile.and_then(|p| p.passed) == Some(true),
            profile.and_then(|p| p.total).unwrap_or(0.0),
        )
    };
    let mut best = 0;
    for (index, card) in cards.iter().enumerate().skip(1) {
        let (passed, total) = rank(card);
        let (best_passed, best_total) = rank(&cards[best]);
        if (passed, total) > (best_passed, best_total) {
            best = index;
        }
    }
    let totals = cards
        .iter()
        .map(|c| c.profile.as_ref().and_then(|p| p.total))
        .collect();
    let mut card = cards.into_iter().nth(best).expect("one card per answer");
    card.expected_match = Some(ExpectedMatch {
        index: best,
        of: count,
        totals,
    });
    card
}

/// Scores a pair against its one expectation.
fn score_one(
    pair: &PairInput,
    options: &ScoreOptions,
    judged: &BTreeMap<String, JudgeOutcome>,
) -> Scorecard {
    let language = pair.language.unwrap_or(options.language);
    let dialect = pair.dialect.unwrap_or(options.dialect);
    let profile = pair
        .profile
        .map_or_else(|| options.profile.clone(), Profile::preset);
    let generated = analyse_as(language, &pair.generated_sql, dialect, options.limits);
    let expected = pair
        .expected_sql
        .as_deref()
        .map(|text| analyse_as(language, text, dialect, options.limits));

    // An agent's record without a query is judged on its answer and workflow alone.
    let has_query = !(pair.generated_sql.trim().is_empty()
        && (pair.answer.is_some() || pair.workflow.is_some()));
    let mut diagnostics = Vec::new();
    if has_query {
        push_parse_diagnostic(&mut diagnostics, DiagnosticSource::GeneratedSql, &generated);
    }
    if let Some(expected) = &expected {
        push_parse_diagnostic(&mut diagnostics, DiagnosticSource::ExpectedSql, expected);
    }
    let identical = expected
        .as_ref()
        .is_some_and(|e| e.same_query_as(&generated));

    let mut metrics = BTreeMap::new();
    if has_query {
        query_metrics::add(
            &mut metrics,
            pair,
            &generated,
            expected.as_ref(),
            identical,
            options,
            &mut diagnostics,
        );
    }
    if has_query
        && let Some(schema) = pair.schema.as_deref().or(options.schema.as_deref())
        && !schema.trim().is_empty()
    {
        let metric = schema_validity(
            schema,
            pair,
            &generated,
            language,
            dialect,
            &mut diagnostics,
        );
        metrics.insert(
            MetricName::SchemaValidity,
            metric.unwrap_or_else(|message| {
                options.error(MetricName::SchemaValidity, message, &[("schema", schema)])
            }),
        );
    }
    if let Some(workflow) = &pair.workflow {
        metrics.insert(MetricName::Workflow, workflow_metric(workflow));
    }
    llm::apply(&mut metrics, judged, pair, options, &mut diagnostics);
    if !has_query
        && profile
            .weights
            .contains_key(&MetricName::SemanticSimilarity)
        && let Some(correct) = metrics
            .get(&MetricName::FactualCorrectness)
            .filter(|m| m.score.is_some())
    {
        let mut semantic = correct.clone();
        semantic.explanation = format!(
            "The answer (no query) against the expected answer, by the LLM judge's factual correctness: {}",
            correct.explanation
        );
        metrics.insert(MetricName::SemanticSimilarity, semantic);
    }
    let executed = result_metrics::add(&mut metrics, pair, &profile, options);
    add_classification_metrics(&mut metrics, &pair.classification);
    let profile_result = profiles::apply(&profile, &metrics, executed);

    Scorecard {
        line: None,
        id: pair.id.clone(),
        language,
        dialect,
        identical,
        // A query whose safety is not known (it does not parse) is not unsafe.
        unsafe_query: metrics
            .get(&MetricName::Safety)
            .is_some_and(|m| m.error.is_none() && m.score == Some(0.0)),
        executed,
        generated: generated.report(),
        expected: expected.as_ref().map(Analysis::report),
        metrics,
        profile: Some(profile_result),
        diagnostics,
        expected_match: None,
    }
}

/// Adds the verdict of an equivalence check on generated databases (`equivalence` without a
/// database, `test_suite` on a loaded one) to a scorecard, and applies the profile again.
///
/// With a verdict, query correctness follows it: results that differ on a generated database
/// cap correctness at 0.5 (a structural "partially correct" stays what it was), and agreement on
/// every database lifts it to 1.0 with the caveat that this is evidence, not a proof. The
/// structural judge's reasoning stays in the explanation.
pub fn add_equivalence(
    card: &mut Scorecard,
    name: MetricName,
    metric: Metric,
    pair: &PairInput,
    options: &ScoreOptions,
) {
    // The check compared the first expected query; a card that matched another answer keeps
    // its own scores.
    if card.expected_match.as_ref().is_some_and(|m| m.index != 0) {
        return;
    }
    if let (Some(verdict), Some(correctness)) = (
        metric.score,
        card.metrics.get_mut(&MetricName::QueryCorrectness),
    ) && correctness.error.is_none()
        && let Some(score) = correctness.score
    {
        if verdict >= 1.0 && score < 1.0 {
            correctness.explanation = format!(
                "{} (the structure alone: {})",
                metric.explanation, correctness.explanation
            );
            correctness.score = Some(1.0);
            correctness.passed = Some(true);
        } else if verdict < 1.0 && score >= 1.0 {
            correctness.explanation = format!(
                "{} (the structure alone looked equivalent: {})",
                metric.explanation, correctness.explanation
            );
            correctness.score = Some(0.5);
            correctness.passed = Some(false);
        }
        if let serde_json::Value::Object(details) = &mut correctness.details {
            details.insert("follows".into(), name.as_str().into());
        }
    }
    card.metrics.insert(name, metric);
    let profile = pair
        .profile
        .map_or_else(|| options.profile.clone(), Profile::preset);
    card.profile = Some(profiles::apply(&profile, &card.metrics, card.executed));
}

/// Workflow validation as a metric: 1.0 when every expected agent and tool was called and
/// nothing unexpected was, else 0.0; the details are `{pass, agents, tools}`, each side with
/// `included`, `excluded`, `missing` and `unexpected`.
fn workflow_metric(workflow: &WorkflowInput) -> Metric {
    let check = check_workflow(
        &workflow.agents,
        &workflow.agents_called,
        &workflow.tools,
        &workflow.tools_used,
    );
    let mut problems = Vec::new();
    for (kind, part) in [("agent", &check.agents), ("tool", &check.tools)] {
        if !part.missing.is_empty() {
            problems.push(format!("missing {kind}s: {}", part.missing.join(", ")));
        }
        if !part.unexpected.is_empty() {
            problems.push(format!(
                "unexpected {kind}s: {}",
                part.unexpected.join(", ")
            ));
        }
    }
    Metric {
        score: Some(if check.pass { 1.0 } else { 0.0 }),
        passed: Some(check.pass),
        explanation: if problems.is_empty() {
            "Workflow PASS: the expected agents and tools, and nothing else".into()
        } else {
            format!("Workflow FAIL: {}", problems.join("; "))
        },
        details: serde_json::to_value(&check).unwrap_or_default(),
        error: None,
    }
}

fn push_parse_diagnostic(
    diagnostics: &mut Vec<Diagnostic>,
    source: DiagnosticSource,
    analysis: &Analysis,
) {
    if let Some(err) = &analysis.parse_error {
        diagnostics.push(Diagnostic {
            severity: Severity::Error,
            source,
            message: err.message.clone(),
            line: err.line,
            column: err.column,
        });
    }
}
