//! A run folder's files by name, as every reader of run folders looks for them. Paths only: the
//! callers look at the disk.

use std::path::{Path, PathBuf};

/// What the agent produced, one test per line.
pub const TEST_RESULTS: &str = "test-results.jsonl";
/// The scored records, one per test.
pub const EVALUATION_RESULTS: &str = "evaluation-results.jsonl";
/// Human verdicts on some tests (`{"test_id", "human_label"}` per line), for judge calibration.
pub const LABELS: &str = "human-labels.jsonl";
/// The usual names of the questions file.
const QUESTION_FILES: [&str; 2] = ["test_questions_answers.json", "questions.json"];

/// Where a run's questions file may be, in the order to try: the usual names in the run folder,
/// then in its parent (runs of one suite often share it).
pub fn question_file_candidates(run_dir: &Path) -> Vec<PathBuf> {
    [run_dir.to_path_buf(), run_dir.join("..")]
        .iter()
        .flat_map(|dir| QUESTION_FILES.iter().map(move |name| dir.join(name)))
        .collect()
}
