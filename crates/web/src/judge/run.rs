//! Judging a pair's tasks in the browser: cache first, then the calls, side by side up to the
//! concurrency limit, each one driven through the protocol's retry state machine.

use std::collections::BTreeMap;

use futures::StreamExt;
use gloo_timers::future::TimeoutFuture;
use qeval_core::{JudgeOutcome, JudgedVerdict, Judging};
use qeval_judge::{Conversation, Step, cache_key};

use super::cache::VerdictCache;
use super::settings::JudgeChoices;
use super::transport;

/// What judging one pair gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JudgeRun {
    pub outcomes: BTreeMap<String, JudgeOutcome>,
    /// Requests sent (retries included).
    pub calls: u32,
    /// Verdicts served from the cache.
    pub hits: u32,
    pub errors: u32,
    /// Wall time of the whole judging.
    pub millis: f64,
}

/// Judges every task, at most `settings.concurrency()` at a time.
pub async fn judge_all(
    tasks: Vec<Judging>,
    settings: &JudgeChoices,
    cache: &VerdictCache,
) -> JudgeRun {
    let started = js_sys::Date::now();
    let limit = settings.concurrency();
    let results: Vec<(String, JudgeOutcome, u32, bool)> = futures::stream::iter(tasks)
        .map(|task| async move {
            let (outcome, calls, hit) = judge_one(&task, settings, cache).await;
            (task.metric, outcome, calls, hit)
        })
        .buffer_unordered(limit)
        .collect()
        .await;
    let mut run = JudgeRun::default();
    for (metric, outcome, calls, hit) in results {
        run.calls += calls;
        run.hits += u32::from(hit);
        run.errors += u32::from(outcome.is_err());
        run.outcomes.insert(metric.to_string(), outcome);
    }
    run.millis = js_sys::Date::now() - started;
    run
}

/// The verdicts of every task from the cache alone, with no request: `None` when any is
/// missing. A page opened from a link or reloaded shows what it already knows and calls nothing
/// until the user acts.
pub async fn judge_from_cache(
    tasks: &[Judging],
    settings: &JudgeChoices,
    cache: &VerdictCache,
) -> Option<JudgeRun> {
    let started = js_sys::Date::now();
    let config = settings.config();
    let mut run = JudgeRun::default();
    for task in tasks {
        let key = cache_key(&config, task.task, &task.input);
        let verdict = cache.get(&key, settings.ttl_ms()).await?;
        run.hits += 1;
        run.outcomes.insert(task.metric.to_string(), Ok(verdict));
    }
    run.millis = js_sys::Date::now() - started;
    Some(run)
}

/// One task: its verdict from the cache, or from calls. Returns the outcome, the requests sent,
/// and whether the cache answered.
pub async fn judge_one(
    task: &Judging,
    settings: &JudgeChoices,
    cache: &VerdictCache,
) -> (JudgeOutcome, u32, bool) {
    let config = settings.config();
    let key = cache_key(&config, task.task, &task.input);
    if let Some(verdict) = cache.get(&key, settings.ttl_ms()).await {
        return (Ok(verdict), 0, true);
    }
    let (outcome, calls) = ask(task, settings).await;
    if let Ok(judged) = &outcome {
        cache.put(&key, judged).await;
    }
    (outcome, calls, false)
}

/// Asks the judge, past every cache: the outcome and the requests it took.
pub async fn ask(task: &Judging, settings: &JudgeChoices) -> (JudgeOutcome, u32) {
    let config = settings.config();
    let mut conversation = Conversation::new(config.clone(), task.task, task.input.clone());
    let mut step = conversation.start();
    let outcome = loop {
        match step {
            Step::Send { request, wait_ms } => {
                if wait_ms > 0 {
                    TimeoutFuture::new(u32::try_from(wait_ms).unwrap_or(u32::MAX)).await;
                }
                let reply = transport::send(
                    &config,
                    settings.preset,
                    &request,
                    settings.key(),
                    settings.timeout_ms(),
                )
                .await;
                step = conversation.on_received(reply);
            }
            Step::Done(verdict) => {
                break Ok(JudgedVerdict {
                    verdict,
                    provider: config.provider.to_string(),
                    model: config.model.clone(),
                    cached: false,
                });
            }
            Step::Failed(error) => break Err(error),
        }
    };
    (outcome, conversation.calls)
}
