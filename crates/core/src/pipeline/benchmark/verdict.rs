//! An example's official verdict for one prediction file, from its checks on each of its
//! databases.
//!
//! Spider (`exec_eval.eval_exec_match`): a query stands for the prediction when it gives the
//! gold's result on every database of the `db_id`; the example passes when the prediction, or
//! one of its `--plug_value` variants, does. A gold that fails stops Spider's script (an
//! `assert`); here the example scores 0, as BIRD scores it, and the gold is listed.
//!
//! BIRD (`execute_model` of each script): one database; EX 1 when the sets of rows are equal,
//! Soft-F1 from the rows, R-VES's reward when EX is 1; every metric 0 when either query fails
//! or the two together pass the time limit.

use serde::Serialize;
use serde_json::Value as Json;

use super::BenchmarkPipeline;
use super::{Spider2Outcome, StrictRule, StrictVerdict};
use crate::bench::bird::BirdMetric;
use crate::bench::spider::exact::{ExactGold, ExactVerdict};
use crate::bench::spider2::ErrorKind;
use crate::pipeline::job::{CheckAnswer, CheckPurpose, CheckVerdict, GoldOutcome, VariantOutcome};
use crate::pipeline::query::QueryError;
use crate::sql::Hardness;

/// Where a prediction first gave another result than the gold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    pub database: String,
    pub reason: String,
    pub gold_rows: Vec<Json>,
    pub prediction_rows: Vec<Json>,
}

/// Why a query gave no result, by name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryFailure {
    /// `error`, `timeout`, `refused`, `denied`, `cut`, or `no_database`.
    pub kind: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
}

impl QueryFailure {
    fn of(err: &QueryError, database: &str) -> QueryFailure {
        QueryFailure {
            kind: err.kind().to_string(),
            message: err.to_string(),
            database: Some(database.to_string()),
        }
    }
}

/// An example's official verdict for one prediction file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExampleVerdict {
    pub passed: bool,
    /// The headline score: Spider's `exec`, or BIRD's first metric asked for.
    pub score: f64,
    /// The databases the example ran on.
    pub databases: usize,
    /// Those on which the prediction itself gave the gold's result.
    pub agreed: usize,
    /// Spider `--plug_value`: the variant that passed (0 is the prediction itself), the
    /// variants tried and how many there are.
    pub passing_variant: Option<usize>,
    pub variants_tried: usize,
    pub variants_total: u128,
    pub first_difference: Option<Difference>,
    /// Why the prediction gave no result, when it did not.
    pub error: Option<QueryFailure>,
    /// Why the gold gave no result on some database (the example cannot pass).
    pub gold_issue: Option<QueryFailure>,
    /// BIRD's metrics, by `BirdMetric::key`.
    pub ex: Option<f64>,
    pub soft_f1: Option<f64>,
    pub ves: Option<f64>,
    /// The reward by SQLite VM steps (qeval's deterministic R-VES).
    pub efficiency: Option<f64>,
    pub gold_millis: Option<f64>,
    pub prediction_millis: Option<f64>,
    /// Whether the gold, given as the prediction, would pass: what bounds the benchmark.
    pub gold_passes: bool,
    /// Spider's exact set match (`--etype match` or `all`), or why it cannot be given (the
    /// gold outside Spider's grammar, no schema, no `tables.json` entry).
    pub exact: Option<Result<ExactVerdict, QueryFailure>>,
    /// Spider 2.0: the official score with its error kind, or why it is not scored.
    pub spider2: Option<Spider2Outcome>,
    /// `--strict`: qeval's verdict with the official evaluator's known errors fixed.
    pub strict: Option<StrictVerdict>,
}

impl ExampleVerdict {
    /// The gold's level: from its structure when exact matching read it (as Spider's
    /// `eval_hardness` does), else `written`, the level read from its text.
    pub fn hardness(&self, written: Option<Hardness>) -> Option<Hardness> {
        match &self.exact {
            Some(Ok(exact)) => Some(exact.hardness),
            _ => written,
        }
    }
}

impl BenchmarkPipeline {
    /// The verdict of example `item` for prediction file `file`.
    pub fn verdict(&self, file: usize, item: usize) -> ExampleVerdict {
        let names = self.databases_of(item);
        let checks: Vec<Option<&CheckAnswer>> =
            self.answers[item].iter().map(Option::as_ref).collect();
        let mut verdict = ExampleVerdict {
            passed: false,
            score: 0.0,
            databases: names.len(),
            agreed: 0,
            passing_variant: None,
            variants_tried: self.prepared[item].variants.get(file).map_or(0, Vec::len),
            variants_total: self.prepared[item]
                .plug_totals
                .get(file)
                .copied()
                .unwrap_or(1),
            first_difference: None,
            error: None,
            gold_issue: None,
            ex: None,
            soft_f1: None,
            ves: None,
            efficiency: None,
            gold_millis: None,
            prediction_millis: None,
            gold_passes: false,
            exact: self.exact_verdict(file, item),
            spider2: self.spider2_outcome(item),
            strict: None,
        };
        if let Some(outcome) = &verdict.spider2 {
            return self.spider2_verdict(item, outcome.clone(), verdict);
        }
        if !self.executes() {
            return self.exact_only(verdict);
        }
        if names.is_empty() {
            let db_id = &self.examples[item].db_id;
            let why = self
                .missing
                .get(db_id)
                .cloned()
                .unwrap_or_else(|| format!("no database for db_id {db_id}"));
            let failure = QueryFailure {
                kind: "no_database".into(),
                message: why,
                database: None,
            };
            verdict.error = Some(failure.clone());
            verdict.gold_issue = Some(failure);
            self.bird_zeros(&mut verdict);
            return verdict;
        }
        verdict.gold_issue = gold_issue(&checks, &names);
        verdict.gold_passes = verdict.gold_issue.is_none();
        // The prediction itself, on each database in order.
        for (slot, check) in checks.iter().enumerate() {
            let Some(variant) = check.and_then(|c| c.predictions.get(file)?.first()) else {
                continue;
            };
            if variant.verdict.agrees() {
                verdict.agreed += 1;
            } else if verdict.first_difference.is_none() && verdict.error.is_none() {
                let gold_rows = match check.map(|c| &c.gold) {
                    Some(GoldOutcome::Ran { first_rows, .. }) => first_rows.clone(),
                    _ => Vec::new(),
                };
                match &variant.verdict {
                    CheckVerdict::Failed(err) => {
                        verdict.error = Some(QueryFailure::of(err, names[slot]))
                    }
                    CheckVerdict::TimedOut { millis } => {
                        verdict.error = Some(QueryFailure {
                            kind: "timeout".into(),
                            message: format!(
                                "the prediction and its gold took {millis:.0} ms together, past the time limit"
                            ),
                            database: Some(names[slot].to_string()),
                        });
                    }
                    CheckVerdict::Cut(why) => {
                        verdict.error = Some(QueryFailure {
                            kind: "cut".into(),
                            message: why.clone(),
                            database: Some(names[slot].to_string()),
                        });
                    }
                    CheckVerdict::NoGold => {}
                    CheckVerdict::Differ(reason) => {
                        verdict.first_difference = Some(Difference {
                            database: names[slot].to_string(),
                            reason: reason.clone(),
                            gold_rows,
                            prediction_rows: variant.first_rows.clone(),
                        });
                    }
                    CheckVerdict::Agree => {}
                }
            }
        }
        // The first query standing for the prediction that agrees on every database.
        verdict.passing_variant = (0..verdict.variants_tried).find(|&v| {
            checks.iter().all(|check| {
                check
                    .and_then(|c| c.predictions.get(file)?.get(v))
                    .is_some_and(|outcome| outcome.verdict.agrees())
            })
        });
        verdict.passed = verdict.passing_variant.is_some();
        if let Some(Some(check)) = checks.first() {
            if let GoldOutcome::Ran { millis, .. } = &check.gold {
                verdict.gold_millis = Some(*millis);
            }
            if let Some(variant) = check.predictions.get(file).and_then(|v| v.first()) {
                verdict.prediction_millis = variant.millis;
                if self.is_bird() {
                    let agrees = variant.verdict.agrees();
                    verdict.ex = Some(f64::from(u8::from(agrees)));
                    verdict.soft_f1 = variant.soft_f1;
                    verdict.ves = Some(if agrees {
                        variant.ves.unwrap_or(0.0)
                    } else {
                        0.0
                    });
                    verdict.efficiency = Some(if agrees {
                        variant.efficiency.unwrap_or(0.0)
                    } else {
                        0.0
                    });
                    if let (GoldOutcome::Ran { millis, .. }, Some(limit)) =
                        (&check.gold, self.bird_time_limit())
                    {
                        verdict.gold_passes &= 2.0 * millis <= limit;
                    }
                }
            }
        }
        verdict.score = match self.headline_metric() {
            None => f64::from(u8::from(verdict.passed)),
            Some(metric) => match metric {
                BirdMetric::Ex => verdict.ex.unwrap_or(0.0),
                BirdMetric::SoftF1 => verdict.soft_f1.unwrap_or(0.0),
                BirdMetric::Ves => verdict.ves.unwrap_or(0.0),
            },
        };
        if self.is_bird() {
            verdict.passed = match self.headline_metric() {
                Some(BirdMetric::SoftF1) => verdict.score >= 1.0,
                Some(BirdMetric::Ves) => verdict.score > 0.0,
                _ => verdict.passed,
            };
            let outcome = checks
                .first()
                .copied()
                .flatten()
                .and_then(|c| c.predictions.get(file)?.first());
            verdict.strict = self.bird_strict(&verdict, outcome);
        }
        if matches!(&self.benchmark, super::Benchmark::Spider(o) if o.strict) {
            verdict.strict = Some(self.spider_strict(file, item, &verdict));
        }
        verdict
    }

    /// Spider `--strict`: the verdict with `DISTINCT` kept inside aggregates (when either
    /// query has one), and passing too when the prediction is one of the answers the gold's rows
    /// tied at `ORDER BY ... LIMIT` allow.
    fn spider_strict(&self, file: usize, item: usize, official: &ExampleVerdict) -> StrictVerdict {
        let slots = self.slots[item].len();
        let agrees = |purpose: CheckPurpose| -> Option<bool> {
            if slots == 0
                || !self.prepared[item]
                    .strict
                    .iter()
                    .any(|c| c.purpose == purpose)
            {
                return None;
            }
            Some((0..slots).all(|slot| {
                self.strict_answers
                    .get(&(item, slot, purpose))
                    .and_then(|c| c.predictions.get(file)?.first())
                    .is_some_and(|o| o.verdict.agrees())
            }))
        };
        let distinct = agrees(CheckPurpose::StrictDistinct);
        let base = distinct.unwrap_or(official.passed);
        let passed = base || agrees(CheckPurpose::StrictTies).unwrap_or(false);
        let mut changed_by = Vec::new();
        if distinct.is_some_and(|d| d != official.passed) {
            changed_by.push(StrictRule::DistinctInAggregate);
        }
        if passed && !base {
            changed_by.push(StrictRule::TiedRows);
        }
        StrictVerdict {
            passed,
            score: f64::from(u8::from(passed)),
            changed_by,
        }
    }

    /// BIRD `--strict`: EX with rows as a multiset, Soft-F1 with rows paired by content when
    /// the gold has no `ORDER BY`, and the headline from them.
    fn bird_strict(
        &self,
        official: &ExampleVerdict,
        outcome: Option<&VariantOutcome>,
    ) -> Option<StrictVerdict> {
        let super::Benchmark::Bird(options) = &self.benchmark else {
            return None;
        };
        if !options.strict {
            return None;
        }
        let agrees = outcome.and_then(|o| o.strict_agrees).unwrap_or(false);
        let soft_f1 = outcome.and_then(|o| o.strict_soft_f1).unwrap_or(0.0);
        let mut changed_by = Vec::new();
        if official.ex == Some(1.0) && !agrees {
            changed_by.push(StrictRule::Duplicates);
        }
        if options.metrics.contains(&BirdMetric::SoftF1)
            && (soft_f1 - official.soft_f1.unwrap_or(0.0)).abs() > 1e-12
        {
            changed_by.push(StrictRule::PositionPairing);
        }
        let (score, passed) = match self.headline_metric() {
            Some(BirdMetric::SoftF1) => (soft_f1, soft_f1 >= 1.0),
            Some(BirdMetric::Ves) => {
                let ves = if agrees {
                    official.ves.unwrap_or(0.0)
                } else {
                    0.0
                };
                (ves, ves > 0.0)
            }
            _ => (f64::from(u8::from(agrees)), agrees),
        };
        Some(StrictVerdict {
            passed,
            score,
            changed_by,
        })
    }

    /// Reads, once, the gold of every example of `db_id` in Spider's structure, now that its
    /// schema is there (or says why it cannot be read).
    pub(super) fn read_exact_golds(&mut self, db_id: &str) {
        let super::Benchmark::Spider(options) = &self.benchmark else {
            return;
        };
        let unscored = |kind: &str, message: String| QueryFailure {
            kind: kind.into(),
            message,
            database: None,
        };
        let schema = self.schemas.get(db_id);
        let keys = options.foreign_keys.get(db_id);
        let read: Vec<(usize, Result<ExactGold, QueryFailure>)> = self
            .examples
            .iter()
            .enumerate()
            .filter(|(_, example)| example.db_id == db_id)
            .filter_map(|(item, example)| {
                let gold = match (schema?, keys) {
                    (Err(why), _) => Err(unscored("no_schema", why.clone())),
                    (Ok(_), None) => Err(unscored(
                        "no_tables_entry",
                        format!("tables.json has no db_id {db_id}"),
                    )),
                    (Ok(schema), Some(keys)) => ExactGold::read(&example.gold, schema, keys)
                        .map_err(|why| {
                            unscored(
                                "outside_spider_grammar",
                                format!("Spider's parser cannot read the gold: {why}"),
                            )
                        }),
                };
                Some((item, gold))
            })
            .collect();
        for (item, gold) in read {
            self.exact_golds[item] = Some(gold);
        }
    }

    /// Spider's exact set match of example `item` for prediction file `file`, when asked for.
    fn exact_verdict(
        &self,
        file: usize,
        item: usize,
    ) -> Option<Result<ExactVerdict, QueryFailure>> {
        let super::Benchmark::Spider(options) = &self.benchmark else {
            return None;
        };
        if !options.etype.matches() {
            return None;
        }
        let example = &self.examples[item];
        let read = self.exact_golds[item].as_ref();
        let schema = self
            .schemas
            .get(&example.db_id)
            .and_then(|s| s.as_ref().ok());
        let keys = options.foreign_keys.get(&example.db_id);
        match (read, schema, keys) {
            (Some(Ok(gold)), Some(schema), Some(keys)) => {
                let prediction = example.predictions.get(file).map_or("", String::as_str);
                Some(Ok(gold.judge(prediction, schema, keys)))
            }
            (Some(Err(failure)), ..) => Some(Err(failure.clone())),
            _ => Some(Err(QueryFailure {
                kind: "no_database".into(),
                message: self
                    .missing
                    .get(&example.db_id)
                    .cloned()
                    .unwrap_or_else(|| {
                        format!(
                            "no database for db_id {} to read its tables from",
                            example.db_id
                        )
                    }),
                database: None,
            })),
        }
    }

    /// What makes example `item`'s gold doubtful though it ran: it returned no rows on some
    /// database (any prediction that returns none passes there), or it reads the clock (its
    /// result depends on the day it runs). Spider and BIRD only.
    pub fn gold_warnings(&self, item: usize) -> Vec<QueryFailure> {
        if !self.executes() {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        if let Some(found) =
            crate::sql::reads_the_clock(&self.prepared[item].gold, crate::sql::SqlDialect::Sqlite)
        {
            warnings.push(QueryFailure {
                kind: CLOCK_DEPENDENT.into(),
                message: format!(
                    "the gold reads the clock ({found}): its result depends on the day it runs"
                ),
                database: None,
            });
        }
        let names = self.databases_of(item);
        let empty = self.answers[item].iter().enumerate().find(|(_, check)| {
            matches!(
                check,
                Some(CheckAnswer {
                    gold: GoldOutcome::Ran { rows: 0, .. },
                    ..
                })
            )
        });
        if let Some((slot, _)) = empty {
            warnings.push(QueryFailure {
                kind: EMPTY_RESULT.into(),
                message: "the gold returns no rows: any prediction that returns none passes".into(),
                database: names.get(slot).map(|n| (*n).to_string()),
            });
        }
        warnings
    }

    /// Spider 2.0: the verdict is the instance's official score; its error is what made it 0
    /// (but a plain "Result Error", which is a difference, not a failure).
    fn spider2_verdict(
        &self,
        item: usize,
        outcome: Spider2Outcome,
        mut verdict: ExampleVerdict,
    ) -> ExampleVerdict {
        if let Some(gold) = self.spider2_gold_score(item) {
            verdict.gold_passes = gold.score == 1;
            if let (false, Some(kind), Some(info)) =
                (verdict.gold_passes, gold.error_kind, gold.error_info)
            {
                verdict.gold_issue = Some(QueryFailure {
                    kind: if kind == ErrorKind::NoGold {
                        "no_gold_file"
                    } else {
                        "gold_fails_against_itself"
                    }
                    .into(),
                    message: info,
                    database: None,
                });
            }
        }
        match &outcome {
            Spider2Outcome::Scored(score) => {
                verdict.passed = score.score == 1;
                verdict.score = f64::from(score.score);
                if let (Some(kind), Some(info)) = (score.error_kind, &score.error_info)
                    && kind != ErrorKind::ResultError
                {
                    verdict.error = Some(QueryFailure {
                        kind: kind.name().into(),
                        message: info.clone(),
                        database: None,
                    });
                }
            }
            Spider2Outcome::NotScored(_) => {}
        }
        verdict.spider2 = Some(outcome);
        verdict.strict = self.spider2_strict(item);
        verdict
    }

    /// `--etype match`: the verdict is the exact match alone.
    fn exact_only(&self, mut verdict: ExampleVerdict) -> ExampleVerdict {
        match &verdict.exact {
            Some(Ok(exact)) => {
                verdict.passed = exact.exact;
                verdict.gold_passes = true;
            }
            Some(Err(failure)) => verdict.gold_issue = Some(failure.clone()),
            None => {}
        }
        verdict.score = f64::from(u8::from(verdict.passed));
        verdict
    }

    fn is_bird(&self) -> bool {
        matches!(self.benchmark, super::Benchmark::Bird(_))
    }

    /// BIRD's first metric asked for; `None` for Spider.
    pub fn headline_metric(&self) -> Option<BirdMetric> {
        match &self.benchmark {
            super::Benchmark::Bird(options) => {
                Some(options.metrics.first().copied().unwrap_or(BirdMetric::Ex))
            }
            _ => None,
        }
    }

    fn soft_f1_asked(&self) -> bool {
        matches!(&self.benchmark, super::Benchmark::Bird(options) if options.metrics.contains(&BirdMetric::SoftF1))
    }

    fn bird_time_limit(&self) -> Option<f64> {
        match &self.benchmark {
            super::Benchmark::Bird(options) => Some(options.time_limit_ms),
            _ => None,
        }
    }

    fn bird_zeros(&self, verdict: &mut ExampleVerdict) {
        if self.is_bird() {
            verdict.ex = Some(0.0);
            verdict.soft_f1 = self.soft_f1_asked().then_some(0.0);
            verdict.ves = Some(0.0);
            verdict.efficiency = Some(0.0);
        }
    }
}

/// A gold issue that does not stop an example from passing: its gold reads the clock.
pub(super) const CLOCK_DEPENDENT: &str = "clock_dependent";
/// A gold issue that does not stop an example from passing: its gold returns no rows.
pub(super) const EMPTY_RESULT: &str = "empty_result";

/// The first database on which the gold gave no result (or a cut one).
fn gold_issue(checks: &[Option<&CheckAnswer>], names: &[&str]) -> Option<QueryFailure> {
    checks.iter().enumerate().find_map(|(slot, check)| {
        let check = check.as_ref()?;
        match &check.gold {
            GoldOutcome::Failed(err) => Some(QueryFailure::of(err, names[slot])),
            GoldOutcome::Ran {
                truncated: true, ..
            } => Some(QueryFailure {
                kind: "cut".into(),
                message: "the gold's result was cut at the row cap".into(),
                database: Some(names[slot].to_string()),
            }),
            GoldOutcome::Ran { .. } => None,
        }
    })
}
