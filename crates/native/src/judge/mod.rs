//! LLM judges called over HTTP: their settings and key, the memory and disk caches in front of
//! the calls, the calls themselves, every judging a set of pairs needs run side by side, and
//! the counts for a summary.

mod disk_cache;
mod transport;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qeval_core::{
    JudgeOutcome, JudgedVerdict, Judging, PairInput, ScoreOptions, counted, judge_tasks,
};
use qeval_judge::{Conversation, JudgeConfig, Provider, Step, cache_key};

pub use disk_cache::DiskCache;

/// Which judge to call and how: what `qeval score --judge ...` and Python's `qeval.Judge` give.
#[derive(Debug, Clone)]
pub struct JudgeSettings {
    pub provider: Provider,
    pub model: String,
    /// The base URL, when not the provider's public API.
    pub url: Option<String>,
    /// The environment variable holding the key, when not the provider's usual ones.
    pub key_env: Option<String>,
    /// The header that carries the key, when not the provider's usual one.
    pub key_header: Option<String>,
    /// A query string for every call.
    pub query: Option<String>,
    /// How long to wait for a verdict.
    pub timeout: Duration,
    /// The on-disk cache: its folder and how long a verdict is reused; `None` for none.
    pub cache: Option<(PathBuf, Duration)>,
}

impl JudgeSettings {
    /// The environment variables the key is read from, in order.
    pub fn key_variables(&self) -> Vec<String> {
        match &self.key_env {
            Some(name) => vec![name.clone()],
            None => self
                .provider
                .key_variables()
                .iter()
                .map(|name| name.to_string())
                .collect(),
        }
    }

    /// The judge, with its key from the environment. Keys are never taken any other way, so
    /// that none ends up in a script or a shell's history. No key is fine for a local server.
    pub fn judge(&self) -> Judge {
        let mut config = JudgeConfig::new(self.provider, &self.model);
        if let Some(url) = &self.url {
            config.base_url = url.trim_end_matches('/').to_string();
        }
        config.key_header = self.key_header.clone();
        config.query = self.query.clone();
        let key = self.key_variables().iter().find_map(|name| {
            std::env::var(name)
                .ok()
                .filter(|key| !key.trim().is_empty())
        });
        let disk = self
            .cache
            .as_ref()
            .map(|(dir, ttl)| DiskCache::new(dir.clone(), *ttl));
        Judge::new(config, key, self.timeout, disk)
    }
}

/// Where verdicts are cached unless told otherwise: `$XDG_CACHE_HOME/qeval/judge`, else
/// `~/.cache/qeval/judge`, else the temporary folder's.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("qeval").join("judge")
}

/// Every judging every pair needs (`None`: a pair that could not be read), run `concurrency` at
/// a time; for each pair, its outcomes by metric name. The judgings of one pair run side by
/// side, so a pair takes about as long as its slowest, not the sum. `on_done` hears how many of
/// how many judgings are done.
pub fn judge_all(
    pairs: &[Option<&PairInput>],
    options: &ScoreOptions,
    judge: &Judge,
    concurrency: usize,
    on_done: impl Fn(usize, usize) + Sync,
) -> Vec<BTreeMap<String, JudgeOutcome>> {
    let tasks: Vec<(usize, Judging)> = pairs
        .iter()
        .enumerate()
        .filter_map(|(index, pair)| pair.map(|pair| (index, pair)))
        .flat_map(|(index, pair)| {
            judge_tasks(pair, options)
                .into_iter()
                .map(move |task| (index, task))
        })
        .collect();
    let outcomes = crate::pool::run(
        &tasks,
        concurrency,
        |(_, task)| judge.judge(task),
        |done| on_done(done, tasks.len()),
    );
    let mut judged: Vec<BTreeMap<String, JudgeOutcome>> =
        pairs.iter().map(|_| BTreeMap::new()).collect();
    for ((index, task), outcome) in tasks.iter().zip(outcomes) {
        judged[*index].insert(task.metric.to_string(), outcome);
    }
    judged
}

/// What a judge did: calls made (retries count), verdicts taken from a cache, and judgings that
/// ended in an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeCounts {
    pub calls: usize,
    pub cache_hits: usize,
    pub errors: usize,
}

/// A judge ready to call.
pub struct Judge {
    config: JudgeConfig,
    key: Option<String>,
    timeout: Duration,
    agent: ureq::Agent,
    memory: Mutex<HashMap<String, JudgedVerdict>>,
    /// One lock per cache key, held while its question is asked: the same pair three times in a
    /// file waits for one call and takes its verdict from the memory cache.
    in_flight: Mutex<HashMap<String, Arc<Mutex<()>>>>,
    disk: Option<DiskCache>,
    calls: AtomicUsize,
    hits: AtomicUsize,
    errors: AtomicUsize,
}

impl Judge {
    pub fn new(
        config: JudgeConfig,
        key: Option<String>,
        timeout: Duration,
        disk: Option<DiskCache>,
    ) -> Judge {
        Judge {
            agent: transport::agent(timeout),
            config,
            key,
            timeout,
            memory: Mutex::new(HashMap::new()),
            in_flight: Mutex::new(HashMap::new()),
            disk,
            calls: AtomicUsize::new(0),
            hits: AtomicUsize::new(0),
            errors: AtomicUsize::new(0),
        }
    }

    /// Whether a key was found for the calls.
    pub fn has_key(&self) -> bool {
        self.key.is_some()
    }

    /// Where the calls go.
    pub fn base_url(&self) -> &str {
        &self.config.base_url
    }

    pub fn describe(&self) -> String {
        format!(
            "{} {} at {}",
            self.config.provider, self.config.model, self.config.base_url
        )
    }

    /// Calls made, cache hits and errors so far.
    pub fn counts(&self) -> JudgeCounts {
        JudgeCounts {
            calls: self.calls.load(Ordering::Relaxed),
            cache_hits: self.hits.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
        }
    }

    /// Calls made, cache hits and errors, for the end-of-run summary.
    pub fn summary(&self) -> String {
        let counts = self.counts();
        format!(
            "judge {}: {}, {}, {}",
            self.describe(),
            counted(counts.calls, "call"),
            counted(counts.cache_hits, "cache hit"),
            counted(counts.errors, "error")
        )
    }

    /// A verdict for `task`: from the memory cache, the disk cache, or a call (stored on
    /// success; errors are never cached).
    pub fn judge(&self, task: &Judging) -> JudgeOutcome {
        let key = cache_key(&self.config, task.task, &task.input);
        let slot = self
            .in_flight
            .lock()
            .map(|mut map| map.entry(key.clone()).or_default().clone())
            .unwrap_or_default();
        let _asking = slot.lock();
        let remembered = self.memory.lock().ok().and_then(|m| m.get(&key).cloned());
        if let Some(mut verdict) =
            remembered.or_else(|| self.disk.as_ref().and_then(|d| d.get(&key)))
        {
            self.hits.fetch_add(1, Ordering::Relaxed);
            verdict.cached = true;
            return Ok(verdict);
        }
        let mut conversation =
            Conversation::new(self.config.clone(), task.task, task.input.clone())
                .with_max_wait(u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX));
        let mut step = conversation.start();
        loop {
            match step {
                Step::Send { request, wait_ms } => {
                    std::thread::sleep(Duration::from_millis(wait_ms));
                    self.calls.fetch_add(1, Ordering::Relaxed);
                    let reply = transport::send(
                        &self.agent,
                        &self.config,
                        &request,
                        self.key.as_deref(),
                        self.timeout,
                    );
                    step = conversation.on_received(reply);
                }
                Step::Done(verdict) => {
                    let judged = JudgedVerdict {
                        verdict,
                        provider: self.config.provider.to_string(),
                        model: self.config.model.clone(),
                        cached: false,
                    };
                    if let Ok(mut memory) = self.memory.lock() {
                        memory.insert(key.clone(), judged.clone());
                    }
                    if let Some(disk) = &self.disk {
                        disk.put(&key, &judged);
                    }
                    break Ok(judged);
                }
                Step::Failed(error) => {
                    self.errors.fetch_add(1, Ordering::Relaxed);
                    break Err(error);
                }
            }
        }
    }
}
