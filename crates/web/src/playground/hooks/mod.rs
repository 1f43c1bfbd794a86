//! The playground's hooks, one per file: scoring, the LLM judge, the shared URL and the
//! database worker's jobs.

mod use_debounced;
mod use_llm_judge;
mod use_scorecard;
mod use_shared_url;
mod use_worker_job;

pub use use_debounced::use_debounced;
pub use use_llm_judge::{JudgeStatus, use_llm_judge};
pub use use_scorecard::{ScoredPlayground, use_scorecard};
pub use use_shared_url::{TypedFragment, initial_state, use_shared_url};
pub use use_worker_job::{JobState, use_worker_job};
