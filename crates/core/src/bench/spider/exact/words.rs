//! The words Spider's parser reads a query as (`process_sql.tokenize`), checked and put back
//! together as text for qeval's own parser.
//!
//! `tokenize` turns every `'` into `"`, takes each pair of quotes as one string value, splits
//! the rest with nltk's `word_tokenize`, lowercases it, and joins `!`, `>` or `<` with a `=`
//! that follows as a word of its own. nltk splits at brackets, `<`, `>`, `*`, `!`, `;` and at a
//! comma before a non-digit, but not at `=`, `+`, `-` or `/`: `a=1`, `a<=1` (`<`, `=1`) and
//! `b+1` reach the parser as words no rule reads, and the query fails. So the words are worked
//! out here by the same rules (nltk's `NLTKWordTokenizer` patterns that can fire on SQL), and:
//! - a word Spider's parser cannot read anywhere makes the query fail, with the word named;
//! - otherwise the words, joined by spaces (string values back in single quotes), are the text
//!   qeval parses, so its statements see exactly the boundaries Spider's parser saw.
//!
//! nltk's punkt data (sentence splitting) is not needed: with its strings replaced, a query has
//! no sentence break nltk would find.

/// A query as Spider's parser reads it: the words put back together as text, or why not.
pub(super) fn official_text(query: &str) -> Result<String, String> {
    let (masked, values) = mask_values(query)?;
    let words = nltk_words(&masked);
    let mut words = after_limit_unread(join_equals(words));
    // `SELECT DISTINCT DISTINCT a`: the second reads as the column's own DISTINCT, which the
    // rebuild clears; one is kept.
    words.dedup_by(|next, first| first == "distinct" && next == "distinct");
    let mut text = String::with_capacity(query.len() + 16);
    for (at, word) in words.iter().enumerate() {
        let next = words.get(at + 1).map(String::as_str);
        let before = at.checked_sub(1).map(|b| words[b].as_str());
        check_word(word, before, next)?;
        if at > 0 {
            text.push(' ');
        }
        if let Some(index) = value_index(word) {
            text.push('\'');
            text.push_str(&values[index]);
            text.push('\'');
        } else {
            text.push_str(word);
        }
    }
    Ok(text)
}

/// The placeholder a string value becomes: letters nltk keeps as one word.
const VALUE_MARK: &str = "qevalvalue";

fn value_index(word: &str) -> Option<usize> {
    word.strip_prefix(VALUE_MARK)?.parse().ok()
}

/// Every `'` read as `"`, each pair of quotes a value (the first and second quote, the third
/// and fourth...). An odd number fails (`assert len(quote_idxs) % 2 == 0`). Two values with no
/// space between (`'O''Neil'`) make one word of two placeholders, which no rule reads.
fn mask_values(query: &str) -> Result<(String, Vec<String>), String> {
    let quotes: Vec<usize> = query
        .char_indices()
        .filter(|(_, c)| matches!(c, '\'' | '"'))
        .map(|(i, _)| i)
        .collect();
    if quotes.len() % 2 == 1 {
        return Err("an odd number of quotes (Spider's tokenizer: \"Unexpected quote\")".into());
    }
    let mut masked = String::with_capacity(query.len());
    let mut values = Vec::new();
    let mut from = 0;
    for pair in quotes.chunks(2) {
        let (open, close) = (pair[0], pair[1]);
        if open == from && open > 0 {
            return Err(format!(
                "two quoted values with nothing between them at byte {open} (an escaped quote), \
                 which Spider's tokenizer reads as one word"
            ));
        }
        masked.push_str(&query[from..open]);
        masked.push_str(VALUE_MARK);
        masked.push_str(&values.len().to_string());
        values.push(query[open + 1..close].to_string());
        from = close + 1;
    }
    masked.push_str(&query[from..]);
    Ok((masked, values))
}

/// Characters nltk always sets apart: brackets, `<`, `>` (`PARENS_BRACKETS`), `;@#$%&`, `?!`
/// (`PUNCTUATION`), `*` and the backtick (`STARTING_QUOTES`).
fn always_apart(c: char) -> bool {
    matches!(
        c,
        '(' | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '<'
            | '>'
            | ';'
            | '@'
            | '#'
            | '$'
            | '%'
            | '&'
            | '?'
            | '!'
            | '*'
            | '`'
    )
}

/// nltk's words for SQL: the characters above apart, `,` and `:` apart unless a digit follows
/// (`([:,])([^\d])`), `--` apart, a last `.` apart, then whitespace splits; lowercased.
fn nltk_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut spaced = String::with_capacity(text.len() * 2);
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        if always_apart(c) || (matches!(c, ',' | ':') && !next.is_some_and(|n| n.is_ascii_digit()))
        {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else if c == '-' && next == Some('-') {
            spaced.push_str(" -- ");
            at += 1;
        } else {
            spaced.push(c);
        }
        at += 1;
    }
    let mut words: Vec<String> = spaced.split_whitespace().map(str::to_lowercase).collect();
    // `([^\.])(\.)([\]\)}>"\']*)\s*$`: a final period after a non-period is a word of its own.
    if let Some(last) = words.last_mut()
        && last.len() > 1
        && last.ends_with('.')
        && !last.ends_with("..")
    {
        last.pop();
        words.push(".".into());
    }
    words
}

/// `tokenize`'s last step: a `=` word after `!`, `>` or `<` joins it (`> =` reads as `>=`).
fn join_equals(words: Vec<String>) -> Vec<String> {
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for word in words {
        if word == "="
            && let Some(before) = joined.last_mut()
            && matches!(before.as_str(), "!" | ">" | "<")
        {
            before.push('=');
            continue;
        }
        joined.push(word);
    }
    joined
}

/// `parse_limit` takes `limit` and the word after it; unless a set operation follows, the
/// query ends there and `get_sql` never reads the rest (`LIMIT 1 -- top`, `LIMIT 1 and more`).
/// Only a `LIMIT` outside brackets ends the query.
fn after_limit_unread(mut words: Vec<String>) -> Vec<String> {
    let mut depth = 0usize;
    for at in 0..words.len() {
        match words[at].as_str() {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            "limit" if depth == 0 => {
                let mut end = (at + 2).min(words.len());
                while words.get(end).is_some_and(|w| w == ";") {
                    end += 1;
                }
                let next = words.get(end).map(String::as_str);
                if !matches!(next, Some("union" | "intersect" | "except")) {
                    words.truncate(end);
                    // Its value is never read (`LIMIT (SELECT 1)` reads as `LIMIT (`).
                    if let Some(value) = words.get_mut(at + 1) {
                        *value = "1".into();
                    }
                }
                return words;
            }
            _ => {}
        }
    }
    words
}

/// Whether Spider's parser can read `word` somewhere: a name or `alias.column`, a number
/// Python's `float` reads, a string value, or one of the symbols its grammar has. A `-` is
/// read only between two operands (`a - b`): where a value starts (`a > - 5`) `parse_value`
/// reads it as a column and fails, while `-5` is one word, a number.
fn check_word(word: &str, before: Option<&str>, next: Option<&str>) -> Result<(), String> {
    let name_part =
        |part: &str| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_');
    let operand_before = before.is_some_and(|b| {
        b == ")"
            || b == "*"
            || is_number(b)
            || b.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    });
    let readable = match word {
        "(" | ")" | "," | "*" | ";" | "=" | ">=" | "<=" | "!=" | "+" | "/" => true,
        "-" => operand_before,
        ">" | "<" => next != Some(">"),
        _ => {
            value_index(word).is_some()
                || is_number(word)
                || match word.split_once('.') {
                    Some((table, column)) => name_part(table) && name_part(column),
                    None => name_part(word),
                }
        }
    };
    if readable {
        Ok(())
    } else {
        Err(format!(
            "Spider's tokenizer (nltk's word_tokenize) gives the word `{word}`, which its parser \
             cannot read"
        ))
    }
}

/// Python's `float(word)` for the words nltk leaves: digits with one optional `.`, an optional
/// exponent, an optional leading `-` or `+`.
fn is_number(word: &str) -> bool {
    let body = word.strip_prefix(['-', '+']).unwrap_or(word);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let digits = mantissa.chars().filter(char::is_ascii_digit).count();
    let mantissa_ok = digits > 0
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.')
        && mantissa.matches('.').count() <= 1;
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_put_back_as_spiders_parser_saw_them() {
        assert_eq!(
            official_text("SELECT count(*) FROM t AS T1 WHERE T1.a > = \"x\" AND b != 'y'")
                .unwrap(),
            "select count ( * ) from t as t1 where t1.a >= 'x' and b != 'y'"
        );
        assert_eq!(
            official_text("SELECT a FROM t WHERE a > -5").unwrap(),
            "select a from t where a > -5"
        );
    }

    #[test]
    fn words_its_parser_cannot_read_fail() {
        for query in [
            "SELECT a FROM t WHERE a=1",
            "SELECT a FROM t WHERE a<=1",
            "SELECT a FROM t WHERE a <> 1",
            "SELECT T1.* FROM t AS T1",
            "SELECT a FROM t WHERE b = 'it''s'",
            "SELECT a FROM t WHERE b = \"it's\"",
            "SELECT `a` FROM t",
            "SELECT a FROM t WHERE b = c+1",
        ] {
            assert!(official_text(query).is_err(), "{query}");
        }
    }
}
