//! Scoring raw results in the browser, test by test, with the judge the user configured:
//! the same steps as `qeval run`, so the records come out the same. The scoring itself is the
//! scoring worker's; the page fills missing results from the database worker and asks the
//! judge, then sends the tests in batches.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use qeval_core::profiles::ProfileName;
use qeval_core::run::EvaluationRecord;
use qeval_core::run::record::test_key;
use qeval_core::run::{pair_of_test, suite_queries};

use super::RawRun;
use qeval_core::Language;
use qeval_core::sql::SqlDialect;
use qeval_worker::protocol::{Answer, Check, Fill, Scoring, Task, TestToScore};

use crate::database::LoadedDb;
use crate::judge::{JudgeSettings, VerdictCache, judge_all};
use crate::workers::{Kind, Reply, WorkerHandle, Workers};

/// Tests sent to the scoring worker in one job: progress shows between batches.
const BATCH: usize = 25;

/// How the page scores a run, beside the judge's settings and the database.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunScoring {
    pub profile: ProfileName,
    /// Test-suite checking on the loaded database: how many databases to generate from its
    /// schema for each test (0: off), as `qeval run --db --suite N`.
    pub suite: u32,
}

/// Scores every test; `progress(done, total)` after each batch; stops (returning `None`) when
/// `cancel` is set or the scoring worker stopped.
pub async fn score_run(
    raw: &RawRun,
    run_scoring: RunScoring,
    settings: &JudgeSettings,
    db: &LoadedDb,
    workers: &Workers,
    cancel: Rc<Cell<bool>>,
    progress: impl Fn(usize, usize),
) -> Option<Vec<EvaluationRecord>> {
    let scoring = Scoring {
        profile: run_scoring.profile,
        mode: None,
        evaluated_at: Some(String::from(js_sys::Date::new_0().to_iso_string())),
        judge_prompt: settings.prompt,
        // As `qeval run --db` does: the loaded database's names check each query.
        schema: db
            .is_loaded()
            .then(|| qeval_sqlite::schema_names(&db.tables)),
    };
    let judging = settings.enabled && settings.problem().is_none();
    let cache = VerdictCache::shared();
    let total = raw.tests.len();
    let mut records = Vec::with_capacity(total);
    for batch in raw.tests.chunks(BATCH) {
        let mut tests = Vec::with_capacity(batch.len());
        for test in batch {
            if cancel.get() {
                return None;
            }
            let question = raw.questions.get(&test_key(&test.test_id)).cloned();
            let mut pair = pair_of_test(test, question.as_ref());
            let mut suite = None;
            if db.is_loaded() {
                fill(&mut pair, &workers.database).await;
                if run_scoring.suite > 0 {
                    suite = suite_check(&pair, run_scoring.suite, &workers.database).await;
                }
            }
            let judged = if judging {
                let task = Task::JudgeTasks {
                    pair: pair.clone(),
                    scoring: scoring.clone(),
                };
                let Reply::Answer(Answer::JudgeTasks(tasks)) =
                    workers.scorer.ask(Kind::JudgeTasks, task).await
                else {
                    return None;
                };
                judge_all(tasks, settings, &cache).await.outcomes
            } else {
                BTreeMap::new()
            };
            tests.push(TestToScore {
                test: test.clone(),
                question,
                pair,
                judged,
                suite,
            });
        }
        let task = Task::ScoreTests {
            tests,
            scoring: scoring.clone(),
        };
        let Reply::Answer(Answer::Records(scored)) =
            workers.scorer.ask(Kind::ScoreTests, task).await
        else {
            return None;
        };
        records.extend(scored);
        progress(records.len(), total);
    }
    progress(total, total);
    Some(records)
}

/// Test-suite checking of a test on the loaded database (in the worker), as `qeval run --db
/// --suite N` does: the same databases for the same seed (the command line's default, 1).
async fn suite_check(
    pair: &qeval_core::PairInput,
    databases: u32,
    worker: &WorkerHandle,
) -> Option<qeval_core::Metric> {
    let (expected, generated) = suite_queries(pair)?;
    let check = Check {
        expected: expected.to_string(),
        generated: generated.to_string(),
        language: pair.language.unwrap_or(Language::Sql),
        dialect: pair.dialect.unwrap_or(SqlDialect::Generic),
        mode: pair.mode,
        schema: String::new(),
        checks: 0,
        suite: databases,
        seed: 1,
        time_limit_s: 10.0,
    };
    match worker.ask(Kind::RunSuite, Task::Suite(check)).await {
        Reply::Answer(Answer::Suite(metric)) => metric,
        _ => None,
    }
}

/// Runs the queries of a test that lacks results on the loaded database (in the worker), as
/// `qeval run --db` does.
async fn fill(pair: &mut qeval_core::PairInput, worker: &WorkerHandle) {
    let fill = Fill {
        expected_sql: pair
            .expected_result
            .is_none()
            .then(|| pair.expected_sql.clone())
            .flatten(),
        generated_sql: (pair.generated_result.is_none()
            && pair.generated_error.is_none()
            && !pair.generated_sql.trim().is_empty())
        .then(|| pair.generated_sql.clone()),
        time_limit_s: 10.0,
    };
    if fill.expected_sql.is_none() && fill.generated_sql.is_none() {
        return;
    }
    if let Reply::Answer(Answer::Filled(filled)) = worker.ask(Kind::Fill, Task::Fill(fill)).await {
        if pair.expected_result.is_none() {
            pair.expected_result = filled.expected_result;
            pair.expected_vm_steps = filled.expected_vm_steps;
        }
        if pair.generated_result.is_none() && pair.generated_error.is_none() {
            pair.generated_result = filled.generated_result;
            pair.generated_vm_steps = filled.generated_vm_steps;
        }
        pair.generated_error = pair.generated_error.take().or(filled.generated_error);
    }
}

/// The records with Spider's hardness level given to those that lack it (records scored
/// elsewhere), computed by the scoring worker as `qeval run` computes it; `None` when no record
/// lacks one that could have it, or the worker did not answer.
pub async fn with_hardness(
    records: &[EvaluationRecord],
    workers: &Workers,
) -> Option<Vec<EvaluationRecord>> {
    let missing: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.sql_hardness.is_none() && r.expected_sql.is_some())
        .map(|(i, _)| i)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let queries = missing
        .iter()
        .map(|&i| records[i].expected_sql.clone())
        .collect();
    let Reply::Answer(Answer::Hardness(levels)) = workers
        .scorer
        .ask(Kind::Hardness, Task::Hardness(queries))
        .await
    else {
        return None;
    };
    if levels.iter().all(Option::is_none) {
        return None;
    }
    let mut filled = records.to_vec();
    for (i, level) in missing.into_iter().zip(levels) {
        filled[i].sql_hardness = level;
    }
    Some(filled)
}

/// The records as `evaluation-results.jsonl` text, one per line, as `qeval run` writes them.
pub fn jsonl(records: &[EvaluationRecord]) -> String {
    let mut text = String::new();
    for record in records {
        if let Ok(line) = serde_json::to_string(record) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}
