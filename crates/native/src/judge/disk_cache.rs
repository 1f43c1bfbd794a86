//! Verdicts on disk, one file per cache key, kept for a time-to-live. Errors are never stored.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use qeval_core::JudgedVerdict;
use serde_json::{Value, json};

pub struct DiskCache {
    dir: PathBuf,
    ttl: Duration,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl DiskCache {
    pub fn new(dir: PathBuf, ttl: Duration) -> DiskCache {
        DiskCache { dir, ttl }
    }

    /// `<dir>/ab/abcdef...json`: two levels, so no folder grows too large.
    fn path(&self, key: &str) -> PathBuf {
        self.dir
            .join(&key[..2.min(key.len())])
            .join(format!("{key}.json"))
    }

    /// The stored verdict, if there is one younger than the TTL. An unreadable entry is a miss.
    pub fn get(&self, key: &str) -> Option<JudgedVerdict> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let entry: Value = serde_json::from_str(&text).ok()?;
        let stored = entry["stored_at"].as_u64()?;
        if now().saturating_sub(stored) > self.ttl.as_secs() {
            return None;
        }
        serde_json::from_value(entry["verdict"].clone()).ok()
    }

    /// Stores a verdict; a failure to write only costs a future call, so it is not an error.
    pub fn put(&self, key: &str, verdict: &JudgedVerdict) {
        let path = self.path(key);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let entry = json!({ "stored_at": now(), "verdict": verdict });
        // Write then rename, so a reader never sees half an entry.
        let partial = path.with_extension(format!("{}.part", std::process::id()));
        if std::fs::write(&partial, entry.to_string()).is_ok() {
            let _ = std::fs::rename(&partial, &path);
        }
    }
}
