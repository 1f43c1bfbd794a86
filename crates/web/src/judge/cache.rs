//! Verdicts kept in the browser: a memory layer in front of IndexedDB, so the same question to
//! the same judge is asked once per TTL, across reloads. Entries carry the schema version and the
//! time they were stored; an entry of another schema or past the TTL is a miss (and is deleted).
//! Errors are never stored.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use qeval_core::JudgedVerdict;
use qeval_judge::SCHEMA_VERSION;
use rexie::{ObjectStore, Rexie, TransactionMode};
use wasm_bindgen::JsValue;

const DATABASE: &str = "qeval-judge";
const STORE: &str = "verdicts";

/// What the cache did in this page, and what it holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u32,
    pub misses: u32,
    /// Entries in IndexedDB, when known.
    pub stored: Option<u32>,
}

#[derive(Default)]
struct CacheInner {
    memory: HashMap<String, (f64, JudgedVerdict)>,
    database: Option<Rc<Rexie>>,
    /// Why IndexedDB cannot be used, if it cannot (then only the memory layer works).
    problem: Option<String>,
    stats: CacheStats,
}

/// The page's verdict cache. Clones share it.
#[derive(Clone, Default)]
pub struct VerdictCache {
    inner: Rc<RefCell<CacheInner>>,
}

impl PartialEq for VerdictCache {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

thread_local! {
    static SHARED: VerdictCache = VerdictCache::default();
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl VerdictCache {
    /// The one cache of this page.
    pub fn shared() -> VerdictCache {
        SHARED.with(VerdictCache::clone)
    }

    pub fn stats(&self) -> CacheStats {
        self.inner.borrow().stats
    }

    pub fn problem(&self) -> Option<String> {
        self.inner.borrow().problem.clone()
    }

    async fn database(&self) -> Option<Rc<Rexie>> {
        if let Some(db) = self.inner.borrow().database.clone() {
            return Some(db);
        }
        if self.inner.borrow().problem.is_some() {
            return None;
        }
        let opened = Rexie::builder(DATABASE)
            .version(SCHEMA_VERSION)
            .add_object_store(ObjectStore::new(STORE).key_path("key"))
            .build()
            .await;
        let mut inner = self.inner.borrow_mut();
        match opened {
            Ok(db) => {
                let db = Rc::new(db);
                inner.database = Some(db.clone());
                Some(db)
            }
            Err(err) => {
                inner.problem = Some(format!(
                    "IndexedDB is not available ({err}); verdicts are kept for this page only"
                ));
                None
            }
        }
    }

    /// A verdict stored less than `ttl_ms` ago, marked as cached; counts a hit or a miss.
    pub async fn get(&self, key: &str, ttl_ms: f64) -> Option<JudgedVerdict> {
        let found = match self.in_memory(key, ttl_ms) {
            Some(found) => Some(found),
            None => self.in_database(key, ttl_ms).await,
        };
        let mut inner = self.inner.borrow_mut();
        match found {
            Some(mut verdict) => {
                inner.stats.hits += 1;
                verdict.cached = true;
                Some(verdict)
            }
            None => {
                inner.stats.misses += 1;
                None
            }
        }
    }

    fn in_memory(&self, key: &str, ttl_ms: f64) -> Option<JudgedVerdict> {
        let inner = self.inner.borrow();
        let (stored_at, verdict) = inner.memory.get(key)?;
        (now_ms() - stored_at < ttl_ms).then(|| verdict.clone())
    }

    async fn in_database(&self, key: &str, ttl_ms: f64) -> Option<JudgedVerdict> {
        let db = self.database().await?;
        let tx = db.transaction(&[STORE], TransactionMode::ReadOnly).ok()?;
        let value = tx
            .store(STORE)
            .ok()?
            .get(JsValue::from_str(key))
            .await
            .ok()??;
        let entry: Entry =
            serde_json::from_str(&js_sys::JSON::stringify(&value).ok()?.as_string()?).ok()?;
        if entry.schema != SCHEMA_VERSION || now_ms() - entry.stored_at >= ttl_ms {
            self.delete(key).await;
            return None;
        }
        let verdict: JudgedVerdict = serde_json::from_str(&entry.verdict).ok()?;
        self.inner
            .borrow_mut()
            .memory
            .insert(key.to_string(), (entry.stored_at, verdict.clone()));
        Some(verdict)
    }

    async fn delete(&self, key: &str) {
        let Some(db) = self.database().await else {
            return;
        };
        if let Ok(tx) = db.transaction(&[STORE], TransactionMode::ReadWrite)
            && let Ok(store) = tx.store(STORE)
        {
            let _ = store.delete(JsValue::from_str(key)).await;
            let _ = tx.done().await;
        }
    }

    /// Stores a verdict (never an error) in memory and in IndexedDB.
    pub async fn put(&self, key: &str, verdict: &JudgedVerdict) {
        let stored_at = now_ms();
        self.inner
            .borrow_mut()
            .memory
            .insert(key.to_string(), (stored_at, verdict.clone()));
        let Some(db) = self.database().await else {
            return;
        };
        let entry = Entry {
            key: key.to_string(),
            schema: SCHEMA_VERSION,
            stored_at,
            verdict: serde_json::to_string(verdict).unwrap_or_default(),
        };
        let Ok(value) = serde_json::to_string(&entry).map(|text| js_sys::JSON::parse(&text)) else {
            return;
        };
        if let (Ok(value), Ok(tx)) = (value, db.transaction(&[STORE], TransactionMode::ReadWrite))
            && let Ok(store) = tx.store(STORE)
        {
            let _ = store.put(&value, None).await;
            let _ = tx.done().await;
        }
        self.count().await;
    }

    /// Counts the stored entries (kept in the stats).
    pub async fn count(&self) -> Option<u32> {
        let db = self.database().await?;
        let tx = db.transaction(&[STORE], TransactionMode::ReadOnly).ok()?;
        let count = tx.store(STORE).ok()?.count(None).await.ok();
        self.inner.borrow_mut().stats.stored = count;
        count
    }

    /// Forgets every verdict, in memory and in IndexedDB.
    pub async fn clear(&self) -> Result<(), String> {
        self.inner.borrow_mut().memory.clear();
        let Some(db) = self.database().await else {
            return Ok(());
        };
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(|e| e.to_string())?;
        tx.store(STORE)
            .map_err(|e| e.to_string())?
            .clear()
            .await
            .map_err(|e| e.to_string())?;
        tx.done().await.map_err(|e| e.to_string())?;
        self.count().await;
        Ok(())
    }
}

/// One stored verdict. The verdict is kept as JSON text so its shape is ours, not IndexedDB's.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    key: String,
    schema: u32,
    stored_at: f64,
    verdict: String,
}
