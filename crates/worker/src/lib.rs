//! The page's workers. The page sends [`protocol::Request`]s; a worker answers each with a
//! [`protocol::Response`] carrying the same job number.
//!
//! Two binaries: `qeval-scorer` does the [`scoring`] tasks (parsing, comparing, scoring) and
//! starts with the page; `qeval-worker` adds SQLite ([`jobs::Jobs`]) and starts on the first
//! database action. Neither `scoring` nor `jobs` knows of messages, so both are tested
//! natively; [`serve`] is the message loop.

#[cfg(feature = "engine")]
pub mod jobs;
pub mod protocol;
pub mod scoring;
#[cfg(target_arch = "wasm32")]
pub mod serve;
