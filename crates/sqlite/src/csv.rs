//! CSV files as tables: one table per file, named after it; the header row names the columns;
//! each column's type is inferred (INTEGER, REAL, else TEXT); empty cells are NULL.

use rusqlite::Connection;
use rusqlite::types::Value;

/// One parsed file: header and rows.
struct Sheet {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// RFC 4180 fields: commas, double quotes with `""` inside them, CRLF or LF line ends. A row
/// whose width differs from the header's is an error that names the line.
fn parse(text: &str) -> Result<Sheet, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut row_line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err(format!("line {row_line}: a quoted field is never closed"));
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push((row_line, row));
    }
    rows.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
    let mut rows = rows.into_iter();
    let (_, header) = rows
        .next()
        .ok_or("the file is empty: a header row is needed")?;
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
    let mut body = Vec::new();
    for (number, row) in rows {
        if row.len() != header.len() {
            return Err(format!(
                "line {number}: {} fields, but the header has {}",
                row.len(),
                header.len()
            ));
        }
        body.push(row);
    }
    Ok(Sheet { header, rows: body })
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
    fn types_are_inferred() {
        assert_eq!(kind_of(&["1", "", "-3"]), "INTEGER");
        assert_eq!(kind_of(&["1", "2.5"]), "REAL");
        assert_eq!(kind_of(&["1", "x"]), "TEXT");
        assert_eq!(table_name("data/Sales 2025.csv"), "Sales 2025");
    }
}
