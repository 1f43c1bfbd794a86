//! The run pipeline: one way from inputs to records for every front end and every input.
//!
//! The core plans, the front end carries out, the core finishes:
//! 1. an input becomes a pipeline: a run folder's tests ([`RunPipeline`], `qeval run`) or a
//!    benchmark's examples ([`BenchmarkPipeline`], `qeval bench`);
//! 2. the pipeline plans [`Job`]s, each the work on one database (queries whose results a test
//!    lacks, test-suite checks, a benchmark's checks, each gold once), and the judgings an LLM
//!    judge would be asked for;
//! 3. the front end does them: the command line and the Python module on every core with a
//!    copy of each database per worker (qeval-native), Ray on a cluster, the page in its
//!    database worker; each job runs through [`Job::run`] with a [`Runner`] for its database;
//! 4. the pipeline takes the answers and gives each item's record, and the summary.
//!
//! Nothing here reads a file, a clock or the network: a runner is the front end's.

pub(crate) mod benchmark;
pub(crate) mod job;
pub(crate) mod query;
pub(crate) mod run_folder;
