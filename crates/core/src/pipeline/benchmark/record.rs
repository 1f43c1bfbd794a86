//! An example's record: a line of `evaluation-results.jsonl` (so `qeval report`, the page's
//! Run report and `qeval compare-runs` read it as any run), with the official verdict under
//! `benchmark`.
//!
//! `qas_evaluation` carries the official verdict as the record's score: `execution_score` and
//! `final_score` are the official score (Spider's `exec`, BIRD's first metric), `passed` the
//! official pass; there is no semantic or datatype score (0, and the breakdown says why).

use serde_json::{Map, Value, json};

use super::verdict::ExampleVerdict;
use super::{Benchmark, BenchmarkPipeline, Spider2Options, Spider2Outcome};
use crate::bench::spider::exact::COMPONENTS;
use crate::bench::spider2::{ErrorKind, PredictionForm};
use crate::run::record::{Breakdown, EvaluationRecord, QasEvaluation};

/// Why a benchmark record has no semantic or datatype score.
pub(super) const NOT_SCORED: &str =
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
            Benchmark::Spider2(options) => {
                self.spider2_fields(item, options, &verdict, &mut benchmark);
                extra.remove("db_id");
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
        if let Some(strict) = &verdict.strict {
            benchmark.insert(
                "strict".into(),
                json!({
                    "passed": strict.passed,
                    "score": round(strict.score),
                    "changed_by": strict.changed_by.iter().map(|r| r.name()).collect::<Vec<_>>(),
                }),
            );
        }
        if let Some(file_name) = self.prediction_files.get(file) {
            benchmark.insert("predictions".into(), json!(file_name));
        }
        extra.insert("benchmark".into(), Value::Object(benchmark));
        let explanation = self.explanation(&verdict);
        let score = round(verdict.score);
        let spider2_sql =
            matches!(&self.benchmark, Benchmark::Spider2(o) if o.mode == PredictionForm::Sql);
        EvaluationRecord {
            test_id: self
                .spider2_id(item)
                .map_or_else(|| json!(item), |id| json!(id)),
            question: example.entry.question.clone().unwrap_or_default(),
            agent_used: None,
            difficulty: example.entry.difficulty.clone(),
            sql_hardness: verdict
                .hardness(example.hardness)
                .map(|h| h.name().to_string()),
            expected_sql: (!example.gold.is_empty()).then(|| example.gold.clone()),
            generated_sql: match &self.benchmark {
                Benchmark::Spider2(_) if !spider2_sql => None,
                _ => example.predictions.get(file).cloned(),
            },
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

    /// Spider 2.0's fields of a record: the instance, its gold files and configuration, and
    /// the official score with its error kind, or why it is not scored.
    fn spider2_fields(
        &self,
        item: usize,
        options: &Spider2Options,
        verdict: &ExampleVerdict,
        benchmark: &mut Map<String, Value>,
    ) {
        benchmark.insert("name".into(), json!("spider2"));
        benchmark.insert("variant".into(), json!(options.variant));
        benchmark.insert("mode".into(), json!(options.mode));
        if let Some(instance) = self.spider2_instance(item) {
            benchmark.insert("instance_id".into(), json!(instance.id));
            benchmark.insert("gold_files".into(), json!(instance.gold.names));
            benchmark.insert(
                "condition_cols".into(),
                instance
                    .standard
                    .condition_cols
                    .clone()
                    .unwrap_or(Value::Null),
            );
            benchmark.insert(
                "ignore_order".into(),
                json!(instance.standard.ignores_order()),
            );
            if let Some(database) = &instance.database {
                benchmark.insert("database".into(), json!(database));
            }
        }
        match &verdict.spider2 {
            Some(Spider2Outcome::Scored(score)) => {
                benchmark.insert("score".into(), json!(score.score));
                benchmark.insert("error_kind".into(), json!(score.error_kind));
                benchmark.insert("error_info".into(), json!(score.error_info));
            }
            Some(Spider2Outcome::NotScored(why)) => {
                benchmark.insert("not_scored".into(), json!(why));
            }
            None => {}
        }
    }

    /// The verdict in words.
    fn explanation(&self, verdict: &ExampleVerdict) -> String {
        if let Some(outcome) = &verdict.spider2 {
            return spider2_explanation(outcome);
        }
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
            Benchmark::Bird(_) | Benchmark::Spider2(_) => {
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

/// Spider 2.0's score in words.
fn spider2_explanation(outcome: &Spider2Outcome) -> String {
    match outcome {
        Spider2Outcome::Scored(score) => match (score.score, score.error_kind, &score.error_info) {
            (1, ..) => "Official score 1: each gold column equals some predicted column".into(),
            (_, Some(ErrorKind::ResultError), _) => {
                "Official score 0 (Result Error): a gold column equals no predicted column".into()
            }
            (_, _, Some(info)) => format!("Official score 0: {info}"),
            _ => "Official score 0".into(),
        },
        Spider2Outcome::NotScored(why) => format!("Not scored: {why}"),
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
