//! Metrics of the results: results match (the chosen comparison mode), execution similarity and
//! datatype validity.

use std::collections::BTreeMap;

use serde_json::json;

use super::ScoreOptions;
use crate::datatype::datatype_validity;
use crate::execution_similarity::{ExecutionOptions, execution_similarity};
use crate::metric::{Metric, MetricName};
use crate::metrics::efficiency::efficiency_metric;
use crate::pairs::PairInput;
use crate::profiles::Profile;
use crate::results::compare::defog::QueryContext;
use crate::results::compare::{CompareOptions, compare, order_matters_for};
use crate::results::read_result;

/// Adds the result metrics whose inputs are present. Returns whether the generated query
/// executed without error: false with an error, true with a result, unknown otherwise.
pub(super) fn add(
    metrics: &mut BTreeMap<MetricName, Metric>,
    pair: &PairInput,
    profile: &Profile,
    options: &ScoreOptions,
) -> Option<bool> {
    let executed = match (&pair.generated_error, &pair.generated_result) {
        (Some(_), _) => Some(false),
        (None, Some(_)) => Some(true),
        (None, None) => None,
    };
    // A pair's own options win over the command line's.
    let defaults = CompareOptions::default();
    let table = CompareOptions {
        mode: options.mode_for(pair, profile),
        tolerance: pair.tolerance.unwrap_or(options.tolerance),
        subset_tolerance: pair.tolerance.unwrap_or(defaults.subset_tolerance),
        order_matters: pair
            .ignore_order
            .map_or_else(|| order_matters_for(pair.expected_sql.as_deref()), |i| !i),
        ignore_case: options.ignore_case,
        query_context: QueryContext {
            question: pair.question.clone().unwrap_or_default(),
            query_category: pair.query_category.clone().unwrap_or_default(),
            expected_sql: pair.expected_sql.clone(),
            generated_sql: Some(pair.generated_sql.clone()),
        },
    };
    let numeric_tolerance = pair.tolerance.unwrap_or(options.numeric_tolerance);
    if let Some(error) = &pair.generated_error {
        let failed = |name: MetricName| {
            options.error(
                name,
                format!("The generated query failed to execute: {error}"),
                &[("generated_error", error)],
            )
        };
        if pair.expected_result.is_some() {
            metrics.insert(MetricName::ResultsMatch, failed(MetricName::ResultsMatch));
            metrics.insert(MetricName::Execution, failed(MetricName::Execution));
        }
        if pair.expected_answer_type.is_some() {
            metrics.insert(MetricName::Datatype, failed(MetricName::Datatype));
        }
        return executed;
    }
    if let Some(why) = no_verdict_on_results(pair) {
        for name in [MetricName::ResultsMatch, MetricName::Execution] {
            let mut metric = options.error(name, why.clone(), &[]);
            metric.score = None;
            metric.passed = None;
            metrics.insert(name, metric);
        }
    } else if let (Some(expected), Some(generated)) =
        (&pair.expected_result, &pair.generated_result)
    {
        let projected;
        let expected = match &pair.condition_cols {
            None => expected,
            Some(columns) => match condition_columns(expected, columns) {
                Ok(value) => {
                    projected = value;
                    &projected
                }
                Err(message) => {
                    for name in [MetricName::ResultsMatch, MetricName::Execution] {
                        metrics.insert(
                            name,
                            options.error(
                                name,
                                message.clone(),
                                &[("condition_cols", &format!("{columns:?}"))],
                            ),
                        );
                    }
                    return executed;
                }
            },
        };
        metrics.insert(
            MetricName::ResultsMatch,
            results_match(expected, generated, &table, options),
        );
        let execution = ExecutionOptions {
            numeric_tolerance,
            table,
        };
        if let (Some(expected_steps), Some(generated_steps)) =
            (pair.expected_vm_steps, pair.generated_vm_steps)
        {
            let matched = metrics.get(&MetricName::ResultsMatch).and_then(|m| m.score) == Some(1.0);
            metrics.insert(
                MetricName::Efficiency,
                efficiency_metric(expected_steps, generated_steps, matched),
            );
        }
        metrics.insert(
            MetricName::Execution,
            match execution_similarity(expected, generated, &execution) {
                Ok(score) => Metric {
                    score: Some(score.score),
                    passed: None,
                    explanation: score.explanation,
                    details: score.comparison.map(|c| json!(c)).unwrap_or_default(),
                    error: None,
                },
                Err(err) => options.error(MetricName::Execution, err.to_string(), &[]),
            },
        );
    }
    match (pair.expected_answer_type, &pair.generated_result) {
        (Some(kind), Some(generated)) => {
            let verdict = datatype_validity(kind, generated);
            metrics.insert(
                MetricName::Datatype,
                Metric {
                    score: Some(verdict.score),
                    passed: Some(verdict.valid),
                    explanation: verdict.explanation,
                    details: json!({ "expected_answer_type": kind }),
                    error: None,
                },
            );
        }
        // One rule for every entry point: a run's record stores 0.0 for a type nobody named
        // (its final score is the weighted sum of its stored parts), so the scorecard counts
        // the same 0.0 rather than withholding the verdict.
        (None, Some(_)) if profile.weights.contains_key(&MetricName::Datatype) => {
            metrics.insert(
                MetricName::Datatype,
                Metric {
                    score: Some(0.0),
                    passed: Some(false),
                    explanation: "Not scored: no expected_answer_type to check the result \
                                  against; counts as 0.0"
                        .to_string(),
                    details: serde_json::Value::Null,
                    error: None,
                },
            );
        }
        _ => {}
    }
    executed
}

/// Why the results cannot be compared though the queries ran: the expected query failed on the
/// database, or a result was cut (comparing what was kept would pass 200,000 rows against
/// 150,000 when both were cut at 100,000).
fn no_verdict_on_results(pair: &PairInput) -> Option<String> {
    if let Some(error) = &pair.expected_error {
        return Some(format!(
            "Not scored: the expected query failed on the database ({error}), so there is no expected result to compare with"
        ));
    }
    let side = match (&pair.expected_cut, &pair.generated_cut) {
        (Some(expected), Some(generated)) => {
            format!("the expected result was {expected} and the generated one {generated}")
        }
        (Some(expected), None) => format!("the expected result was {expected}"),
        (None, Some(generated)) => format!("the generated result was {generated}"),
        (None, None) => return None,
    };
    Some(format!(
        "Not scored: {side} (at the row limit, --max-rows, or at 64 MB of values); a partial result gets no verdict"
    ))
}

/// The expected result cut to the columns `condition_cols` names, as `{columns, rows}`.
fn condition_columns(
    expected: &serde_json::Value,
    columns: &[usize],
) -> Result<serde_json::Value, String> {
    let result = read_result(expected)
        .map_err(|err| format!("The expected result cannot be read: {err}"))?;
    if let Some(&out) = columns.iter().find(|&&c| c >= result.width()) {
        return Err(format!(
            "condition_cols names column {out}, but the expected result has {} column{} (positions start at 0)",
            result.width(),
            crate::words::plural(result.width())
        ));
    }
    if columns.is_empty() {
        return Err("condition_cols is empty: name at least one expected column".into());
    }
    let names: Vec<&String> = columns.iter().map(|&c| &result.columns[c]).collect();
    let rows: Vec<Vec<&crate::results::Value>> = result
        .rows
        .iter()
        .map(|row| columns.iter().map(|&c| &row[c]).collect())
        .collect();
    Ok(json!({ "columns": names, "rows": rows }))
}

fn results_match(
    expected: &serde_json::Value,
    generated: &serde_json::Value,
    table: &CompareOptions,
    options: &ScoreOptions,
) -> Metric {
    let expected = match read_result(expected) {
        Ok(result) => result,
        Err(err) => {
            return options.error(
                MetricName::ResultsMatch,
                format!("The expected result cannot be read: {err}"),
                &[],
            );
        }
    };
    let generated = match read_result(generated) {
        Ok(result) => result,
        Err(err) => {
            return options.error(
                MetricName::ResultsMatch,
                format!("The generated result cannot be read: {err}"),
                &[],
            );
        }
    };
    let comparison = compare(&expected, &generated, table);
    Metric {
        score: Some(comparison.score),
        passed: Some(comparison.equal),
        explanation: format!("{} ({} mode)", comparison.explanation, comparison.mode),
        details: json!(comparison),
        error: None,
    }
}
