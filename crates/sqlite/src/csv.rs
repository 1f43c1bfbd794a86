//! CSV files as tables: one table per file, named after it; the header row names the columns;
//! each column's type is inferred (INTEGER, REAL, else TEXT); empty cells are NULL.

use rusqlite::Connection;
use rusqlite::types::Value;

/// One parsed file: header and rows.
struct Sheet {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// The delimiters a file may use, in order of preference on a tie.
const DELIMITERS: [u8; 4] = [b',', b';', b'\t', b'|'];

/// How many records the delimiter sniffing looks at.
const SNIFF_RECORDS: usize = 20;

/// A reader of `text` that leaves the header, ragged rows and blank cells to us.
fn reader(text: &str, delimiter: u8) -> ::csv::Reader<&[u8]> {
    ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
}

/// A record of one field holding only blanks: a blank line, skipped.
fn is_blank(record: &::csv::StringRecord) -> bool {
    record.len() == 1 && record[0].trim().is_empty()
}

/// The delimiter whose first records agree most often with the header's width (more than one
/// field); `,` when none splits the header or on a tie.
fn sniff(text: &str) -> u8 {
    let mut best = (DELIMITERS[0], 0);
    for delimiter in DELIMITERS {
        let mut widths = reader(text, delimiter)
            .into_records()
            .map_while(Result::ok)
            .filter(|record| !is_blank(record))
            .take(SNIFF_RECORDS)
            .map(|record| record.len());
        let Some(width) = widths.next().filter(|&w| w > 1) else {
            continue;
        };
        let agreeing = 1 + widths.filter(|&w| w == width).count();
        if agreeing > best.1 {
            best = (delimiter, agreeing);
        }
    }
    best.0
}

/// Checks one record's raw text as RFC 4180 wants it, which the `csv` crate does not: nothing
/// but blanks between a closing quote and the next delimiter or line end, and every quoted
/// field closed.
fn check_quotes(raw: &[u8], delimiter: u8) -> Result<(), &'static str> {
    let mut at_start = true;
    let mut quoted = false;
    let mut closed = false;
    let mut bytes = raw.iter().copied().peekable();
    while let Some(b) = bytes.next() {
        if quoted {
            if b == b'"' {
                if bytes.peek() == Some(&b'"') {
                    bytes.next();
                } else {
                    quoted = false;
                    closed = true;
                }
            }
        } else if b == delimiter || b == b'\r' || b == b'\n' {
            at_start = true;
            closed = false;
        } else if closed {
            if !matches!(b, b' ' | b'\t') {
                return Err("text after a closing quote");
            }
        } else if at_start && b == b'"' {
            quoted = true;
            at_start = false;
        } else {
            at_start = false;
        }
    }
    if quoted {
        return Err("a quoted field is never closed");
    }
    Ok(())
}

/// Line numbers of byte offsets, counted forward: a line ends at `\n`, `\r\n` or a lone `\r`.
#[derive(Default)]
struct CsvLines {
    /// How far the text has been counted, and how many line ends it holds up to there.
    offset: usize,
    ends: usize,
}

impl CsvLines {
    /// The 1-based line of byte `at`, not before the last offset asked about.
    fn at(&mut self, bytes: &[u8], at: usize) -> usize {
        let at = at.clamp(self.offset, bytes.len());
        self.ends += bytes[self.offset..at]
            .iter()
            .enumerate()
            .filter(|&(i, &b)| {
                b == b'\n' || (b == b'\r' && bytes.get(self.offset + i + 1) != Some(&b'\n'))
            })
            .count();
        self.offset = at;
        self.ends + 1
    }
}

/// RFC 4180 fields, read by the `csv` crate: a delimiter sniffed among `,`, `;`, tab and `|`;
/// double quotes with `""` inside them (a quoted field keeps its delimiters, line ends and
/// `\r`s); CRLF or LF line ends. A row whose width differs from the header's, text after a
/// closing quote and an unclosed quote are errors that name the line.
fn parse(text: &str) -> Result<Sheet, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let delimiter = sniff(text);
    let mut reader = reader(text, delimiter);
    let bytes = text.as_bytes();
    let mut lines = CsvLines::default();
    let mut record = ::csv::StringRecord::new();
    let mut header: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    loop {
        let start = reader.position().clone();
        let more = reader.read_record(&mut record).map_err(|e| {
            let line = lines.at(bytes, usize::try_from(start.byte()).unwrap_or(0));
            format!("line {line}: {e}")
        })?;
        if !more {
            break;
        }
        // The record's text, from the end of the one before: it may begin with that one's line
        // end and with blank lines.
        let from = record
            .position()
            .map_or(start.byte(), ::csv::Position::byte);
        let to = reader.position().byte();
        let raw = usize::try_from(from)
            .ok()
            .zip(usize::try_from(to).ok())
            .and_then(|(from, to)| bytes.get(from..to))
            .unwrap_or_default();
        let skipped = raw
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let line = lines.at(bytes, usize::try_from(from).unwrap_or(0) + skipped);
        check_quotes(raw, delimiter).map_err(|e| format!("line {line}: {e}"))?;
        if is_blank(&record) {
            continue;
        }
        match &header {
            None => header = Some(record.iter().map(|h| h.trim().to_string()).collect()),
            Some(names) if record.len() != names.len() => {
                return Err(format!(
                    "line {line}: {} fields, but the header has {}",
                    record.len(),
                    names.len()
                ));
            }
            Some(_) => rows.push(record.iter().map(str::to_string).collect()),
        }
    }
    let header = header.ok_or("the file is empty: a header row is needed")?;
    Ok(Sheet { header, rows })
}

fn kind_of(values: &[&str]) -> &'static str {
    let present: Vec<&str> = values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .collect();
    if !present.is_empty() && present.iter().all(|v| v.parse::<i64>().is_ok()) {
        "INTEGER"
    } else if !present.is_empty()
        && present
            .iter()
            .all(|v| v.parse::<f64>().is_ok_and(f64::is_finite))
    {
        "REAL"
    } else {
        "TEXT"
    }
}

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A table name from a file name: its stem.
pub fn table_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    if stem.trim().is_empty() {
        "data".into()
    } else {
        stem.trim().to_string()
    }
}

/// Creates and fills one table per file on `connection`.
pub fn load(connection: &mut Connection, files: &[(String, String)]) -> Result<(), String> {
    for (file, text) in files {
        let sheet = parse(text).map_err(|e| format!("{file}: {e}"))?;
        let name = table_name(file);
        let kinds: Vec<&str> = (0..sheet.header.len())
            .map(|i| kind_of(&sheet.rows.iter().map(|r| r[i].as_str()).collect::<Vec<_>>()))
            .collect();
        let columns: Vec<String> = sheet
            .header
            .iter()
            .zip(&kinds)
            .enumerate()
            .map(|(i, (h, k))| {
                let h = if h.is_empty() {
                    format!("column{}", i + 1)
                } else {
                    h.clone()
                };
                format!("{} {k}", quote(&h))
            })
            .collect();
        let tx = connection.transaction().map_err(|e| e.to_string())?;
        tx.execute(
            &format!("CREATE TABLE {} ({})", quote(&name), columns.join(", ")),
            [],
        )
        .map_err(|e| format!("{file}: {e}"))?;
        {
            let marks = vec!["?"; kinds.len()].join(", ");
            let mut insert = tx
                .prepare(&format!("INSERT INTO {} VALUES ({marks})", quote(&name)))
                .map_err(|e| e.to_string())?;
            for row in &sheet.rows {
                let values: Vec<Value> = row
                    .iter()
                    .zip(&kinds)
                    .map(|(cell, kind)| {
                        let cell = cell.trim();
                        match (*kind, cell.is_empty()) {
                            (_, true) => Value::Null,
                            ("INTEGER", _) => cell.parse().map_or(Value::Null, Value::Integer),
                            ("REAL", _) => cell.parse().map_or(Value::Null, Value::Real),
                            _ => Value::Text(cell.to_string()),
                        }
                    })
                    .collect();
                insert
                    .execute(rusqlite::params_from_iter(values))
                    .map_err(|e| format!("{file}: {e}"))?;
            }
        }
        tx.commit().map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_line_ends() {
        let sheet = parse("id,name,note\r\n1,\"Lovelace, Ada\",\"said \"\"hi\"\"\"\n2,bob,\n")
            .expect("parses");
        assert_eq!(sheet.header, ["id", "name", "note"]);
        assert_eq!(sheet.rows[0], ["1", "Lovelace, Ada", "said \"hi\""]);
        assert_eq!(sheet.rows[1], ["2", "bob", ""]);
    }

    #[test]
    fn a_short_row_names_its_line() {
        let err = parse("a,b\n1,2\n3\n").err().unwrap_or_default();
        assert_eq!(err, "line 3: 1 fields, but the header has 2");
    }

    #[test]
    fn the_delimiter_is_sniffed() {
        assert_eq!(sniff("a;b\n1;2,5\n"), b';');
        assert_eq!(sniff("a\tb\n1\t2\n"), b'\t');
        assert_eq!(sniff("a|b\n1|2\n"), b'|');
        assert_eq!(sniff("a,b;c\n1,2;3\n"), b',');
        assert_eq!(sniff("\"a;b\",c\n1,2\n"), b',');
        assert_eq!(sniff("only\n1\n"), b',');
    }

    #[test]
    fn quotes_are_checked() {
        assert_eq!(check_quotes(b"\"a\"\"b\",c\r\n", b','), Ok(()));
        assert_eq!(check_quotes(b"\"a\" ,c", b','), Ok(()));
        assert_eq!(check_quotes(b"a\"b,c", b','), Ok(()));
        assert_eq!(
            check_quotes(b"\"a\"b,c", b','),
            Err("text after a closing quote")
        );
        assert_eq!(
            check_quotes(b"\"a,c\n", b','),
            Err("a quoted field is never closed")
        );
    }

    #[test]
    fn types_are_inferred() {
        assert_eq!(kind_of(&["1", "", "-3"]), "INTEGER");
        assert_eq!(kind_of(&["1", "2.5"]), "REAL");
        assert_eq!(kind_of(&["1", "x"]), "TEXT");
        assert_eq!(table_name("data/Sales 2025.csv"), "Sales 2025");
    }
}
