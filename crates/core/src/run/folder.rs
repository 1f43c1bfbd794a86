//! A run folder's files: what each file holds, by its name (or, for a name that does not say,
//! by its first lines), and which file of each kind to read. `qeval run`, `qeval report`, the
//! Python package and the page all find a run's files by these rules. Names and paths only: the
//! callers list folders and read files.

use std::path::{Path, PathBuf};

/// What the agent produced, one test per line: the usual name.
pub(crate) const TEST_RESULTS: &str = "test-results.jsonl";
/// The scored records, one per test: the usual name, and the one `qeval run` writes.
pub const EVALUATION_RESULTS: &str = "evaluation-results.jsonl";
/// Human verdicts on some tests (`{"test_id", "human_label"}` per line), for judge calibration.
pub(crate) const LABELS: &str = "human-labels.jsonl";
/// The usual names of the questions file.
const QUESTION_FILES: [&str; 2] = ["test_questions_answers.json", "questions.json"];

/// What a file of a run holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `test-results*.jsonl`: what the agent produced, to score.
    TestResults,
    /// `evaluation-results*.jsonl`: scored records.
    EvaluationResults,
    /// A name with `question` in it: the questions and their expected answers.
    Questions,
    /// A name with `label` in it: human verdicts.
    Labels,
    /// Another JSON or JSON Lines file: its first lines say what it holds ([`kind_by_content`]).
    Other,
}

impl FileKind {
    /// The names a file of this kind usually has, preferred in this order.
    fn usual_names(self) -> &'static [&'static str] {
        match self {
            FileKind::TestResults => &[TEST_RESULTS],
            FileKind::EvaluationResults => &[EVALUATION_RESULTS],
            FileKind::Questions => &QUESTION_FILES,
            FileKind::Labels => &[LABELS],
            FileKind::Other => &[],
        }
    }

    /// The folders a file of this kind is looked for in, in order: the run folder, and for the
    /// questions then its parent (the runs of one suite often share them).
    pub fn folders(self, run_dir: &Path) -> Vec<PathBuf> {
        let mut folders = vec![run_dir.to_path_buf()];
        if self == FileKind::Questions {
            folders.push(run_dir.join(".."));
        }
        folders
    }

    /// How a message names this kind of file.
    pub fn described(self) -> &'static str {
        match self {
            FileKind::TestResults => "test-results*.jsonl",
            FileKind::EvaluationResults => "evaluation-results*.jsonl",
            FileKind::Questions => "questions file",
            FileKind::Labels => "labels file",
            FileKind::Other => "JSON file",
        }
    }
}

/// The last part of a path with `/` or `\` between folders.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// What the file at `path` (a name, or a path with `/` or `\` between folders) holds, by its
/// name, ignoring case; `None` when it is not a `.jsonl`, `.ndjson` or `.json` file.
pub fn kind_of(path: &str) -> Option<FileKind> {
    let name = file_name(path).to_ascii_lowercase();
    if ![".jsonl", ".ndjson", ".json"]
        .iter()
        .any(|extension| name.ends_with(extension))
    {
        return None;
    }
    Some(if name.starts_with("evaluation-results") {
        FileKind::EvaluationResults
    } else if name.starts_with("test-results") {
        FileKind::TestResults
    } else if name.contains("question") {
        FileKind::Questions
    } else if name.contains("label") {
        FileKind::Labels
    } else {
        FileKind::Other
    })
}

/// What a file whose name does not say holds, from its first lines: scored records carry
/// `qas_evaluation`; questions carry `expected_answer_type` and no `generated_sql`; anything
/// else is read as test results.
pub fn kind_by_content(head: &str) -> FileKind {
    if head.contains("\"qas_evaluation\"") {
        FileKind::EvaluationResults
    } else if head.contains("\"expected_answer_type\"") && !head.contains("\"generated_sql\"") {
        FileKind::Questions
    } else {
        FileKind::TestResults
    }
}

/// Of the file names in a folder, the one of `kind` to read: a usual name first, else the only
/// file of that kind; `None` when there is none. Several of the kind and none with a usual name
/// is an error that lists them, since any choice could be the wrong run.
pub fn choose<'a>(
    names: impl IntoIterator<Item = &'a str>,
    kind: FileKind,
) -> Result<Option<&'a str>, String> {
    let mut found: Vec<&str> = names
        .into_iter()
        .filter(|name| kind_of(name) == Some(kind))
        .collect();
    found.sort_unstable();
    for usual in kind.usual_names() {
        if let Some(name) = found
            .iter()
            .find(|name| file_name(name).eq_ignore_ascii_case(usual))
        {
            return Ok(Some(name));
        }
    }
    match found.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only)),
        several => Err(format!(
            "{} files could be the {}: {}; keep one, or rename the one to use {}",
            several.len(),
            kind.described(),
            several.join(", "),
            kind.usual_names().first().copied().unwrap_or("")
        )),
    }
}

/// Of files given together (dropped on the page, say), those to read and what each holds: per
/// kind, [`choose`]'s pick. A file whose name does not say what it holds
/// ([`FileKind::Other`]) is read only when no file is named as test or evaluation results, as
/// when one file is dropped alone; `qeval run` likewise reads a folder's named files only.
pub fn run_files<'a>(
    paths: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<(FileKind, &'a str)>, String> {
    let paths: Vec<&str> = paths.into_iter().collect();
    let mut files = Vec::new();
    for kind in [
        FileKind::EvaluationResults,
        FileKind::TestResults,
        FileKind::Questions,
        FileKind::Labels,
    ] {
        if let Some(path) = choose(paths.iter().copied(), kind)? {
            files.push((kind, path));
        }
    }
    let named_results = files
        .iter()
        .any(|(kind, _)| matches!(kind, FileKind::EvaluationResults | FileKind::TestResults));
    if !named_results {
        files.extend(
            paths
                .iter()
                .filter(|path| kind_of(path) == Some(FileKind::Other))
                .map(|path| (FileKind::Other, *path)),
        );
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_a_file_holds() {
        assert_eq!(
            kind_of("runs/a/test-results.jsonl"),
            Some(FileKind::TestResults)
        );
        assert_eq!(
            kind_of("Evaluation-Results-v2.JSONL"),
            Some(FileKind::EvaluationResults)
        );
        assert_eq!(
            kind_of("..\\test_questions_answers.json"),
            Some(FileKind::Questions)
        );
        assert_eq!(kind_of("human-labels.ndjson"), Some(FileKind::Labels));
        assert_eq!(kind_of("run.jsonl"), Some(FileKind::Other));
        assert_eq!(kind_of("notes.txt"), None);
        assert_eq!(
            kind_by_content(r#"{"test_id":1,"qas_evaluation":{}}"#),
            FileKind::EvaluationResults
        );
        assert_eq!(
            kind_by_content(r#"[{"id":1,"expected_answer_type":"number"}]"#),
            FileKind::Questions
        );
        assert_eq!(
            kind_by_content(r#"{"test_id":1,"generated_sql":"SELECT 1"}"#),
            FileKind::TestResults
        );
    }

    #[test]
    fn the_usual_name_wins_and_a_lone_other_name_serves() {
        let names = [
            "test-results-old.jsonl",
            "test-results.jsonl",
            "questions.json",
        ];
        assert_eq!(
            choose(names, FileKind::TestResults),
            Ok(Some("test-results.jsonl"))
        );
        assert_eq!(
            choose(names, FileKind::Questions),
            Ok(Some("questions.json"))
        );
        assert_eq!(choose(names, FileKind::Labels), Ok(None));
        let names = ["Test-Results-2026-11-20.jsonl", "my_labels.jsonl"];
        assert_eq!(
            choose(names, FileKind::TestResults),
            Ok(Some("Test-Results-2026-11-20.jsonl"))
        );
        assert_eq!(choose(names, FileKind::Labels), Ok(Some("my_labels.jsonl")));
    }

    #[test]
    fn files_given_together_are_read_by_the_same_rules() {
        let dropped = [
            "run/test-results.jsonl",
            "run/test-results-old.jsonl",
            "run/questions.json",
            "run/notes.json",
            "run/README.md",
        ];
        assert_eq!(
            run_files(dropped),
            Ok(vec![
                (FileKind::TestResults, "run/test-results.jsonl"),
                (FileKind::Questions, "run/questions.json"),
            ])
        );
        // One file alone, named as neither: what it holds is read from its lines.
        assert_eq!(
            run_files(["my-run.jsonl"]),
            Ok(vec![(FileKind::Other, "my-run.jsonl")])
        );
        assert!(
            run_files([
                "a/evaluation-results-1.jsonl",
                "a/evaluation-results-2.jsonl"
            ])
            .is_err()
        );
    }

    #[test]
    fn several_candidates_without_the_usual_name_are_named_not_guessed() {
        let names = ["test-results-a.jsonl", "test-results-b.jsonl"];
        let error = choose(names, FileKind::TestResults).unwrap_err();
        assert!(
            error.contains("test-results-a.jsonl, test-results-b.jsonl"),
            "{error}"
        );
        assert!(
            error.contains("rename the one to use test-results.jsonl"),
            "{error}"
        );
    }
}
