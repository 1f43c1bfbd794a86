//! `qeval report RUN_DIR -o report.html`: the run's report as one self-contained HTML page.

use crate::output::say;
use std::path::Path;
use std::time::SystemTime;

use qeval_core::{EvaluationRecord, FileKind, Lines, compare_runs, read_record_bytes};
use qeval_report::{Report, render};

use super::{Completion, Failure, file_bytes, run_file};

/// The scored records of `source` (a run folder's `evaluation-results.jsonl`, or the file
/// itself); lines that cannot be read are named on standard error.
pub fn read_scored(source: &Path) -> Result<Lines<EvaluationRecord>, Failure> {
    let file = if source.is_dir() {
        match run_file(source, FileKind::EvaluationResults)? {
            Some(file) => file,
            None => {
                let hint = if run_file(source, FileKind::TestResults)?.is_some() {
                    format!(" (score it first: qeval run {})", source.display())
                } else {
                    String::new()
                };
                return Err(format!(
                    "{} has no {}{hint}",
                    source.display(),
                    FileKind::EvaluationResults.described()
                ));
            }
        }
    } else if source.is_file() {
        source.to_path_buf()
    } else {
        return Err(format!("{} does not exist", source.display()));
    };
    let lines: Lines<EvaluationRecord> = read_record_bytes(&file_bytes(&file)?);
    for rejected in &lines.rejected {
        say!(
            "qeval: {}:{}: {}",
            file.display(),
            rejected.line,
            rejected.reason
        );
    }
    Ok(lines)
}

/// A run's name: its folder's (the records file's folder when given the file).
fn run_name(source: &Path) -> String {
    source
        .canonicalize()
        .ok()
        .and_then(|p| {
            let p = if p.is_file() {
                p.parent()?.to_path_buf()
            } else {
                p
            };
            p.file_name().map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| source.display().to_string())
}

pub fn run(source: &Path, output: &Path, compare: Option<&Path>) -> Result<Completion, Failure> {
    let lines = read_scored(source)?;
    let mut records: Vec<EvaluationRecord> = lines.records.into_iter().map(|(_, r)| r).collect();
    // Records written by other tools get Spider's hardness level for the page's breakdowns.
    qeval_core::fill_hardness(&mut records, qeval_core::SqlDialect::Generic);
    // Human labels beside the run, as `qeval run` and the page read them.
    let folder = if source.is_dir() {
        Some(source)
    } else {
        // A bare file name's folder is the current one.
        source.parent().map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
        })
    };
    let labels = match folder {
        Some(dir) => run_file(dir, FileKind::Labels)?,
        None => None,
    };
    if let Some(labels) = labels {
        let lines = qeval_core::read_labels(&super::file_text(&labels)?);
        let labels: Vec<_> = lines.records.into_iter().map(|(_, l)| l).collect();
        qeval_core::apply_labels(&mut records, &labels);
    }
    let other = match compare {
        Some(path) => {
            let other: Vec<EvaluationRecord> = read_scored(path)?
                .records
                .into_iter()
                .map(|(_, r)| r)
                .collect();
            Some((run_name(path), compare_runs(&other, &records)))
        }
        None => None,
    };
    let title = run_name(source);
    let generated_at = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let page = render(&Report {
        title: &title,
        records: &records,
        rejected: &lines.rejected,
        lines_read: lines.lines_read,
        generated_at: &generated_at,
        compared_with: other
            .as_ref()
            .map(|(name, comparison)| (name.as_str(), comparison)),
    });
    qeval_native::folder::write_file(output, page.as_bytes())?;
    say!(
        "qeval: wrote {} ({}, {} rejected)",
        output.display(),
        qeval_core::counted(records.len(), "record"),
        qeval_core::counted(lines.rejected.len(), "line")
    );
    Ok(if lines.rejected.is_empty() {
        Completion::Clean
    } else {
        Completion::SomeInputRejected
    })
}
