//! What the commands print, for the repository's example files, kept as insta snapshots
//! (`snapshots/it__outputs__*.snap`): a change to what users read is a diff to review, not a
//! substring that still happens to match.
//!
//! Each snapshot is a transcript: the command line (run from the repository root, so paths read
//! as a user types them), the exit status, standard output and standard error. JSON Lines on
//! standard output are shown one pretty-printed document per line, so a diff points at the field
//! that moved. Wall-clock readings (timestamps, `in 0.17 s`), the number of threads (the
//! machine's cores) and the temporary folder are replaced by placeholders; everything else is
//! byte for byte.
//!
//! After a change meant to change output, run the tests with `INSTA_UPDATE=always`, then read
//! the snapshots' diff before committing it. With `CI=true`, a snapshot that differs fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::bench::BenchFolder;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("qeval-outputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Scratch(dir)
    }

    fn arg(&self, relative: &str) -> String {
        self.0.join(relative).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies the example run and its questions file into `to` as a user's folder holds them, so
/// `qeval run` can write beside its files; gives the run's path.
fn copy_example_run(to: &Path) -> String {
    let from = root().join("static/example-run");
    let run = to.join("run-2026-11-20T14-30-00");
    std::fs::create_dir_all(&run).expect("a run folder");
    std::fs::copy(
        from.join("test_questions_answers.json"),
        to.join("test_questions_answers.json"),
    )
    .expect("copied");
    for name in ["test-results.jsonl", "evaluation-results.jsonl"] {
        std::fs::copy(
            from.join("run-2026-11-20T14-30-00").join(name),
            run.join(name),
        )
        .expect("copied");
    }
    run.display().to_string()
}

/// Standard output as it reads: JSON Lines pretty-printed one document at a time, other text
/// as it is.
fn shown_stdout(text: &str) -> String {
    let documents: Option<Vec<Value>> = text
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line)
                .ok()
                .filter(Value::is_object)
        })
        .collect();
    match documents {
        Some(documents) if !documents.is_empty() => documents
            .iter()
            .map(|d| serde_json::to_string_pretty(d).expect("JSON prints") + "\n")
            .collect(),
        _ => text.to_string(),
    }
}

/// Runs `qeval` from the repository root and gives its transcript, with the temporary folder
/// `hidden` (if any) shown as `[tmp]`.
fn transcript(args: &[&str], hidden: Option<&Path>) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(args)
        .current_dir(root())
        .env_remove("CI")
        .output()
        .expect("qeval runs");
    let quoted: Vec<String> = args
        .iter()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "\"'$*;|()<>".contains(c))
            {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a.to_string()
            }
        })
        .collect();
    let text = format!(
        "$ qeval {}\nexit status: {}\n--- standard output\n{}--- standard error\n{}",
        quoted.join(" "),
        output
            .status
            .code()
            .map_or("killed".into(), |c| c.to_string()),
        shown_stdout(&String::from_utf8_lossy(&output.stdout)),
        String::from_utf8_lossy(&output.stderr),
    );
    match hidden {
        Some(folder) => text.replace(&folder.display().to_string(), "[tmp]"),
        None => text,
    }
}

/// Asserts the transcript against its snapshot, with what differs from run to run replaced.
fn assert_transcript(name: impl AsRef<str>, transcript: String) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[time]");
    settings.add_filter(r"\bin \d+(\.\d+)? (s|ms)\b", "in [duration]");
    settings.add_filter(r"with \d+ threads?\b", "with [n] threads");
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name.as_ref(), transcript));
}

#[test]
fn tables() {
    for (name, args) in [
        (
            "tables_postgres",
            &[
                "tables",
                "--dialect",
                "postgres",
                "WITH a AS (SELECT * FROM users) SELECT * FROM a JOIN Sales.\"Orders\" o ON o.uid = a.id",
            ][..],
        ),
        (
            "tables_json",
            &["tables", "--json", "SELECT * FROM a UNION SELECT * FROM b"],
        ),
        (
            "tables_kql",
            &[
                "tables",
                "--language",
                "kql",
                "MyTable | join (OtherTable) on id | take 5",
            ],
        ),
        (
            "tables_broken_query",
            &["tables", "SELECT *\nFROM users\nWHERE id = 1)"],
        ),
        (
            "tables_unknown_dialect",
            &["tables", "--dialect", "oracle9", "SELECT 1"],
        ),
    ] {
        assert_transcript(name, transcript(args, None));
    }
}

#[test]
fn score_the_example_pairs() {
    assert_transcript(
        "score_examples",
        transcript(&["score", "--pairs", "static/examples/pairs.jsonl"], None),
    );
}

#[test]
fn score_names_each_rejected_line_and_scores_the_rest() {
    assert_transcript(
        "score_rejected_lines",
        transcript(
            &["score", "--pairs", "crates/cli/tests/fixtures/pairs.jsonl"],
            None,
        ),
    );
    assert_transcript(
        "score_missing_file",
        transcript(&["score", "--pairs", "no/such/pairs.jsonl"], None),
    );
}

#[test]
fn score_with_profiles_and_classification_fields() {
    assert_transcript(
        "score_kql_batch",
        transcript(
            &[
                "score",
                "--profile",
                "kql-batch",
                "--pairs",
                "crates/cli/tests/fixtures/kql_batch.jsonl",
            ],
            None,
        ),
    );
    // The suite's tallies, by hand: c1 blocked and should be (a true positive), c2 let through
    // (a false negative, critical), c3 blocked but safe (a false positive); line 6 is refused.
    assert_transcript(
        "score_classification",
        transcript(
            &[
                "score",
                "--no-equivalence",
                "--pairs",
                "crates/cli/tests/fixtures/classification.jsonl",
            ],
            None,
        ),
    );
}

#[test]
fn compare_the_example_result_files() {
    for mode in ["bag", "set", "soft-f1"] {
        assert_transcript(
            format!("compare_{mode}"),
            transcript(
                &[
                    "compare",
                    "crates/cli/tests/fixtures/expected_result.json",
                    "crates/cli/tests/fixtures/generated_result.json",
                    "--mode",
                    mode,
                ],
                None,
            ),
        );
    }
}

#[test]
fn safety_passes_reads_and_names_writes() {
    // A write named in a string is still a read; a write inside a CTE is still a write.
    assert_transcript(
        "safety_read",
        transcript(
            &["safety", "SELECT * FROM users WHERE note = 'DROP TABLE x'"],
            None,
        ),
    );
    assert_transcript(
        "safety_write",
        transcript(
            &[
                "safety",
                "--dialect",
                "postgres",
                "WITH d AS (DELETE FROM users RETURNING *) SELECT * FROM d",
            ],
            None,
        ),
    );
}

#[test]
fn score_refuses_a_profile_file_it_cannot_use() {
    let scratch = Scratch::new("profile");
    for (name, profile) in [
        (
            "profile_without_threshold",
            r#"{"weights": {"table_accuracy": 1}}"#,
        ),
        // A misspelt metric is refused with the names qeval knows and where it is, not weighed
        // as a metric that never scores.
        (
            "profile_misspelt_metric",
            r#"{"weights": {"table_acuracy": 1}, "threshold": 0.9}"#,
        ),
    ] {
        std::fs::write(scratch.0.join("profile.json"), profile).expect("written");
        assert_transcript(
            name,
            transcript(
                &[
                    "score",
                    "--pairs",
                    "crates/cli/tests/fixtures/crlf_bom.jsonl",
                    "--profile-file",
                    &scratch.arg("profile.json"),
                ],
                Some(&scratch.0),
            ),
        );
    }
}

#[test]
fn run_report_and_compare_runs_on_the_example_run() {
    let scratch = Scratch::new("run");
    let run = copy_example_run(&scratch.0);
    assert_transcript(
        "run_example",
        transcript(
            &["run", &run, "--output", &scratch.arg("records.jsonl")],
            Some(&scratch.0),
        ),
    );
    assert_transcript(
        "report_example",
        transcript(
            &["report", &run, "--output", &scratch.arg("report.html")],
            Some(&scratch.0),
        ),
    );
    assert_transcript(
        "compare_runs_example",
        transcript(
            &[
                "compare-runs",
                "static/example-run/run-2026-11-19T16-00-00",
                "static/example-run/run-2026-11-20T14-30-00",
            ],
            None,
        ),
    );
}

#[test]
fn bench_on_the_spider_fixture() {
    let spider = BenchFolder::new("spider", "outputs-spider");
    assert_transcript(
        "bench_spider",
        transcript(
            &[
                "bench",
                "spider",
                "--gold",
                &spider.arg("gold.txt"),
                "--pred",
                &spider.arg("pred.txt"),
                "--db",
                &spider.arg("database"),
                "-o",
                &spider.arg("records.jsonl"),
            ],
            Some(&spider.0),
        ),
    );
}
