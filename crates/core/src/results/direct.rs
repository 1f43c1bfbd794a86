//! Reading JSON text straight into a result set, without building a JSON tree first: the common
//! shapes (an array of rows, of records or of scalars; `{"columns", "rows"}`; pandas `split`)
//! are read cell by cell as the parser meets them, and JSON Lines (one row per line) line by
//! line. This is the fast path of
//! `read_result_text`; anything it does not read exactly as `read` would (another shape, a ragged
//! row, too many keys, invalid JSON) it leaves to `read`, which also names the place of an error.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::read::MAX_COLUMNS;
use super::{ResultError, ResultSet, Value};

/// The result set in `text`, or `None` when the slow path must decide.
pub fn read(text: &str) -> Option<ResultSet> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let result = deserializer.deserialize_any(TopVisitor).ok()?;
    deserializer.end().ok()?;
    Some(result)
}

/// Any error: the fast path gives up and the tree-based reader takes over.
#[derive(Debug)]
struct GiveUp;

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a shape the direct reader takes")
    }
}

fn give_up<E: de::Error>() -> E {
    E::custom(GiveUp)
}

/// One cell. Numbers are read as `Value::from_json` reads them: integers that fit an `i64` are
/// `Int`, every other number `Float`; an array or object in a cell is kept as its JSON text.
struct Cell(Value);

impl<'de> de::Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        deserializer.deserialize_any(CellVisitor).map(Cell)
    }
}

struct CellVisitor;

impl<'de> Visitor<'de> for CellVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a cell")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Text(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Text(s.into()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        let nested: serde_json::Value =
            de::Deserialize::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(Value::Text(nested.to_string().into()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let nested: serde_json::Value =
            de::Deserialize::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Value::Text(nested.to_string().into()))
    }
}

/// An object key, borrowed from the text when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_string())))
    }
}

/// One item of a top-level array: a row, a record or a scalar; all items must be of one kind.
enum Item {
    Row(Vec<Value>),
    /// Values by column, the columns numbered as they first appear (a record read before a
    /// column appeared is shorter: the rest is NULL).
    Record(Vec<Value>),
    Scalar(Value),
}

/// Reads items, numbering record keys in `columns` as they appear.
struct ItemSeed<'a> {
    columns: &'a mut Columns,
}

#[derive(Default)]
struct Columns {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Columns {
    /// The column of `key`, the `position`-th key of its record: records usually list their keys
    /// in one order, so the column at that position is tried before the map.
    fn number(&mut self, key: &str, position: usize) -> Option<usize> {
        if self.names.get(position).is_some_and(|name| name == key) {
            return Some(position);
        }
        if let Some(&at) = self.index.get(key) {
            return Some(at);
        }
        if self.names.len() >= MAX_COLUMNS {
            return None;
        }
        self.index.insert(key.to_string(), self.names.len());
        self.names.push(key.to_string());
        Some(self.names.len() - 1)
    }
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_> {
    type Value = Item;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Item, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_> {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row, a record or a scalar")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        let mut row = Vec::with_capacity(seq.size_hint().unwrap_or(8));
        while let Some(Cell(value)) = seq.next_element()? {
            row.push(value);
        }
        Ok(Item::Row(row))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut record: Vec<Value> = vec![Value::Null; self.columns.names.len()];
        let mut position = 0;
        while let Some(Key(key)) = map.next_key()? {
            let Cell(value) = map.next_value()?;
            let at = self.columns.number(&key, position).ok_or_else(give_up)?;
            position += 1;
            if at >= record.len() {
                record.resize(at + 1, Value::Null);
            }
            // A key written twice keeps its last value, as a JSON object does.
            record[at] = value;
        }
        Ok(Item::Record(record))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
        Ok(Item::Scalar(Value::Null))
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Item, E> {
        CellVisitor.visit_bool(b).map(Item::Scalar)
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Item, E> {
        CellVisitor.visit_i64(i).map(Item::Scalar)
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Item, E> {
        CellVisitor.visit_u64(u).map(Item::Scalar)
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Item, E> {
        CellVisitor.visit_f64(f).map(Item::Scalar)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Item, E> {
        CellVisitor.visit_str(s).map(Item::Scalar)
    }
}

/// The rows read, and the column names when the rows were records.
type Table = (Vec<Vec<Value>>, Option<Vec<String>>);

/// What an array's items may be.
#[derive(Clone, Copy)]
enum Items {
    /// Rows, records or scalars, as the first item is (a top-level array).
    Any,
    /// Rows only (the `rows` of an object), as wide as `width` when the columns came first.
    Rows { width: Option<usize> },
}

/// The items of an array, all of the first item's kind: the rows, and the column names when the
/// items were records. Rows must all be as wide as the first (or as `width`).
fn read_items<'de, A: SeqAccess<'de>>(mut seq: A, items: Items) -> Result<Table, A::Error> {
    let mut columns = Columns::default();
    let mut rows: Vec<Vec<Value>> = Vec::with_capacity(seq.size_hint().unwrap_or(1024));
    let mut records = false;
    let mut kind = None;
    let fixed_width = match items {
        Items::Rows { width } => width,
        Items::Any => None,
    };
    while let Some(item) = seq.next_element_seed(ItemSeed {
        columns: &mut columns,
    })? {
        let this = std::mem::discriminant(&item);
        if *kind.get_or_insert(this) != this {
            return Err(give_up());
        }
        match (item, items) {
            (Item::Row(row), _) => {
                let wanted = fixed_width.or_else(|| rows.first().map(Vec::len));
                if wanted.is_some_and(|w| w != row.len()) {
                    return Err(give_up());
                }
                rows.push(row);
            }
            (Item::Record(record), Items::Any) => {
                records = true;
                rows.push(record);
            }
            (Item::Scalar(value), Items::Any) => rows.push(vec![value]),
            _ => return Err(give_up()),
        }
    }
    if !records {
        return Ok((rows, None));
    }
    let width = columns.names.len();
    for row in &mut rows {
        row.resize(width, Value::Null);
    }
    Ok((rows, Some(columns.names)))
}

/// Rows given as JSON Lines: one row, record or scalar per line (blank lines skipped), read line
/// by line into the result set, never held as one document. Every line must be of the first
/// line's kind, and rows as wide as the first; an error names the line.
pub fn read_lines(text: &str) -> Result<ResultSet, ResultError> {
    let mut columns = Columns::default();
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut first: Option<(usize, &'static str)> = None;
    let mut records = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let fail = |message: String| ResultError {
            path: format!("line {number}"),
            message,
        };
        if line.trim().is_empty() {
            continue;
        }
        let mut deserializer = serde_json::Deserializer::from_str(line);
        let item = ItemSeed {
            columns: &mut columns,
        }
        .deserialize(&mut deserializer)
        .and_then(|item| deserializer.end().map(|()| item))
        .map_err(|err| {
            if err.to_string().contains(&GiveUp.to_string()) {
                fail(format!(
                    "the rows have more than {MAX_COLUMNS} different keys; a result table has at most {MAX_COLUMNS} columns"
                ))
            } else {
                fail(format!("invalid JSON: {err}"))
            }
        })?;
        let kind = kind_name(&item);
        let (first_line, first_kind) = *first.get_or_insert((number, kind));
        if kind != first_kind {
            return Err(fail(format!(
                "expected a {first_kind} like line {first_line}, found a {kind}"
            )));
        }
        match item {
            Item::Row(row) => {
                if let Some(width) = rows.first().map(Vec::len)
                    && width != row.len()
                {
                    return Err(fail(format!(
                        "the row has {} values; the row on line {first_line} has {width}",
                        row.len()
                    )));
                }
                rows.push(row);
            }
            Item::Record(record) => {
                records = true;
                rows.push(record);
            }
            Item::Scalar(value) => rows.push(vec![value]),
        }
    }
    if !records {
        return Ok(ResultSet::unnamed(rows));
    }
    let width = columns.names.len();
    for row in &mut rows {
        row.resize(width, Value::Null);
    }
    Ok(ResultSet::named(columns.names, rows))
}

/// What an item is, for messages.
fn kind_name(item: &Item) -> &'static str {
    match item {
        Item::Row(_) => "row (an array)",
        Item::Record(_) => "record (an object)",
        Item::Scalar(_) => "scalar",
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = ResultSet;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a result set")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ResultSet, A::Error> {
        Ok(match read_items(seq, Items::Any)? {
            (rows, Some(columns)) => ResultSet::named(columns, rows),
            (rows, None) => ResultSet::unnamed(rows),
        })
    }

    /// `{"columns": [...], "rows": [...]}` and pandas `split` (`columns`, `index`, `data`), keys
    /// in any order. Rows read before their columns are checked against them at the end.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResultSet, A::Error> {
        let mut columns: Option<Vec<String>> = None;
        let mut rows: Option<Vec<Vec<Value>>> = None;
        while let Some(Key(key)) = map.next_key()? {
            match key.as_ref() {
                "columns" if columns.is_none() => columns = Some(map.next_value()?),
                "rows" | "data" if rows.is_none() => {
                    rows = Some(map.next_value_seed(RowsSeed {
                        width: columns.as_ref().map(Vec::len),
                    })?);
                }
                "index" => {
                    map.next_value::<IgnoredAny>()?;
                }
                _ => return Err(give_up()),
            }
        }
        let (Some(columns), Some(rows)) = (columns, rows) else {
            return Err(give_up());
        };
        if rows.iter().any(|row| row.len() != columns.len()) {
            return Err(give_up());
        }
        Ok(ResultSet::named(columns, rows))
    }
}

/// The `rows` of a `{"columns", "rows"}` object: arrays only.
struct RowsSeed {
    width: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for RowsSeed {
    type Value = Vec<Vec<Value>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RowsSeed {
    type Value = Vec<Vec<Value>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        // Rows before their columns are as wide as the first row; the caller checks them
        // against the columns at the end.
        read_items(seq, Items::Rows { width: self.width }).map(|(rows, _)| rows)
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn the_common_shapes_are_read_directly() {
        for text in [
            r#"[[1, "a"], [2, null]]"#,
            r#"[{"id": 1, "name": "a"}, {"name": "b"}]"#,
            r#"[1, 2.5, "x"]"#,
            r#"{"columns": ["id", "name"], "rows": [[1, "a"]]}"#,
            r#"{"rows": [[1, "a"]], "columns": ["id", "name"]}"#,
            r#"{"columns": ["id"], "index": [0], "data": [[1]]}"#,
        ] {
            assert!(read(text).is_some(), "{text}");
        }
        // Left to the reader that names the place of the problem.
        for text in [
            r#"[[1, 2], [3]]"#,
            r#"{"tables": []}"#,
            "42",
            "[1, [2]]",
            "[1,",
        ] {
            assert!(read(text).is_none(), "{text}");
        }
    }
}
