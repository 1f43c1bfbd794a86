//! The playground's hooks, one per file: scoring, the LLM judge, the database worker's jobs,
//! the verdict cache's counts and the shared URL.

mod use_cache_revision;
mod use_database_jobs;
mod use_database_opening;
mod use_debounced;
mod use_llm_judge;
mod use_scorecard;
mod use_shared_url;
mod use_worker_job;

pub use use_cache_revision::use_cache_revision;
pub use use_database_jobs::{DatabaseJobs, use_database_jobs};
pub use use_database_opening::use_database_opening;
pub use use_debounced::use_debounced;
pub use use_llm_judge::{JudgeStatus, use_llm_judge};
pub use use_scorecard::{ScoredPlayground, use_scorecard};
pub use use_shared_url::{TypedFragment, initial_state, use_shared_url};
pub use use_worker_job::{JobState, use_worker_job};
