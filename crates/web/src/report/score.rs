//! Scoring raw results in the browser, test by test, with the judge the user configured:
//! the same steps as `qeval run`, so the records come out the same.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use qeval_core::profiles::{Profile, ProfileName};
use qeval_core::run::record::test_key;
use qeval_core::run::{EvaluationRecord, evaluate_test, pair_of_test};
use qeval_core::{ScoreOptions, judge_tasks, score_pair_judged};

use super::RawRun;
use qeval_worker::protocol::{Answer, Fill, Task};

use crate::db_worker::{DbWorker, Kind, Reply};
use crate::execution::LoadedDb;
use crate::judge::{JudgeSettings, VerdictCache, judge_all};

/// Tests scored between two pauses when no judge is called (a judge call pauses anyway).
const BATCH: usize = 25;

/// Scores every test; `progress(done, total)` after each; stops (returning `None`) when `cancel`
/// is set.
pub async fn score_run(
    raw: &RawRun,
    profile: ProfileName,
    settings: &JudgeSettings,
    db: &LoadedDb,
    worker: &DbWorker,
    cancel: Rc<Cell<bool>>,
    progress: impl Fn(usize, usize),
) -> Option<Vec<EvaluationRecord>> {
    let profile = Profile::preset(profile);
    let options = ScoreOptions {
        profile: profile.clone(),
        evaluated_at: Some(String::from(js_sys::Date::new_0().to_iso_string())),
        ..ScoreOptions::default()
    };
    let cache = VerdictCache::shared();
    let total = raw.tests.len();
    let mut records = Vec::with_capacity(total);
    for (index, test) in raw.tests.iter().enumerate() {
        if cancel.get() {
            return None;
        }
        let question = raw.questions.get(&test_key(&test.test_id));
        let mut pair = pair_of_test(test, question);
        if db.is_loaded() {
            fill(&mut pair, worker).await;
        }
        let judged = if settings.enabled && settings.problem().is_none() {
            judge_all(judge_tasks(&pair, &options), settings, &cache)
                .await
                .outcomes
        } else {
            BTreeMap::new()
        };
        let card = score_pair_judged(&pair, &options, &judged);
        records.push(evaluate_test(test, question, &pair, &card, &profile));
        if index % BATCH == BATCH - 1 {
            progress(index + 1, total);
            TimeoutFuture::new(0).await;
        }
    }
    progress(total, total);
    Some(records)
}

/// Runs the queries of a test that lacks results on the loaded database (in the worker), as
/// `qeval run --db` does.
async fn fill(pair: &mut qeval_core::PairInput, worker: &DbWorker) {
    let fill = Fill {
        expected_sql: pair
            .expected_result
            .is_none()
            .then(|| pair.expected_sql.clone())
            .flatten(),
        generated_sql: (pair.generated_result.is_none()
            && pair.generated_error.is_none()
            && !pair.generated_sql.trim().is_empty())
        .then(|| pair.generated_sql.clone()),
        time_limit_s: 10.0,
    };
    if fill.expected_sql.is_none() && fill.generated_sql.is_none() {
        return;
    }
    if let Reply::Answer(Answer::Filled(filled)) = worker.ask(Kind::Fill, Task::Fill(fill)).await {
        pair.expected_result = pair.expected_result.take().or(filled.expected_result);
        pair.generated_result = pair.generated_result.take().or(filled.generated_result);
        pair.generated_error = pair.generated_error.take().or(filled.generated_error);
    }
}

/// The records as `evaluation-results.jsonl` text, one per line, as `qeval run` writes them.
pub fn jsonl(records: &[EvaluationRecord]) -> String {
    let mut text = String::new();
    for record in records {
        if let Ok(line) = serde_json::to_string(record) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}
