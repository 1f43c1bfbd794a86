//! The run report's hooks, one per file.

mod use_stored_score_check;
mod use_test_address;

pub use use_stored_score_check::{FLAG_LIMIT, Recheck, use_stored_score_check};
pub use use_test_address::use_test_address;
