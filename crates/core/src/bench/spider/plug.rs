//! `--plug_value`: the gold query's values put into the prediction's value slots, every way
//! they fit, as Spider's `parse.get_all_preds_for_execution` does for models that predict no
//! values. Each way is one more prediction to try; the example passes when one of them does.
//!
//! Reproduced from `parse.py`:
//! - `reformat_query`: the text trimmed, `;` and tabs removed, sqlparse's tokens of the first
//!   statement joined by single spaces (line breaks are tokens too and stay), `t1.*`...`T3.*`
//!   read as `*`;
//! - `replace_values`: `sqlparse.format`, which cuts the text into statements (at `;` and at a
//!   keyword `GO`) and removes the whitespace at the end of each line of each, then one
//!   whitespace character after `T<digits>.` removed;
//! - `strip_query`: every `'...'` and `"..."` token is a value, and each of its occurrences in
//!   the text becomes the slot word; the text split at whitespace; words equal to a match of
//!   `[-+]?\d*\.\d+` anywhere in the text become slots, then words equal to a match of
//!   `[^tT]\d+` (trimmed); words lowercased, and words holding `.` with a `[Tt]\d+.` split
//!   around their dots;
//! - the gold's values as a set, the prediction's slots filled with every tuple of them
//!   (`itertools.product`), each joined by spaces.
//!
//! Not reproduced: the upper-casing of `sqlparse.format(keyword_case="upper")`, which changes
//! no word of the result (every word is lowercased after it) but is taken into account where
//! it changes how statements split; and the order of Python's set, which follows
//! the process's hash seed: here the values keep the order they first appear in. Only when
//! [`MAX_VARIANTS`] cuts the list can that order change a verdict, and then the record says
//! how many variants were tried.

use super::tokens::{TokenKind, first_statement, format, statements, tokenize};

/// The word a value slot becomes (`VALUE_NUM_SYMBOL`, lowercased with the rest).
const SLOT: &str = "valuerare";

/// Most variants tried for one prediction. Spider tries them all, which for a query with many
/// slots and a gold with many values never ends.
pub const MAX_VARIANTS: usize = 10_000;

/// The predictions `--plug_value` tries besides the prediction itself: the prediction's slots
/// filled with the gold's values, every way, at most `limit` of them; and how many ways there
/// are in all (`len(values) ** slots`, saturating).
pub(crate) fn plugged_predictions(
    gold: &str,
    prediction: &str,
    limit: usize,
) -> (Vec<String>, u128) {
    let (_, gold_values) = extract_query_values(gold);
    let mut values: Vec<String> = Vec::new();
    for value in gold_values {
        if !values.contains(&value) {
            values.push(value);
        }
    }
    let (words, _) = extract_query_values(prediction);
    let slots: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| *w == SLOT)
        .map(|(i, _)| i)
        .collect();
    let total = (values.len() as u128)
        .checked_pow(u32::try_from(slots.len()).unwrap_or(u32::MAX))
        .unwrap_or(u128::MAX);
    let mut variants = Vec::new();
    // A counter in base `values.len()`, the last slot turning fastest, as `product` does.
    let mut choice = vec![0usize; slots.len()];
    if slots.is_empty() || !values.is_empty() {
        loop {
            if variants.len() >= limit {
                break;
            }
            let mut filled = words.clone();
            for (slot, &value) in slots.iter().zip(&choice) {
                filled[*slot] = values[value].clone();
            }
            variants.push(filled.join(" "));
            let mut position = slots.len();
            loop {
                if position == 0 {
                    return (variants, total);
                }
                position -= 1;
                choice[position] += 1;
                if choice[position] < values.len() {
                    break;
                }
                choice[position] = 0;
            }
        }
    }
    (variants, total)
}

/// Python's `str.isspace` for one character.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `extract_query_values`: the query's words with slots for its values, and the values.
fn extract_query_values(sql: &str) -> (Vec<String>, Vec<String>) {
    let reformatted = reformat_query(sql);
    strip_query(&without_space_after_alias_dot(&format(&reformatted)))
}

/// `reformat_query`.
fn reformat_query(query: &str) -> String {
    let query = query.trim_matches(is_space).replace([';', '\t'], "");
    let statement = first_statement(&query).unwrap_or_default();
    let mut joined = tokenize(statement)
        .iter()
        .filter(|t| t.kind != TokenKind::Whitespace)
        .map(|t| t.text)
        .collect::<Vec<_>>()
        .join(" ");
    for star in ["t1.*", "t2.*", "t3.*", "T1.*", "T2.*", "T3.*"] {
        joined = joined.replace(star, "*");
    }
    joined
}

/// `re.sub(r"(T\d+\.)\s", r"\1", sql)`.
fn without_space_after_alias_dot(sql: &str) -> String {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == 'T' {
            let digits = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let dot = i + 1 + digits;
            if digits > 0
                && chars.get(dot) == Some(&'.')
                && chars.get(dot + 1).is_some_and(|c| is_space(*c))
            {
                out.extend(&chars[i..=dot]);
                i = dot + 2;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// `re.findall(r"[-+]?\d*\.\d+", text)`.
fn float_matches(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let digits_from = |from: usize| {
            chars[from.min(chars.len())..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        };
        let mut matched = None;
        for sign in [true, false] {
            let start = if sign {
                if !matches!(chars[i], '+' | '-') {
                    continue;
                }
                i + 1
            } else {
                i
            };
            let whole = digits_from(start);
            let dot = start + whole;
            if chars.get(dot) == Some(&'.') {
                let fraction = digits_from(dot + 1);
                if fraction > 0 {
                    matched = Some(dot + 1 + fraction);
                    break;
                }
            }
        }
        match matched {
            Some(end) => {
                found.push(chars[i..end].iter().collect());
                i = end;
            }
            None => i += 1,
        }
    }
    found
}

/// `[i.strip() for i in re.findall(r"[^tT]\d+", text)]`.
fn int_matches(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let digits = chars[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if !matches!(chars[i], 't' | 'T') && digits > 0 {
            let end = i + 1 + digits;
            let text: String = chars[i..end].iter().collect();
            found.push(text.trim_matches(is_space).to_string());
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// `strip_query`: the words (values as slots, lowercased) and the values.
fn strip_query(query: &str) -> (Vec<String>, Vec<String>) {
    // The text came out of `sqlparse.format(keyword_case="upper")`: its keywords were upper
    // case when sqlparse split it again.
    let statement = statements(query, true)
        .into_iter()
        .next()
        .unwrap_or_default();
    let values: Vec<String> = tokenize(statement)
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::StringSingle | TokenKind::StringSymbol))
        .map(|t| t.text.to_string())
        .collect();
    let mut all_values = values.clone();
    let mut query = query.to_string();
    for value in &values {
        let trimmed = value.trim_matches(is_space);
        if !trimmed.is_empty() {
            query = query.replace(trimmed, "VALUERARE");
        }
    }
    let mut words: Vec<String> = query
        .split(is_space)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let floats = float_matches(&query);
    for word in &mut words {
        if floats.contains(word) {
            all_values.push(word.clone());
            *word = "VALUERARE".into();
        }
    }
    let query = words.join(" ");
    let ints = int_matches(&query);
    for word in &mut words {
        if ints.contains(word) {
            all_values.push(word.clone());
            *word = "VALUERARE".into();
        }
    }
    let mut keywords = Vec::new();
    for word in words {
        if word.contains('.') {
            if has_alias_dot(&word) {
                keywords.extend(
                    word.replace('.', " . ")
                        .split(is_space)
                        .filter(|w| !w.is_empty())
                        .map(str::to_lowercase),
                );
            } else {
                keywords.push(word.to_lowercase());
            }
        } else if !word.is_empty() {
            keywords.push(word.to_lowercase());
        }
    }
    (keywords, all_values)
}

/// Whether `[Tt]\d+\.` occurs in the word.
fn has_alias_dot(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    (0..chars.len()).any(|i| {
        matches!(chars[i], 't' | 'T') && {
            let digits = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            digits > 0 && chars.get(i + 1 + digits) == Some(&'.')
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_the_gold_fill_the_slots_of_the_prediction() {
        let (variants, total) = plugged_predictions(
            "SELECT name FROM singer WHERE age > 30 AND country = 'France'",
            "SELECT name FROM singer WHERE age > 1 AND country = 'x'",
            100,
        );
        // Gold values: 'France', 30. Prediction slots: 1 and 'x'.
        assert_eq!(total, 4);
        assert!(variants.contains(
            &"select name from singer where age > 30 and country = 'France'".to_string()
        ));
        assert_eq!(variants.len(), 4);
    }

    #[test]
    fn a_prediction_without_slots_is_tried_once_rewritten() {
        let (variants, total) = plugged_predictions(
            "SELECT a FROM t WHERE b = 3",
            "SELECT T1.a FROM t AS T1",
            10,
        );
        assert_eq!(total, 1);
        assert_eq!(variants, ["select t1 . a from t as t1"]);
    }

    #[test]
    fn the_limit_caps_the_variants() {
        let (variants, total) = plugged_predictions(
            "SELECT a FROM t WHERE b = 3 AND c = 4 AND d = 5",
            "SELECT a FROM t WHERE b = 1 AND c = 1 AND d = 1",
            5,
        );
        assert_eq!(total, 27);
        assert_eq!(variants.len(), 5);
    }
}
