//! `qeval compare-runs BEFORE AFTER`: two scored runs of the same tests, matched by test id:
//! both pass rates, their difference with a 95% paired bootstrap interval, McNemar's exact
//! p-value, the tests that flipped each way and the tests only one run has.

use std::fmt::Write as _;
use std::path::Path;

use qeval_core::{EvaluationRecord, RunComparison, compare_runs};

use super::report::read_scored;
use super::{Completion, Failure};

pub fn run(before: &Path, after: &Path, json: bool) -> Result<Completion, Failure> {
    let records = |source: &Path| -> Result<(Vec<EvaluationRecord>, usize), Failure> {
        let lines = read_scored(source)?;
        let rejected = lines.rejected.len();
        Ok((
            lines.records.into_iter().map(|(_, r)| r).collect(),
            rejected,
        ))
    };
    let ((before_records, before_rejected), (after_records, after_rejected)) =
        (records(before)?, records(after)?);
    let comparison = compare_runs(&before_records, &after_records);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&comparison).map_err(|err| err.to_string())?
        );
    } else {
        print!("{}", describe(&comparison, before, after));
    }
    Ok(if before_rejected + after_rejected == 0 {
        Completion::Clean
    } else {
        Completion::SomeInputRejected
    })
}

/// The comparison as a reader wants it: the verdict first, then the tests behind it.
fn describe(comparison: &RunComparison, before: &Path, after: &Path) -> String {
    let stats = &comparison.stats;
    let mut text = format!(
        "{} scored in both runs ({} before, {} after)\n",
        qeval_core::counted(stats.tests, "test"),
        before.display(),
        after.display()
    );
    let _ = writeln!(text, "{}", stats.sentence());
    for (label, ids) in [
        ("flipped to pass", &comparison.newly_passing),
        ("flipped to fail", &comparison.newly_failing),
        ("only in the first run", &comparison.only_before),
        ("only in the second run", &comparison.only_after),
    ] {
        let _ = writeln!(text, "{label} ({}): {}", ids.len(), ids.join(", "));
    }
    text
}
