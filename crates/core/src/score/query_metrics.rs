//! Metrics of the queries themselves: exact match, table accuracy, the structural judge's
//! correctness and similarity, and safety.

use std::collections::BTreeMap;

use serde_json::json;

use super::ScoreOptions;
use crate::analysis::Analysis;
use crate::judge::{self, Judgement};
use crate::language::Language;
use crate::metric::{Metric, MetricName};
use crate::metrics::table_accuracy;
use crate::pairs::PairInput;
use crate::scorecard::{Diagnostic, DiagnosticSource, Severity};
use crate::sql::{self, TableName};

pub(super) fn add(
    metrics: &mut BTreeMap<MetricName, Metric>,
    pair: &PairInput,
    generated: &Analysis,
    expected: Option<&Analysis>,
    identical: bool,
    options: &ScoreOptions,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if expected.is_some() {
        metrics.insert(MetricName::ExactMatch, exact_match(identical));
    }
    if pair.expected_tables.is_some() || expected.is_some() {
        metrics.insert(
            MetricName::TableAccuracy,
            table_accuracy_metric(pair, generated, expected, options, diagnostics),
        );
    }
    if let Some(expected) = expected {
        let (correctness, similarity) = judge_metrics(pair, generated, expected, options);
        metrics.insert(MetricName::QueryCorrectness, correctness);
        metrics.insert(MetricName::SemanticSimilarity, similarity);
    }
    metrics.insert(MetricName::Safety, safety(pair, generated, options));
}

fn exact_match(identical: bool) -> Metric {
    Metric {
        score: Some(if identical { 1.0 } else { 0.0 }),
        passed: Some(identical),
        explanation: if identical {
            "Queries are identical"
        } else {
            "Queries differ after normalization"
        }
        .to_string(),
        details: serde_json::Value::Null,
        error: None,
    }
}

fn table_accuracy_metric(
    pair: &PairInput,
    generated: &Analysis,
    expected: Option<&Analysis>,
    options: &ScoreOptions,
    diagnostics: &mut Vec<Diagnostic>,
) -> Metric {
    if let Some(err) = &generated.parse_error {
        return options.error(
            MetricName::TableAccuracy,
            format!("The generated query could not be parsed: {err}"),
            &[("generated_sql", &pair.generated_sql)],
        );
    }
    let (expected_tables, source) = if let Some(listed) = &pair.expected_tables {
        let mut tables = Vec::with_capacity(listed.len());
        for (index, name) in listed.iter().enumerate() {
            match TableName::parse_listed(name) {
                Ok(table) => tables.push(table),
                Err(err) => {
                    diagnostics.push(Diagnostic {
                        severity: Severity::Error,
                        source: DiagnosticSource::ExpectedTables,
                        message: format!("expected_tables[{index}]: {err}"),
                        line: None,
                        column: None,
                    });
                    return options.error(
                        MetricName::TableAccuracy,
                        format!("expected_tables[{index}] is not a table name: {err}"),
                        &[("expected_table", name)],
                    );
                }
            }
        }
        (tables, "expected_tables")
    } else {
        match expected {
            Some(Analysis {
                parse_error: Some(err),
                ..
            }) => {
                return options.error(
                    MetricName::TableAccuracy,
                    format!("The expected query could not be parsed: {err}"),
                    &[(
                        "expected_sql",
                        pair.expected_sql.as_deref().unwrap_or_default(),
                    )],
                );
            }
            Some(expected) => (expected.tables.clone(), "expected_sql"),
            None => {
                return options.error(
                    MetricName::TableAccuracy,
                    "Nothing to compare with: give expected_sql or expected_tables".into(),
                    &[],
                );
            }
        }
    };
    let accuracy = table_accuracy(&generated.tables, &expected_tables, options.table_match);
    Metric {
        score: Some(accuracy.score),
        passed: None,
        explanation: accuracy.explanation(),
        details: json!({
            "generated": accuracy.generated,
            "expected": accuracy.expected,
            "intersection": accuracy.intersection,
            "union": accuracy.union,
            "expected_from": source,
            "match": options.table_match,
        }),
        error: None,
    }
}

/// Query correctness (1 / 0.5 / 0) and the continuous similarity, from the structural judge.
/// Identical queries take the shortcut.
fn judge_metrics(
    pair: &PairInput,
    generated: &Analysis,
    expected: &Analysis,
    options: &ScoreOptions,
) -> (Metric, Metric) {
    let expected_text = pair.expected_sql.as_deref().unwrap_or_default();
    let failure = |message: String| {
        let inputs = [
            ("generated_sql", pair.generated_sql.as_str()),
            ("expected_sql", expected_text),
        ];
        (
            options.error(MetricName::QueryCorrectness, message.clone(), &inputs),
            options.error(MetricName::SemanticSimilarity, message, &inputs),
        )
    };
    if let Some(err) = &generated.parse_error {
        return failure(format!("The generated query could not be parsed: {err}"));
    }
    if let Some(err) = &expected.parse_error {
        return failure(format!("The expected query could not be parsed: {err}"));
    }
    let judgement: Option<Judgement> = match generated.language {
        Language::Sql => judge::sql::judge(expected, generated),
        Language::Kql => match (&expected.kql, &generated.kql) {
            (Some(e), Some(g)) => Some(crate::judge::kql::judge(e, g)),
            _ => None,
        },
    };
    let Some(judgement) = judgement else {
        return failure("The queries could not be compared".into());
    };
    let details = json!({
        "judge": "structural",
        "reasoning": judgement.reasoning,
        "differences": judgement.differences,
        "components": judgement.components,
    });
    let correctness = Metric {
        score: Some(judgement.verdict),
        passed: Some(judgement.verdict >= 1.0),
        explanation: judgement.reasoning.clone(),
        details: details.clone(),
        error: None,
    };
    let similarity = Metric {
        score: Some(judgement.similarity),
        passed: None,
        explanation: judgement.reasoning,
        details,
        error: None,
    };
    (correctness, similarity)
}

/// The read-only policy on the generated query (`sql::check_read_only`, `kql::check_read_only`).
fn safety(pair: &PairInput, generated: &Analysis, options: &ScoreOptions) -> Metric {
    let report = match generated.language {
        Language::Sql => sql::check_read_only(
            &pair.generated_sql,
            pair.dialect.unwrap_or(options.dialect),
            options.limits,
        ),
        Language::Kql => crate::kql::check_read_only(&pair.generated_sql, options.limits.max_bytes),
    };
    if let Some(error) = report.parse_error() {
        // Not known: valid SQL the parser cannot read is no violation, and no pass either.
        return options.error(
            MetricName::Safety,
            error.reason.clone(),
            &[("generated_sql", &pair.generated_sql)],
        );
    }
    let explanation = match (report.violations.first(), report.warnings.first()) {
        (Some(violation), _) => violation.reason.clone(),
        (None, Some(warning)) => format!("Read-only query; warning: {}", warning.reason),
        (None, None) => "Read-only query".to_string(),
    };
    Metric {
        score: Some(if report.safe { 1.0 } else { 0.0 }),
        passed: Some(report.safe),
        explanation,
        details: json!({ "violations": report.violations, "warnings": report.warnings }),
        error: None,
    }
}
