//! A run folder's tests as the pipeline runs them (`qeval run`, Python's `qeval.run`, the
//! page's Run report): results a test lacks are filled from the database when there is one,
//! each test is suite-checked when asked, the LLM judge is asked about every pair at once, and
//! each test is scored into its record (`run::score_test`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::job::{Fill, Job, JobAnswer, JobPart, PartAnswer, SuiteCheck};
use super::query::QuerySettings;
use crate::metric::Metric;
use crate::pairs::{PairInput, cut_note};
use crate::results::compare::Mode;
use crate::run::record::test_key;
use crate::run::{EvaluationRecord, TestLine, pair_of_test, score_test, suite_queries};
use crate::score::{JudgeOutcome, ScoreOptions};

/// Test-suite checking (`--suite N --seed S`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SuiteSettings {
    pub databases: usize,
    pub seed: u64,
    /// Boundary-search candidates (0: none).
    pub search: usize,
}

/// How the run uses its database.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DatabaseUse {
    pub settings: QuerySettings,
    pub suite: Option<SuiteSettings>,
}

/// A run's tests on their way to records.
#[derive(Debug, Clone)]
pub struct RunPipeline {
    tests: Vec<TestLine>,
    questions: BTreeMap<String, TestLine>,
    pairs: Vec<PairInput>,
    options: ScoreOptions,
    database: Option<DatabaseUse>,
    suites: Vec<Option<Metric>>,
    judged: Vec<BTreeMap<String, JudgeOutcome>>,
    truncated: usize,
}

impl RunPipeline {
    pub fn new(
        tests: Vec<TestLine>,
        questions: BTreeMap<String, TestLine>,
        options: ScoreOptions,
        database: Option<DatabaseUse>,
    ) -> RunPipeline {
        let pairs: Vec<PairInput> = tests
            .iter()
            .map(|test| pair_of_test(test, questions.get(&test_key(&test.test_id))))
            .collect();
        let n = pairs.len();
        RunPipeline {
            tests,
            questions,
            pairs,
            options,
            database,
            suites: vec![None; n],
            judged: vec![BTreeMap::new(); n],
            truncated: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.tests.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    pub fn tests(&self) -> &[TestLine] {
        &self.tests
    }

    pub fn questions(&self) -> &BTreeMap<String, TestLine> {
        &self.questions
    }

    /// The pairs as scored: the judge is asked about these.
    pub fn pairs(&self) -> &[PairInput] {
        &self.pairs
    }

    pub fn options(&self) -> &ScoreOptions {
        &self.options
    }

    /// Results the row cap cut while filling.
    pub fn truncated(&self) -> usize {
        self.truncated
    }

    /// The queries to run for results the tests lack (none without a database), in jobs of
    /// at most `per_job` tests.
    pub fn fill_jobs(&self, per_job: usize) -> Vec<Job> {
        let Some(database) = self.database else {
            return Vec::new();
        };
        let settings = database.settings;
        let parts: Vec<JobPart> = self
            .pairs
            .iter()
            .enumerate()
            .filter_map(|(item, pair)| {
                let missing = |result: &Option<serde_json::Value>, sql: &Option<String>| {
                    result.is_none().then(|| sql.clone()).flatten()
                };
                let fill = Fill {
                    item,
                    expected: missing(&pair.expected_result, &pair.expected_sql),
                    alternatives: pair
                        .alternatives
                        .iter()
                        .map(|a| missing(&a.expected_result, &a.expected_sql))
                        .collect(),
                    generated: (pair.generated_result.is_none()
                        && pair.generated_error.is_none()
                        && !pair.generated_sql.trim().is_empty())
                    .then(|| pair.generated_sql.clone()),
                    settings,
                };
                let any = fill.expected.is_some()
                    || fill.generated.is_some()
                    || fill.alternatives.iter().any(Option::is_some);
                any.then_some(JobPart::Fill(fill))
            })
            .collect();
        chunks(parts, per_job)
    }

    /// Test-suite checking of every test it applies to (after the results are filled).
    pub fn suite_jobs(&self, per_job: usize) -> Vec<Job> {
        let Some(DatabaseUse {
            settings,
            suite: Some(suite),
        }) = self.database
        else {
            return Vec::new();
        };
        let parts = self
            .pairs
            .iter()
            .enumerate()
            .filter_map(|(item, pair)| {
                let (expected, generated) = suite_queries(pair)?;
                Some(JobPart::Suite(SuiteCheck {
                    item,
                    expected: expected.to_string(),
                    generated: generated.to_string(),
                    mode: pair.mode.or(self.options.mode).unwrap_or(Mode::Bag),
                    dialect: pair.dialect.unwrap_or(self.options.dialect),
                    databases: suite.databases,
                    seed: suite.seed,
                    search: suite.search,
                    settings,
                }))
            })
            .collect();
        chunks(parts, per_job)
    }

    /// Takes the answers of fill or suite jobs (in any order).
    pub fn absorb(&mut self, answers: impl IntoIterator<Item = JobAnswer>) {
        for answer in answers {
            for part in answer.answers {
                match part {
                    PartAnswer::Fill(fill) => self.apply_fill(fill),
                    PartAnswer::Suite { item, metric } => {
                        if let Some(slot) = self.suites.get_mut(item) {
                            *slot = Some(metric);
                        }
                    }
                    PartAnswer::Check(_) | PartAnswer::Schema { .. } => {}
                }
            }
        }
    }

    fn apply_fill(&mut self, fill: super::job::FillAnswer) {
        let Some(pair) = self.pairs.get_mut(fill.item) else {
            return;
        };
        let mut cut = 0;
        match fill.expected {
            Some(Ok(filled)) => {
                cut += usize::from(filled.truncated);
                if filled.truncated {
                    pair.expected_cut = Some(cut_note(rows_in(&filled.result)));
                }
                pair.expected_vm_steps = (!filled.truncated).then_some(filled.vm_steps);
                pair.expected_result = Some(filled.result);
            }
            Some(Err(err)) => pair.expected_error = Some(err.to_string()),
            None => {}
        }
        for (alternative, answer) in pair.alternatives.iter_mut().zip(fill.alternatives) {
            if let Some(Ok(filled)) = answer {
                cut += usize::from(filled.truncated);
                alternative.expected_result = Some(filled.result);
            }
        }
        match fill.generated {
            Some(Ok(filled)) => {
                cut += usize::from(filled.truncated);
                if filled.truncated {
                    pair.generated_cut = Some(cut_note(rows_in(&filled.result)));
                }
                pair.generated_vm_steps = (!filled.truncated).then_some(filled.vm_steps);
                pair.generated_result = Some(filled.result);
            }
            Some(Err(err)) => pair.generated_error = Some(err.to_string()),
            None => {}
        }
        self.truncated += cut;
    }

    /// The LLM judge's verdicts on each pair, in order (empty maps without a judge).
    pub fn set_judged(&mut self, judged: Vec<BTreeMap<String, JudgeOutcome>>) {
        if judged.len() == self.pairs.len() {
            self.judged = judged;
        }
    }

    /// Test `item`'s record.
    pub fn record(&self, item: usize) -> EvaluationRecord {
        let test = &self.tests[item];
        let question = self.questions.get(&test_key(&test.test_id));
        score_test(
            test,
            question,
            &self.pairs[item],
            &self.judged[item],
            self.suites[item].as_ref(),
            &self.options,
        )
    }

    /// Test `item` with everything its record is made from, as data: for a front end that
    /// scores it elsewhere (the page's scoring worker), where [`TestToScore::record`] gives the
    /// record [`RunPipeline::record`] gives.
    pub fn to_score(&self, item: usize) -> TestToScore {
        let test = &self.tests[item];
        TestToScore {
            test: test.clone(),
            question: self.questions.get(&test_key(&test.test_id)).cloned(),
            pair: self.pairs[item].clone(),
            judged: self.judged[item].clone(),
            suite: self.suites[item].clone(),
        }
    }
}

/// One test of a run with its pair filled, its judge's verdicts and its test-suite metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestToScore {
    pub test: TestLine,
    pub question: Option<TestLine>,
    pub pair: PairInput,
    pub judged: BTreeMap<String, JudgeOutcome>,
    pub suite: Option<Metric>,
}

impl TestToScore {
    pub fn record(&self, options: &ScoreOptions) -> EvaluationRecord {
        score_test(
            &self.test,
            self.question.as_ref(),
            &self.pair,
            &self.judged,
            self.suite.as_ref(),
            options,
        )
    }
}

/// Tasks in jobs of at most `per_job`, all on the run's one database.
fn chunks(parts: Vec<JobPart>, per_job: usize) -> Vec<Job> {
    let per_job = per_job.max(1);
    let mut jobs = Vec::new();
    let mut parts = parts.into_iter().peekable();
    while parts.peek().is_some() {
        jobs.push(Job {
            database: 0,
            parts: parts.by_ref().take(per_job).collect(),
        });
    }
    jobs
}

/// The rows of a `{columns, rows}` result.
fn rows_in(result: &serde_json::Value) -> usize {
    result["rows"].as_array().map_or(0, Vec::len)
}
