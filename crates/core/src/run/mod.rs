//! Runs: a folder of test results and their scored records. The folder's file names (`folder`),
//! reading them tolerantly (`read`), the record's schema (`record`), scoring raw results into
//! records and checking stored scores (`evaluate`), the report's numbers (`summary`), pass rates by any field (`groups`), CSV, JUnit
//! XML and Markdown for CI (`export`), judges against human labels (`agreement`), two runs
//! side by side (`compare`) and whether their difference is more than chance (`stats`). Pure:
//! the callers read the files.

pub mod agreement;
pub mod changes;
pub mod evaluate;
pub mod export;
pub mod folder;
pub mod groups;
pub mod read;
pub mod record;
pub mod stats;
pub mod summary;

pub use crate::pairs::TestOptions;
pub use agreement::{JudgeAgreement, agreement, apply_labels, read_labels};
pub use changes::{RunComparison, compare_runs};
pub use evaluate::{
    Disagreement, NOTHING_EXPECTED, evaluate_test, pair_of_test, recheck, score_test, suite_queries,
};
pub use groups::{Group, Grouping, fill_hardness, group_by, groupings};
pub use read::{
    Lines, Rejected, read_questions, read_record_bytes, read_records, read_test_results,
};
pub use record::{Breakdown, EvaluationRecord, QasEvaluation, TestLine};
pub use stats::{PairedStats, TestDelta, mcnemar_exact, paired_stats};
pub use summary::{Summary, summarize, summarize_by};
