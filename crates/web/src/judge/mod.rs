//! The LLM judge in the browser: settings, the calls, the verdict cache, Langfuse. The protocol
//! itself (prompts, requests, replies, retries, cache keys) is qeval-judge's; this module only
//! moves bytes and keeps verdicts.

mod cache;
pub mod langfuse;
mod run;
mod settings;
mod transport;

pub use cache::{CacheStats, VerdictCache};
pub use run::{JudgeRun, ask, judge_all, judge_from_cache};
pub use settings::{JudgeChoices, Preset};
