//! `qeval run RUN_DIR`: scores a run folder's `test-results.jsonl` into `evaluation-results.jsonl`,
//! or checks the scores an existing `evaluation-results.jsonl` carries; prints the summary; fails
//! under a pass-rate threshold.

use crate::output::say;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use qeval_core::{
    ClassificationInput, EvaluationRecord, FileKind, Lines, NOTHING_EXPECTED, Profile, RunPipeline,
    ScoreOptions, Summary, TestLine, apply_labels, export, fill_hardness, plural, read_labels,
    read_questions, read_record_bytes, read_test_results, recheck_record, summarize_by, test_key,
};
use qeval_native::run::{Drive, Stage};

use super::score::judge;
use super::{Completion, Failure, file_bytes, file_text, run_file};
use crate::RunArgs;
use crate::execute::Executor;

pub use qeval_core::EVALUATION_RESULTS;

pub fn run(args: &RunArgs) -> Result<Completion, Failure> {
    let dir = &args.run_dir;
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let (mut records, rejected) = if let Some(raw) = run_file(dir, FileKind::TestResults)? {
        score_folder(args, &raw)?
    } else if let Some(scored) = run_file(dir, FileKind::EvaluationResults)? {
        check_folder(args, &scored)?
    } else {
        return Err(format!(
            "{} has neither {} nor {}",
            dir.display(),
            FileKind::TestResults.described(),
            FileKind::EvaluationResults.described()
        ));
    };
    // Records written elsewhere (or before qeval wrote the field) get their level here, for the
    // summary and the exports; the file is not rewritten.
    fill_hardness(&mut records, args.language.dialect);
    let mut outcome = Completion::Clean;
    if let Some(path) = labels_file(args)? {
        let lines = read_labels(&file_text(&path)?);
        report_rejected(&path, &lines);
        if !lines.rejected.is_empty() {
            outcome = Completion::SomeInputRejected;
        }
        let labels: Vec<_> = lines.records.into_iter().map(|(_, l)| l).collect();
        let applied = apply_labels(&mut records, &labels);
        say!(
            "qeval: {applied} of {} label{} in {} match a test",
            labels.len(),
            plural(labels.len()),
            path.display()
        );
    }
    // Classification fields that cannot be read leave their record out of those metrics: say so.
    for record in &records {
        if let Err(err) = ClassificationInput::from_object(&record.extra) {
            say!(
                "qeval: test {}: {err}; left out of the classification metrics",
                record.key()
            );
        }
    }
    let summary = summarize_by(&records, &args.by);
    say!("{}", describe(&summary));
    write_exports(args, &summary, &records)?;
    if rejected > 0 {
        outcome = Completion::SomeInputRejected;
    }
    if let Some(threshold) = args.fail_under {
        let threshold = if threshold > 1.0 {
            threshold / 100.0
        } else {
            threshold
        };
        if summary.pass_rate < threshold {
            say!(
                "qeval: pass rate {:.1}% is under --fail-under {:.1}%",
                summary.pass_rate * 100.0,
                threshold * 100.0
            );
            outcome = Completion::SomeInputRejected;
        }
    }
    Ok(outcome)
}

/// Scores `test-results.jsonl` and writes the records. Returns them and the rejected count.
fn score_folder(args: &RunArgs, raw: &Path) -> Result<(Vec<EvaluationRecord>, usize), Failure> {
    let started = Instant::now();
    let mut tests: Lines<TestLine> = read_test_results(&file_bytes(raw)?);
    report_rejected(raw, &tests);
    if let Some(limit) = args.limit {
        tests.records.truncate(limit);
    }
    let QuestionsFile {
        path: questions_path,
        questions,
        rejected: questions_rejected,
    } = questions(args)?;
    let executor = Executor::open(&args.db)?;
    // The names queries are checked against (and the judge is shown): --schema, else the
    // database's.
    let schema = match crate::execute::schema_text(&args.db)? {
        Some(text) => Some(text),
        None => executor.as_ref().map(|e| e.schema.clone()),
    };
    let options = ScoreOptions {
        profile: Profile::preset(args.profile),
        language: args.language.language.into(),
        dialect: args.language.dialect,
        mode: args.mode,
        evaluated_at: Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string()),
        schema,
        judge_prompt: args.judge.judge_prompt,
        ..ScoreOptions::default()
    };
    let judge = judge(&args.judge)?;
    let answered: std::collections::BTreeSet<String> = tests
        .records
        .iter()
        .map(|(_, test)| test_key(&test.test_id))
        .collect();
    let database = executor.as_ref().map(Executor::database_use);
    let mut pipeline = RunPipeline::new(
        tests.records.into_iter().map(|(_, test)| test).collect(),
        questions,
        options,
        database,
    );
    let drive = Drive {
        database: executor.as_ref().map(Executor::source),
        judge: judge.as_ref().map(|judge| (judge, args.judge.concurrency)),
        workers: qeval_native::pool::cores(),
    };
    let records = with_stages(&mut pipeline, &drive);
    if let Some(executor) = &executor {
        executor.report_truncated(pipeline.truncated());
    }
    let mut text = String::new();
    for record in &records {
        let line = serde_json::to_string(record).map_err(|err| format!("internal: {err}"))?;
        let _ = writeln!(text, "{line}");
    }
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.run_dir.join(EVALUATION_RESULTS));
    qeval_native::folder::write_file(&output, text.as_bytes())?;
    say!(
        "qeval: scored {} test{} from {} in {:.2} s into {}",
        records.len(),
        plural(records.len()),
        raw.display(),
        started.elapsed().as_secs_f64(),
        output.display()
    );
    // Questions the agent never answered are not tests that passed or failed: say which (with
    // --limit, the questions past the limit are not counted as unanswered).
    let questions = pipeline.questions();
    let missing: Vec<&String> = questions
        .keys()
        .filter(|k| !answered.contains(*k))
        .collect();
    if !missing.is_empty() && args.limit.is_none() {
        let shown: Vec<&str> = missing.iter().take(10).map(|k| k.as_str()).collect();
        say!(
            "qeval: {} of {} question{} {} no result in {} and {} not scored: {}{}",
            missing.len(),
            questions.len(),
            plural(questions.len()),
            if missing.len() == 1 { "has" } else { "have" },
            raw.display(),
            if missing.len() == 1 { "is" } else { "are" },
            shown.join(", "),
            if missing.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        );
    }
    if let Some(judge) = &judge {
        say!("qeval: {}", judge.summary());
    }
    let unscored = report_nothing_expected(&records, questions_path.as_deref());
    Ok((
        records,
        tests.rejected.len() + questions_rejected + unscored,
    ))
}

/// The pipeline driven on every core, with a progress line for each stage.
fn with_stages(pipeline: &mut RunPipeline, drive: &Drive<'_>) -> Vec<EvaluationRecord> {
    let progress = std::sync::Mutex::new(None::<(Stage, crate::progress::Progress)>);
    let records = qeval_native::run::drive(pipeline, drive, &|step, done, total| {
        if let Ok(mut current) = progress.lock() {
            if current.as_ref().is_none_or(|(at, _)| *at != step) {
                if let Some((_, mut finished)) = current.take() {
                    finished.finish();
                }
                *current = Some((step, crate::progress::Progress::new(step.label())));
            }
            if let Some((_, bar)) = current.as_mut() {
                bar.tick_of(done, total);
            }
        }
    });
    if let Ok(mut current) = progress.lock()
        && let Some((_, mut finished)) = current.take()
    {
        finished.finish();
    }
    records
}

/// Reads scored records and flags every stored score their own data contradicts.
fn check_folder(args: &RunArgs, path: &Path) -> Result<(Vec<EvaluationRecord>, usize), Failure> {
    let mut lines: Lines<EvaluationRecord> = read_record_bytes(&file_bytes(path)?);
    report_rejected(path, &lines);
    if let Some(limit) = args.limit {
        lines.records.truncate(limit);
    }
    let mut flagged = 0;
    for (line, record) in &lines.records {
        let found = recheck_record(record);
        flagged += usize::from(!found.is_empty());
        for d in found {
            say!(
                "qeval: {}:{line}: test {}: {} is {} but its data gives {} ({})",
                path.display(),
                record.key(),
                d.field,
                d.stored,
                d.recomputed,
                d.reason
            );
        }
    }
    say!(
        "qeval: checked {} record{} of {}: {flagged} with scores their data contradicts",
        lines.records.len(),
        plural(lines.records.len()),
        path.display()
    );
    let rejected = lines.rejected.len() + flagged;
    Ok((
        lines.records.into_iter().map(|(_, r)| r).collect(),
        rejected,
    ))
}

fn report_rejected<T>(path: &Path, lines: &Lines<T>) {
    for rejected in &lines.rejected {
        say!(
            "qeval: {}:{}: {}",
            path.display(),
            rejected.line,
            rejected.reason
        );
    }
    if !lines.rejected.is_empty() {
        say!(
            "qeval: {} line{} read: {} record{}, {} rejected",
            lines.lines_read,
            plural(lines.lines_read),
            lines.records.len(),
            plural(lines.records.len()),
            lines.rejected.len()
        );
    }
}

/// The questions file as read: its path (`None` when there is none), the questions by test id,
/// and how many of its lines were rejected.
struct QuestionsFile {
    path: Option<PathBuf>,
    questions: BTreeMap<String, TestLine>,
    rejected: usize,
}

/// The questions file: `--questions`, else the run folder's, else its parent's. A JSON array,
/// `{"questions": [...]}`, or JSONL.
fn questions(args: &RunArgs) -> Result<QuestionsFile, Failure> {
    let path: Option<PathBuf> = match &args.questions {
        Some(path) => Some(path.clone()),
        None => run_file(&args.run_dir, FileKind::Questions)?,
    };
    let Some(path) = path else {
        return Ok(QuestionsFile {
            path: None,
            questions: BTreeMap::new(),
            rejected: 0,
        });
    };
    let lines: Lines<TestLine> = read_questions(&file_text(&path)?);
    report_rejected(&path, &lines);
    Ok(QuestionsFile {
        rejected: lines.rejected.len(),
        questions: lines
            .records
            .into_iter()
            .map(|(_, q)| (test_key(&q.test_id), q))
            .collect(),
        path: Some(path),
    })
}

/// Says which tests had nothing to compare with (see [`NOTHING_EXPECTED`]) and why; returns
/// how many.
fn report_nothing_expected(records: &[EvaluationRecord], questions: Option<&Path>) -> usize {
    let unscored = records
        .iter()
        .filter(|r| {
            r.extra
                .get("not_scored")
                .and_then(serde_json::Value::as_str)
                == Some(NOTHING_EXPECTED)
        })
        .count();
    if unscored == 0 {
        return 0;
    }
    let why = match questions {
        None => "no questions file was found (give --questions, or put questions.json or questions.jsonl in the run folder or its parent)".to_string(),
        Some(path) => format!(
            "no question in {} has {} test_id",
            path.display(),
            if unscored == 1 { "its" } else { "their" }
        ),
    };
    say!(
        "qeval: {} test{} {} nothing to compare with and {} not scored, not failed: {why}",
        unscored,
        plural(unscored),
        if unscored == 1 { "has" } else { "have" },
        if unscored == 1 { "is" } else { "are" },
    );
    unscored
}

fn describe(summary: &Summary) -> String {
    let mut text = format!(
        "qeval: {}, {} passed, {} failed{}, pass rate {:.1}%; mean final {:.3} (semantic {:.3}, execution {:.3}, datatype {:.3}); {} with errors",
        qeval_core::counted(summary.tests, "test"),
        summary.passed,
        summary.failed,
        match summary.tests - summary.scored {
            0 => String::new(),
            n => format!(", {n} not scored"),
        },
        summary.pass_rate * 100.0,
        summary.mean_final,
        summary.mean_semantic,
        summary.mean_execution,
        summary.mean_datatype,
        summary.errors
    );
    if summary.unsafe_queries > 0 {
        let _ = write!(
            text,
            "; {} UNSAFE (not read-only, failed whatever they scored)",
            summary.unsafe_queries
        );
    }
    for grouping in &summary.groupings {
        let parts: Vec<String> = grouping
            .groups
            .iter()
            .map(|(name, g)| {
                format!(
                    "{name} {}/{} ({:.1}%)",
                    g.passed,
                    g.tests,
                    g.pass_rate() * 100.0
                )
            })
            .collect();
        if !parts.is_empty() {
            let _ = write!(
                text,
                "\nqeval: passed by {}: {}",
                grouping.label(),
                parts.join(", ")
            );
        }
    }
    if let Some(e) = &summary.efficiency {
        let _ = write!(
            text,
            "\nqeval: efficiency: R-VES {:.1} by SQLite VM steps over {} test{} run on the database",
            e.r_ves,
            e.tests,
            plural(e.tests)
        );
    }
    for line in summary.classification.lines() {
        let _ = write!(text, "\nqeval: {line}");
    }
    if let Some((invalid, checked)) = summary.schema_validity {
        let _ = write!(
            text,
            "\nqeval: schema validity: {invalid} of {checked} generated quer{} name tables or columns the schema lacks",
            if checked == 1 { "y" } else { "ies" }
        );
    }
    if !summary.agreement.is_empty() {
        let _ = write!(text, "\nqeval: judges against the human labels:");
        for judge in &summary.agreement {
            let _ = write!(text, "\nqeval:   {}", judge.sentence());
        }
    }
    text
}

/// `--labels`, or the run folder's labels file when there is one.
fn labels_file(args: &RunArgs) -> Result<Option<PathBuf>, Failure> {
    match &args.labels {
        Some(path) => Ok(Some(path.clone())),
        None => run_file(&args.run_dir, FileKind::Labels),
    }
}

/// The exports asked for with `--csv`, `--junit` and `--markdown`; `-` is standard output.
fn write_exports(
    args: &RunArgs,
    summary: &Summary,
    records: &[EvaluationRecord],
) -> Result<(), Failure> {
    let name = args
        .run_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "run".into());
    let exports: [(&Option<PathBuf>, &dyn Fn() -> String); 3] = [
        (&args.csv, &|| export::csv(records)),
        (&args.junit, &|| export::junit(&name, records)),
        (&args.markdown, &|| {
            export::markdown(&name, summary, records)
        }),
    ];
    for (path, render) in exports {
        let Some(path) = path else { continue };
        let text = render();
        if path.as_os_str() == "-" {
            use std::io::Write as _;
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(crate::output::write_error)?;
        } else {
            qeval_native::folder::write_file(path, text.as_bytes())?;
            say!("qeval: wrote {}", path.display());
        }
    }
    Ok(())
}
