//! Reading JSON text straight into a result set, without building a JSON tree first: the common
//! shapes (an array of rows, of records or of scalars; `{"columns", "rows"}`; pandas `split`)
//! are read cell by cell as the parser meets them, and JSON Lines (one row per line) line by
//! line. The stream (`stream`) reads a document's rows with the byte-level item reader and comes
//! here for the items that reader hands over and for the document around the rows; anything
//! this does not read exactly as `read` would (another shape, a ragged row, too many keys,
//! invalid JSON) it leaves to `read`, which also names the place of an error.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{ResultError, ResultSet, Rows, Value};

/// Most columns a result may have. Rows as objects make a column of every key any row has, so
/// rows that each bring keys of their own would make a table of rows x keys cells: refused.
pub const MAX_COLUMNS: usize = 4_096;

/// The result set in `text`, or `None` when the slow path must decide.
pub(crate) fn read(text: &str) -> Option<ResultSet> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let result = deserializer.deserialize_any(TopVisitor).ok()?;
    deserializer.end().ok()?;
    Some(result)
}

/// Any error: the fast path gives up and the tree-based reader takes over.
#[derive(Debug)]
pub(super) struct GiveUp;

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
struct JsonCell(Value);

impl<'de> de::Deserialize<'de> for JsonCell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JsonCell, D::Error> {
        deserializer.deserialize_any(JsonCellVisitor).map(JsonCell)
    }
}

struct JsonCellVisitor;

impl<'de> Visitor<'de> for JsonCellVisitor {
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
struct FieldKey<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for FieldKey<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<FieldKey<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = FieldKey<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<FieldKey<'de>, E> {
        Ok(FieldKey(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<FieldKey<'de>, E> {
        Ok(FieldKey(Cow::Owned(s.to_string())))
    }
}

/// What one item of a top-level array was: a row, a record or a scalar; all items must be of
/// one kind.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Item {
    Row,
    Record,
    Scalar,
}

/// What reading items builds: the rows, straight into the flat buffer (no allocation per row),
/// and the record keys numbered as columns in the order they first appear.
#[derive(Default)]
pub(super) struct ItemTable {
    pub columns: Columns,
    pub rows: Rows,
    /// One record's values by column, reused from record to record.
    pub record: Vec<Value>,
    /// The kind of the first item read.
    pub kind: Option<Item>,
}

/// Reads one item into the table.
struct ItemSeed<'a> {
    table: &'a mut ItemTable,
}

/// The columns of records, in the order their keys first appear.
#[derive(Default)]
pub(super) struct Columns {
    pub names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Columns {
    /// The column of `key`, the `position`-th key of its record: records usually list their keys
    /// in one order, so the column at that position is tried before the map.
    pub(super) fn number(&mut self, key: &str, position: usize) -> Option<usize> {
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

impl ItemSeed<'_> {
    fn scalar<E>(self, value: Result<Value, E>) -> Result<Item, E> {
        self.table.rows.push([value?]);
        Ok(Item::Scalar)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_> {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row, a record or a scalar")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        let rows = &mut self.table.rows;
        let start = rows.start_row();
        let mut width = 0;
        while let Some(JsonCell(value)) = seq.next_element()? {
            width += 1;
            if width > MAX_COLUMNS {
                return Err(give_up());
            }
            rows.push_cell(value);
        }
        rows.end_row(start);
        Ok(Item::Row)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let ItemTable {
            columns,
            rows,
            record,
            ..
        } = self.table;
        record.clear();
        record.resize(columns.names.len(), Value::Null);
        let mut position = 0;
        while let Some(FieldKey(key)) = map.next_key()? {
            let JsonCell(value) = map.next_value()?;
            let at = columns.number(&key, position).ok_or_else(give_up)?;
            position += 1;
            if at >= record.len() {
                record.resize(at + 1, Value::Null);
            }
            // A key written twice keeps its last value, as a JSON object does.
            record[at] = value;
        }
        rows.push(record.drain(..));
        Ok(Item::Record)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
        self.scalar(Ok(Value::Null))
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Item, E> {
        self.scalar(JsonCellVisitor.visit_bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Item, E> {
        self.scalar(JsonCellVisitor.visit_i64(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Item, E> {
        self.scalar(JsonCellVisitor.visit_u64(u))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Item, E> {
        self.scalar(JsonCellVisitor.visit_f64(f))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Item, E> {
        self.scalar(JsonCellVisitor.visit_str(s))
    }
}

impl ItemTable {
    /// The result set read: records get their keys as columns (a record read before a column
    /// appeared is NULL there), other items positional names.
    pub(super) fn finish(mut self) -> ResultSet {
        if self.kind == Some(Item::Record) {
            self.rows.pad_to(self.columns.names.len());
            ResultSet::named(self.columns.names, self.rows)
        } else {
            ResultSet::unnamed(self.rows)
        }
    }
}

/// What an array's items may be.
#[derive(Clone, Copy)]
pub(super) enum Items {
    /// Rows, records or scalars, as the first item is (a top-level array).
    Any,
    /// Rows only (the `rows` of an object), as wide as `width` when the columns came first.
    Rows { width: Option<usize> },
}

/// Reads the items of an array into `table`: all of the kind of the table's first item, rows all
/// as wide as the first (or as `width`). Called once per array, or once per piece of one array
/// read in pieces (`stream`).
pub(super) struct ItemsSeed<'a> {
    pub table: &'a mut ItemTable,
    pub items: Items,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let table = self.table;
        let fixed_width = match self.items {
            Items::Rows { width } => width,
            Items::Any => None,
        };
        while let Some(item) = seq.next_element_seed(ItemSeed { table })? {
            if *table.kind.get_or_insert(item) != item {
                return Err(give_up());
            }
            match (item, self.items) {
                (Item::Row, _) => {
                    let width = table.rows.last().map_or(0, <[Value]>::len);
                    if !table.rows.is_uniform() || fixed_width.is_some_and(|w| w != width) {
                        return Err(give_up());
                    }
                }
                (Item::Record | Item::Scalar, Items::Any) => {}
                _ => return Err(give_up()),
            }
        }
        Ok(())
    }
}

/// Rows given as JSON Lines: one row, record or scalar per line (blank lines skipped), read line
/// by line into the result set, never held as one document. Every line must be of the first
/// line's kind, and rows as wide as the first; an error names the line.
pub(crate) fn read_lines(text: &str) -> Result<ResultSet, ResultError> {
    let mut lines = LineReader::default();
    for line in text.lines() {
        lines.line(line)?;
    }
    Ok(lines.finish())
}

/// Reads JSON Lines one line at a time (see [`read_lines`]), so that a file can be read in
/// blocks.
#[derive(Default)]
pub(super) struct LineReader {
    table: ItemTable,
    /// The lines read so far, blank ones too.
    number: usize,
    /// The first line with an item, and its kind.
    first: Option<(usize, Item)>,
}

impl LineReader {
    /// Reads the next line (without its line break).
    pub(super) fn line(&mut self, line: &str) -> Result<(), ResultError> {
        self.number += 1;
        let number = self.number;
        let fail = |message: String| ResultError {
            path: format!("line {number}"),
            message,
        };
        if line.trim().is_empty() {
            return Ok(());
        }
        let table = &mut self.table;
        let mut deserializer = serde_json::Deserializer::from_str(line);
        let item = ItemSeed { table }
            .deserialize(&mut deserializer)
            .and_then(|item| deserializer.end().map(|()| item))
            .map_err(|err| {
                if err.to_string().contains(&GiveUp.to_string()) {
                    fail(format!(
                        "more than {MAX_COLUMNS} columns (values in the row, or keys in the records so far); a result table has at most {MAX_COLUMNS} columns"
                    ))
                } else {
                    fail(format!("invalid JSON: {err}"))
                }
            })?;
        let (first_line, first_kind) = *self.first.get_or_insert((number, item));
        if item != first_kind {
            return Err(fail(format!(
                "expected a {} like line {first_line}, found a {}",
                kind_name(first_kind),
                kind_name(item)
            )));
        }
        if item == Item::Row && !table.rows.is_uniform() {
            let width = table.rows.first_width();
            let here = table.rows.last().map_or(0, <[Value]>::len);
            return Err(fail(format!(
                "the row has {here} values; the row on line {first_line} has {width}"
            )));
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> ResultSet {
        self.table.kind = self.first.map(|(_, kind)| kind);
        self.table.finish()
    }
}

/// What an item is, for messages.
fn kind_name(item: Item) -> &'static str {
    match item {
        Item::Row => "row (an array)",
        Item::Record => "record (an object)",
        Item::Scalar => "scalar",
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = ResultSet;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a result set")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ResultSet, A::Error> {
        let mut table = ItemTable::default();
        ItemsSeed {
            table: &mut table,
            items: Items::Any,
        }
        .visit_seq(seq)?;
        Ok(table.finish())
    }

    /// `{"columns": [...], "rows": [...]}` and pandas `split` (`columns`, `index`, `data`), keys
    /// in any order. Rows read before their columns are checked against them at the end.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResultSet, A::Error> {
        let mut columns: Option<Vec<String>> = None;
        let mut rows: Option<Rows> = None;
        while let Some(FieldKey(key)) = map.next_key()? {
            match key.as_ref() {
                "columns" if columns.is_none() => columns = Some(map.next_value()?),
                "rows" | "data" if rows.is_none() => {
                    let mut table = ItemTable::default();
                    map.next_value_seed(ItemsSeed {
                        table: &mut table,
                        items: Items::Rows {
                            width: columns.as_ref().map(Vec::len),
                        },
                    })?;
                    rows = Some(table.rows);
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
        if !rows.is_empty() && rows.first_width() != columns.len() {
            return Err(give_up());
        }
        Ok(ResultSet::named(columns, rows))
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
