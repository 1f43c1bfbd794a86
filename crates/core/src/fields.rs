//! How each field of a JSON line is read (`#[serde(deserialize_with = ...)]` in
//! `pairs::line` and `metrics::classification`): null is the same as absent, and a value of the
//! wrong kind is refused with what the field takes and what it found ("expected a string, found
//! a number"). [`read`] adds the field's name; a list's items are read one by one, so a refused
//! item is named by its place (`expected_tables[1]`).

use std::fmt::{self, Display};
use std::str::FromStr;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::words::json_kind;

/// Every name a struct's fields are read under, aliases included: serde hands them to the
/// deserializer, which here keeps them and reads nothing.
pub(crate) fn names_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    struct FieldNames<'a>(&'a mut &'static [&'static str]);
    impl<'de> Deserializer<'de> for FieldNames<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("names only"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut names));
    names
}

/// "expected a string, found a number".
pub(crate) fn refused(expected: &str, found: &Value) -> String {
    format!("expected {expected}, found {}", json_kind(found))
}

/// What a visitor's field takes, for its refusals.
pub(crate) trait Expects {
    fn expected(&self) -> &'static str;
}

/// A visitor's `visit_*` methods for the JSON kinds it refuses, each saying what the field takes
/// ([`Expects`]) and the kind it found.
macro_rules! refuse {
    ($($kind:ident),*) => { $(refuse!(@ $kind);)* };
    (@ unit) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::Null)))
        }
    };
    (@ bool) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::Bool(true))))
        }
    };
    (@ numbers) => {
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::from(n))))
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::from(n))))
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::from(n))))
        }
    };
    (@ str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(E::custom(refused(self.expected(), &Value::String(String::new()))))
        }
    };
    (@ seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(de::Error::custom(refused(self.expected(), &Value::Array(Vec::new()))))
        }
    };
    (@ map) => {
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(de::Error::custom(refused(self.expected(), &Value::Object(Default::default()))))
        }
    };
}
pub(crate) use refuse;

/// A field read whole: `check` sees every value but null.
fn checked<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    check: impl FnOnce(Value) -> Result<T, String>,
) -> Result<Option<T>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        value => check(value).map(Some).map_err(de::Error::custom),
    }
}

pub(crate) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d, item_text)
}

pub(crate) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    checked(d, |value| match value {
        Value::Bool(b) => Ok(b),
        other => Err(refused("true or false", &other)),
    })
}

/// Any JSON value (a result, in any shape `results::read_result` reads).
pub(crate) fn any<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    checked(d, Ok)
}

/// A name one of our enums reads (`"postgresql"`, `"kql"`); the refusal is the enum's own.
pub(crate) fn named<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: Display,
{
    checked(d, |value| match value {
        Value::String(name) => name.parse::<T>().map_err(|err| err.to_string()),
        other => Err(refused("a string", &other)),
    })
}

/// An id: a string, or a number a JSON reader keeps exactly (see [`id_problem`]).
pub(crate) fn id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    checked(d, |value| match value {
        Value::String(_) | Value::Number(_) => match id_problem(&value) {
            Some(problem) => Err(problem),
            None => Ok(value),
        },
        other => Err(refused("a string or a number", &other)),
    })
}

/// A count of SQLite's virtual machine steps.
pub(crate) fn steps<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    checked(d, |value| {
        value
            .as_u64()
            .ok_or_else(|| format!("expected a count of steps, found {value}"))
    })
}

/// A tolerance: a number, zero or more.
pub(crate) fn tolerance<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    checked(d, |value| match &value {
        Value::Number(n) => n
            .as_f64()
            .filter(|x| *x >= 0.0 && x.is_finite())
            .ok_or_else(|| format!("expected a number of zero or more, found {n}")),
        other => Err(refused("a number", other)),
    })
}

/// A person's verdict, written any of the ways [`label_of`] reads.
pub(crate) fn label<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    checked(d, |value| {
        label_of(&value).ok_or_else(|| {
            format!(
                "{value} is not a verdict (true/false, 1/0, correct/incorrect, equivalent/different)"
            )
        })
    })
}

/// An error as an agent reported it: absent, `false` and blank mean none; text is kept, and any
/// other value is kept as its JSON text.
pub(crate) fn error_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(error_of(&Value::deserialize(d)?))
}

/// The text of an `error` value (see [`error_text`]).
pub(crate) fn error_of(value: &Value) -> Option<String> {
    match value {
        Value::Null | Value::Bool(false) => None,
        Value::String(text) if text.trim().is_empty() => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

/// An agent's final answer: text, or a number or a boolean kept as its text.
pub(crate) fn answer<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d, |value| match value {
        Value::String(text) => Ok(text),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(refused("a string", &other)),
    })
}

/// A list of strings.
pub(crate) fn texts<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    d.deserialize_any(List::new("an array of strings", CheckedItem(item_text)))
}

/// One string or a list of them.
pub(crate) fn one_or_more_texts<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<String>>, D::Error> {
    d.deserialize_any(List::new("a string or a list of strings", CheckedItem(item_text)).or_one())
}

/// One message or a list of them.
pub(crate) fn messages<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    d.deserialize_any(List::new("a list of messages", CheckedItem(item_text)).or_one())
}

/// A list of 0-based column positions.
pub(crate) fn positions<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<usize>>, D::Error> {
    d.deserialize_any(List::new(
        "a list of column positions",
        CheckedItem(|item: Value| {
            item.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("expected a column position (0, 1, ...), found {item}"))
        }),
    ))
}

fn item_text(item: Value) -> Result<String, String> {
    match item {
        Value::String(text) => Ok(text),
        other => Err(refused("a string", &other)),
    }
}

/// A list whose items `item` reads one by one, so that a refused item is named by its place;
/// with `or_one`, a lone string is a list of one.
pub(crate) struct List<S> {
    expected: &'static str,
    item: S,
    one: bool,
}

impl<S> List<S> {
    pub(crate) fn new(expected: &'static str, item: S) -> Self {
        List {
            expected,
            item,
            one: false,
        }
    }

    fn or_one(self) -> Self {
        List { one: true, ..self }
    }
}

/// An item read as a JSON value and checked by the function it holds.
#[derive(Clone, Copy)]
struct CheckedItem<F>(F);

impl<'de, T, F: FnOnce(Value) -> Result<T, String>> DeserializeSeed<'de> for CheckedItem<F> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        (self.0)(Value::deserialize(d)?).map_err(de::Error::custom)
    }
}

impl<'de, S: DeserializeSeed<'de> + Copy> Visitor<'de> for List<S> {
    type Value = Option<Vec<S::Value>>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.expected)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.item)? {
            items.push(item);
        }
        Ok(Some(items))
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if self.one {
            let item = self
                .item
                .deserialize(de::value::StrDeserializer::<E>::new(text))?;
            return Ok(Some(vec![item]));
        }
        Err(E::custom(refused(self.expected, &Value::from(text))))
    }
    refuse!(bool, numbers, map);
}

impl<S> Expects for List<S> {
    fn expected(&self) -> &'static str {
        self.expected
    }
}

/// Why a line of a pairs file was rejected; names the field when one is at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
    pub field: Option<String>,
    /// Column in the line where the JSON broke (1-based), for syntax errors.
    pub column: Option<usize>,
}

impl InputError {
    pub fn field(field: &str, message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            field: Some(field.to_string()),
            column: None,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.field, self.column) {
            (Some(field), _) => write!(f, "field `{field}`: {}", self.message),
            (None, Some(column)) => write!(f, "column {column}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// Why `id` cannot serve as an id, if it cannot: a number JSON readers cannot keep exactly (an
/// integer past 2^53 read as a float, `1e30` for `1000000000000000000000000000000`) would be
/// written back as another text, and match another test.
pub(crate) fn id_problem(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.abs() >= 2f64.powi(53)) => {
            Some(format!(
                "the id is a number too large to keep exactly (it reads back as {n}): write it as a string"
            ))
        }
        _ => None,
    }
}

/// A person's verdict from the usual ways of writing it: `true`/`false`, `1`/`0`, `"correct"`/
/// `"incorrect"`, `"pass"`/`"fail"`, `"yes"`/`"no"`, `"equivalent"`/`"different"`.
pub(crate) fn label_of(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "correct" | "pass" | "passed" | "yes" | "equivalent" | "right" => {
                Some(true)
            }
            "false" | "0" | "incorrect" | "fail" | "failed" | "no" | "different" | "wrong" => {
                Some(false)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Reads a struct's fields from an object, naming the field at fault (`expected_tables[1]`, as
/// the object spells it), or the field the object gives under two of its names.
pub(crate) fn read<'de, T: Deserialize<'de>>(
    object: &'de Map<String, Value>,
) -> Result<T, InputError> {
    serde_path_to_error::deserialize(object).map_err(|err| {
        let path = err.path().to_string();
        let message = err.into_inner().to_string();
        // serde refuses the second name before reading its value, so the path stays empty: the
        // field is the one its message names.
        let (field, message) = match message.strip_prefix("duplicate field `") {
            Some(name) => (
                name.trim_end_matches('`').to_string(),
                "is given twice, under two of its names; keep one".to_string(),
            ),
            None => (path, message),
        };
        InputError {
            message,
            field: (field != ".").then_some(field),
            column: None,
        }
    })
}
