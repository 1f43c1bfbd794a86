//! `qeval.Judge`: an LLM judge for `score_pairs` and `run`, as `qeval score --judge ...` sets
//! one up. The wrapper hands its fields over as a dict; the calls, caches and key lookup are the
//! command line's own (`qeval_native::judge`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use pyo3::prelude::*;
use qeval_core::{JudgeOutcome, PairInput, ScoreOptions};
use qeval_judge::PromptVersion;
use qeval_native::judge::{Judge, JudgeSettings, default_cache_dir, judge_all};
use serde_json::{Value, json};

use crate::{input_error, parse};

/// `qeval.Judge`'s fields, by the names of `qeval score`'s flags without `--judge-`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct JudgeSpec {
    provider: String,
    model: String,
    url: Option<String>,
    key_env: Option<String>,
    key_header: Option<String>,
    query: Option<String>,
    timeout: f64,
    prompt: String,
    concurrency: usize,
    cache: bool,
    cache_dir: Option<PathBuf>,
    cache_ttl: f64,
}

/// A judge ready for a call: the judge, and how many calls go at once.
pub struct Ready {
    judge: Judge,
    concurrency: usize,
}

fn seconds(value: f64, field: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| input_error(format!("judge {field}: {value} is not a number of seconds")))
}

impl JudgeSpec {
    /// The judge, after checking every field; `options` takes its prompt version.
    pub fn ready(&self, options: &mut ScoreOptions) -> PyResult<Ready> {
        if self.model.trim().is_empty() {
            return Err(input_error("judge model: give the model to ask"));
        }
        if self.concurrency == 0 {
            return Err(input_error("judge concurrency: at least 1 call at a time"));
        }
        let timeout = seconds(self.timeout, "timeout")?;
        if timeout.is_zero() {
            return Err(input_error("judge timeout: more than 0 seconds"));
        }
        options.judge_prompt = parse::<PromptVersion>(&self.prompt)?;
        let settings = JudgeSettings {
            provider: parse(&self.provider)?,
            model: self.model.clone(),
            url: self.url.clone(),
            key_env: self.key_env.clone(),
            key_header: self.key_header.clone(),
            query: self.query.clone(),
            timeout,
            cache: match self.cache {
                true => Some((
                    self.cache_dir.clone().unwrap_or_else(default_cache_dir),
                    seconds(self.cache_ttl, "cache_ttl")?,
                )),
                false => None,
            },
        };
        Ok(Ready {
            judge: settings.judge(),
            concurrency: self.concurrency,
        })
    }
}

impl Ready {
    /// Every judging `pairs` need (`None`: a line that could not be read), by pair.
    pub fn judge_all(
        &self,
        pairs: &[Option<&PairInput>],
        options: &ScoreOptions,
    ) -> Vec<BTreeMap<String, JudgeOutcome>> {
        judge_all(pairs, options, &self.judge, self.concurrency, |_, _| {})
    }

    /// The judge and how many calls it makes at once, for the run pipeline.
    pub fn parts(&self) -> (&Judge, usize) {
        (&self.judge, self.concurrency)
    }

    /// What the judge did, for the caller's report: `{"judge", "calls", "cache_hits", "errors"}`.
    pub fn report(&self) -> Value {
        let counts = self.judge.counts();
        json!({
            "judge": self.judge.describe(),
            "calls": counts.calls,
            "cache_hits": counts.cache_hits,
            "errors": counts.errors,
        })
    }
}
