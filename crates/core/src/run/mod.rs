//! Runs: a folder of test results and their scored records. The folder's file names (`folder`),
//! reading them tolerantly (`read`), the record's schema (`record`), scoring raw results into
//! records and checking stored scores (`evaluate`), the report's numbers (`summary`), pass rates by any field (`groups`), CSV, JUnit
//! XML and Markdown for CI (`export`), judges against human labels (`agreement`), two runs
//! side by side (`compare`) and whether their difference is more than chance (`stats`). Pure:
//! the callers read the files.

pub(crate) mod agreement;
pub(crate) mod changes;
pub(crate) mod evaluate;
pub(crate) mod export;
pub(crate) mod folder;
pub(crate) mod groups;
pub(crate) mod read;
pub(crate) mod record;
pub(crate) mod stats;
pub(crate) mod summary;

pub(crate) use evaluate::{pair_of_test, score_test, suite_queries};
pub(crate) use record::{EvaluationRecord, QasEvaluation, TestLine};
