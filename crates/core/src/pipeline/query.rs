//! What running one query on a database gives, as the core sees it: the rows, or why there are
//! none. The runner (qeval-sqlite's `Database`, natively or in the page's worker) fills these;
//! the core only reads them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::results::ResultSet;

/// How text that is not valid UTF-8 comes out of the database: the benchmarks' scripts read it
/// differently, and the verdict depends on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextDecoding {
    /// Each bad sequence becomes U+FFFD (qeval's own runs).
    #[default]
    Replace,
    /// Bad bytes are dropped: Spider's `text_factory = lambda b: b.decode(errors="ignore")`.
    Ignore,
    /// The query fails: Python's `sqlite3` default, which BIRD's scripts use ("Could not decode
    /// to UTF-8").
    Strict,
}

/// Most bytes of values one result keeps by default; the rest is cut and the cut is reported,
/// like rows past the row cap.
pub const MAX_RESULT_BYTES: usize = 64 * 1024 * 1024;

/// How one query runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QuerySettings {
    /// Past this the query is interrupted.
    pub time_limit_ms: f64,
    /// Rows kept; a longer result is cut and says so.
    pub max_rows: usize,
    /// Bytes of values kept (text and blobs count their length, other values 8); past it the
    /// result is cut the same way.
    pub max_bytes: usize,
    pub text: TextDecoding,
    /// Run as Python's `sqlite3` runs a statement, as the benchmarks' scripts do: text with no
    /// statement (only spaces and comments) gives an empty result, and anything but spaces and
    /// comments after the first statement is an error ("You can only execute one statement at
    /// a time.").
    pub python_statements: bool,
}

impl Default for QuerySettings {
    fn default() -> Self {
        QuerySettings {
            time_limit_ms: 10_000.0,
            max_rows: 100_000,
            max_bytes: MAX_RESULT_BYTES,
            text: TextDecoding::Replace,
            python_statements: false,
        }
    }
}

/// The rows a query gave.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryRows {
    pub result: ResultSet,
    /// Whether the row cap (or the size cap) cut the result.
    pub truncated: bool,
    pub millis: f64,
    /// SQLite's virtual machine steps (counted up to the cut when truncated).
    pub vm_steps: u64,
}

/// Why a query gave no result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum QueryError {
    /// The safety validator refused it before it reached the database.
    Refused(String),
    /// The database's authorizer denied an action while preparing it.
    Denied(String),
    /// Interrupted at the time limit.
    TimedOut { ms: f64 },
    /// The database reported an error (no such table, syntax...).
    Failed(String),
}

impl QueryError {
    /// A short name for the kind of failure, as records and summaries count them.
    pub fn kind(&self) -> &'static str {
        match self {
            QueryError::Refused(_) => "refused",
            QueryError::Denied(_) => "denied",
            QueryError::TimedOut { .. } => "timeout",
            QueryError::Failed(_) => "error",
        }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Refused(reason) => write!(f, "refused before running: {reason}"),
            QueryError::Denied(reason) => write!(f, "denied by the read-only policy: {reason}"),
            QueryError::TimedOut { ms } => {
                write!(f, "interrupted after {ms:.0} ms (the time limit)")
            }
            QueryError::Failed(message) => f.write_str(message),
        }
    }
}

/// What Python's `sqlite3` (3.11 and later) runs of a query's text, as the benchmarks' scripts
/// call it with `cursor.execute(text)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonStatement<'a> {
    /// Nothing but spaces, comments and `;`: no statement, an empty result.
    Empty,
    /// The text up to the end of its first statement (SQLite compiles that one).
    One(&'a str),
    /// Something other than spaces and comments follows the first statement: `sqlite3` raises
    /// "You can only execute one statement at a time."
    TooMany,
}

/// The message Python's `sqlite3` gives for [`PythonStatement::TooMany`].
pub const ONE_STATEMENT: &str = "You can only execute one statement at a time.";

/// Splits `text` as SQLite's `sqlite3_prepare_v2` and Python's check of its tail do: SQLite
/// skips whitespace, comments and empty statements (`;`), then compiles one statement, which
/// ends after the first `;` outside quotes, brackets and comments (or at the end); Python then
/// accepts only spaces, tabs, form feeds, line breaks and comments after it (`lstrip_sql`; an
/// unterminated `/*` too).
pub fn python_statement(text: &str) -> PythonStatement<'_> {
    let bytes = text.as_bytes();
    let mut at = 0;
    // SQLite's whitespace: space, \t, \n, \v, \f, \r.
    let sqlite_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    loop {
        match bytes.get(at) {
            None => return PythonStatement::Empty,
            Some(&b) if sqlite_space(b) || b == b';' => at += 1,
            Some(b'-') if bytes.get(at + 1) == Some(&b'-') => {
                at = text[at..].find('\n').map_or(bytes.len(), |n| at + n + 1);
            }
            Some(b'/') if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| at + 2 + n + 2);
            }
            Some(_) => break,
        }
    }
    let end = statement_end(bytes, at);
    let mut tail = end;
    loop {
        match bytes.get(tail) {
            None => break,
            Some(b' ' | b'\t' | 0x0c | b'\n' | b'\r') => tail += 1,
            Some(b'-') if bytes.get(tail + 1) == Some(&b'-') => match text[tail..].find('\n') {
                Some(n) => tail += n + 1,
                None => break,
            },
            Some(b'/') if bytes.get(tail + 1) == Some(&b'*') => match text[tail + 2..].find("*/") {
                Some(n) => tail += 2 + n + 2,
                None => break,
            },
            Some(_) => return PythonStatement::TooMany,
        }
    }
    PythonStatement::One(&text[..end])
}

/// Where the statement starting at `at` ends: after its first `;` outside `'...'`, `"..."`,
/// `` `...` ``, `[...]` and comments, or at the end of the text.
fn statement_end(bytes: &[u8], mut at: usize) -> usize {
    let closing = |from: usize, close: &[u8]| {
        bytes[from..]
            .windows(close.len())
            .position(|w| w == close)
            .map_or(bytes.len(), |n| from + n + close.len())
    };
    while at < bytes.len() {
        at = match bytes[at] {
            b';' => return at + 1,
            quote @ (b'\'' | b'"' | b'`') => {
                // A doubled quote inside is one character.
                let mut end = at + 1;
                loop {
                    match bytes[end..].iter().position(|&b| b == quote) {
                        None => break bytes.len(),
                        Some(n) if bytes.get(end + n + 1) == Some(&quote) => end += n + 2,
                        Some(n) => break end + n + 1,
                    }
                }
            }
            b'[' => closing(at + 1, b"]"),
            b'-' if bytes.get(at + 1) == Some(&b'-') => closing(at + 2, b"\n"),
            b'/' if bytes.get(at + 1) == Some(&b'*') => closing(at + 2, b"*/"),
            _ => at + 1,
        };
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::PythonStatement::{Empty, One, TooMany};
    use super::python_statement;

    /// Each case as Python 3.11's `sqlite3` ran it (`cursor.execute`).
    #[test]
    fn statements_split_as_pythons_sqlite3_splits_them() {
        assert_eq!(python_statement(" "), Empty);
        assert_eq!(python_statement("-- only"), Empty);
        assert_eq!(python_statement(";SELECT 1"), One(";SELECT 1"));
        assert_eq!(python_statement("SELECT 1;;"), TooMany);
        assert_eq!(python_statement("SELECT 1; ;"), TooMany);
        assert_eq!(python_statement("SELECT 1; -- x"), One("SELECT 1;"));
        assert_eq!(python_statement("SELECT 1; /* x"), One("SELECT 1;"));
        assert_eq!(python_statement("SELECT 1; -"), TooMany);
        assert_eq!(python_statement("SELECT 1;\x0c"), One("SELECT 1;"));
        assert_eq!(python_statement("SELECT 1;\x0b"), TooMany);
        assert_eq!(python_statement("SELECT 'a;b'; "), One("SELECT 'a;b';"));
        assert_eq!(
            python_statement("SELECT [a;b] FROM t"),
            One("SELECT [a;b] FROM t")
        );
        assert_eq!(python_statement("SELECT 1 -- ; x"), One("SELECT 1 -- ; x"));
        assert_eq!(python_statement("SELECT 1; SELECT 2"), TooMany);
    }
}
