//! The CSV Spider 2.0's `sql` mode writes from a query's result before reading it back
//! (`get_sqlite_result`): `pd.read_sql_query(query, conn, chunksize=500)`, each chunk's
//! columns typed by `DataFrame.from_records(coerce_float=True)` and appended with
//! `to_csv(index=False)`. The types a value takes there decide how it reads back: an integer
//! column with a NULL in a chunk is written `5.0`, text `'26'` is written `26` and reads back
//! as the number 26.

use serde_json::Value as Json;

use crate::results::python::float_repr;

/// Rows per chunk of `read_sql_query`.
const CHUNK: usize = 500;

/// The CSV text of a result (`{columns, rows}` JSON, as a job returns it).
pub(crate) fn result_csv(columns: &[String], rows: &[Vec<Json>]) -> String {
    let mut out = String::new();
    write_row(&mut out, columns.iter().map(String::as_str));
    for chunk in rows.chunks(CHUNK) {
        let kinds: Vec<ChunkDtype> = (0..columns.len())
            .map(|c| ChunkDtype::of(chunk.iter().map(|row| row.get(c).unwrap_or(&Json::Null))))
            .collect();
        for row in chunk {
            let fields: Vec<String> = kinds
                .iter()
                .enumerate()
                .map(|(c, kind)| kind.write(row.get(c).unwrap_or(&Json::Null)))
                .collect();
            write_row(&mut out, fields.iter().map(String::as_str));
        }
    }
    out
}

/// The dtype `maybe_convert_objects` gives one column of a chunk.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ChunkDtype {
    /// All integers: written in decimal.
    Int,
    /// Numbers with a float or a NULL among them: float64, written as Python's `repr`.
    Float,
    /// Text among them (or only NULLs): each value as Python's `str`.
    Object,
}

impl ChunkDtype {
    fn of<'a>(cells: impl Iterator<Item = &'a Json>) -> ChunkDtype {
        let (mut ints, mut floats, mut nulls, mut other) = (0, 0, 0, 0);
        for cell in cells {
            match cell {
                Json::Null => nulls += 1,
                Json::Number(n) if n.is_i64() || n.is_u64() => ints += 1,
                Json::Number(_) => floats += 1,
                _ => other += 1,
            }
        }
        if other > 0 || ints + floats == 0 {
            ChunkDtype::Object
        } else if floats > 0 || nulls > 0 {
            ChunkDtype::Float
        } else {
            ChunkDtype::Int
        }
    }

    fn write(self, cell: &Json) -> String {
        match (self, cell) {
            (_, Json::Null) => String::new(),
            (ChunkDtype::Float, Json::Number(n)) => float_repr(n.as_f64().unwrap_or(f64::NAN)),
            (_, Json::Number(n)) if n.is_f64() => float_repr(n.as_f64().unwrap_or(f64::NAN)),
            (_, Json::Number(n)) => n.to_string(),
            (_, Json::String(s)) => s.clone(),
            (_, Json::Bool(b)) => if *b { "True" } else { "False" }.into(),
            (_, other) => other.to_string(),
        }
    }
}

/// Python's `csv.writer` with `QUOTE_MINIMAL`: a field holding `,`, `"`, `\r` or `\n` is quoted
/// (its `"` doubled), and a row whose only field is empty is written `""` so that it is not a
/// blank line.
fn write_row<'a>(out: &mut String, fields: impl Iterator<Item = &'a str>) {
    let fields: Vec<&str> = fields.collect();
    if fields.len() == 1 && fields[0].is_empty() {
        out.push_str("\"\"\n");
        return;
    }
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\r', '\n']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(field);
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn chunks_are_typed_as_pandas_types_them() {
        let columns = vec!["n".to_string(), "t".to_string()];
        let rows = vec![vec![json!(5), json!("a,b")], vec![Json::Null, json!(26)]];
        assert_eq!(result_csv(&columns, &rows), "n,t\n5.0,\"a,b\"\n,26\n");
        let one = vec!["x".to_string()];
        assert_eq!(result_csv(&one, &[vec![Json::Null]]), "x\n\"\"\n");
        assert_eq!(result_csv(&one, &[vec![json!(1e16)]]), "x\n1e+16\n");
    }
}
