//! qeval-judge: the LLM judge protocol as pure functions. Prompts (versioned files), requests
//! and reply parsing for OpenAI-compatible chat completions, Anthropic Messages and Google Gemini,
//! strict verdicts, retry decisions, cache keys. No transport: the CLI and the browser each send
//! the requests this crate builds and hand back what they got.
//!
//! Queries, questions and answers are untrusted: the prompts quote them as JSON strings framed as
//! data, and only the structured output (JSON schema, tool call) is read back, so no text inside
//! them can change how a reply is parsed.

mod cache;
mod conversation;
mod provider;
mod rubric;
mod verdict;

pub use cache::{SCHEMA_VERSION, cache_key};
pub use conversation::{Conversation, Received, Step};
pub use provider::{
    HttpRequest, JudgeConfig, KeyFormat, Provider, Retry, build_request, clip, parse_reply,
};
pub use rubric::{JudgeInput, MAX_RESULT_CHARS, PromptVersion, Rubric, render, result_text};
pub use verdict::{JudgeScores, ReplyError, read_verdict};
