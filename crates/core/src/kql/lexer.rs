//! KQL tokens: names, numbers, timespans, strings and punctuation, with positions.
//!
//! Word operators (`has`, `!contains`, `in~`, ...) are names; the lexer keeps the negated and
//! `~` forms in one token, so `!in` stays one operator rather than a stray `!` before `in`.

use std::fmt;

use crate::sql::ParseError;

#[derive(Debug, Clone, PartialEq)]
pub enum KqlTokenKind {
    /// A name or keyword; `mv-expand`-style names are joined by the parser.
    Name(String),
    /// A bracketed name: `['my column']`.
    QuotedName(String),
    Number(String),
    /// A timespan literal in 100-nanosecond ticks: `1h`, `60m`, `1.5d`, `100ms`.
    Timespan(i128),
    Str(String),
    Punct(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
pub struct KqlToken {
    pub kind: KqlTokenKind,
    pub line: u64,
    pub column: u64,
    /// Whether whitespace came right before it (to join `project-away` but not `a - b`).
    pub spaced: bool,
}

impl fmt::Display for KqlTokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KqlTokenKind::Name(n) => f.write_str(n),
            KqlTokenKind::QuotedName(n) => write!(f, "['{n}']"),
            KqlTokenKind::Number(n) => f.write_str(n),
            KqlTokenKind::Timespan(ticks) => f.write_str(&format_timespan(*ticks)),
            KqlTokenKind::Str(s) => write!(f, "{s:?}"),
            KqlTokenKind::Punct(p) => f.write_str(p),
        }
    }
}

/// A timespan in the largest unit that divides it: 3600 s is `1h`, 90 s is `90s`.
pub(crate) fn format_timespan(ticks: i128) -> String {
    const UNITS: [(&str, i128); 7] = [
        ("d", 864_000_000_000),
        ("h", 36_000_000_000),
        ("m", 600_000_000),
        ("s", 10_000_000),
        ("ms", 10_000),
        ("microsecond", 10),
        ("tick", 1),
    ];
    for (unit, size) in UNITS {
        if ticks != 0 && ticks % size == 0 {
            return format!("{}{unit}", ticks / size);
        }
    }
    "0s".to_string()
}

/// Ticks per unit for the suffixes KQL accepts.
fn unit_ticks(unit: &str) -> Option<i128> {
    Some(match unit {
        "d" | "day" | "days" => 864_000_000_000,
        "h" | "hr" | "hrs" | "hour" | "hours" => 36_000_000_000,
        "m" | "min" | "minute" | "minutes" => 600_000_000,
        "s" | "sec" | "second" | "seconds" => 10_000_000,
        "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 10_000,
        "microsecond" | "microseconds" => 10,
        "tick" | "ticks" => 1,
        _ => return None,
    })
}

/// The word operators of KQL: a predicate reads `left op right` with one of these (or a
/// symbol such as `==`) as `op`. The legacy spellings Kusto still accepts (`containscs`,
/// `notcontains`, `notlike`, ...) are listed so that queries written with them keep parsing.
/// `matches regex` is two words; the parser reads `matches` and then expects `regex`.
pub(crate) const WORD_OPERATORS: &[&str] = &[
    "and",
    "or",
    "has",
    "!has",
    "has_cs",
    "!has_cs",
    "hasprefix",
    "!hasprefix",
    "hasprefix_cs",
    "!hasprefix_cs",
    "hassuffix",
    "!hassuffix",
    "hassuffix_cs",
    "!hassuffix_cs",
    "contains",
    "!contains",
    "contains_cs",
    "!contains_cs",
    "containscs",
    "notcontains",
    "notcontainscs",
    "startswith",
    "!startswith",
    "startswith_cs",
    "!startswith_cs",
    "endswith",
    "!endswith",
    "endswith_cs",
    "!endswith_cs",
    "like",
    "likecs",
    "notlike",
    "notlikecs",
    "matches",
    "in",
    "!in",
    "in~",
    "!in~",
    "has_any",
    "has_all",
    "between",
    "!between",
];

const PUNCTS: [&str; 28] = [
    "==", "!=", "<=", ">=", "=~", "!~", "<>", "..", "|", ",", "(", ")", "[", "]", "{", "}", ".",
    ";", "=", "<", ">", "+", "-", "*", "/", ":", "?", "%",
];

pub fn tokenize(text: &str) -> Result<Vec<KqlToken>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line, mut column) = (0usize, 1u64, 1u64);
    let mut spaced = true;
    let error = |message: String, line: u64, column: u64| ParseError {
        message,
        line: Some(line),
        column: Some(column),
    };
    while i < chars.len() {
        let c = chars[i];
        let (start_line, start_column) = (line, column);
        let advance = |n: usize, i: &mut usize, line: &mut u64, column: &mut u64| {
            for _ in 0..n {
                if chars.get(*i) == Some(&'\n') {
                    *line += 1;
                    *column = 1;
                } else {
                    *column += 1;
                }
                *i += 1;
            }
        };
        if c.is_whitespace() {
            advance(1, &mut i, &mut line, &mut column);
            spaced = true;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(1, &mut i, &mut line, &mut column);
            }
            spaced = true;
            continue;
        }
        let kind;
        // Strings: '...', "...", with optional @ (verbatim) or h/H (obfuscated) prefix.
        let prefix = usize::from(
            matches!(c, '@' | 'h' | 'H') && matches!(chars.get(i + 1), Some('\'' | '"')),
        );
        if matches!(chars.get(i + prefix), Some('\'' | '"'))
            && (prefix == 1 || matches!(c, '\'' | '"'))
        {
            let verbatim = c == '@';
            let quote = chars[i + prefix];
            let mut j = i + prefix + 1;
            let mut value = String::new();
            loop {
                match chars.get(j) {
                    None | Some('\n') => {
                        return Err(error(
                            "unterminated string".to_string(),
                            start_line,
                            start_column,
                        ));
                    }
                    Some('\\') if !verbatim => {
                        if let Some(&next) = chars.get(j + 1) {
                            value.push(match next {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                        }
                        j += 2;
                    }
                    Some(&q) if q == quote => {
                        if verbatim && chars.get(j + 1) == Some(&quote) {
                            value.push(quote);
                            j += 2;
                            continue;
                        }
                        j += 1;
                        break;
                    }
                    Some(&other) => {
                        value.push(other);
                        j += 1;
                    }
                }
            }
            kind = KqlTokenKind::Str(value);
            advance(j - i, &mut i, &mut line, &mut column);
        } else if c == '[' && matches!(chars.get(i + 1), Some('\'' | '"')) {
            let quote = chars[i + 1];
            let close = chars[i + 2..]
                .iter()
                .position(|&ch| ch == quote)
                .map(|p| p + i + 2);
            match close {
                Some(end) if chars.get(end + 1) == Some(&']') => {
                    kind = KqlTokenKind::QuotedName(chars[i + 2..end].iter().collect());
                    advance(end + 2 - i, &mut i, &mut line, &mut column);
                }
                // Not a bracketed name but a list such as `dynamic(['a', 'b'])`.
                _ => {
                    kind = KqlTokenKind::Punct("[");
                    advance(1, &mut i, &mut line, &mut column);
                }
            }
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || (chars[j] == '.' && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
            {
                j += 1;
            }
            let digits: String = chars[i..j].iter().collect();
            let mut k = j;
            while k < chars.len() && chars[k].is_ascii_alphabetic() {
                k += 1;
            }
            let suffix: String = chars[j..k].iter().collect::<String>().to_lowercase();
            if let (false, Some(size)) = (suffix.is_empty(), unit_ticks(&suffix)) {
                let value: f64 = digits.parse().unwrap_or(0.0);
                kind = KqlTokenKind::Timespan((value * size as f64).round() as i128);
                advance(k - i, &mut i, &mut line, &mut column);
            } else if suffix.is_empty() || suffix == "e" || suffix == "l" {
                kind = KqlTokenKind::Number(digits);
                advance(j - i, &mut i, &mut line, &mut column);
            } else {
                return Err(error(
                    format!("unknown unit \"{suffix}\" after a number"),
                    start_line,
                    start_column,
                ));
            }
        } else if c.is_alphabetic()
            || c == '_'
            || c == '$'
            || (c == '!' && chars.get(i + 1).is_some_and(|ch| ch.is_alphabetic()))
        {
            // A `!` right before a letter can only start a negated operator (`!has`, `!in~`):
            // KQL negates expressions with `not(...)`, never with a bare `!`.
            let mut j = i + usize::from(c == '!');
            while j < chars.len()
                && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == '$')
            {
                j += 1;
            }
            let mut word: String = chars[i..j].iter().collect();
            // `in~` and `!in~` are the case-insensitive set operators: the `~` belongs to the word.
            if (word == "in" || word == "!in") && chars.get(j) == Some(&'~') {
                word.push('~');
                j += 1;
            }
            if c == '!' && !WORD_OPERATORS.contains(&word.as_str()) {
                return Err(error(
                    format!("unknown operator \"{word}\""),
                    start_line,
                    start_column,
                ));
            }
            kind = KqlTokenKind::Name(word);
            advance(j - i, &mut i, &mut line, &mut column);
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            match PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                Some(p) => {
                    kind = KqlTokenKind::Punct(p);
                    advance(p.chars().count(), &mut i, &mut line, &mut column);
                }
                None => {
                    return Err(error(
                        format!("unexpected character {c:?}"),
                        start_line,
                        start_column,
                    ));
                }
            }
        }
        tokens.push(KqlToken {
            kind,
            line: start_line,
            column: start_column,
            spaced,
        });
        spaced = false;
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<KqlTokenKind> {
        tokenize(text)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn timespans_in_any_unit_are_ticks() {
        assert_eq!(kinds("ago(1h)")[2], kinds("ago(60m)")[2]);
        assert_eq!(kinds("3600s")[0], kinds("1h")[0]);
        assert_eq!(kinds("1.5d")[0], KqlTokenKind::Timespan(1_296_000_000_000));
        assert_eq!(format_timespan(36_000_000_000), "1h");
        assert_eq!(format_timespan(900_000_000), "90s");
    }

    #[test]
    fn strings_names_and_comments() {
        assert_eq!(
            kinds("T // all of it\n| where a == 'x\\'y' and b != @'c:\\d'"),
            vec![
                KqlTokenKind::Name("T".into()),
                KqlTokenKind::Punct("|"),
                KqlTokenKind::Name("where".into()),
                KqlTokenKind::Name("a".into()),
                KqlTokenKind::Punct("=="),
                KqlTokenKind::Str("x'y".into()),
                KqlTokenKind::Name("and".into()),
                KqlTokenKind::Name("b".into()),
                KqlTokenKind::Punct("!="),
                KqlTokenKind::Str("c:\\d".into()),
            ]
        );
        assert_eq!(
            kinds("['my col']"),
            vec![KqlTokenKind::QuotedName("my col".into())]
        );
        assert_eq!(kinds("dynamic(['a', 'b'])").len(), 8);
    }

    #[test]
    fn negated_and_case_insensitive_operators_are_one_token() {
        assert_eq!(
            kinds("a !in~ (b) and c in~ (d) and e !has f"),
            vec![
                KqlTokenKind::Name("a".into()),
                KqlTokenKind::Name("!in~".into()),
                KqlTokenKind::Punct("("),
                KqlTokenKind::Name("b".into()),
                KqlTokenKind::Punct(")"),
                KqlTokenKind::Name("and".into()),
                KqlTokenKind::Name("c".into()),
                KqlTokenKind::Name("in~".into()),
                KqlTokenKind::Punct("("),
                KqlTokenKind::Name("d".into()),
                KqlTokenKind::Punct(")"),
                KqlTokenKind::Name("and".into()),
                KqlTokenKind::Name("e".into()),
                KqlTokenKind::Name("!has".into()),
                KqlTokenKind::Name("f".into()),
            ]
        );
        // `!=` and `!~` are still symbols, and `in` alone is still the plain word.
        assert_eq!(kinds("a!=b")[1], KqlTokenKind::Punct("!="));
        assert_eq!(kinds("a !~ b")[1], KqlTokenKind::Punct("!~"));
        assert_eq!(kinds("a in (b)")[1], KqlTokenKind::Name("in".into()));
    }

    #[test]
    fn errors_have_positions() {
        let err = tokenize("T\n| where a == 'open").unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(14)));
        assert!(tokenize("T | where x > 5q").is_err());
        assert!(tokenize("T | where x ^ 1").is_err());
        let err = tokenize("T\n| where a !hazz 'b'").unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(11)));
        assert!(err.message.contains("!hazz"), "{err}");
        assert!(tokenize("T | where a ! has 'b'").is_err());
    }
}
