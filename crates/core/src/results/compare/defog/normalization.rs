//! What sql-eval's `normalize_table` does to a frame, worked out from its column names, the
//! question and the query's text before any cell is read.

use std::cmp::Ordering;

use super::sort::exact_cmp;
use super::{ErrorClass, PythonError};
use crate::results::Value;
use crate::results::python as py_values;

/// The question a query answers and its category, which decide whether `normalize_table` keeps
/// the query's row order.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub query_category: &'a str,
    pub question: &'a str,
}

impl Asked<'_> {
    /// `query_category == "order_by" or re.search(r"\b(order|sort|arrange)\b", question.lower(),
    /// re.IGNORECASE)`.
    pub fn asks_order(&self) -> bool {
        if self.query_category == "order_by" {
            return true;
        }
        let question: Vec<char> = self.question.to_lowercase().chars().collect();
        ["order", "sort", "arrange"]
            .iter()
            .any(|word| has_word(&question, word))
    }
}

/// What `normalize_table` does to one frame: the columns it keeps, in order (a column can come
/// twice, as sql-eval selects an `ORDER BY` column named twice), and how it sorts the rows
/// (`None`: it keeps their order). Indices are the frame's column positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Normalization {
    pub(super) order: Vec<usize>,
    pub(super) sort: Option<(Vec<usize>, bool)>,
}

/// The words `normalize_table` drops from an `ORDER BY` clause before matching column names.
const NOT_COLUMNS: [&str; 6] = ["desc", "asc", "nulls", "last", "first", "limit"];

impl Normalization {
    /// `normalize_table(df, query_category, question, sql)`'s plan for a frame with these column
    /// names; where pandas would raise (duplicate names cannot be reindexed, names Python cannot
    /// order), that error.
    pub(crate) fn new(
        names: &[Value],
        asked: &Asked<'_>,
        sql: Option<&str>,
    ) -> Result<Normalization, PythonError> {
        let duplicated = names
            .iter()
            .enumerate()
            .any(|(i, a)| names[..i].iter().any(|b| py_values::eq(a, b)));
        if duplicated {
            return Err(PythonError::new(
                ErrorClass::ValueError,
                "cannot reindex on an axis with duplicate labels",
            ));
        }
        let ordered = sorted_names(names)?;
        if !asked.asks_order() {
            return Ok(Normalization {
                sort: Some((ordered.clone(), true)),
                order: ordered,
            });
        }
        let Some(clause) = sql.filter(|sql| !sql.is_empty()).and_then(order_by_clause) else {
            return Ok(Normalization {
                order: ordered,
                sort: None,
            });
        };
        let words: Vec<&str> = first_term(clause)
            .map(|term| {
                term.split(is_python_space)
                    .filter(|word| !word.is_empty())
                    .map(|word| word.rsplit('.').next().unwrap_or(word))
                    .collect()
            })
            .unwrap_or_default();
        let upper: Vec<String> = words.iter().map(|word| word.to_uppercase()).collect();
        let ascending = !upper.iter().any(|w| w == "DESC") && upper.iter().any(|w| w == "ASC");
        let keys: Vec<String> = words
            .iter()
            .map(|word| word.replace([',', '('], ""))
            .filter(|word| !NOT_COLUMNS.contains(&word.to_lowercase().as_str()))
            .collect();
        let named = |index: &usize, key: &str| matches!(&names[*index], Value::Text(t) if t.as_str() == key);
        let rest: Vec<usize> = ordered
            .iter()
            .copied()
            .filter(|index| !keys.iter().any(|key| named(index, key)))
            .collect();
        let key_columns: Vec<usize> = keys
            .iter()
            .filter_map(|key| ordered.iter().copied().find(|index| named(index, key)))
            .collect();
        Ok(Normalization {
            order: rest.iter().chain(&key_columns).copied().collect(),
            sort: Some((
                key_columns.iter().chain(&rest).copied().collect(),
                ascending,
            )),
        })
    }
}

/// `sorted(df.columns)` as positions: text by code point, numbers by value; a `TypeError` where
/// Python cannot order two names (text against a number, `None` against anything).
fn sorted_names(names: &[Value]) -> Result<Vec<usize>, PythonError> {
    let number = |value: &Value| matches!(value, Value::Bool(_) | Value::Int(_) | Value::Float(_));
    if names.len() > 1 {
        let first = &names[0];
        let clash = names.iter().find(|name| {
            matches!(name, Value::Null)
                || matches!(first, Value::Null)
                || number(name) != number(first)
        });
        if let Some(other) = clash {
            let other = if std::ptr::eq(other, first) {
                &names[1]
            } else {
                other
            };
            return Err(PythonError::new(
                ErrorClass::TypeError,
                format!(
                    "'<' not supported between instances of '{}' and '{}'",
                    py_values::type_name(other),
                    py_values::type_name(first)
                ),
            ));
        }
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| match (&names[a], &names[b]) {
        (Value::Text(x), Value::Text(y)) => x.as_str().cmp(y.as_str()),
        (x, y) => super::frame::number(x)
            .partial_cmp(&super::frame::number(y))
            .unwrap_or(Ordering::Equal)
            .then_with(|| exact_cmp(x, y)),
    });
    Ok(order)
}

/// Python's `str.isspace()`: Unicode white space and the four separators U+001C to U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\w` in a text pattern.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `word` (ASCII, lower case) stands in `text` between word boundaries, compared as
/// `re.IGNORECASE` compares (the long s `ſ` matches `s`).
fn has_word(chars: &[char], word: &str) -> bool {
    let wanted: Vec<char> = word.chars().collect();
    let same = |c: char, w: char| c == w || (w == 's' && c == 'ſ');
    (0..chars.len()).any(|start| {
        chars.len() - start >= wanted.len()
            && chars[start..start + wanted.len()]
                .iter()
                .zip(&wanted)
                .all(|(&c, &w)| same(c, w))
            && (start == 0 || !is_word_char(chars[start - 1]))
            && chars
                .get(start + wanted.len())
                .is_none_or(|&c| !is_word_char(c))
    })
}

/// Where `ORDER BY` (any case, one space) first stands in `text`, as a byte offset.
fn find_order_by(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    (from..bytes.len().saturating_sub(7))
        .find(|&at| bytes[at..at + 8].eq_ignore_ascii_case(b"ORDER BY"))
}

/// `re.search(r"ORDER BY[\s\S]*", sql, re.IGNORECASE)`: the text from the first `ORDER BY` on.
fn order_by_clause(sql: &str) -> Option<&str> {
    find_order_by(sql, 0).map(|at| &sql[at..])
}

/// `re.findall(r"(?<=ORDER BY)(.*?)(?=;|,|\)|$)", clause, re.IGNORECASE)[0]`: the text after
/// an `ORDER BY` up to the first `;`, `,`, `)` or the end (or a last line break), on one line;
/// an `ORDER BY` whose line ends first yields nothing, and the next one is tried.
fn first_term(clause: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(at) = find_order_by(clause, from) {
        let start = at + 8;
        let rest = &clause[start..];
        let mut end = None;
        for (offset, c) in rest.char_indices() {
            if matches!(c, ';' | ',' | ')') || (c == '\n' && offset + 1 == rest.len()) {
                end = Some(offset);
                break;
            }
            if c == '\n' {
                break;
            }
        }
        if rest.is_empty() || (end.is_none() && !rest.contains('\n')) {
            return Some(rest);
        }
        if let Some(end) = end {
            return Some(&rest[..end]);
        }
        from = start;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(names: &[&str]) -> Vec<Value> {
        names
            .iter()
            .map(|name| Value::Text((*name).into()))
            .collect()
    }

    fn plan(columns: &[&str], question: &str, sql: Option<&str>) -> Normalization {
        let asked = Asked {
            query_category: "group_by",
            question,
        };
        Normalization::new(&names(columns), &asked, sql).expect("a plan")
    }

    #[test]
    fn columns_go_in_alphabetical_order_and_rows_sort_on_all_of_them() {
        assert_eq!(
            plan(&["b", "a"], "How many?", None),
            Normalization {
                order: vec![1, 0],
                sort: Some((vec![1, 0], true))
            }
        );
    }

    #[test]
    fn an_order_asked_for_follows_the_first_order_by_term() {
        // "sorted" is not the word "sort": rows sort on every column.
        assert!(
            plan(&["a"], "Totals sorted by name", Some("x ORDER BY a")).sort
                == Some((vec![0], true))
        );
        // The ORDER BY column leads the sort and goes last; no direction means descending.
        assert_eq!(
            plan(
                &["b", "a"],
                "Order them",
                Some("SELECT a, b FROM t ORDER BY t.a")
            ),
            Normalization {
                order: vec![0, 1],
                sort: Some((vec![1, 0], false))
            }
        );
        assert_eq!(
            plan(
                &["b", "a"],
                "Sort them",
                Some("select a, b from t order by b asc;")
            )
            .sort,
            Some((vec![0, 1], true))
        );
        // No ORDER BY in the text: the rows keep their order.
        assert_eq!(plan(&["b", "a"], "Sort them", Some("SELECT 1")).sort, None);
        // The term ends at a comma: only the first column counts.
        assert_eq!(first_term("ORDER BY a DESC, b ASC"), Some(" a DESC"));
        // A term whose line ends before any stop is skipped for the next ORDER BY.
        assert_eq!(first_term("ORDER BY a\nLIMIT 3"), None);
        assert_eq!(first_term("ORDER BY a\n"), Some(" a"));
    }

    #[test]
    fn duplicate_or_unorderable_names_raise_as_pandas_does() {
        let asked = Asked {
            query_category: "",
            question: "",
        };
        let error = |names: Vec<Value>| {
            Normalization::new(&names, &asked, None)
                .expect_err("raises")
                .class
        };
        assert_eq!(error(names(&["a", "a"])), ErrorClass::ValueError);
        assert_eq!(
            error(vec![Value::Text("a".into()), Value::Int(1)]),
            ErrorClass::TypeError
        );
    }
}
