//! Custom hooks, one per file.

mod use_debounced;
mod use_llm_judge;
mod use_scorecard;
mod use_shared_url;
mod use_stored_score_check;
mod use_test_address;
mod use_worker_job;

pub use use_debounced::use_debounced;
pub use use_llm_judge::{JudgeStatus, use_llm_judge};
pub use use_scorecard::{ScoredPlayground, use_scorecard};
pub use use_shared_url::{TypedFragment, initial_state, use_shared_url};
pub use use_stored_score_check::{FLAG_LIMIT, Recheck, use_stored_score_check};
pub use use_test_address::use_test_address;
pub use use_worker_job::{JobState, use_worker_job};
