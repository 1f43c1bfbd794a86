//! A pairs file's lines, read one at a time and never longer than
//! [`qeval_core::MAX_LINE_BYTES`].

use std::io::{self, BufRead};

/// Past a too long line, how far its end is looked for before reading stops: a line with no end
/// (`/dev/zero`) is not skipped for ever.
const MAX_SKIPPED_BYTES: u64 = 1 << 30;

/// One line as read.
pub enum RawLine {
    /// The line's bytes, without its `\n`.
    Text(Vec<u8>),
    /// Longer than the limit: skipped to its end.
    TooLong,
    /// Longer than the limit, with no end within [`MAX_SKIPPED_BYTES`]: reading stops here.
    Endless,
}

pub struct PairLines<R> {
    input: R,
    number: usize,
    done: bool,
}

impl<R: BufRead> PairLines<R> {
    pub fn new(input: R) -> PairLines<R> {
        PairLines {
            input,
            number: 0,
            done: false,
        }
    }

    /// The next line and its number (from 1), or `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, RawLine)>> {
        if self.done {
            return Ok(None);
        }
        let mut line = Vec::new();
        let ended = self.read_until_newline(|chunk| {
            if line.len() + chunk.len() > qeval_core::MAX_LINE_BYTES {
                return false;
            }
            line.extend_from_slice(chunk);
            true
        })?;
        let raw = match ended {
            Ended::Newline => RawLine::Text(line),
            Ended::Eof if line.is_empty() => {
                self.done = true;
                return Ok(None);
            }
            Ended::Eof => {
                self.done = true;
                RawLine::Text(line)
            }
            Ended::Refused => {
                drop(line);
                let mut skipped = 0u64;
                let ended = self.read_until_newline(|chunk| {
                    skipped += chunk.len() as u64;
                    skipped <= MAX_SKIPPED_BYTES
                })?;
                match ended {
                    Ended::Newline => RawLine::TooLong,
                    Ended::Eof => {
                        self.done = true;
                        RawLine::TooLong
                    }
                    Ended::Refused => {
                        self.done = true;
                        RawLine::Endless
                    }
                }
            }
        };
        self.number += 1;
        Ok(Some((self.number, raw)))
    }

    /// Hands the bytes up to the next `\n` to `take` in chunks (the `\n` consumed, not handed),
    /// until `take` refuses one.
    fn read_until_newline(&mut self, mut take: impl FnMut(&[u8]) -> bool) -> io::Result<Ended> {
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if buffer.is_empty() {
                return Ok(Ended::Eof);
            }
            let (chunk, used, newline) = match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (&buffer[..at], at + 1, true),
                None => (buffer, buffer.len(), false),
            };
            if !take(chunk) {
                return Ok(Ended::Refused);
            }
            self.input.consume(used);
            if newline {
                return Ok(Ended::Newline);
            }
        }
    }
}

enum Ended {
    Newline,
    Eof,
    Refused,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8]) -> Vec<(usize, Option<Vec<u8>>)> {
        let mut lines = PairLines::new(text);
        let mut out = Vec::new();
        while let Some((number, raw)) = lines.next_line().unwrap_or(None) {
            out.push((
                number,
                match raw {
                    RawLine::Text(bytes) => Some(bytes),
                    RawLine::TooLong | RawLine::Endless => None,
                },
            ));
        }
        out
    }

    #[test]
    fn lines_are_numbered_and_a_last_line_without_newline_counts() {
        assert_eq!(
            all(b"a\n\nbc"),
            [
                (1, Some(b"a".to_vec())),
                (2, Some(Vec::new())),
                (3, Some(b"bc".to_vec()))
            ]
        );
        assert_eq!(all(b"a\n"), [(1, Some(b"a".to_vec()))]);
    }
}
