//! The run report's hooks, one per file: loading and downloading runs, scoring raw results,
//! rechecking stored scores, and the open test in the address.

mod use_run_loading;
mod use_run_scoring;
mod use_stored_score_check;
mod use_table_scroll;
mod use_test_address;

pub use use_run_loading::{LoadRequest, host_of, use_run_loading};
pub use use_run_scoring::use_run_scoring;
pub use use_stored_score_check::{FLAG_LIMIT, Recheck, use_stored_score_check};
pub use use_table_scroll::{VIEWPORT_ROWS, use_table_scroll};
pub use use_test_address::use_test_address;
