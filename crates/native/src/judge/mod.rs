//! LLM judges from the command line: configuration from flags and environment, the memory and
//! disk caches in front of the calls, the calls themselves, and the counts for the summary.

mod disk_cache;
mod transport;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qeval_core::score::{JudgeOutcome, JudgeTask, JudgedVerdict};
use qeval_core::words::counted;
use qeval_judge::{Conversation, JudgeConfig, Step, cache_key};

pub use disk_cache::DiskCache;

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
    pub calls: AtomicUsize,
    pub hits: AtomicUsize,
    pub errors: AtomicUsize,
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

    pub fn describe(&self) -> String {
        format!(
            "{} {} at {}",
            self.config.provider, self.config.model, self.config.base_url
        )
    }

    /// Calls made, cache hits and errors, for the end-of-run summary.
    pub fn summary(&self) -> String {
        format!(
            "judge {}: {}, {}, {}",
            self.describe(),
            counted(self.calls.load(Ordering::Relaxed), "call"),
            counted(self.hits.load(Ordering::Relaxed), "cache hit"),
            counted(self.errors.load(Ordering::Relaxed), "error")
        )
    }

    /// A verdict for `task`: from the memory cache, the disk cache, or a call (stored on
    /// success; errors are never cached).
    pub fn judge(&self, task: &JudgeTask) -> JudgeOutcome {
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
            Conversation::new(self.config.clone(), task.task, task.input.clone());
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
                    step = conversation.on_outcome(reply);
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
