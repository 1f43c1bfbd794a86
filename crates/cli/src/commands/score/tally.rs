//! What `qeval score` counts over the whole run while it writes each batch's records: the
//! summary lines on standard error come from here.

use std::collections::BTreeMap;

use qeval_core::{ClassificationInput, JudgeOutcome, Labelled};

#[derive(Default)]
pub struct Tally {
    pub scored: usize,
    pub rejected: usize,
    pub passed: usize,
    pub failed: usize,
    pub unsafe_queries: usize,
    /// Each scored pair's classification fields and verdict, for the suite's tallies.
    pub classified: Vec<(String, ClassificationInput, Option<bool>)>,
    pub rewards: Vec<f64>,
    pub labelled: Vec<Labelled>,
    /// Langfuse scores to send: trace, name, value, comment.
    pub to_send: Vec<(String, String, f64, String)>,
    pub untraced: usize,
    pub judgings: usize,
    pub failed_judgings: usize,
}

impl Tally {
    /// Counts a batch's judgings.
    pub fn judged(&mut self, judged: &[BTreeMap<String, JudgeOutcome>]) {
        for outcomes in judged {
            self.judgings += outcomes.len();
            self.failed_judgings += outcomes.values().filter(|o| o.is_err()).count();
        }
    }

    /// A run whose every judging failed is not a result: no metric carries the LLM's verdict.
    pub fn every_judging_failed(&self) -> bool {
        self.judgings > 0 && self.failed_judgings == self.judgings
    }
}
