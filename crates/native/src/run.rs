//! A run folder's tests through the run pipeline on this machine, for `qeval run` and Python's
//! `qeval.run`: the pipeline's jobs on every core (results filled from the database, then
//! test-suite checks), the LLM judge on every pair at once, then every test scored on every
//! core. The core decides what each step does; this only carries it out.

use qeval_core::{EvaluationRecord, PairInput, RunPipeline};

use crate::jobs::{DatabaseSource, run_jobs};
use crate::judge::{Judge, judge_all};

/// A stage of a run, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Queries run for the results the tests lack.
    Filling,
    /// Test-suite checks.
    Checking,
    /// LLM judge calls.
    Judging,
    /// Tests scored into records.
    Scoring,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Filling => "running queries on the database",
            Stage::Checking => "test-suite checking",
            Stage::Judging => "judging",
            Stage::Scoring => "scoring",
        }
    }
}

/// How a run is carried out here.
pub struct Drive<'a> {
    /// The run's database, when it has one (`--db`).
    pub database: Option<DatabaseSource>,
    /// The LLM judge and how many calls it makes at once.
    pub judge: Option<(&'a Judge, usize)>,
    pub workers: usize,
}

/// Tests per job: enough jobs for every worker to have several.
fn per_job(tests: usize, workers: usize) -> usize {
    tests.div_ceil(workers.max(1) * 8).clamp(1, 64)
}

/// Carries the pipeline's stages out and returns every test's record, in order.
/// `progress(step, done, total)` is told as each stage goes.
pub fn drive(
    pipeline: &mut RunPipeline,
    drive: &Drive<'_>,
    progress: &(dyn Fn(Stage, usize, usize) + Sync),
) -> Vec<EvaluationRecord> {
    let per_job = per_job(pipeline.len(), drive.workers);
    if let Some(database) = &drive.database {
        let databases = std::slice::from_ref(database);
        let jobs = pipeline.fill_jobs(per_job);
        let answers = run_jobs(&jobs, databases, drive.workers, |done, total| {
            progress(Stage::Filling, done, total)
        });
        pipeline.absorb(answers);
        // Test-suite checking reads the filled results (a generated query that failed is not
        // checked).
        let jobs = pipeline.suite_jobs(per_job);
        let answers = run_jobs(&jobs, databases, drive.workers, |done, total| {
            progress(Stage::Checking, done, total)
        });
        pipeline.absorb(answers);
    }
    if let Some((judge, concurrency)) = drive.judge {
        let pairs: Vec<Option<&PairInput>> = pipeline.pairs().iter().map(Some).collect();
        let judged = judge_all(
            &pairs,
            pipeline.options(),
            judge,
            concurrency,
            |done, total| progress(Stage::Judging, done, total),
        );
        pipeline.set_judged(judged);
    }
    let items: Vec<usize> = (0..pipeline.len()).collect();
    let pipeline: &RunPipeline = pipeline;
    crate::pool::run(
        &items,
        drive.workers,
        |&item| pipeline.record(item),
        |done| progress(Stage::Scoring, done, items.len()),
    )
}
