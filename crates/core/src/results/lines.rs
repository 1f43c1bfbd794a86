//! JSON Lines read in blocks, as a file is read: each line is read into the table as soon as it
//! is whole, so a large file's text is never held at once. It reads what `read_result_text`
//! reads as JSON Lines (more than one non-blank line, the first a JSON value by itself), with the
//! same table and the same errors, which name the line.

use serde::de::IgnoredAny;

use super::direct::LineReader;
use super::{ResultError, ResultSet};

/// JSON Lines given block by block: [`LinesStream::push`] each block in order, then
/// [`LinesStream::finish`].
#[derive(Default)]
pub struct LinesStream {
    reader: LineReader,
    /// The start of a line the last block cut.
    partial: Vec<u8>,
    /// Non-blank lines read, up to two: one line alone is a JSON document, not JSON Lines.
    items: u8,
    state: LineState,
}

#[derive(Default)]
enum LineState {
    #[default]
    Reading,
    /// Not JSON Lines (or not UTF-8): for the whole-text reader.
    NotLines,
    Failed(ResultError),
}

impl LinesStream {
    pub fn new() -> LinesStream {
        LinesStream::default()
    }

    /// Reads the next block of the text (blocks may cut the text anywhere).
    pub fn push(&mut self, block: &[u8]) {
        let mut rest = block;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            if self.settled() {
                return;
            }
            let joined;
            let line = if self.partial.is_empty() {
                &rest[..end]
            } else {
                self.partial.extend_from_slice(&rest[..end]);
                joined = std::mem::take(&mut self.partial);
                &joined[..]
            };
            self.line(line.strip_suffix(b"\r").unwrap_or(line));
            rest = &rest[end + 1..];
        }
        if !self.settled() {
            self.partial.extend_from_slice(rest);
        }
    }

    /// The result set; `None` when the text is not JSON Lines and must be read whole.
    pub fn finish(mut self) -> Option<Result<ResultSet, ResultError>> {
        if !self.partial.is_empty() {
            let last = std::mem::take(&mut self.partial);
            self.line(&last);
        }
        match self.state {
            LineState::Reading if self.items >= 2 => Some(Ok(self.reader.finish())),
            LineState::Failed(err) if self.items >= 2 => Some(Err(err)),
            _ => None,
        }
    }

    /// Nothing more can change the outcome: the rest of the text need not be read.
    pub fn settled(&self) -> bool {
        match self.state {
            LineState::Reading => false,
            LineState::NotLines => true,
            LineState::Failed(_) => self.items >= 2,
        }
    }

    fn line(&mut self, line: &[u8]) {
        if self.settled() {
            return;
        }
        let Ok(line) = std::str::from_utf8(line) else {
            self.state = LineState::NotLines;
            return;
        };
        let blank = line.trim().is_empty();
        if !blank {
            if self.items == 0 && serde_json::from_str::<IgnoredAny>(line).is_err() {
                self.state = LineState::NotLines;
                return;
            }
            self.items = self.items.saturating_add(1).min(2);
        }
        if let LineState::Reading = self.state
            && let Err(err) = self.reader.line(line)
        {
            // The first error ends the reading, as it ends `read_lines`; a second non-blank line
            // is still looked for, to tell JSON Lines from one document.
            self.state = LineState::Failed(err);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read::read_result_text;

    fn streamed(text: &str, block: usize) -> Option<Result<ResultSet, ResultError>> {
        let mut stream = LinesStream::new();
        for chunk in text.as_bytes().chunks(block) {
            stream.push(chunk);
        }
        stream.finish()
    }

    #[test]
    fn every_cut_gives_what_the_whole_text_gives() {
        for text in [
            "[1, \"a\"]\n[2, \"b\"]\n",
            "{\"id\": 1, \"name\": \"a\"}\r\n\r\n{\"name\": \"b\", \"x\": [1]}",
            "1\n2.5\n\"x\"\nnull",
            "[1, 2]\n[3]\n[4, 5]",
            "{\"a\": 1}\n[1]\n",
            "[1]\n[2\n[3]",
        ] {
            let whole = read_result_text(text);
            for block in [1, 2, 5, 64] {
                assert_eq!(
                    streamed(text, block),
                    Some(whole.clone()),
                    "{text} in {block}"
                );
            }
        }
    }

    #[test]
    fn one_document_is_left_to_the_whole_text_reader() {
        for text in [
            "[[1, 2], [3, 4]]",
            "[\n[1, 2],\n[3, 4]\n]",
            "{\"rows\": [[1]]}\n\n",
            "",
        ] {
            assert_eq!(streamed(text, 3), None, "{text}");
        }
    }
}
