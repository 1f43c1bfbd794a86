//! Reading a large result in blocks, as a file is read: the rows are parsed piece by piece as
//! the blocks arrive, so the whole text is never held at once, and a table of a million rows
//! costs its cells, not its cells and its text.
//!
//! A scanner follows the document's structure byte by byte (strings, nesting) to find the array
//! that holds the rows: the top-level array, or the `rows` (or pandas' `data`) of a top-level
//! object. That array's items are read by the byte-level item reader (`items`) as the blocks
//! arrive; an item cut by the end of a block waits for the next. Should an item be one that
//! reader does not take (a cell that is an array or an object, say), the rest of the rows are
//! cut at the commas between items into pieces of about [`StreamOptions::piece`] bytes, and
//! each piece is read by the direct reader as an array of its own, into the same table.
//! Everything around the rows (`columns`, pandas' `index`) is kept as text and read at the end
//! with an empty rows array in their place.
//!
//! It takes the shapes the direct reader takes and gives the same table. Anything else (JSON
//! Lines, another shape, invalid JSON, a ragged row) makes [`ResultStream::finish`] return
//! `None`: the caller then reads the whole text with `read_result_text`, which also names the
//! place of an error.

use serde::de::DeserializeSeed;

use super::ResultSet;
use super::direct::{self, GiveUp, ItemTable, Items, ItemsSeed};
use super::items::{Expect, ItemReader, Reached};

/// How a stream cuts the rows.
#[derive(Debug, Clone, Copy)]
pub struct StreamOptions {
    /// The size in bytes of a piece of rows read at once.
    pub piece: usize,
    /// The size of the whole text, when known (a file's length): the table is then sized once,
    /// from the first rows, instead of growing (and moving) as rows arrive.
    pub total_bytes: Option<u64>,
}

impl Default for StreamOptions {
    fn default() -> StreamOptions {
        StreamOptions {
            piece: 1 << 20,
            total_bytes: None,
        }
    }
}

/// How many rows the item reader reads before the table is sized from them.
const ROWS_TO_SIZE_FROM: usize = 1024;

/// A result read block by block: [`ResultStream::push`] each block in order, then
/// [`ResultStream::finish`].
pub struct ResultStream {
    options: StreamOptions,
    scan: Scan,
    /// The document without its rows: everything before the rows array's `[` and from its `]`.
    outside: Vec<u8>,
    /// `[` and the rows read since the last piece (once the item reader has handed over).
    piece: Vec<u8>,
    /// Reads the rows while it takes them; `None` once it has handed over to pieces.
    reader: Option<ItemReader>,
    /// The start of an item cut by the end of the last block, for the item reader.
    pending: Vec<u8>,
    /// The bytes given to the item reader so far, while the table is not yet sized.
    bytes_to_size_from: Option<u64>,
    table: ItemTable,
    /// The rows array has been seen (once only: a second is for the full reader to refuse).
    rows_seen: bool,
    /// What the items of the rows array may be.
    items: Items,
    /// The rows have been cut at a comma at least once.
    cut: bool,
    failed: bool,
}

/// Where the scanner is in the document.
#[derive(Default)]
struct Scan {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// The top-level value is an object.
    object: bool,
    /// Inside the rows array (its items are at `depth` 1 or 2).
    in_rows: bool,
    /// At depth 1 of the top object, a key comes next.
    expect_key: bool,
    /// The key being read (depth 1 of the top object), and the last one read.
    key: Option<Vec<u8>>,
    last_key: Vec<u8>,
    /// After `"rows":` or `"data":`, before its value.
    rows_value_next: bool,
    started: bool,
}

impl Scan {
    /// The depth of the rows array's items: inside the top array, or inside the top object's
    /// `rows`.
    fn rows_depth(&self) -> u32 {
        if self.object { 2 } else { 1 }
    }
}

/// The result set in a whole text, read as a stream: the fast path of
/// `read_result_text`.
pub(super) fn read_whole(text: &str) -> Option<ResultSet> {
    let mut stream = ResultStream::new(StreamOptions {
        total_bytes: Some(text.len() as u64),
        ..StreamOptions::default()
    });
    // In blocks, so that the table is sized after the first rows rather than grown as it fills.
    for block in text.as_bytes().chunks(1 << 20) {
        stream.push(block);
    }
    stream.finish()
}

impl ResultStream {
    pub fn new(options: StreamOptions) -> ResultStream {
        ResultStream {
            options,
            scan: Scan::default(),
            outside: Vec::new(),
            piece: Vec::new(),
            reader: None,
            pending: Vec::new(),
            bytes_to_size_from: options.total_bytes.map(|_| 0),
            table: ItemTable::default(),
            rows_seen: false,
            items: Items::Any,
            cut: false,
            failed: false,
        }
    }

    /// Reads the next block of the text (blocks may cut the text anywhere).
    pub fn push(&mut self, block: &[u8]) {
        if self.failed {
            return;
        }
        if let Err(GiveUp) = self.scan_block(block) {
            self.failed = true;
            // Nothing read so far is of use to the full reader.
            self.piece = Vec::new();
            self.pending = Vec::new();
            self.reader = None;
            self.outside = Vec::new();
            self.table = ItemTable::default();
        }
    }

    /// The stream has refused the text: `finish` will return `None`, and the rest of the text
    /// need not be read.
    pub fn gave_up(&self) -> bool {
        self.failed
    }

    /// The result set, or `None` when the text must be read whole (see the module's notes).
    pub fn finish(mut self) -> Option<ResultSet> {
        let scan = &self.scan;
        if self.failed || !self.rows_seen || scan.depth != 0 || scan.in_string || scan.in_rows {
            return None;
        }
        let outside = std::str::from_utf8(&self.outside).ok()?;
        // The document with an empty rows array: its columns, and its shape checked.
        let frame = direct::read(outside)?;
        if !scan.object {
            return Some(self.table.finish());
        }
        let rows = std::mem::take(&mut self.table.rows);
        if !rows.is_empty() && (!rows.is_uniform() || rows.first_width() != frame.columns.len()) {
            return None;
        }
        Some(ResultSet::named(frame.columns, rows))
    }

    fn scan_block(&mut self, block: &[u8]) -> Result<(), GiveUp> {
        // Bytes from `from` on are not yet copied to where they belong.
        let mut from = 0;
        let mut at = 0;
        while at < block.len() {
            if self.scan.in_rows && self.reader.is_some() {
                match self.read_items(&block[at..])? {
                    ItemsRead::Wait => return Ok(()),
                    ItemsRead::Closed(offset) => {
                        // The `]` at `at` closes the rows, and belongs to the outside too.
                        at += offset;
                        self.scan.depth -= 1;
                        self.scan.in_rows = false;
                        from = at;
                        at += 1;
                        continue;
                    }
                    ItemsRead::HandedOver(rest) => return self.scan_block(&rest),
                }
            }
            let scan = &mut self.scan;
            if scan.in_string {
                if scan.escaped {
                    scan.escaped = false;
                    at += 1;
                    continue;
                }
                // Most of a text is neither a quote nor a backslash: jump to the next (short
                // texts, keys above all, byte by byte; longer ones with `memchr`).
                let rest = &block[at..];
                let near = rest.len().min(16);
                let found = match rest[..near].iter().position(|&b| b == b'"' || b == b'\\') {
                    Some(found) => Some(found),
                    None => memchr::memchr2(b'"', b'\\', &rest[near..]).map(|f| f + near),
                };
                let Some(found) = found else {
                    if let Some(key) = &mut scan.key {
                        key.extend_from_slice(&block[at..]);
                    }
                    break;
                };
                if let Some(key) = &mut scan.key {
                    key.extend_from_slice(&block[at..at + found]);
                }
                at += found;
                if block[at] == b'\\' {
                    if scan.key.is_some() {
                        // An escaped key is for the full reader.
                        return Err(GiveUp);
                    }
                    scan.escaped = true;
                } else {
                    scan.in_string = false;
                    if let Some(key) = scan.key.take() {
                        scan.last_key = key;
                    }
                }
                at += 1;
                continue;
            }
            if scan.started && !scan.rows_value_next {
                // Numbers, literals and whitespace change nothing here.
                while at < block.len() && !STRUCTURAL[usize::from(block[at])] {
                    at += 1;
                }
                if at == block.len() {
                    break;
                }
            }
            let byte = block[at];
            if !STRUCTURAL[usize::from(byte)] {
                if !byte.is_ascii_whitespace() {
                    if !scan.started {
                        return Err(GiveUp);
                    }
                    scan.rows_value_next = false;
                }
                at += 1;
                continue;
            }
            if scan.started && scan.depth == 0 {
                // A second value after the document (JSON Lines, say): refused at once, not
                // after gathering the whole text as the document's outside.
                return Err(GiveUp);
            }
            scan.started = true;
            match byte {
                b'"' => {
                    scan.in_string = true;
                    if scan.depth == 1 && scan.object && scan.expect_key {
                        scan.key = Some(Vec::new());
                        scan.expect_key = false;
                    }
                    scan.rows_value_next = false;
                }
                b'[' | b'{' => {
                    let top = scan.depth == 0;
                    let opens_rows = byte == b'[' && (top || scan.rows_value_next);
                    if top {
                        scan.object = byte == b'{';
                        scan.expect_key = scan.object;
                    }
                    scan.rows_value_next = false;
                    scan.depth += 1;
                    if opens_rows {
                        let items = if top {
                            Items::Any
                        } else {
                            Items::Rows { width: None }
                        };
                        self.open_rows(block, &mut from, at, items)?;
                    }
                }
                b']' | b'}' => {
                    scan.depth = scan.depth.checked_sub(1).ok_or(GiveUp)?;
                    if scan.in_rows && scan.depth + 1 == scan.rows_depth() {
                        scan.in_rows = false;
                        self.piece.extend_from_slice(&block[from..=at]);
                        self.read_piece(StreamPiece::Last)?;
                        // The `]` belongs to the document outside the rows too.
                        from = at;
                    }
                }
                b',' => {
                    if scan.in_rows && scan.depth == scan.rows_depth() {
                        if self.piece.len() + (at - from) >= self.options.piece {
                            self.piece.extend_from_slice(&block[from..at]);
                            self.piece.push(b']');
                            self.read_piece(StreamPiece::Cut)?;
                            from = at + 1;
                        }
                    } else if scan.depth == 1 && scan.object {
                        scan.expect_key = true;
                    }
                }
                // `:`
                _ => {
                    if scan.depth == 1 && scan.object {
                        scan.rows_value_next =
                            matches!(scan.last_key.as_slice(), b"rows" | b"data");
                    }
                }
            }
            at += 1;
        }
        let rest = &block[from..];
        if self.scan.in_rows {
            self.piece.extend_from_slice(rest);
        } else {
            self.outside.extend_from_slice(rest);
        }
        Ok(())
    }

    /// The rows array opens at `block[at]`: what came before it goes outside, with its `[`.
    fn open_rows(
        &mut self,
        block: &[u8],
        from: &mut usize,
        at: usize,
        items: Items,
    ) -> Result<(), GiveUp> {
        if self.rows_seen {
            return Err(GiveUp);
        }
        self.rows_seen = true;
        self.scan.in_rows = true;
        self.items = items;
        self.reader = Some(ItemReader::new(items));
        self.pending.clear();
        self.outside.extend_from_slice(&block[*from..=at]);
        self.piece.clear();
        self.piece.push(b'[');
        *from = at + 1;
        Ok(())
    }

    /// Reads items from `rest` (the block from the scanner's place on, inside the rows) with
    /// the item reader, after the start of an item the last block cut.
    fn read_items(&mut self, rest: &[u8]) -> Result<ItemsRead, GiveUp> {
        let Some(reader) = self.reader.as_mut() else {
            return Err(GiveUp);
        };
        let carried = self.pending.len();
        if carried > 0 {
            self.pending.extend_from_slice(rest);
        }
        let bytes: &[u8] = if carried > 0 { &self.pending } else { rest };
        let step = reader.read(bytes, &mut self.table);
        if let Reached::Unsupported(at) = step {
            let unread = bytes[at..].to_vec();
            return Ok(self.hand_over(unread));
        }
        self.size_table(rest.len());
        match step {
            Reached::More(read) => {
                if carried > 0 {
                    self.pending.drain(..read);
                } else {
                    self.pending.extend_from_slice(&rest[read..]);
                }
                // The item reader starts a cut item again with every block: one item of many
                // blocks (a huge text, say) goes to the pieces, which read it once.
                if self.pending.len() > self.options.piece.saturating_mul(4) {
                    let unread = std::mem::take(&mut self.pending);
                    return Ok(self.hand_over(unread));
                }
                Ok(ItemsRead::Wait)
            }
            // What was carried ends inside an item, so the `]` is in `rest`.
            Reached::Closed(end) => {
                self.pending.clear();
                end.checked_sub(carried)
                    .map(ItemsRead::Closed)
                    .ok_or(GiveUp)
            }
            Reached::Unsupported(_) | Reached::Invalid => Err(GiveUp),
        }
    }

    /// Leaves the rest of the rows, from `unread` (which starts at an item) on, to the pieces.
    fn hand_over(&mut self, unread: Vec<u8>) -> ItemsRead {
        // After a comma, an empty piece is a trailing comma.
        self.cut = self.reader.as_ref().map(|reader| reader.expect) == Some(Expect::Item);
        self.reader = None;
        self.pending = Vec::new();
        ItemsRead::HandedOver(unread)
    }

    /// Sizes the table for the rows still to come, once enough rows are read to tell how many
    /// bytes a row takes.
    fn size_table(&mut self, given: usize) {
        let (Some(seen), Some(total)) = (&mut self.bytes_to_size_from, self.options.total_bytes)
        else {
            return;
        };
        *seen += given as u64;
        let rows = &mut self.table.rows;
        if rows.len() < ROWS_TO_SIZE_FROM {
            return;
        }
        let per_row = (*seen / rows.len() as u64).max(1);
        // A little over the estimate: rows vary in length, and growing once more would move
        // the whole table. Pages reserved and never written cost no memory.
        let expected = total / per_row + total / per_row / 16;
        rows.reserve(
            usize::try_from(expected)
                .unwrap_or(0)
                .saturating_sub(rows.len()),
        );
        self.bytes_to_size_from = None;
    }

    /// Reads the gathered piece (`[` items `]`) into the table and starts the next.
    fn read_piece(&mut self, piece: StreamPiece) -> Result<(), GiveUp> {
        let before = self.table.rows.len();
        // One check of the whole piece is faster than serde_json's check of each text.
        let text = std::str::from_utf8(&self.piece).map_err(|_| GiveUp)?;
        let mut deserializer = serde_json::Deserializer::from_str(text);
        ItemsSeed {
            table: &mut self.table,
            items: self.items,
        }
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end())
        .map_err(|_| GiveUp)?;
        // Every item adds a row. A piece without one came from a comma with no item on one of
        // its sides (`[,1]`, `[1,,2]`, `[1,]`), which JSON does not allow; an empty array is
        // one piece, the last, with nothing cut before it.
        if self.table.rows.len() == before && (piece == StreamPiece::Cut || self.cut) {
            return Err(GiveUp);
        }
        self.cut |= piece == StreamPiece::Cut;
        self.piece.clear();
        self.piece.push(b'[');
        Ok(())
    }
}

/// What the item reader did with a block.
enum ItemsRead {
    /// It read every whole item; the rest waits for the next block.
    Wait,
    /// It met the rows' `]`, this many bytes into the block it was given.
    Closed(usize),
    /// It handed over to pieces at an item it does not take: these bytes, the rest of the block
    /// with what was carried, are for the scanner.
    HandedOver(Vec<u8>),
}

/// The bytes that change the scanner's state outside a string; the rest (numbers, literals,
/// whitespace) are skipped.
const STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let bytes = *b"\"[]{},:";
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// A piece ends at a comma between items, or at the end of the rows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StreamPiece {
    Cut,
    Last,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream's table, the text given in blocks of `block` bytes and pieces of `piece`.
    fn streamed(text: &str, block: usize, piece: usize) -> Option<ResultSet> {
        let mut stream = ResultStream::new(StreamOptions {
            piece,
            total_bytes: Some(text.len() as u64),
        });
        for chunk in text.as_bytes().chunks(block.max(1)) {
            stream.push(chunk);
        }
        stream.finish()
    }

    #[test]
    fn every_cut_gives_the_table_the_direct_reader_gives() {
        let texts = [
            r#"[[1, "a,]"], [2, null], [3, "\"[x"]]"#,
            r#"[{"id": 1, "name": "a"}, {"name": "b"}, {"id": 3, "extra": [1, {"k": "]"}]}]"#,
            r#"[1, 2.5, "x", null, true]"#,
            r#" {"columns": ["id", "name"], "rows": [[1, "a"], [2, "b"], [3, "c"]]} "#,
            r#"{"rows": [[1, "a"], [2, "b"]], "columns": ["id", "name"]}"#,
            r#"{"columns": ["id"], "index": [0, 1, 2], "data": [[1], [2], [3]]}"#,
            r#"{"columns": ["rows"], "rows": [["rows"], ["data"]]}"#,
            "[]",
            r#"{"columns": [], "rows": []}"#,
            r#"[[], []]"#,
            "[[\"caf\u{e9}\", \"\u{1F600}\"], [\"b\", \"c\"]]",
            // Escapes, and numbers at the edges of what an integer holds.
            r#"[["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00x", "\u0041"], ["", " ", "\\"]]"#,
            r#"[[0, -0, 9223372036854775807, 9223372036854775808, -9223372036854775808, -9223372036854775809]]"#,
            r#"[[18446744073709551616, 123456789012345678901234567890, 1.5, -2.25e3, 1E-2, 0.1e+1]]"#,
            r#"[[0.30000000000000004, 2.2250738585072014e-308, 4.9e-324, 1.7976931348623157e308, 3.141592653589793238462643]]"#,
            // A cell the item reader does not take hands the rest to the pieces.
            r#"[[1, "a"], [2, [3, 4]], [5, {"k": "v"}], [6, "b"]]"#,
            r#"[{"id": 1}, {"id": 2, "tags": ["x"]}, {"id": 3}]"#,
            r#"{"columns": ["a", "b"], "rows": [[1, 2], [3, {"n": [4]}], [5, 6]]}"#,
            r#"[{"a\u0062": 1, "ab": 2}, {"ab": 3}]"#,
            "[ [ 1 ,\t2 ] ,\r\n[3,4] ]",
        ];
        for text in texts {
            let whole = direct::read(text).unwrap_or_else(|| panic!("direct: {text}"));
            for block in [1, 2, 3, 7, 64, 10_000] {
                for piece in [1, 5, 32, 1 << 20] {
                    assert_eq!(
                        streamed(text, block, piece).as_ref(),
                        Some(&whole),
                        "{text} in blocks of {block}, pieces of {piece}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_item_of_many_blocks_is_read_once() {
        let long = "x".repeat(3 << 20);
        let text = format!(r#"[["a", 1], ["{long}", 2], ["b", 3]]"#);
        let whole = direct::read(&text).expect("direct");
        let mut stream = ResultStream::new(StreamOptions {
            piece: 1 << 18,
            total_bytes: None,
        });
        for block in text.as_bytes().chunks(4096) {
            stream.push(block);
        }
        assert!(stream.reader.is_none(), "handed over to the pieces");
        assert_eq!(stream.finish(), Some(whole));
    }

    #[test]
    fn a_second_value_after_the_document_is_refused_at_once() {
        for first in [
            r#"{"a": 1}"#,
            "[1, 2]",
            r#"{"columns": ["a"], "rows": [[1]]}"#,
        ] {
            let mut stream = ResultStream::new(StreamOptions::default());
            stream.push(format!("{first}\n").as_bytes());
            assert!(!stream.gave_up(), "{first} alone");
            stream.push(b"{\"a\": 2}\n");
            assert!(stream.gave_up(), "{first} then a second value");
            assert_eq!(stream.finish(), None);
        }
    }

    #[test]
    fn what_the_direct_reader_refuses_is_left_to_the_full_reader() {
        for text in [
            r#"[[1, 2], [3]]"#,
            r#"[1, [2]]"#,
            r#"{"tables": []}"#,
            r#"{"columns": ["a", "b"], "rows": [[1]]}"#,
            r#"{"columns": ["a"], "rows": [[1]], "rows": [[2]]}"#,
            r#"{"columns": ["a"]}"#,
            "42",
            "[1,",
            "[1, 2] x",
            "[[1, 2], [3, 4],]",
            "{\"a\": 1}\n{\"a\": 2}",
            "\u{feff}[1]",
            "[,1]",
            "[1,,2]",
            "[1,]",
            "[[1],]",
            "[1 2]",
            "[[1 2]]",
            "[tru]",
            "[nul, 1]",
            "[01]",
            "[1.]",
            "[1e]",
            "[-]",
            "[.5]",
            "[\"a\u{1}\"]",
            r#"["\x"]"#,
            r#"["\ud800"]"#,
            r#"["\udc00"]"#,
            r#"["\u12g4"]"#,
            r#"[{"a" 1}]"#,
            r#"[{"a": 1,}]"#,
            r#"[{1: 2}]"#,
            "[1e400]",
            "[[1, 2], [3, [4]], [5]]",
        ] {
            for piece in [1, 1 << 20] {
                assert_eq!(streamed(text, 3, piece), None, "{text}");
            }
        }
    }
}
