//! An example's record: a line of `evaluation-results.jsonl` (so `qeval report`, the page's
//! Run report and `qeval compare-runs` read it as any run), with the official verdict under
//! `benchmark`.
//!
//! `qas_evaluation` carries the official verdict as the record's score: `execution_score` and
//! `final_score` are the official score (Spider's `exec`, BIRD's first metric), `passed` the
//! official pass; there is no semantic or datatype score (0, and the breakdown says why).

use serde_json::{Map, Value, json};

use super::verdict::ExampleVerdict;
use super::{Benchmark, BenchmarkPipeline};
use crate::bench::spider::exact::COMPONENTS;
use crate::run::record::{Breakdown, EvaluationRecord, QasEvaluation};

/// Why a benchmark record has no semantic or datatype score.
pub const NOT_SCORED: &str =
    "Not scored: a benchmark record carries the official verdict only (see `benchmark`)";

impl BenchmarkPipeline {
    /// The record of example `item` for prediction file `file`.
    pub fn record(&self, file: usize, item: usize) -> EvaluationRecord {
        let example = &self.examples[item];
        let verdict = self.verdict(file, item);
        let mut benchmark = Map::new();
        let mut extra = Map::new();
        extra.insert("db_id".into(), Value::String(example.db_id.clone()));
        match &self.benchmark {
            Benchmark::Spider(options) => {
                benchmark.insert("name".into(), json!("spider"));
                if options.etype.executes() {
                    benchmark.insert("exec".into(), json!(u8::from(verdict.passed)));
                }
                match &verdict.exact {
                    Some(Ok(exact)) => {
                        benchmark.insert("exact".into(), json!(u8::from(exact.exact)));
                        let partial: Map<String, Value> = COMPONENTS
                            .iter()
                            .zip(&exact.components)
                            .map(|(name, c)| ((*name).to_string(), json!(c.f1)))
                            .collect();
                        benchmark.insert("partial_f1".into(), Value::Object(partial));
                        if let Some(why) = &exact.unreadable {
                            benchmark.insert("unreadable_prediction".into(), json!(why));
                        }
                    }
                    Some(Err(failure)) => {
                        benchmark.insert(
                            "exact_error".into(),
                            serde_json::to_value(failure).unwrap_or_default(),
                        );
                    }
                    None => {}
                }
                benchmark.insert("databases".into(), json!(verdict.databases));
                benchmark.insert("agreed".into(), json!(verdict.agreed));
                if let Some(super::super::job::Rule::Spider { order_matters }) =
                    self.prepared.get(item).map(|p| p.rule)
                {
                    benchmark.insert("order_matters".into(), json!(order_matters));
                }
                if options.plug_value {
                    benchmark.insert(
                        "plug_value".into(),
                        json!({
                            "variants": verdict.variants_tried.saturating_sub(1),
                            "of": u64::try_from(verdict.variants_total).unwrap_or(u64::MAX),
                            "passed_variant": verdict.passing_variant,
                        }),
                    );
                }
                if self.has_interactions() {
                    extra.insert("interaction".into(), json!(example.interaction));
                    extra.insert("turn".into(), json!(example.turn + 1));
                }
            }
            Benchmark::Bird(options) => {
                benchmark.insert("name".into(), json!("bird"));
                // EX (1 or 0, as BIRD's `res`) and Soft-F1 come from the same runs: both are
                // always there; R-VES when asked for.
                benchmark.insert("ex".into(), json!(u8::from(verdict.ex == Some(1.0))));
                benchmark.insert("soft_f1".into(), json!(verdict.soft_f1.unwrap_or(0.0)));
                if options
                    .metrics
                    .contains(&crate::bench::bird::BirdMetric::Ves)
                {
                    benchmark.insert("ves".into(), json!(verdict.ves.unwrap_or(0.0)));
                }
                benchmark.insert(
                    "efficiency".into(),
                    json!(verdict.efficiency.unwrap_or(0.0)),
                );
                if let Some(Some(named)) = example.predicted_db_ids.get(file)
                    && *named != example.db_id
                {
                    benchmark.insert("predicted_db_id".into(), json!(named));
                }
            }
        }
        if let Some(difference) = &verdict.first_difference {
            benchmark.insert(
                "first_difference".into(),
                serde_json::to_value(difference).unwrap_or_default(),
            );
        }
        if let Some(error) = &verdict.error {
            benchmark.insert(
                "error".into(),
                serde_json::to_value(error).unwrap_or_default(),
            );
            extra.insert("error".into(), json!(error.message));
        }
        if let Some(issue) = &verdict.gold_issue {
            benchmark.insert(
                "gold_error".into(),
                serde_json::to_value(issue).unwrap_or_default(),
            );
        }
        if let Some(file_name) = self.prediction_files.get(file) {
            benchmark.insert("predictions".into(), json!(file_name));
        }
        extra.insert("benchmark".into(), Value::Object(benchmark));
        let explanation = self.explanation(&verdict);
        let score = round(verdict.score);
        EvaluationRecord {
            test_id: json!(item),
            question: example.entry.question.clone().unwrap_or_default(),
            agent_used: None,
            difficulty: example.entry.difficulty.clone(),
            sql_hardness: verdict
                .hardness(example.hardness)
                .map(|h| h.name().to_string()),
            expected_sql: Some(example.gold.clone()),
            generated_sql: example.predictions.get(file).cloned(),
            expected_results: None,
            actual_results: None,
            qas_evaluation: Some(QasEvaluation {
                semantic_score: 0.0,
                execution_score: score,
                datatype_score: 0.0,
                final_score: score,
                passed: verdict.passed,
                breakdown: Breakdown {
                    semantic_explanation: NOT_SCORED.into(),
                    execution_explanation: explanation,
                    datatype_explanation: NOT_SCORED.into(),
                    extra: Map::new(),
                },
                extra: Map::new(),
            }),
            extra,
        }
    }

    /// Whether the files hold several interactions (SParC, CoSQL).
    pub fn has_interactions(&self) -> bool {
        self.interaction_count > 1
    }

    /// The verdict in words.
    fn explanation(&self, verdict: &ExampleVerdict) -> String {
        if !self.executes() {
            return exact_explanation(verdict);
        }
        if let Some(error) = &verdict.error {
            return format!("Official verdict 0: {}", error.message);
        }
        if let Some(issue) = &verdict.gold_issue {
            return format!(
                "Official verdict 0: the gold query gave no result ({})",
                issue.message
            );
        }
        match &self.benchmark {
            Benchmark::Spider(_) => match (&verdict.first_difference, verdict.passing_variant) {
                (_, Some(0)) | (None, Some(_)) => format!(
                    "Official verdict 1: the gold's result on {} of {} database{}",
                    verdict.agreed,
                    verdict.databases,
                    crate::words::plural(verdict.databases)
                ),
                (_, Some(variant)) => format!(
                    "Official verdict 1: --plug_value variant {variant} gives the gold's result on every database"
                ),
                (Some(difference), None) => format!(
                    "Official verdict 0: {} on {} (the gold's result on {} of {} database{})",
                    difference.reason,
                    difference.database,
                    verdict.agreed,
                    verdict.databases,
                    crate::words::plural(verdict.databases)
                ),
                (None, None) => "Official verdict 0".into(),
            },
            Benchmark::Bird(_) => {
                let soft_f1 = verdict
                    .soft_f1
                    .map(|f1| format!(", Soft-F1 {f1:.4}"))
                    .unwrap_or_default();
                match &verdict.first_difference {
                    Some(difference) => format!("EX 0{soft_f1}: {}", difference.reason),
                    None => format!("EX {}{soft_f1}", verdict.ex.unwrap_or(0.0)),
                }
            }
        }
    }
}

/// `--etype match`: the exact match in words, with the components that differ.
fn exact_explanation(verdict: &ExampleVerdict) -> String {
    match &verdict.exact {
        Some(Ok(exact)) if exact.exact => "Exact set match 1".into(),
        Some(Ok(exact)) => {
            if let Some(why) = &exact.unreadable {
                return format!(
                    "Exact set match 0: Spider's parser cannot read the prediction ({why}), so it is scored as the empty query"
                );
            }
            let differing: Vec<&str> = COMPONENTS
                .iter()
                .zip(&exact.components)
                .filter(|(_, c)| c.f1 != 1.0)
                .map(|(name, _)| *name)
                .collect();
            if differing.is_empty() {
                "Exact set match 0: the FROM tables differ".into()
            } else {
                format!("Exact set match 0: {} differ", differing.join(", "))
            }
        }
        Some(Err(failure)) => format!("No exact set match: {}", failure.message),
        None => "No exact set match".into(),
    }
}

/// Scores as records write them: four decimals.
fn round(score: f64) -> f64 {
    crate::run::evaluate::round(score)
}
