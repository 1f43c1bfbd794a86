//! The run pipeline's jobs done on this machine's cores: each worker opens the database a job
//! names (an in-memory copy, read-only) and keeps it for its next job on the same database, so
//! a database file is read at most once per worker however many jobs it has.

use std::path::PathBuf;
use std::sync::Arc;

use qeval_core::{
    Job, JobAnswer, Metric, QueryError, QueryRows, QuerySettings, Runner, SuiteCheck,
};
use qeval_sqlite::Database;

/// Where a plan's database comes from.
#[derive(Debug, Clone)]
pub enum DatabaseSource {
    /// A file, read when a worker first needs it.
    File(PathBuf),
    /// A file's bytes already read (`qeval run --db`, read once to report its tables).
    Bytes(Arc<Vec<u8>>),
}

impl DatabaseSource {
    fn open(&self) -> Result<Database, String> {
        match self {
            DatabaseSource::File(path) => {
                let bytes = Database::read_file(path)?;
                Database::open_bytes(&bytes).map_err(|err| format!("{}: {err}", path.display()))
            }
            DatabaseSource::Bytes(bytes) => Database::open_bytes(bytes).map_err(|err| err.0),
        }
    }
}

/// A database that could not be opened: every query on it fails with why.
struct Unopened(String);

impl Runner for Unopened {
    fn query(&mut self, _: &str, _: &QuerySettings) -> Result<QueryRows, QueryError> {
        Err(QueryError::Failed(self.0.clone()))
    }

    fn suite(&mut self, _: &SuiteCheck) -> Metric {
        Metric::failed(qeval_core::MetricError {
            metric: qeval_core::MetricName::TestSuite.as_str().into(),
            message: self.0.clone(),
            inputs: Default::default(),
            at: None,
        })
    }
}

/// Does every job on `workers` threads; `progress(done, total)` after each. Answers come back
/// in the jobs' order.
pub fn run_jobs(
    jobs: &[Job],
    databases: &[DatabaseSource],
    workers: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> Vec<JobAnswer> {
    let total = jobs.len();
    crate::pool::run_with(
        jobs,
        workers,
        || None::<(usize, Result<Database, String>)>,
        |open, job| {
            if open.as_ref().is_none_or(|(at, _)| *at != job.database) {
                // Let the last database go before opening the next.
                *open = None;
                let opened = match databases.get(job.database) {
                    Some(source) => source.open(),
                    None => Err(format!("no database number {}", job.database)),
                };
                *open = Some((job.database, opened));
            }
            match open {
                Some((_, opened)) => run_on(job, opened),
                None => job.run(&mut Unopened("no database".into())),
            }
        },
        |done| progress(done, total),
    )
}

/// One job on its database, opened for it: what a cluster's worker does with a job it was sent.
pub fn run_job(job: &Job, source: &DatabaseSource) -> JobAnswer {
    run_on(job, &mut source.open())
}

fn run_on(job: &Job, opened: &mut Result<Database, String>) -> JobAnswer {
    match opened {
        Ok(database) => job.run(database),
        Err(why) => job.run(&mut Unopened(why.clone())),
    }
}
