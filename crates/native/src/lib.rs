//! What qeval's native front ends, the `qeval` command and the Python module, share and the core
//! does not do: work spread over threads ([`pool`]), LLM judges called over HTTP with their
//! caches ([`judge`]), and a run's files found on disk ([`folder`]). The core stays free of
//! threads, sockets and files, so that it builds for the browser.

pub mod folder;
pub mod judge;
pub mod pool;
