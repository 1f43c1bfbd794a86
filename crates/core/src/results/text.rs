//! The text of a result cell, kept small: a result of a million rows holds millions of cells, and
//! most text in results is short (names, codes, categories, dates).
//!
//! Text of up to 14 bytes is stored inline; longer text sits behind one pointer. That keeps the
//! whole `Value` at 16 bytes (a `String` alone is 24) and spares an allocation per short cell.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use serde::{Serialize, Serializer};

const INLINE: usize = 14;

#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    // A `Box<str>` or a `String` is two words or more and would make every `Value` 24 bytes;
    // long text pays a second allocation instead.
    #[allow(clippy::box_collection)]
    Heap(Box<String>),
}

impl Text {
    #[inline]
    pub fn new(text: &str) -> Text {
        let mut bytes = [0u8; INLINE];
        match bytes.get_mut(..text.len()) {
            Some(inline) => {
                inline.copy_from_slice(text.as_bytes());
                Text(Repr::Inline {
                    len: text.len() as u8,
                    bytes,
                })
            }
            None => Text(Repr::Heap(Box::new(text.to_owned()))),
        }
    }

    /// The text's bytes, without the UTF-8 check `as_str` makes: what hashing and equality need.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Heap(text) => text.as_bytes(),
        }
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // The bytes were copied from a `str` whole, so they are UTF-8.
            Repr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Heap(text) => text,
        }
    }
}

impl From<&str> for Text {
    #[inline]
    fn from(text: &str) -> Text {
        Text::new(text)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        if text.len() <= INLINE {
            Text::new(&text)
        } else {
            Text(Repr::Heap(Box::new(text)))
        }
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        match text.0 {
            Repr::Heap(text) => *text,
            Repr::Inline { .. } => text.as_str().to_owned(),
        }
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for Text {
    /// As `str` hashes: the bytes, then a byte no UTF-8 text holds.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
        state.write_u8(0xff);
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    /// UTF-8 bytes order as their code points do.
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Value;

    #[test]
    fn a_cell_takes_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn text_of_every_length_reads_back_whole() {
        for text in [
            "",
            "a",
            "fourteen bytes",
            "fifteen bytes!!",
            "ünïcödé",
            "日本語のテキスト",
        ] {
            assert_eq!(Text::new(text).as_str(), text);
            assert_eq!(String::from(Text::from(text.to_owned())), text);
        }
        assert_eq!(Text::new("b"), Text::from("b".to_owned()));
        assert!(Text::new("a") < Text::new("b"));
    }
}
