//! `qeval.run(run_dir)`: a run folder as `qeval run` scores it. Its `test-results.jsonl` is
//! scored into `evaluation-results.jsonl` (each test's results filled from a SQLite database
//! first when one is given), or, when the folder holds only scored records, each record's
//! stored scores are checked against its own data. The command's progress messages become the
//! returned report's fields.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use qeval_core::{
    ClassificationInput, DatabaseUse, EVALUATION_RESULTS, EvaluationRecord, FileKind, Lines,
    QuerySettings, RunPipeline, ScoreOptions, SuiteSettings, TestLine, apply_labels, export,
    fill_hardness, read_labels, read_questions, read_record_bytes, read_test_results,
    recheck_record, summarize_by, test_key,
};
use qeval_native::jobs::DatabaseSource;
use qeval_native::run::Drive;
use qeval_sqlite::{Database, Limits};
use serde_json::{Value, json};
use std::sync::Arc;

use crate::input_error;
use crate::judge::Ready;

fn read(path: &Path) -> PyResult<Vec<u8>> {
    std::fs::read(path).map_err(|err| input_error(format!("cannot read {}: {err}", path.display())))
}

/// The file of `kind` for the run folder, by the rules `qeval run` uses.
fn run_file(run_dir: &Path, kind: FileKind) -> PyResult<Option<PathBuf>> {
    qeval_native::folder::run_file(run_dir, kind).map_err(input_error)
}

fn rejected_of<T>(path: &Path, lines: &Lines<T>) -> Vec<Value> {
    lines
        .rejected
        .iter()
        .map(|rejected| json!({"file": path.display().to_string(), "line": rejected.line, "reason": rejected.reason}))
        .collect()
}

/// The questions file: `questions`, else one of the usual names in the run folder or its parent.
fn questions(
    run_dir: &Path,
    given: Option<PathBuf>,
    rejected: &mut Vec<Value>,
) -> PyResult<BTreeMap<String, TestLine>> {
    let path = match given {
        Some(path) => Some(path),
        None => run_file(run_dir, FileKind::Questions)?,
    };
    let Some(path) = path else {
        return Ok(BTreeMap::new());
    };
    let text = String::from_utf8_lossy(&read(&path)?).into_owned();
    let lines: Lines<TestLine> = read_questions(&text);
    rejected.extend(rejected_of(&path, &lines));
    Ok(lines
        .records
        .into_iter()
        .map(|(_, question)| (test_key(&question.test_id), question))
        .collect())
}

/// What `qeval.run` is asked besides the run folder, as `qeval run`'s options of the same names:
/// the questions and labels files (else found beside the run), where the records go (else the run
/// folder), a SQLite database and its limits, how many tests to take, the fields to group pass
/// rates by, and the exports to write.
pub struct RunRequest {
    pub questions: Option<PathBuf>,
    pub labels: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub db: Option<PathBuf>,
    pub limit: Option<usize>,
    pub by: Vec<String>,
    pub csv: Option<PathBuf>,
    pub junit: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
    /// How long a query on `db` may run and how many rows of its result are kept.
    pub limits: Limits,
}

/// What the run gave, as JSON text: `summary` (as the report shows it), `output` (the records'
/// file, when scored), `rejected` (lines that could not be read, with file and reason),
/// `contradicted` (records whose stored scores their data contradicts, when checked),
/// `unanswered` (questions with no test result), `judge` (its calls, when one was asked),
/// `labels` (the labels file, its labels and how many matched a test, when there is one),
/// `unclassified` (tests left out of the classification metrics, and why) and `exports` (the
/// files written).
pub fn run(
    run_dir: &Path,
    options: &ScoreOptions,
    request: RunRequest,
    suite: Option<SuiteSettings>,
    judge: Option<&Ready>,
) -> PyResult<String> {
    let RunRequest {
        questions: questions_file,
        output,
        db,
        ..
    } = &request;
    let (questions_file, output) = (questions_file.clone(), output.clone());
    if suite.is_some() && db.is_none() {
        return Err(input_error(
            "suite checks each test on databases generated from db's schema: give db too",
        ));
    }
    if !run_dir.is_dir() {
        return Err(input_error(format!(
            "{} is not a folder",
            run_dir.display()
        )));
    }
    let mut report = json!({});
    let mut rejected = Vec::new();
    let mut records: Vec<EvaluationRecord> = if let Some(raw) =
        run_file(run_dir, FileKind::TestResults)?
    {
        let mut tests: Lines<TestLine> = read_test_results(&read(&raw)?);
        rejected.extend(rejected_of(&raw, &tests));
        if let Some(limit) = request.limit {
            tests.records.truncate(limit);
        }
        let questions = questions(run_dir, questions_file, &mut rejected)?;
        let mut options = options.clone();
        let bytes = match db {
            Some(path) => {
                let bytes = Database::read_file(path).map_err(input_error)?;
                // As `qeval run --db`: the database's names check each generated query.
                let database = Database::open_bytes(&bytes)
                    .map_err(|err| input_error(format!("{}: {err}", path.display())))?;
                if options.schema.is_none() {
                    options.schema = Some(qeval_sqlite::schema_names(database.tables()));
                }
                Some(Arc::new(bytes))
            }
            None => None,
        };
        let database = bytes.as_ref().map(|_| DatabaseUse {
            settings: QuerySettings {
                time_limit_ms: request.limits.time_ms,
                max_rows: request.limits.max_rows,
                ..QuerySettings::default()
            },
            suite,
        });
        let answered: std::collections::BTreeSet<String> = tests
            .records
            .iter()
            .map(|(_, test)| test_key(&test.test_id))
            .collect();
        // As `qeval run`: the same pipeline, on every core.
        let mut pipeline = RunPipeline::new(
            tests.records.into_iter().map(|(_, test)| test).collect(),
            questions,
            options.clone(),
            database,
        );
        let drive = Drive {
            database: bytes.map(DatabaseSource::Bytes),
            judge: judge.map(Ready::parts),
            workers: qeval_native::pool::cores(),
        };
        let records = qeval_native::run::drive(&mut pipeline, &drive, &|_, _, _| {});
        if let Some(judge) = judge {
            report["judge"] = judge.report();
        }
        let mut text = String::new();
        for record in &records {
            text.push_str(
                &serde_json::to_string(record).map_err(|err| input_error(err.to_string()))?,
            );
            text.push('\n');
        }
        let output = output.unwrap_or_else(|| run_dir.join(EVALUATION_RESULTS));
        qeval_native::folder::write_file(&output, text.as_bytes()).map_err(input_error)?;
        report["output"] = output.display().to_string().into();
        // With a limit, the questions past it are not counted as unanswered, as `qeval run` does.
        if request.limit.is_none() {
            report["unanswered"] = pipeline
                .questions()
                .keys()
                .filter(|key| !answered.contains(*key))
                .cloned()
                .collect::<Vec<_>>()
                .into();
        }
        records
    } else if let Some(scored) = run_file(run_dir, FileKind::EvaluationResults)? {
        let mut lines: Lines<EvaluationRecord> = read_record_bytes(&read(&scored)?);
        rejected.extend(rejected_of(&scored, &lines));
        if let Some(limit) = request.limit {
            lines.records.truncate(limit);
        }
        let contradicted: Vec<Value> = lines
            .records
            .iter()
            .flat_map(|(line, record)| {
                recheck_record(record).into_iter().map(move |found| {
                    json!({"line": line, "test": record.key(), "field": found.field, "stored": found.stored, "recomputed": found.recomputed, "reason": found.reason})
                })
            })
            .collect();
        report["contradicted"] = contradicted.into();
        lines
            .records
            .into_iter()
            .map(|(_, record)| record)
            .collect()
    } else {
        return Err(input_error(format!(
            "{} has neither {} nor {}",
            run_dir.display(),
            FileKind::TestResults.described(),
            FileKind::EvaluationResults.described()
        )));
    };
    // As `qeval run`: records written without a level get one, the labels file's human labels
    // are applied, and the summary is taken by the fields asked for.
    fill_hardness(&mut records, options.dialect);
    let labels = match &request.labels {
        Some(path) => Some(path.clone()),
        None => run_file(run_dir, FileKind::Labels)?,
    };
    if let Some(path) = labels {
        let lines = read_labels(&String::from_utf8_lossy(&read(&path)?));
        rejected.extend(rejected_of(&path, &lines));
        let labels: Vec<_> = lines.records.into_iter().map(|(_, label)| label).collect();
        let applied = apply_labels(&mut records, &labels);
        report["labels"] =
            json!({"file": path.display().to_string(), "labels": labels.len(), "applied": applied});
    }
    report["unclassified"] = records
        .iter()
        .filter_map(|record| {
            let err = ClassificationInput::from_object(&record.extra).err()?;
            Some(json!({"test": record.key(), "field": err.field, "reason": err.message}))
        })
        .collect::<Vec<_>>()
        .into();
    let summary = summarize_by(&records, &request.by);
    let name = run_dir.file_name().map_or_else(
        || "run".to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    let exports: [(&Option<PathBuf>, &dyn Fn() -> String); 3] = [
        (&request.csv, &|| export::csv(&records)),
        (&request.junit, &|| export::junit(&name, &records)),
        (&request.markdown, &|| {
            export::markdown(&name, &summary, &records)
        }),
    ];
    let mut written = Vec::new();
    for (path, render) in exports {
        if let Some(path) = path {
            qeval_native::folder::write_file(path, render().as_bytes()).map_err(input_error)?;
            written.push(path.display().to_string());
        }
    }
    report["exports"] = written.into();
    report["summary"] = serde_json::to_value(summary).unwrap_or_default();
    report["rejected"] = rejected.into();
    Ok(report.to_string())
}
