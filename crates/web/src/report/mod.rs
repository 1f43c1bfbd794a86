//! Runs in the browser: loading a run folder (dropped, picked or linked), scoring raw results,
//! and what the report shows. The numbers come from qeval-core's `run` module, the same code the
//! CLI uses.

pub mod components;
pub mod hooks;
pub mod load;
pub mod score;
pub mod state;

use std::collections::BTreeMap;
use std::rc::Rc;

use qeval_core::{EvaluationRecord, Rejected, TestLine};

/// Shared data compared by identity, not content: a 100,000-record run must not be compared
/// field by field on every render.
#[derive(Debug, Default)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A run as loaded: its records (scored, or not yet), and what could not be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LoadedRun {
    /// The folder's or file's name.
    pub name: String,
    pub records: Shared<Vec<EvaluationRecord>>,
    /// Raw results still to score (when the folder had `test-results.jsonl` and no scored
    /// records).
    pub raw: Option<Shared<RawRun>>,
    pub rejected: Vec<(String, Rejected)>,
    pub lines_read: usize,
    /// The files read, for the notice under the loader.
    pub files: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawRun {
    pub tests: Vec<TestLine>,
    pub questions: BTreeMap<String, TestLine>,
}
