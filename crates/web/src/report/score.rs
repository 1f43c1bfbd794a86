//! Scoring raw results in the browser through the run pipeline `qeval run` uses, so the records
//! come out the same: the core's pipeline plans the work, the database worker does its jobs on
//! the loaded database (results the tests lack, their test-suite checks), the page asks the
//! judge, and the scoring worker scores the tests in batches.

use std::cell::Cell;
use std::rc::Rc;

use qeval_core::{
    DatabaseUse, EvaluationRecord, Job, ProfileName, QuerySettings, RunPipeline, SuiteSettings,
};

use super::RawRun;
use qeval_worker::protocol::{Answer, Scoring, Task};

use crate::database::LoadedDb;
use crate::judge::{JudgeChoices, VerdictCache, judge_all};
use crate::workers::{Reply, TaskKind, WorkerHandle, Workers};

/// Tests in one job or one scoring batch: progress shows between them.
const BATCH: usize = 25;

/// Seconds a query may run and rows kept, as `qeval run`'s defaults.
const TIME_LIMIT_MS: f64 = 10_000.0;
const MAX_ROWS: usize = 100_000;

/// How the page scores a run, beside the judge's settings and the database.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunScoring {
    pub profile: ProfileName,
    /// Test-suite checking on the loaded database: how many databases to generate from its
    /// schema for each test (0: off), as `qeval run --db --suite N`.
    pub suite: u32,
}

/// Scores every test; `progress(done, total)` as it goes; stops (returning `None`) when
/// `cancel` is set or a worker stopped.
pub async fn score_run(
    raw: &RawRun,
    run_scoring: RunScoring,
    settings: &JudgeChoices,
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
    // As `qeval run --db --suite N`: the command line's seed (1).
    let database = db.is_loaded().then(|| DatabaseUse {
        settings: QuerySettings {
            time_limit_ms: TIME_LIMIT_MS,
            max_rows: MAX_ROWS,
            ..QuerySettings::default()
        },
        suite: (run_scoring.suite > 0).then_some(SuiteSettings {
            databases: run_scoring.suite as usize,
            seed: 1,
            search: qeval_sqlite::BoundarySearch::DEFAULT_TRIES,
        }),
    });
    let mut pipeline = RunPipeline::new(
        raw.tests.clone(),
        raw.questions.clone(),
        scoring.options(),
        database,
    );
    let total = pipeline.len();
    let jobs = pipeline.fill_jobs(BATCH);
    run_jobs(&mut pipeline, jobs, &workers.database, &cancel, &progress).await?;
    // Test-suite checking reads the filled results.
    let jobs = pipeline.suite_jobs(BATCH);
    run_jobs(&mut pipeline, jobs, &workers.database, &cancel, &progress).await?;
    if settings.enabled && settings.problem().is_none() {
        let cache = VerdictCache::shared();
        let mut judged = Vec::with_capacity(total);
        for pair in pipeline.pairs() {
            if cancel.get() {
                return None;
            }
            let task = Task::JudgeTasks {
                pair: pair.clone(),
                scoring: scoring.clone(),
            };
            let Reply::Answer(Answer::JudgeTasks(tasks)) =
                workers.scorer.ask(TaskKind::JudgeTasks, task).await
            else {
                return None;
            };
            judged.push(judge_all(tasks, settings, &cache).await.outcomes);
            progress(judged.len(), total);
        }
        pipeline.set_judged(judged);
    }
    let mut records = Vec::with_capacity(total);
    let items: Vec<usize> = (0..total).collect();
    for batch in items.chunks(BATCH) {
        if cancel.get() {
            return None;
        }
        let task = Task::ScoreTests {
            tests: batch.iter().map(|&item| pipeline.to_score(item)).collect(),
            scoring: scoring.clone(),
        };
        let Reply::Answer(Answer::Records(scored)) =
            workers.scorer.ask(TaskKind::ScoreTests, task).await
        else {
            return None;
        };
        records.extend(scored);
        progress(records.len(), total);
    }
    progress(total, total);
    Some(records)
}

/// The pipeline's jobs done one by one in the database worker, their answers handed back to
/// the pipeline.
async fn run_jobs(
    pipeline: &mut RunPipeline,
    jobs: Vec<Job>,
    worker: &WorkerHandle,
    cancel: &Cell<bool>,
    progress: &impl Fn(usize, usize),
) -> Option<()> {
    let total = jobs.len();
    for (done, job) in jobs.into_iter().enumerate() {
        if cancel.get() {
            return None;
        }
        let Reply::Answer(Answer::JobDone(answer)) =
            worker.ask(TaskKind::RunJob, Task::RunJob(job)).await
        else {
            return None;
        };
        pipeline.absorb([answer]);
        progress(done + 1, total);
    }
    Some(())
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
        .ask(TaskKind::Hardness, Task::Hardness(queries))
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
