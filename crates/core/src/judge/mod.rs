//! The structural judge: a deterministic, explainable semantic score from two syntax trees, the
//! default wherever a semantic score is asked for and no LLM judge is configured.
//!
//! It compares what the queries do (tables, output columns, filters, grouping, aggregates,
//! ordering, limits) after removing differences that do not change the meaning: aliases,
//! inner-join order, commuted `=`, `true`/`1`, `IN` list order, `BETWEEN`, `COUNT(1)`/`COUNT(*)`
//! and, for KQL, timespan units. It gives a continuous similarity and the three-level verdict of
//! the query correctness metric (1.0 equivalent, 0.5 partially correct, 0.0 incorrect).

mod components;
pub(crate) mod kql;
pub(crate) mod sql;

use serde::Serialize;

pub(crate) use components::{Component, Components, FILTERS, GROUPING, ORDERING, OUTPUT, TABLES};

/// The judge's verdict on a pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement {
    /// Similarity in 0..=1: the weighted agreement of the components.
    pub similarity: f64,
    /// The query correctness levels: 1.0, 0.5 or 0.0.
    pub verdict: f64,
    /// One sentence for the verdict.
    pub reasoning: String,
    /// Each difference found, most important first.
    pub differences: Vec<String>,
    pub components: Vec<Component>,
}

impl Judgement {
    /// The exact-match shortcut: identical queries need no judging.
    pub fn identical() -> Judgement {
        Judgement {
            similarity: 1.0,
            verdict: 1.0,
            reasoning: "Queries are identical".to_string(),
            differences: Vec::new(),
            components: Vec::new(),
        }
    }
}
