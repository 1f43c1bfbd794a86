//! A byte-level reader for the items of a rows array: rows, records and scalars whose cells are
//! plain JSON values (numbers, text, booleans, null). It is the fast path of `stream`, and so of
//! `read_result_text`: serde_json calls a visitor for every value and, with exact float parsing
//! on, parses decimals slowly; this reader goes through the bytes once and appends each cell to
//! the table as it meets it.
//!
//! It reads what the direct reader reads and gives the same cells: integers that fit an `i64`
//! are `Int` (`-0` is the float `-0.0`, as serde_json reads it), every other number is the
//! nearest `Float`, text is unescaped. What it does not take, a cell that is an array or an
//! object, an item of another kind, a ragged row, a number out of range, it hands back at the
//! start of that item, for the serde path to read from there. Text that is not JSON is refused.
//!
//! The bytes may stop anywhere: an item cut by the end of the bytes is left for the next call
//! with more bytes.

use super::direct::{Item, ItemTable, Items};
use super::{Text, Value};

/// How far a call got.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Reached {
    /// Every whole item before this offset is read; from there on the bytes stop inside an item.
    More(usize),
    /// The array's closing `]` is at this offset.
    Closed(usize),
    /// The item at this offset is not for this reader (see the module's notes).
    Unsupported(usize),
    /// The bytes are not JSON.
    Invalid,
}

/// What comes next in the array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Expect {
    /// The first item, or the `]` of an empty array.
    First,
    /// An item, after a comma.
    Item,
    /// A comma, or the `]` that closes the array.
    CommaOrClose,
}

/// Why an item was not read.
enum Stop {
    /// The bytes end inside it.
    Incomplete,
    Unsupported,
    Invalid,
}

/// Reads the items of one array, call after call, into a table.
pub(super) struct ItemReader {
    pub expect: Expect,
    items: Items,
    /// Unescaped text, reused from string to string.
    unescaped: String,
}

impl ItemReader {
    /// A reader placed just after the array's `[`.
    pub(super) fn new(items: Items) -> ItemReader {
        ItemReader {
            expect: Expect::First,
            items,
            unescaped: String::new(),
        }
    }

    /// Reads the items in `bytes`, which start where the last call's `More` left off.
    pub(super) fn read(&mut self, bytes: &[u8], table: &mut ItemTable) -> Reached {
        let mut at = 0;
        loop {
            at = skip_whitespace(bytes, at);
            let Some(&byte) = bytes.get(at) else {
                return Reached::More(at);
            };
            match (self.expect, byte) {
                (Expect::First | Expect::CommaOrClose, b']') => return Reached::Closed(at),
                (Expect::CommaOrClose, b',') => {
                    self.expect = Expect::Item;
                    at += 1;
                }
                (Expect::CommaOrClose, _) | (Expect::Item, b']') => return Reached::Invalid,
                (Expect::First | Expect::Item, _) => match self.item(bytes, at, table) {
                    Ok(end) => {
                        self.expect = Expect::CommaOrClose;
                        at = end;
                    }
                    Err(Stop::Incomplete) => return Reached::More(at),
                    Err(Stop::Unsupported) => return Reached::Unsupported(at),
                    Err(Stop::Invalid) => return Reached::Invalid,
                },
            }
        }
    }

    /// Reads the item at `at` into the table; the offset just after it.
    fn item(&mut self, bytes: &[u8], at: usize, table: &mut ItemTable) -> Result<usize, Stop> {
        let kind = match bytes[at] {
            b'[' => Item::Row,
            b'{' => Item::Record,
            _ => Item::Scalar,
        };
        let allowed = match self.items {
            Items::Any => table.kind.is_none_or(|first| first == kind),
            Items::Rows { .. } => kind == Item::Row,
        };
        if !allowed {
            return Err(Stop::Unsupported);
        }
        let end = match kind {
            Item::Row => self.row(bytes, at + 1, table)?,
            Item::Record => self.record(bytes, at + 1, table)?,
            Item::Scalar => {
                let (value, end) = self.cell(bytes, at)?;
                table.rows.push([value]);
                end
            }
        };
        table.kind = Some(kind);
        Ok(end)
    }

    /// The cells of a row, from just after its `[`; on failure nothing of the row is kept.
    fn row(&mut self, bytes: &[u8], at: usize, table: &mut ItemTable) -> Result<usize, Stop> {
        let start = table.rows.start_row();
        let read = self.cells(bytes, at, table);
        let width = table.rows.start_row() - start;
        let fits = width <= super::MAX_COLUMNS
            && match self.items {
                Items::Rows { width: Some(w) } => w == width,
                _ => table.rows.is_empty() || table.rows.first_width() == width,
            };
        match read {
            Ok(end) if fits => {
                table.rows.end_row(start);
                Ok(end)
            }
            Ok(_) => {
                // A ragged or too wide row is for the serde path, which leaves it to the full
                // reader and its error.
                table.rows.abandon_row(start);
                Err(Stop::Unsupported)
            }
            Err(stop) => {
                table.rows.abandon_row(start);
                Err(stop)
            }
        }
    }

    fn cells(&mut self, bytes: &[u8], mut at: usize, table: &mut ItemTable) -> Result<usize, Stop> {
        at = skip_whitespace(bytes, at);
        if bytes.get(at) == Some(&b']') {
            return Ok(at + 1);
        }
        loop {
            let (value, end) = self.cell(bytes, skip_whitespace(bytes, at))?;
            table.rows.push_cell(value);
            at = skip_whitespace(bytes, end);
            match bytes.get(at) {
                Some(b',') => at += 1,
                Some(b']') => return Ok(at + 1),
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
        }
    }

    /// The fields of a record, from just after its `{`: each key is a column, numbered in the
    /// order keys first appear; a key written twice keeps its last value.
    fn record(&mut self, bytes: &[u8], at: usize, table: &mut ItemTable) -> Result<usize, Stop> {
        let start = table.rows.start_row();
        match self.fields_in_order(bytes, at, table) {
            Ok(Some(end)) => {
                let rows = &mut table.rows;
                for _ in rows.start_row() - start..table.columns.names.len() {
                    rows.push_cell(Value::Null);
                }
                rows.end_row(start);
                Ok(end)
            }
            Ok(None) => {
                table.rows.abandon_row(start);
                self.fields_by_key(bytes, at, table)
            }
            Err(stop) => {
                table.rows.abandon_row(start);
                Err(stop)
            }
        }
    }

    /// Reads a record's values straight into a row, as long as its keys are the columns in
    /// their order (as records mostly are); `None` at the first key that is not.
    fn fields_in_order(
        &mut self,
        bytes: &[u8],
        mut at: usize,
        table: &mut ItemTable,
    ) -> Result<Option<usize>, Stop> {
        let names = &table.columns.names;
        at = skip_whitespace(bytes, at);
        if bytes.get(at) == Some(&b'}') {
            return Ok(Some(at + 1));
        }
        for name in names {
            at = skip_whitespace(bytes, at);
            match bytes.get(at) {
                Some(b'"') => {}
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
            let end = text_end(bytes, at + 1)?;
            if bytes[end] != b'"' || &bytes[at + 1..end] != name.as_bytes() {
                return Ok(None);
            }
            at = skip_whitespace(bytes, end + 1);
            match bytes.get(at) {
                Some(b':') => at += 1,
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
            let (value, end) = self.cell(bytes, skip_whitespace(bytes, at))?;
            table.rows.push_cell(value);
            at = skip_whitespace(bytes, end);
            match bytes.get(at) {
                Some(b',') => at += 1,
                Some(b'}') => return Ok(Some(at + 1)),
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
        }
        // More keys than columns: a new column.
        Ok(None)
    }

    /// Reads a record's fields by key, whatever their order, through the record's scratch row.
    fn fields_by_key(
        &mut self,
        bytes: &[u8],
        mut at: usize,
        table: &mut ItemTable,
    ) -> Result<usize, Stop> {
        let ItemTable {
            columns,
            rows,
            record,
            ..
        } = table;
        record.clear();
        record.resize(columns.names.len(), Value::Null);
        at = skip_whitespace(bytes, at);
        if bytes.get(at) == Some(&b'}') {
            rows.push(record.drain(..));
            return Ok(at + 1);
        }
        let mut position = 0;
        loop {
            at = skip_whitespace(bytes, at);
            match bytes.get(at) {
                Some(b'"') => {}
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
            let (key, end) = self.string(bytes, at + 1)?;
            let column = columns.number(key, position).ok_or(Stop::Unsupported)?;
            position += 1;
            at = skip_whitespace(bytes, end);
            match bytes.get(at) {
                Some(b':') => at += 1,
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
            let (value, end) = self.cell(bytes, skip_whitespace(bytes, at))?;
            if column >= record.len() {
                record.resize(column + 1, Value::Null);
            }
            record[column] = value;
            at = skip_whitespace(bytes, end);
            match bytes.get(at) {
                Some(b',') => at += 1,
                Some(b'}') => {
                    rows.push(record.drain(..));
                    return Ok(at + 1);
                }
                Some(_) => return Err(Stop::Invalid),
                None => return Err(Stop::Incomplete),
            }
        }
    }

    /// The value at `at` and the offset just after it.
    fn cell(&mut self, bytes: &[u8], at: usize) -> Result<(Value, usize), Stop> {
        match bytes.get(at) {
            None => Err(Stop::Incomplete),
            Some(b'"') => {
                let (text, end) = self.string(bytes, at + 1)?;
                Ok((Value::Text(Text::new(text)), end))
            }
            Some(b'-' | b'0'..=b'9') => number(bytes, at),
            Some(b't') => literal(bytes, at, b"true", Value::Bool(true)),
            Some(b'f') => literal(bytes, at, b"false", Value::Bool(false)),
            Some(b'n') => literal(bytes, at, b"null", Value::Null),
            Some(b'[' | b'{') => Err(Stop::Unsupported),
            Some(_) => Err(Stop::Invalid),
        }
    }

    /// The text of a string whose opening quote is just before `at`, and the offset after its
    /// closing quote.
    fn string<'a>(&'a mut self, bytes: &'a [u8], at: usize) -> Result<(&'a str, usize), Stop> {
        let stop = text_end(bytes, at)?;
        if bytes[stop] == b'"' {
            let text = std::str::from_utf8(&bytes[at..stop]).map_err(|_| Stop::Invalid)?;
            return Ok((text, stop + 1));
        }
        let unescaped = &mut self.unescaped;
        unescaped.clear();
        let mut plain = at;
        let mut at = stop;
        loop {
            unescaped.push_str(std::str::from_utf8(&bytes[plain..at]).map_err(|_| Stop::Invalid)?);
            if bytes[at] == b'"' {
                return Ok((unescaped, at + 1));
            }
            // `bytes[at]` is a backslash.
            let escape = *bytes.get(at + 1).ok_or(Stop::Incomplete)?;
            at += 2;
            let c = match escape {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let (c, end) = unicode_escape(bytes, at)?;
                    at = end;
                    c
                }
                _ => return Err(Stop::Invalid),
            };
            unescaped.push(c);
            plain = at;
            at = text_end(bytes, at)?;
        }
    }
}

/// The offset of the first quote or backslash from `at` on. A control character before it is
/// not JSON.
fn text_end(bytes: &[u8], at: usize) -> Result<usize, Stop> {
    let rest = bytes.get(at..).unwrap_or_default();
    match rest.iter().position(|&b| STRING_STOP[usize::from(b)]) {
        Some(found) if rest[found] < 0x20 => Err(Stop::Invalid),
        Some(found) => Ok(at + found),
        None => Err(Stop::Incomplete),
    }
}

/// The bytes that end the plain run of a string: a quote, a backslash, or a control character
/// (which JSON does not allow there).
const STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = true;
        i += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// The character of a `\u` escape whose four hex digits start at `at` (a surrogate pair takes
/// a second escape), and the offset after it.
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Stop> {
    let first = hex4(bytes, at)?;
    if !(0xD800..0xDC00).contains(&first) {
        // A lone low surrogate is not a character; serde_json refuses it too.
        return char::from_u32(first)
            .map(|c| (c, at + 4))
            .ok_or(Stop::Invalid);
    }
    match bytes.get(at + 4..at + 6) {
        Some(b"\\u") => {}
        Some(_) => return Err(Stop::Invalid),
        None => return Err(Stop::Incomplete),
    }
    let second = hex4(bytes, at + 6)?;
    if !(0xDC00..0xE000).contains(&second) {
        return Err(Stop::Invalid);
    }
    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    char::from_u32(code)
        .map(|c| (c, at + 10))
        .ok_or(Stop::Invalid)
}

fn hex4(bytes: &[u8], at: usize) -> Result<u32, Stop> {
    let digits = bytes.get(at..at + 4).ok_or(Stop::Incomplete)?;
    digits.iter().try_fold(0u32, |code, &digit| {
        let value = char::from(digit).to_digit(16).ok_or(Stop::Invalid)?;
        Ok(code * 16 + value)
    })
}

/// `true`, `false` or `null` at `at`.
fn literal<const N: usize>(
    bytes: &[u8],
    at: usize,
    word: &[u8; N],
    value: Value,
) -> Result<(Value, usize), Stop> {
    let rest = &bytes[at..];
    if rest.get(..N) == Some(word) {
        Ok((value, at + N))
    } else if rest.len() < N && word.starts_with(rest) {
        Err(Stop::Incomplete)
    } else {
        Err(Stop::Invalid)
    }
}

/// The number at `at`, read as serde_json reads it, and the offset after it. A number the bytes
/// end in may go on in the next bytes, so it is incomplete.
fn number(bytes: &[u8], at: usize) -> Result<(Value, usize), Stop> {
    let negative = bytes[at] == b'-';
    let mut end = at + usize::from(negative);
    let digits_start = end;
    let mut value = 0u64;
    while let Some(digit) = bytes
        .get(end)
        .map(|b| b.wrapping_sub(b'0'))
        .filter(|&d| d < 10)
    {
        // Nineteen digits always fit; a longer number is read as a float below.
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        end += 1;
    }
    let digits = end - digits_start;
    let magnitude = (digits <= 19).then_some(value);
    if digits == 0 {
        return if end == bytes.len() {
            Err(Stop::Incomplete)
        } else {
            Err(Stop::Invalid)
        };
    }
    if digits > 1 && bytes[digits_start] == b'0' {
        return Err(Stop::Invalid);
    }
    let mut integer = true;
    let mut fraction = None;
    if bytes.get(end) == Some(&b'.') {
        integer = false;
        let from = end + 1;
        end = required_digits(bytes, from)?;
        fraction = Some(&bytes[from..end]);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        integer = false;
        fraction = None;
        end += 1;
        if matches!(bytes.get(end), Some(b'+' | b'-')) {
            end += 1;
        }
        end = required_digits(bytes, end)?;
    }
    if end == bytes.len() {
        return Err(Stop::Incomplete);
    }
    let value = match magnitude {
        Some(m) if integer && !negative => {
            i64::try_from(m).map_or(Value::Float(m as f64), Value::Int)
        }
        // serde_json reads `-0` as the float -0.0, and a negative integer below `i64::MIN` as a
        // float.
        Some(0) if integer => Value::Float(-0.0),
        Some(m) if integer && m <= 1 << 63 => Value::Int(0i64.wrapping_sub_unsigned(m)),
        Some(m) if let Some(float) = fraction.and_then(|digits| short_decimal(m, digits)) => {
            Value::Float(if negative { -float } else { float })
        }
        _ => {
            // The text is ASCII digits, signs, `.` and `e`: a `str` by construction.
            let text = std::str::from_utf8(&bytes[at..end]).map_err(|_| Stop::Invalid)?;
            let float: f64 = text.parse().map_err(|_| Stop::Invalid)?;
            if !float.is_finite() {
                // serde_json refuses a number out of range; the serde path says so.
                return Err(Stop::Unsupported);
            }
            Value::Float(float)
        }
    };
    Ok((value, end))
}

/// A decimal without exponent whose digits fit in 53 bits, as the nearest float: the digits
/// as an integer and a power of ten up to 10^22 are both exact floats, and one division of
/// exact floats rounds correctly (Clinger's fast path). `None` when the digits do not fit.
fn short_decimal(integer: u64, fraction: &[u8]) -> Option<f64> {
    const POWERS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let power = POWERS.get(fraction.len())?;
    let digits = fraction.iter().try_fold(integer, |m, &digit| {
        m.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
    })?;
    (digits <= 1 << 53).then(|| digits as f64 / power)
}

/// The offset after one digit or more at `at`.
fn required_digits(bytes: &[u8], at: usize) -> Result<usize, Stop> {
    let count = bytes[at.min(bytes.len())..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    match (count, at + count == bytes.len()) {
        (_, true) => Err(Stop::Incomplete),
        (0, false) => Err(Stop::Invalid),
        _ => Ok(at + count),
    }
}

fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str, items: Items) -> (Reached, ItemTable) {
        let mut table = ItemTable::default();
        let step = ItemReader::new(items).read(text.as_bytes(), &mut table);
        (step, table)
    }

    #[test]
    fn plain_cells_are_read_to_the_closing_bracket() {
        let text = r#"[1, -2.5e1, "a\"b", "caf\u00e9", true, false, null], [3, 4, "", "x", false, true, null]] tail"#;
        let (step, table) = read_all(text, Items::Any);
        assert_eq!(step, Reached::Closed(text.len() - 6));
        let rows = table.rows.to_vecs();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][1], Value::Float(-25.0));
        assert_eq!(rows[0][2], Value::Text("a\"b".into()));
        assert_eq!(rows[0][3], Value::Text("caf\u{e9}".into()));
    }

    #[test]
    fn an_item_cut_by_the_end_of_the_bytes_waits_for_more() {
        for (text, read) in [
            ("[1, 2], [3, 4", 8),
            ("[1], [2], [12", 10),
            ("1, 2, 34", 6),
            ("[\"ab", 0),
            ("[1], [tru", 5),
            ("{\"a\": 1}, {\"a\"", 10),
            ("[1], [2.", 5),
            ("[\"\\ud83d\\u", 0),
        ] {
            let (step, table) = read_all(text, Items::Any);
            assert_eq!(step, Reached::More(read), "{text}");
            // Nothing of the cut item is kept.
            assert!(table.rows.iter().all(|row| !row.is_empty()), "{text}");
        }
    }

    /// Numbers of every length, signed, with and without fraction and exponent, read by this
    /// reader and by serde_json (with its exact float parsing): the same values.
    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let digits = |count: u64, next: &mut dyn FnMut(u64) -> u64| -> String {
            (0..count)
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect()
        };
        let mut numbers = Vec::new();
        for _ in 0..20_000 {
            let mut number = String::new();
            if next(2) == 0 {
                number.push('-');
            }
            let whole = digits(next(24), &mut next)
                .trim_start_matches('0')
                .to_string();
            number.push_str(if whole.is_empty() { "0" } else { &whole });
            if next(2) == 0 {
                number.push('.');
                number.push_str(&digits(1 + next(24), &mut next));
            }
            if next(4) == 0 {
                number.push_str(["e", "E", "e-", "e+"][next(4) as usize]);
                number.push_str(&(1 + next(280)).to_string());
            }
            numbers.push(number);
        }
        let text = format!("[{}]", numbers.join(","));
        let (step, table) = read_all(&text[1..], Items::Any);
        assert_eq!(step, Reached::Closed(text.len() - 2));
        let expected = super::super::direct::read(&text).expect("serde_json reads it");
        for (at, (ours, theirs)) in table.rows.iter().zip(expected.rows.iter()).enumerate() {
            assert_eq!(ours, theirs, "{}", numbers[at]);
            if let ([Value::Float(a)], [Value::Float(b)]) = (ours, theirs) {
                assert_eq!(a.to_bits(), b.to_bits(), "{}", numbers[at]);
            }
        }
    }

    #[test]
    fn nested_cells_and_other_kinds_are_handed_back_at_their_item() {
        assert_eq!(
            read_all("[1], [[2]]", Items::Any).0,
            Reached::Unsupported(5)
        );
        assert_eq!(
            read_all("[1], {\"a\": 2}", Items::Any).0,
            Reached::Unsupported(5)
        );
        assert_eq!(
            read_all("[1], [2, 3]", Items::Any).0,
            Reached::Unsupported(5)
        );
        assert_eq!(read_all("1, [2]", Items::Any).0, Reached::Unsupported(3));
        assert_eq!(
            read_all("[1], [2, 3]", Items::Rows { width: Some(1) }).0,
            Reached::Unsupported(5)
        );
        assert_eq!(
            read_all("1", Items::Rows { width: None }).0,
            Reached::Unsupported(0)
        );
    }
}
