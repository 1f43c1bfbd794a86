//! The page's database worker. The page sends [`protocol::Request`]s; the worker answers each
//! with a [`protocol::Response`] carrying the same job number. [`jobs::Jobs`] does the work and
//! knows nothing of messages, so it is tested natively; `main.rs` is the message loop.

#[cfg(feature = "engine")]
pub mod jobs;
pub mod protocol;
