//! Reading JSONL (or a JSON array of the same objects) record by record. A bad line is listed
//! with its number and reason and every other line is kept: `lines read = records + rejected`
//! (blank lines aside).

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Rejected {
    /// 1-based line number (the element's index + 1 for a JSON array).
    pub line: usize,
    pub reason: String,
}

/// What a file gave: the records with their line numbers, the rejected lines, and how many
/// non-blank lines there were.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines<T> {
    pub records: Vec<(usize, T)>,
    pub rejected: Vec<Rejected>,
    pub lines_read: usize,
}

impl<T> Default for Lines<T> {
    fn default() -> Self {
        Lines {
            records: Vec::new(),
            rejected: Vec::new(),
            lines_read: 0,
        }
    }
}

impl<T> Lines<T> {
    /// Rejects each record whose id (`key`) an earlier line already has, naming that line: two
    /// tests or questions of one id would otherwise collapse into one without a word. The first
    /// is kept.
    pub fn reject_repeated(&mut self, key: impl Fn(&T) -> String, what: &str) {
        let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut kept = Vec::with_capacity(self.records.len());
        for (line, record) in std::mem::take(&mut self.records) {
            let id = key(&record);
            match first.get(&id) {
                Some(&earlier) => self.rejected.push(Rejected {
                    line,
                    reason: format!(
                        "{what} {id:?} is already on line {earlier}; only that line is used"
                    ),
                }),
                None => {
                    first.insert(id, line);
                    kept.push((line, record));
                }
            }
        }
        self.records = kept;
        self.rejected.sort_by_key(|r| r.line);
    }
}

/// Reads `test-results.jsonl` (see [`read_record_bytes`]); a test id on two lines is rejected
/// on the second.
pub fn read_test_results(bytes: &[u8]) -> Lines<super::record::TestLine> {
    let mut lines: Lines<super::record::TestLine> = read_record_bytes(bytes);
    lines.reject_repeated(|t| super::record::test_key(&t.test_id), "test_id");
    lines
}

impl<T: DeserializeOwned> Lines<T> {
    /// Reads one line (already split, with its number) into the records or the rejected.
    pub fn push_line(&mut self, number: usize, raw: &str) {
        let Some(line) = crate::pairs::clean_line(raw) else {
            return;
        };
        self.lines_read += 1;
        match serde_json::from_str::<T>(line) {
            Ok(record) => self.records.push((number, record)),
            Err(err) => self.rejected.push(Rejected {
                line: number,
                reason: reason(&err),
            }),
        }
    }
}

/// Reads `text` as JSONL, or as a JSON array when it starts with `[`. A BOM, CRLF line ends and
/// blank lines are fine.
pub fn read_records<T: DeserializeOwned>(text: &str) -> Lines<T> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('[') {
        return read_array(text);
    }
    let mut lines = Lines::default();
    for (index, raw) in text.lines().enumerate() {
        lines.push_line(index + 1, raw);
    }
    lines
}

/// Reads a file's bytes as [`read_records`] does, decoding each line on its own: a line that is
/// not valid UTF-8 is rejected with its number, and the others are still read.
pub fn read_record_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Lines<T> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return read_records(text);
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut lines = Lines::default();
    for (index, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        match std::str::from_utf8(raw) {
            Ok(text) => lines.push_line(index + 1, text),
            Err(err) => {
                lines.lines_read += 1;
                lines.rejected.push(Rejected {
                    line: index + 1,
                    reason: format!(
                        "not valid UTF-8 (byte {} of the line)",
                        err.valid_up_to() + 1
                    ),
                });
            }
        }
    }
    lines
}

/// Reads a questions file: a JSON array, `{"questions": [...]}`, or JSON Lines. An id on two
/// questions is rejected on the second.
pub fn read_questions(text: &str) -> Lines<super::record::TestLine> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Lines<super::record::TestLine> = if text.trim_start().starts_with('{')
        && let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(text)
        && let Some(questions) = object.remove("questions")
    {
        read_records(&questions.to_string())
    } else {
        read_records(text)
    };
    lines.reject_repeated(|q| super::record::test_key(&q.test_id), "id");
    lines
}

fn read_array<T: DeserializeOwned>(text: &str) -> Lines<T> {
    let mut lines = Lines::default();
    let items = match serde_json::from_str::<Vec<Value>>(text) {
        Ok(items) => items,
        Err(err) => {
            lines.lines_read = 1;
            lines.rejected.push(Rejected {
                line: err.line(),
                reason: format!("the JSON array cannot be read: {}", reason(&err)),
            });
            return lines;
        }
    };
    for (index, item) in items.into_iter().enumerate() {
        lines.lines_read += 1;
        match serde_json::from_value::<T>(item) {
            Ok(record) => lines.records.push((index + 1, record)),
            Err(err) => lines.rejected.push(Rejected {
                line: index + 1,
                reason: reason(&err),
            }),
        }
    }
    lines
}

/// serde's message without its "at line 1 column N" (the line is ours; the column is kept).
fn reason(err: &serde_json::Error) -> String {
    let message = err.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    if err.column() > 0 && err.line() <= 1 {
        format!("{message} (column {})", err.column())
    } else {
        message
    }
}

/// The records of a JSONL text, for tests.
#[cfg(test)]
pub(crate) fn records_of(text: &str) -> Vec<super::EvaluationRecord> {
    read_records::<super::EvaluationRecord>(text)
        .records
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    #[test]
    fn a_bad_line_is_listed_and_the_rest_kept() {
        let text = "\u{feff}{\"a\": 1}\r\n\r\n{\"a\": \n{\"a\": 3}\n";
        let lines: Lines<Map<String, Value>> = read_records(text);
        assert_eq!(lines.records.len(), 2);
        assert_eq!(lines.records[1].0, 4);
        assert_eq!(lines.rejected.len(), 1);
        assert_eq!(lines.rejected[0].line, 3);
        assert!(
            lines.rejected[0].reason.contains("EOF"),
            "{}",
            lines.rejected[0].reason
        );
        assert_eq!(lines.lines_read, 3);
    }

    #[test]
    fn a_json_array_is_read_element_by_element() {
        let lines: Lines<Map<String, Value>> = read_records(" [{\"a\": 1}, 2, {\"b\": 2}]");
        assert_eq!(lines.records.len(), 2);
        assert_eq!(lines.rejected[0].line, 2);
        assert!(lines.rejected[0].reason.contains("invalid type"));
    }
}
