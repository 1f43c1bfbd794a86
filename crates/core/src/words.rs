//! Words for messages: counts, so that every view says "1 row" and "2 rows", and the names of
//! JSON types.

use serde_json::Value;

/// The plural ending of a regular noun for `count` things: none for one, "s" otherwise.
pub fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// `count` and a regular `noun`, in the plural unless there is one: `counted(1, "row")` is
/// "1 row", `counted(0, "row")` "0 rows".
pub fn counted(count: usize, noun: &str) -> String {
    format!("{count} {noun}{}", plural(count))
}

/// The most bytes of an input a scorecard repeats (a normalized query, an error's inputs):
/// a 50 MB query is echoed as its first 64 KB, so one line does not carry it four times.
pub(crate) const MAX_ECHO_BYTES: usize = 64 * 1024;

/// `text` as a scorecard echoes it: whole, or its first [`MAX_ECHO_BYTES`] (at a character
/// boundary) and a note of how long it was.
pub(crate) fn echo(text: &str) -> String {
    if text.len() <= MAX_ECHO_BYTES {
        return text.to_string();
    }
    let mut end = MAX_ECHO_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [cut here: {} bytes in all]", &text[..end], text.len())
}

/// The JSON type of a value, as an error message names it.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "row"), "1 row");
        assert_eq!(counted(0, "row"), "0 rows");
        assert_eq!(counted(2, "test"), "2 tests");
    }
}
