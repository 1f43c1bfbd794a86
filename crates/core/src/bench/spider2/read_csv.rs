//! pandas' `read_csv(path)` with every default, as Spider 2.0's `evaluate.py` reads gold and
//! predicted CSVs (pandas 2.3's C parser): its tokenizer, its blank-line and field-count rules,
//! its missing values and its type inference per column. Only what decides a verdict is kept:
//! column names are read and dropped (the evaluator never looks at them).

use std::fmt;

/// A cell as pandas holds it after reading.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CsvCell {
    /// int64 or uint64 columns.
    Int(i128),
    /// float64 columns; `NaN` is a missing value.
    Float(f64),
    Bool(bool),
    Text(String),
}

/// A column's dtype, which decides how `DataFrame.values` converts its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CsvDtype {
    Int64,
    UInt64,
    Float64,
    Bool,
    /// Text, or booleans with missing values, or no rows at all.
    Object,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CsvColumn {
    pub dtype: CsvDtype,
    pub cells: Vec<CsvCell>,
}

/// A CSV file as pandas read it: its value columns (an implicit index column is dropped).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CsvFrame {
    pub columns: Vec<CsvColumn>,
}

/// Why pandas could not read a file; the text is pandas' own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CsvError(pub String);

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The texts pandas reads as missing (`STR_NA_VALUES`), compared with the whole unquoted field.
const NA_VALUES: [&str; 19] = [
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

/// `pd.read_csv(path)`.
pub(crate) fn read_csv(bytes: &[u8]) -> Result<CsvFrame, CsvError> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let at = err.valid_up_to();
        CsvError(format!(
            "'utf-8' codec can't decode byte 0x{:02x} in position {at}: invalid start byte",
            bytes.get(at).copied().unwrap_or(0)
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let records = tokenize(text)?;
    let Some((header, data)) = records.split_first() else {
        return Err(CsvError("No columns to parse from file".into()));
    };
    let width = header.fields.len();
    let rows = fit_fields(width, data)?;
    let leading = rows
        .first()
        .map_or(0, |row| row.len().saturating_sub(width));
    let columns = (leading..leading + width)
        .map(|index| {
            let tokens: Vec<&str> = rows
                .iter()
                .map(|row| row.get(index).map_or("", String::as_str))
                .collect();
            infer_column(&tokens)
        })
        .collect();
    Ok(CsvFrame { columns })
}

/// A record of the file and the line it ends on (pandas counts lines from 1).
struct Record {
    fields: Vec<String>,
    line: usize,
}

/// The C tokenizer (`tokenize_bytes`): `,` separates fields, `"` quotes one (a doubled `""`
/// inside is a quote), a line ends at `\n`, `\r\n` or `\r` outside quotes, and a line that is
/// empty or holds only spaces and tabs is skipped (`skip_blank_lines`).
fn tokenize(text: &str) -> Result<Vec<Record>, CsvError> {
    #[derive(Clone, Copy, PartialEq)]
    enum CsvState {
        StartRecord,
        StartField,
        InField,
        InQuoted,
        QuoteInQuoted,
    }
    let chars: Vec<char> = text.chars().collect();
    let mut records = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut state = CsvState::StartRecord;
    let mut line = 1;
    let mut quote_line = 0;
    let mut i = 0;
    let newline_width = |i: usize| {
        if chars[i] == '\r' && chars.get(i + 1) == Some(&'\n') {
            2
        } else {
            1
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let is_newline = c == '\n' || c == '\r';
        match state {
            CsvState::StartRecord => {
                if is_newline {
                    i += newline_width(i);
                    line += 1;
                    continue;
                }
                if c == ' ' || c == '\t' {
                    let end = (i..chars.len())
                        .find(|&j| chars[j] != ' ' && chars[j] != '\t')
                        .unwrap_or(chars.len());
                    if end == chars.len() {
                        break;
                    }
                    if chars[end] == '\n' || chars[end] == '\r' {
                        i = end + newline_width(end);
                        line += 1;
                        continue;
                    }
                }
                state = CsvState::StartField;
                continue;
            }
            CsvState::StartField | CsvState::InField | CsvState::QuoteInQuoted
                if c == ',' || is_newline =>
            {
                fields.push(std::mem::take(&mut field));
                if is_newline {
                    records.push(Record {
                        fields: std::mem::take(&mut fields),
                        line,
                    });
                    i += newline_width(i);
                    line += 1;
                    state = CsvState::StartRecord;
                    continue;
                }
                state = CsvState::StartField;
            }
            CsvState::StartField if c == '"' => {
                state = CsvState::InQuoted;
                quote_line = records.len() + 1;
            }
            CsvState::StartField | CsvState::InField => {
                field.push(c);
                state = CsvState::InField;
            }
            CsvState::InQuoted if c == '"' => state = CsvState::QuoteInQuoted,
            CsvState::InQuoted => {
                if is_newline {
                    line += 1;
                }
                field.push(c);
            }
            CsvState::QuoteInQuoted => {
                field.push(c);
                state = if c == '"' {
                    CsvState::InQuoted
                } else {
                    CsvState::InField
                };
            }
        }
        i += 1;
    }
    match state {
        CsvState::StartRecord => {}
        CsvState::InQuoted => {
            return Err(CsvError(format!(
                "Error tokenizing data. C error: EOF inside string starting at row {quote_line}"
            )));
        }
        _ => {
            fields.push(field);
            records.push(Record { fields, line });
        }
    }
    Ok(records)
}

/// `end_line`'s field counts: a short row is padded with empty fields to the count of the row
/// before it (the header's for the first data row); a row longer than the row before it is an
/// error, except the first data row, whose extra fields become the index (`leading_cols`).
fn fit_fields(width: usize, data: &[Record]) -> Result<Vec<Vec<String>>, CsvError> {
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(data.len());
    let mut expected = width;
    for (n, record) in data.iter().enumerate() {
        let mut fields = record.fields.clone();
        if n > 0 && fields.len() > expected {
            return Err(CsvError(format!(
                "Error tokenizing data. C error: Expected {expected} fields in line {}, saw {}\n",
                record.line,
                fields.len()
            )));
        }
        if fields.len() < expected {
            fields.resize(expected, String::new());
        }
        expected = fields.len();
        rows.push(fields);
    }
    Ok(rows)
}

/// A column's dtype and cells from its tokens (`_convert_tokens` with `dtype_cast_order`
/// int64, uint64, float64, bool, object; an int or bool column with missing values is then
/// upcast by `_maybe_upcast`).
fn infer_column(tokens: &[&str]) -> CsvColumn {
    let column = |dtype, cells| CsvColumn { dtype, cells };
    if tokens.is_empty() {
        return column(CsvDtype::Object, Vec::new());
    }
    let missing: Vec<bool> = tokens.iter().map(|t| NA_VALUES.contains(t)).collect();
    let any_missing = missing.contains(&true);
    let present = || {
        tokens
            .iter()
            .zip(&missing)
            .filter(|(_, m)| !**m)
            .map(|(t, _)| *t)
    };
    if let Some(ints) = present().map(parse_int).collect::<Option<Vec<i128>>>() {
        let fits_i64 = ints.iter().all(|&n| i64::try_from(n).is_ok());
        let fits_u64 = ints.iter().all(|&n| u64::try_from(n).is_ok());
        if !any_missing && (fits_i64 || fits_u64) {
            let dtype = if fits_i64 {
                CsvDtype::Int64
            } else {
                CsvDtype::UInt64
            };
            return column(dtype, with_missing(&missing, ints, CsvCell::Int));
        }
        if any_missing && fits_i64 {
            let cells = with_missing(&missing, ints, |n| CsvCell::Float(n as f64));
            return column(CsvDtype::Float64, cells);
        }
    }
    if let Some(floats) = present().map(parse_float).collect::<Option<Vec<f64>>>() {
        return column(
            CsvDtype::Float64,
            with_missing(&missing, floats, CsvCell::Float),
        );
    }
    if let Some(bools) = present().map(parse_bool).collect::<Option<Vec<bool>>>() {
        let dtype = if any_missing {
            CsvDtype::Object
        } else {
            CsvDtype::Bool
        };
        return column(dtype, with_missing(&missing, bools, CsvCell::Bool));
    }
    let texts = present().map(str::to_string).collect();
    column(
        CsvDtype::Object,
        with_missing(&missing, texts, CsvCell::Text),
    )
}

/// A column's cells: each present value made a cell in its place, `NaN` where one is missing.
fn with_missing<T>(missing: &[bool], values: Vec<T>, cell: impl Fn(T) -> CsvCell) -> Vec<CsvCell> {
    let mut values = values.into_iter();
    missing
        .iter()
        .map(|&m| {
            if m {
                CsvCell::Float(f64::NAN)
            } else {
                values.next().map_or(CsvCell::Float(f64::NAN), &cell)
            }
        })
        .collect()
}

/// C's `isspace` in the "C" locale, which pandas' number parsers skip around a number.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `str_to_int64` / `str_to_uint64`: spaces, an optional sign, digits, spaces.
fn parse_int(token: &str) -> Option<i128> {
    let body = token.trim_matches(is_space);
    let (negative, digits) = match body.as_bytes().first() {
        Some(b'-') => (true, &body[1..]),
        Some(b'+') => (false, &body[1..]),
        _ => (false, body),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        value = value.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        if value > i128::from(u64::MAX) {
            return None;
        }
    }
    let value = if negative { -value } else { value };
    (value >= i128::from(i64::MIN)).then_some(value)
}

/// `_try_double`: `precise_xstrtod` over the whole token (spaces around allowed), else the
/// infinities pandas names (`inf`, `Infinity`, with a sign, any case).
fn parse_float(token: &str) -> Option<f64> {
    if let Some(value) = precise_xstrtod(token) {
        return Some(value);
    }
    let lower = token.to_ascii_lowercase();
    match lower.as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// pandas' default float parser (`precise_xstrtod`, `float_precision=None`): at most 17
/// significant digits are accumulated in a double (later digits only move the exponent), then
/// the value is scaled by an exact power of ten. Not always correctly rounded:
/// `0.30000000000000004` reads as `0.3`, as in pandas 2.
fn precise_xstrtod(token: &str) -> Option<f64> {
    const MAX_DIGITS: i32 = 17;
    let bytes = token.as_bytes();
    let mut p = 0;
    while p < bytes.len() && is_space(bytes[p] as char) {
        p += 1;
    }
    let mut negative = false;
    if let Some(&sign @ (b'-' | b'+')) = bytes.get(p) {
        negative = sign == b'-';
        p += 1;
    }
    let mut number = 0.0f64;
    let mut exponent: i32 = 0;
    let mut digits = 0;
    while let Some(&b) = bytes.get(p).filter(|b| b.is_ascii_digit()) {
        if digits < MAX_DIGITS {
            number = number * 10.0 + f64::from(b - b'0');
            digits += 1;
        } else {
            exponent += 1;
        }
        p += 1;
    }
    if bytes.get(p) == Some(&b'.') {
        p += 1;
        let mut decimals = 0;
        while digits < MAX_DIGITS {
            let Some(&b) = bytes.get(p).filter(|b| b.is_ascii_digit()) else {
                break;
            };
            number = number * 10.0 + f64::from(b - b'0');
            p += 1;
            digits += 1;
            decimals += 1;
        }
        while bytes.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        exponent -= decimals;
    }
    if digits == 0 {
        return None;
    }
    if negative {
        number = -number;
    }
    if matches!(bytes.get(p), Some(b'e' | b'E')) {
        let mark = p;
        p += 1;
        let mut negative_exponent = false;
        if let Some(&sign @ (b'-' | b'+')) = bytes.get(p) {
            negative_exponent = sign == b'-';
            p += 1;
        }
        let mut n: i32 = 0;
        let mut exponent_digits = 0;
        while exponent_digits < MAX_DIGITS {
            let Some(&b) = bytes.get(p).filter(|b| b.is_ascii_digit()) else {
                break;
            };
            n = n.saturating_mul(10).saturating_add(i32::from(b - b'0'));
            exponent_digits += 1;
            p += 1;
        }
        if exponent_digits == 0 {
            p = mark;
        } else if negative_exponent {
            exponent = exponent.saturating_sub(n);
        } else {
            exponent = exponent.saturating_add(n);
        }
    }
    let power = |e: i32| -> f64 { format!("1e{e}").parse().unwrap_or(f64::INFINITY) };
    if exponent > 308 {
        return None;
    } else if exponent > 0 {
        number *= power(exponent);
    } else if exponent < -308 {
        if exponent < -616 {
            number = 0.0;
        } else {
            number /= power(-308 - exponent);
            number /= power(308);
        }
    } else {
        number /= power(-exponent);
    }
    if number.is_infinite() {
        return None;
    }
    while p < bytes.len() && is_space(bytes[p] as char) {
        p += 1;
    }
    (p == bytes.len()).then_some(number)
}

/// pandas' default `true_values` and `false_values`.
fn parse_bool(token: &str) -> Option<bool> {
    match token {
        "True" | "TRUE" | "true" => Some(true),
        "False" | "FALSE" | "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> CsvFrame {
        read_csv(text.as_bytes()).expect("readable")
    }

    #[test]
    fn types_are_inferred_per_column_as_pandas_does() {
        let f = frame("a,b,c,d,e\n007,1.5,True,x,\n\"26\",,false,1,\n");
        assert_eq!(f.columns[0].dtype, CsvDtype::Int64);
        assert_eq!(f.columns[0].cells, [CsvCell::Int(7), CsvCell::Int(26)]);
        assert_eq!(f.columns[1].dtype, CsvDtype::Float64);
        assert!(matches!(f.columns[1].cells[1], CsvCell::Float(x) if x.is_nan()));
        assert_eq!(f.columns[2].dtype, CsvDtype::Bool);
        assert_eq!(f.columns[3].cells[1], CsvCell::Text("1".into()));
        assert_eq!(f.columns[4].dtype, CsvDtype::Float64);
    }

    #[test]
    fn blank_lines_are_skipped_and_an_extra_first_field_is_the_index() {
        let f = frame("city\nParis\n\n  \nNice\n\"\"\n");
        assert_eq!(f.columns[0].cells.len(), 3);
        let f = frame("name,total\n1,Chen,100.49\n2,Li,3\n");
        assert_eq!(f.columns[0].cells[0], CsvCell::Text("Chen".into()));
        assert_eq!(f.columns[1].cells[1], CsvCell::Float(3.0));
        assert!(read_csv(b"a,b\n1,2\n1,2,3\n").is_err());
        assert!(read_csv(b" \n\n").is_err());
    }

    #[test]
    fn floats_read_as_pandas_2_reads_them() {
        assert_eq!(precise_xstrtod("0.30000000000000004"), Some(0.3));
        assert_eq!(precise_xstrtod(" 5. "), Some(5.0));
        assert_eq!(precise_xstrtod(".5"), Some(0.5));
        assert_eq!(precise_xstrtod("1e400"), None);
        assert_eq!(precise_xstrtod("1e"), None);
        assert_eq!(parse_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(
            parse_int("18446744073709551615"),
            Some(i128::from(u64::MAX))
        );
    }
}
