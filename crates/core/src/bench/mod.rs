//! Public benchmarks scored from their own files, with the verdicts of their official
//! evaluators:
//! - **Spider** (and SParC, CoSQL): `taoyds/test-suite-sql-eval`'s `evaluation.py --etype exec`,
//!   execution accuracy on one database per `db_id` or test-suite accuracy on several
//!   (`spider`);
//! - **BIRD** (dev and mini-dev): `bird-bench/mini_dev`'s `evaluation_ex.py`,
//!   `evaluation_f1.py` and `evaluation_ves.py` (`bird`);
//! - **Spider 2.0** (-lite and -snow): `xlang-ai/Spider2`'s `evaluation_suite/evaluate.py`,
//!   predicted CSVs or the CSVs of predicted SQL compared with gold CSVs (`spider2`).
//!
//! What is here is pure: reading the files, the text rules applied to each query before it runs,
//! the comparison rules, the official tables. Which query runs on which database, and the
//! records, are the run pipeline's (the `pipeline` module). Every rule names the official function
//! it reproduces; `docs/benchmarks.md` lists them, with the places where qeval's verdict could
//! differ.

pub(crate) mod bird;
pub(crate) mod python_format;
pub(crate) mod spider;
pub(crate) mod spider2;

use std::fmt;

/// A benchmark file that cannot be used as it is, with the line it is on when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchError {
    pub line: Option<usize>,
    pub message: String,
}

impl BenchError {
    pub fn new(message: impl Into<String>) -> BenchError {
        BenchError {
            line: None,
            message: message.into(),
        }
    }

    pub fn at_line(line: usize, message: impl Into<String>) -> BenchError {
        BenchError {
            line: Some(line),
            message: message.into(),
        }
    }
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A text's lines as Python's text-mode `readlines` splits them (universal newlines: `\n`,
/// `\r\n` and `\r` each end a line), without their line breaks.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else {
            usize::from(end < rest.len())
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_end_at_every_kind_of_line_break() {
        let found: Vec<&str> = super::lines("a\nb\r\nc\rd\n\ne").collect();
        assert_eq!(found, ["a", "b", "c", "d", "", "e"]);
    }
}
