//! What qeval's native front ends, the `qeval` command and the Python module, share and the core
//! does not do: work spread over threads ([`pool`]), LLM judges called over HTTP with their
//! caches ([`judge`]), a run's files found on disk ([`folder`]), and the run pipeline's jobs done
//! on every core, each worker with its own copy of the database ([`jobs`]). The core stays free of
//! threads, sockets and files, so that it builds for the browser.

pub mod bench;
pub mod folder;
pub mod jobs;
pub mod judge;
pub mod pool;
pub mod run;
