//! A benchmark's summary for one prediction file: the official table's numbers, and what the
//! official script does not say: the golds that cannot pass (and the ceiling they set), the
//! predictions that failed or timed out, by kind, and where the files differ from what the
//! script assumes.

use std::collections::BTreeMap;

use serde::Serialize;

use super::verdict::ExampleVerdict;
use super::{Benchmark, BenchmarkPipeline, Spider2Outcome, StrictRule, StrictVerdict};
use crate::bench::bird::{BirdLevels, bird_log, bird_table};
use crate::bench::spider::exact::{ExactLevel, ExactScores};
use crate::bench::spider::{SpiderLevel, SpiderScores, spider_table};
use crate::bench::spider2::{PredictionForm, REAL_TOTAL, Variant, score_lines};

/// A gold that gave no result (the example cannot pass whatever the prediction), or that
/// passes on doubtful grounds (`GoldIssue::blocks` is false: it returned no rows, or it reads
/// the clock).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldIssue {
    pub test_id: usize,
    pub db_id: String,
    /// Its line in the gold file.
    pub line: usize,
    pub kind: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// Spider 2.0: the instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
}

/// Spider 2.0's numbers: the scores the script prints, and the instances it would score that
/// qeval cannot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spider2Scores {
    pub variant: Variant,
    pub mode: PredictionForm,
    /// Each instance scored, sorted by id, with its score.
    pub scores: Vec<(String, u8)>,
    /// Correct over the instances scored ("Final score").
    pub final_score: f64,
    /// Correct over 547 ("Real score").
    pub real_score: f64,
    /// The scores of 0 by their official error kind.
    pub error_kinds: BTreeMap<String, usize>,
    /// Instances with a gold line and a prediction that qeval did not score, and why.
    pub not_scored: Vec<(String, String)>,
}

impl GoldIssue {
    /// Whether the example cannot pass because of it.
    pub fn blocks(&self) -> bool {
        self.kind != super::verdict::CLOCK_DEPENDENT && self.kind != super::verdict::EMPTY_RESULT
    }
}

/// `--strict`: how many examples pass by qeval's strict verdict, beside the official count,
/// and how many verdicts each rule changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrictSummary {
    /// The examples with a strict verdict (those the official verdict scores).
    pub examples: usize,
    /// Those passing by the official verdict, and by the strict one.
    pub official_passed: usize,
    pub passed: usize,
    /// The mean official and strict headline scores (BIRD's Soft-F1 is not 0 or 1).
    pub official_score: f64,
    pub score: f64,
    /// Examples whose verdict each rule changed, by rule name.
    pub changed_by: BTreeMap<String, usize>,
}

impl StrictSummary {
    fn of(verdicts: &[ExampleVerdict]) -> Option<StrictSummary> {
        let judged: Vec<(&ExampleVerdict, &StrictVerdict)> = verdicts
            .iter()
            .filter_map(|v| Some((v, v.strict.as_ref()?)))
            .collect();
        if judged.is_empty() {
            return None;
        }
        let examples = judged.len();
        let mean = |total: f64| {
            if examples == 0 {
                0.0
            } else {
                total / examples as f64
            }
        };
        let mut changed_by = BTreeMap::new();
        for (_, strict) in &judged {
            for rule in &strict.changed_by {
                *changed_by.entry(rule.name().to_string()).or_insert(0) += 1;
            }
        }
        Some(StrictSummary {
            examples,
            official_passed: judged.iter().filter(|(v, _)| v.passed).count(),
            passed: judged.iter().filter(|(_, s)| s.passed).count(),
            official_score: mean(judged.iter().map(|(v, _)| v.score).sum()),
            score: mean(judged.iter().map(|(_, s)| s.score).sum()),
            changed_by,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchSummary {
    pub benchmark: &'static str,
    /// The prediction file.
    pub predictions: String,
    pub examples: usize,
    pub passed: usize,
    /// What the number measures: "execution accuracy" (one database per `db_id`) or
    /// "test-suite accuracy" (several).
    pub measure: String,
    /// Spider's execution table (`--etype exec` or `all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spider: Option<SpiderScores>,
    /// Spider's exact set match tables (`--etype match` or `all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_match: Option<ExactScores>,
    /// Spider `--etype all`: the examples whose prediction matches exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_passed: Option<usize>,
    /// Spider 2.0's scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spider2: Option<Spider2Scores>,
    /// `--strict`: the strict verdicts' numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<StrictSummary>,
    /// BIRD's tables, one per metric asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bird: Vec<BirdLevels>,
    pub gold_issues: Vec<GoldIssue>,
    /// The share of examples whose gold, given as the prediction, would pass.
    pub ceiling: f64,
    /// Predictions that gave no result, by kind (`error`, `timeout`, `refused`, `cut`...).
    pub prediction_failures: BTreeMap<String, usize>,
    /// Examples without a level: Spider golds whose level cannot be read (counted in `all`
    /// only), BIRD questions without a difficulty (counted in `total` only).
    pub without_level: usize,
    /// BIRD: predictions not at the place in the file their key names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misplaced: Option<usize>,
    /// BIRD: predictions whose `db_id` is not their gold's (test id, named, gold's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub db_id_mismatches: Vec<(usize, String, String)>,
}

impl BenchmarkPipeline {
    /// The summary for prediction file `file`; `misplaced` is BIRD's count of predictions out of
    /// their place (see `BirdPredictions::misplaced`).
    pub fn summary(&self, file: usize, misplaced: Option<usize>) -> BenchSummary {
        let verdicts: Vec<_> = (0..self.examples.len())
            .map(|item| self.verdict(file, item))
            .collect();
        let mut prediction_failures = BTreeMap::new();
        let mut gold_issues = Vec::new();
        for (item, verdict) in verdicts.iter().enumerate() {
            if let Some(error) = &verdict.error
                && verdict.gold_issue.is_none()
            {
                *prediction_failures.entry(error.kind.clone()).or_insert(0) += 1;
            }
            let unreadable = match &verdict.exact {
                Some(Err(failure)) => Some(failure),
                _ => None,
            };
            let blocking = verdict.gold_issue.as_ref().or(unreadable).cloned();
            for issue in blocking.into_iter().chain(self.gold_warnings(item)) {
                let example = &self.examples[item];
                gold_issues.push(GoldIssue {
                    test_id: item,
                    db_id: example.db_id.clone(),
                    line: example.gold_line,
                    kind: issue.kind,
                    message: issue.message,
                    database: issue.database,
                    instance_id: self.spider2_id(item).map(str::to_string),
                });
            }
        }
        let examples = self.examples.len();
        let passable = verdicts.iter().filter(|v| v.gold_passes).count();
        let ceiling = if examples == 0 {
            0.0
        } else {
            passable as f64 / examples as f64
        };
        let mut summary = BenchSummary {
            benchmark: "spider",
            predictions: self.prediction_files.get(file).cloned().unwrap_or_default(),
            examples,
            passed: verdicts.iter().filter(|v| v.passed).count(),
            measure: self.measure(),
            spider: None,
            exact_match: None,
            exact_passed: None,
            spider2: None,
            strict: StrictSummary::of(&verdicts),
            bird: Vec::new(),
            gold_issues,
            ceiling,
            prediction_failures,
            without_level: 0,
            misplaced,
            db_id_mismatches: Vec::new(),
        };
        match &self.benchmark {
            Benchmark::Spider(options) => {
                let mut interactions: Vec<Vec<SpiderLevel>> =
                    vec![Vec::new(); self.interaction_count];
                let mut exact: Vec<Vec<ExactLevel>> = vec![Vec::new(); self.interaction_count];
                for (example, verdict) in self.examples.iter().zip(&verdicts) {
                    let judged = verdict.exact.as_ref().and_then(|e| e.as_ref().ok());
                    let hardness = verdict.hardness(example.hardness);
                    interactions[example.interaction].push(SpiderLevel {
                        hardness,
                        turn: example.turn,
                        passed: verdict.passed,
                    });
                    exact[example.interaction].push(ExactLevel {
                        hardness,
                        turn: example.turn,
                        exact: judged.is_some_and(|j| j.exact),
                        components: judged.map_or_else(ExactLevel::unscored, |j| j.components),
                    });
                }
                let with_turns = self.interaction_count > 1;
                if options.etype.matches() {
                    let scores = ExactScores::of(&exact, with_turns);
                    summary.exact_passed = Some(exact.iter().flatten().filter(|e| e.exact).count());
                    summary.exact_match = Some(scores);
                }
                summary.without_level = interactions
                    .iter()
                    .flatten()
                    .filter(|e| e.hardness.is_none())
                    .count();
                if options.etype.executes() {
                    summary.spider = Some(SpiderScores::of(&interactions, with_turns));
                } else {
                    summary.measure = "exact set match accuracy".into();
                }
            }
            Benchmark::Bird(options) => {
                summary.benchmark = "bird";
                summary.without_level = self
                    .examples
                    .iter()
                    .filter(|e| {
                        !e.entry
                            .difficulty
                            .as_deref()
                            .is_some_and(|d| crate::bench::bird::DIFFICULTIES.contains(&d))
                    })
                    .count();
                for metric in &options.metrics {
                    let results: Vec<(Option<&str>, f64)> = self
                        .examples
                        .iter()
                        .zip(&verdicts)
                        .map(|(example, verdict)| {
                            let value = match metric {
                                crate::bench::bird::BirdMetric::Ex => verdict.ex,
                                crate::bench::bird::BirdMetric::SoftF1 => verdict.soft_f1,
                                crate::bench::bird::BirdMetric::Ves => verdict.ves,
                            };
                            (example.entry.difficulty.as_deref(), value.unwrap_or(0.0))
                        })
                        .collect();
                    summary.bird.push(BirdLevels::of(*metric, &results));
                }
                summary.db_id_mismatches = self
                    .examples
                    .iter()
                    .enumerate()
                    .filter_map(|(item, example)| {
                        let named = example.predicted_db_ids.get(file)?.as_ref()?;
                        (*named != example.db_id)
                            .then(|| (item, named.clone(), example.db_id.clone()))
                    })
                    .collect();
            }
            Benchmark::Spider2(options) => {
                summary.benchmark = "spider2";
                summary.measure = "execution accuracy".into();
                let mut scores = Vec::new();
                let mut not_scored = Vec::new();
                let mut error_kinds = BTreeMap::new();
                for (item, verdict) in verdicts.iter().enumerate() {
                    let id = self.spider2_id(item).unwrap_or_default().to_string();
                    match &verdict.spider2 {
                        Some(Spider2Outcome::Scored(score)) => {
                            scores.push((id, score.score));
                            if let Some(kind) = score.error_kind {
                                *error_kinds.entry(kind.name().to_string()).or_insert(0) += 1;
                            }
                        }
                        Some(Spider2Outcome::NotScored(why)) => not_scored.push((id, why.clone())),
                        None => {}
                    }
                }
                let correct = scores.iter().filter(|(_, s)| *s == 1).count();
                summary.examples = scores.len();
                summary.passed = correct;
                summary.spider2 = Some(Spider2Scores {
                    variant: options.variant,
                    mode: options.mode,
                    final_score: if scores.is_empty() {
                        0.0
                    } else {
                        correct as f64 / scores.len() as f64
                    },
                    real_score: correct as f64 / REAL_TOTAL as f64,
                    scores,
                    error_kinds,
                    not_scored,
                });
            }
        }
        summary
    }

    /// "execution accuracy" when every `db_id` has one database, else "test-suite accuracy".
    fn measure(&self) -> String {
        let most = self.slots.iter().map(Vec::len).max().unwrap_or(0);
        if most > 1 {
            format!("test-suite accuracy (up to {most} databases per db_id)")
        } else {
            "execution accuracy".to_string()
        }
    }
}

impl BenchSummary {
    /// The official script's table, as it prints it.
    pub fn table(&self, dialect: &str) -> String {
        if let Some(spider2) = &self.spider2 {
            return score_lines(&spider2.scores);
        }
        match (&self.spider, &self.exact_match) {
            (None, None) => self
                .bird
                .iter()
                .map(|levels| bird_table(levels, dialect))
                .collect(),
            (exec, exact) => spider_table(exec.as_ref(), exact.as_ref()),
        }
    }

    /// `--strict`: the official number and qeval's strict one, each named for what it
    /// measures, and the examples each rule changed.
    pub fn strict_table(&self) -> Option<String> {
        let strict = self.strict.as_ref()?;
        let percent = |n: f64| 100.0 * n;
        let mut text = format!(
            "\nofficial {}, as the official script scores it: {:.2}% ({} of {} passed)\nstrict {}, with its documented errors fixed (qeval): {:.2}% ({} of {} passed)\n",
            self.measure,
            percent(strict.official_score),
            strict.official_passed,
            strict.examples,
            self.measure,
            percent(strict.score),
            strict.passed,
            strict.examples,
        );
        for rule in StrictRule::ALL {
            if let Some(n) = strict.changed_by.get(rule.name()) {
                text.push_str(&format!(
                    "  {} changed by {}: {}\n",
                    crate::words::counted(*n, "verdict"),
                    rule.name(),
                    rule.describe()
                ));
            }
        }
        if strict.changed_by.is_empty() {
            text.push_str("  no verdict changed\n");
        }
        Some(text)
    }

    /// What BIRD's scripts append to `--output_log_path`.
    pub fn log(&self) -> String {
        self.bird.iter().map(bird_log).collect()
    }
}
