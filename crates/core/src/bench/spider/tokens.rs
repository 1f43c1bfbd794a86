//! SQL split into tokens the way Python's `sqlparse` (0.6) splits it, for the two rules of
//! Spider's evaluator that work on sqlparse's tokens: `parse.remove_distinct` (drop every token
//! that reads `distinct`, keep the rest character for character) and `parse.extract_query_values`
//! (`--plug_value`'s values and slots). Both take `sqlparse.parse(sql)[0]`, the first statement
//! only, so [`first_statement`] follows sqlparse's `StatementSplitter` too.
//!
//! The rules below are sqlparse's lexer rules (`keywords.SQL_REGEX`, tried in order at each
//! position, case-insensitively), written as code. What neither use reads is not told apart:
//! every keyword a lookup would find is a [`TokenKind::Word`] unless the statement splitter needs it.

/// What a token is, as far as Spider's rules need to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// `-- ...` or `# ...` to the end of the line, the line break included.
    CommentSingle,
    /// `--+ ...` or `# + ...`: an optimizer hint.
    CommentHint,
    /// `/* ... */`.
    CommentMulti,
    /// One line break (`\r\n`, `\r` or `\n`).
    Newline,
    /// One whitespace character.
    Whitespace,
    /// `'...'`.
    StringSingle,
    /// `"..."`: sqlparse's `String.Symbol`, which Spider reads as a value.
    StringSymbol,
    /// A dollar-quoted literal (`$$...$$`).
    Dollar,
    /// A word that a keyword table might list: names and most keywords alike.
    Word,
    /// A keyword matched by one of sqlparse's own patterns (`ORDER BY`, `LEFT JOIN`, `END`,
    /// `CASE`, `AS`, ...).
    Keyword,
    /// `CREATE` or `CREATE OR REPLACE`.
    Create,
    /// A name sqlparse recognizes by its shape (before `(` or `.`, quoted in backticks or
    /// brackets, `@x`, `#x`).
    Name,
    /// `?`, `%s`, `$1`, `:name`.
    Placeholder,
    Number,
    Punctuation,
    Operator,
    Wildcard,
    /// A character no rule matches.
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
}

/// Python's `\s` (a `str` pattern): Unicode whitespace and the four separator controls.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\w`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `[A-ZÀ-Ü]` under `re.IGNORECASE`.
fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic()
        || ('\u{c0}'..='\u{dc}').contains(&c)
        || (('\u{e0}'..='\u{fc}').contains(&c) && c != '\u{f7}')
}

/// The words the statement splitter reacts to that sqlparse's keyword tables list.
const SPLITTER_KEYWORDS: &[&str] = &[
    "BEGIN",
    "DECLARE",
    "TRANSACTION",
    "WORK",
    "DEFERRED",
    "IMMEDIATE",
    "EXCLUSIVE",
    "FOR",
    "WHILE",
    "LOOP",
    "DO",
    "IF",
    "GO",
];

/// Whether a [`TokenKind::Word`] is one of the keywords the statement splitter reacts to.
fn splitter_keyword(word: &str) -> bool {
    SPLITTER_KEYWORDS
        .iter()
        .any(|k| k.eq_ignore_ascii_case(word))
}

/// The text split into sqlparse's tokens; joined again they give the text back.
pub(crate) fn tokenize(text: &str) -> Vec<Token<'_>> {
    let lexer = Lexer::new(text);
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let (kind, end) = lexer.token_at(at);
        tokens.push(Token {
            kind,
            text: &text[at..end],
        });
        at = end;
    }
    tokens
}

struct Lexer<'a> {
    text: &'a str,
    /// Where a single-quoted string starting at each `'` would end (sqlparse's pattern is
    /// greedy with backtracking; see [`quoted_ends`]).
    single: Vec<Option<usize>>,
    double: Vec<Option<usize>>,
    backtick: Vec<Option<usize>>,
    acute: Vec<Option<usize>>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            single: quoted_ends(text, '\'', true),
            double: quoted_ends(text, '"', true),
            backtick: quoted_ends(text, '`', false),
            acute: quoted_ends(text, '´', false),
        }
    }

    fn rest(&self, at: usize) -> &'a str {
        &self.text[at..]
    }

    fn char_at(&self, at: usize) -> Option<char> {
        self.rest(at).chars().next()
    }

    fn char_before(&self, at: usize) -> Option<char> {
        self.text[..at].chars().next_back()
    }

    /// The token starting at `at`: its kind and where it ends.
    fn token_at(&self, at: usize) -> (TokenKind, usize) {
        let rest = self.rest(at);
        let Some(c) = self.char_at(at) else {
            return (TokenKind::Error, at);
        };
        // Delimited spans first, as sqlparse resolves them before its patterns.
        if rest.starts_with("/*")
            && let Some(close) = rest[2..].find("*/")
        {
            return (TokenKind::CommentMulti, at + 2 + close + 2);
        }
        if c == '$'
            && let Some(end) = self.dollar_quoted(at)
        {
            return (TokenKind::Dollar, end);
        }
        if rest.starts_with("--") || rest.starts_with("# ") {
            let hint = rest[2..].starts_with('+');
            let end = line_end(rest);
            let kind = if hint {
                TokenKind::CommentHint
            } else {
                TokenKind::CommentSingle
            };
            return (kind, at + end);
        }
        if rest.starts_with("\r\n") {
            return (TokenKind::Newline, at + 2);
        }
        if c == '\r' || c == '\n' {
            return (TokenKind::Newline, at + 1);
        }
        if is_space(c) {
            return (TokenKind::Whitespace, at + c.len_utf8());
        }
        if rest.starts_with(":=") || rest.starts_with("::") {
            return (TokenKind::Punctuation, at + 2);
        }
        if c == '*' {
            return (TokenKind::Wildcard, at + 1);
        }
        let quoted = match c {
            '`' => self.backtick[at],
            '´' => self.acute[at],
            _ => None,
        };
        if let Some(end) = quoted {
            return (TokenKind::Name, end);
        }
        if let Some(end) = self.placeholder(at) {
            return (TokenKind::Placeholder, end);
        }
        if c == '\\' {
            let word = word_len(&rest[1..]);
            if word > 0 {
                return (TokenKind::Word, at + 1 + word);
            }
        }
        if let Some(len) =
            keyword_with_boundary(rest, &["CASE", "IN", "VALUES", "USING", "FROM", "AS"])
        {
            return (TokenKind::Keyword, at + len);
        }
        if matches!(c, '@' | '#') {
            let sigil = if rest.starts_with("##") { 2 } else { 1 };
            let after = &rest[sigil..];
            if after.chars().next().is_some_and(is_name_start) {
                let word = word_len(after);
                if after[..word].chars().count() >= 2 {
                    return (TokenKind::Name, at + sigil + word);
                }
            }
        }
        if is_name_start(c) {
            let word = word_len(rest);
            let after = rest[word..].trim_start_matches(is_space);
            let member = after.starts_with('.')
                && !after[1..]
                    .chars()
                    .next()
                    .is_some_and(|d| d.is_ascii_digit());
            let follows_dot = self.char_before(at) == Some('.');
            if member || follows_dot || rest[word..].starts_with('(') {
                return (TokenKind::Name, at + word);
            }
        }
        if let Some(len) = number(rest) {
            return (TokenKind::Number, at + len);
        }
        if c == '\''
            && let Some(end) = self.single[at]
        {
            return (TokenKind::StringSingle, end);
        }
        if c == '"'
            && let Some(end) = self.double[at]
        {
            return (TokenKind::StringSymbol, end);
        }
        if c == '['
            && !self
                .char_before(at)
                .is_some_and(|b| is_word(b) || b == ']' || b == ')')
            && let Some(close) = rest[1..].find([']', '['])
            && close > 0
            && rest[1 + close..].starts_with(']')
        {
            return (TokenKind::Name, at + close + 2);
        }
        if let Some((kind, len)) = multiword_keyword(rest) {
            return (kind, at + len);
        }
        if is_word(c) {
            let mut end = c.len_utf8();
            for ch in rest[end..].chars() {
                if is_word(ch) || ch == '$' || ch == '#' {
                    end += ch.len_utf8();
                } else {
                    break;
                }
            }
            return (TokenKind::Word, at + end);
        }
        if matches!(c, ';' | ':' | '(' | ')' | '[' | ']' | ',' | '.') {
            return (TokenKind::Punctuation, at + 1);
        }
        if let Some(len) = operator(rest) {
            return (TokenKind::Operator, at + len);
        }
        (TokenKind::Error, at + c.len_utf8())
    }

    /// `(?<!\w)[$:?]\w+`, `?` and `%(name)s`.
    fn placeholder(&self, at: usize) -> Option<usize> {
        let rest = self.rest(at);
        if rest.starts_with('?') {
            // `(?<!\w)?\w+` is tried after the lone `?`, which always wins.
            return Some(at + 1);
        }
        if let Some(after) = rest.strip_prefix('%') {
            let mut len = 1;
            let mut tail = after;
            if let Some(inner) = after.strip_prefix('(') {
                let word = word_len(inner);
                if word > 0 && inner[word..].starts_with(')') {
                    len += word + 2;
                    tail = &inner[word + 1..];
                }
            }
            if tail.starts_with(['s', 'S']) {
                return Some(at + len + 1);
            }
        }
        let c = self.char_at(at)?;
        if matches!(c, '$' | ':') && !self.char_before(at).is_some_and(is_word) {
            let word = word_len(&rest[1..]);
            if word > 0 {
                return Some(at + 1 + word);
            }
        }
        None
    }

    /// A dollar-quoted literal opening at `at`: `$tag$` not after a word character, `"` or `$`,
    /// closed by the next `$tag$`.
    fn dollar_quoted(&self, at: usize) -> Option<usize> {
        if self
            .char_before(at)
            .is_some_and(|b| is_word(b) || b == '"' || b == '$')
        {
            return None;
        }
        let rest = self.rest(at);
        let inner = &rest[1..];
        let tag_len = if inner
            .chars()
            .next()
            .is_some_and(|c| c == '_' || is_name_start(c))
        {
            word_len(inner)
        } else {
            0
        };
        if !inner[tag_len..].starts_with('$') {
            return None;
        }
        let delimiter = &rest[..tag_len + 2];
        let close = rest[delimiter.len()..].find(delimiter)?;
        Some(at + delimiter.len() + close + delimiter.len())
    }
}

/// The length of the run of `\w` characters at the start of `text`.
fn word_len(text: &str) -> usize {
    text.char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| i)
}

/// Up to and including the first line break (`.*?(\r\n|\r|\n|$)`).
fn line_end(text: &str) -> usize {
    match text.find(['\r', '\n']) {
        Some(i) if text[i..].starts_with("\r\n") => i + 2,
        Some(i) => i + 1,
        None => text.len(),
    }
}

/// For every position holding `quote`, where sqlparse's pattern for a string quoted with it
/// (`'(''|\\'|[^'])*'`, `"(""|\\"|[^"])*"`, and without the backslash escape for `` ` ``
/// and `´`) would end when started there. The pattern is greedy and backtracks: from a
/// position it first takes a doubled quote, then (where allowed) a backslash and a quote,
/// then any other character, and only then ends on a quote. The end reached from a position
/// does not depend on where the string began, so one pass from the right answers for all.
fn quoted_ends(text: &str, quote: char, backslash: bool) -> Vec<Option<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let n = chars.len();
    // `from[i]`: where a match of `(...)*` and the closing quote starting at char i ends, in
    // bytes.
    let mut from: Vec<Option<usize>> = vec![None; n + 1];
    for i in (0..n).rev() {
        let (at, c) = chars[i];
        let next_is_quote = chars.get(i + 1).is_some_and(|(_, d)| *d == quote);
        let mut end = None;
        if c == quote && next_is_quote {
            end = from.get(i + 2).copied().flatten();
        }
        if end.is_none() && backslash && c == '\\' && next_is_quote {
            end = from.get(i + 2).copied().flatten();
        }
        if end.is_none() && c != quote {
            end = from[i + 1];
        }
        if end.is_none() && c == quote {
            end = Some(at + c.len_utf8());
        }
        from[i] = end;
    }
    let mut ends = vec![None; text.len() + 1];
    for (i, (at, c)) in chars.iter().enumerate() {
        if *c == quote {
            ends[*at] = from[i + 1];
        }
    }
    ends
}

/// A keyword from `words` at the start of `text`, followed by a word boundary.
fn keyword_with_boundary(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().find_map(|word| {
        let head = text.get(..word.len())?;
        let boundary = !text[word.len()..].chars().next().is_some_and(is_word);
        (head.eq_ignore_ascii_case(word) && boundary).then_some(word.len())
    })
}

/// `A\s+B` patterns: the words in order, whitespace between, a word boundary after the last.
fn words_then_boundary(text: &str, words: &[&str]) -> Option<usize> {
    let mut at = 0;
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            let space = text[at..]
                .char_indices()
                .find(|(_, c)| !is_space(*c))
                .map_or(text.len() - at, |(j, _)| j);
            if space == 0 {
                return None;
            }
            at += space;
        }
        let head = text.get(at..at + word.len())?;
        if !head.eq_ignore_ascii_case(word) {
            return None;
        }
        at += word.len();
    }
    (!text[at..].chars().next().is_some_and(is_word)).then_some(at)
}

/// The longest of the alternatives that match, as a regex with optional groups would take them
/// (each optional group greedy, tried first).
fn first_of(text: &str, alternatives: &[&[&str]]) -> Option<usize> {
    alternatives
        .iter()
        .find_map(|words| words_then_boundary(text, words))
}

/// sqlparse's keyword patterns of several words (and `END`, `ASC`...), in its order.
fn multiword_keyword(text: &str) -> Option<(TokenKind, usize)> {
    let join: &[&[&str]] = &[
        &["LEFT", "INNER", "JOIN"],
        &["LEFT", "OUTER", "JOIN"],
        &["LEFT", "STRAIGHT", "JOIN"],
        &["LEFT", "JOIN"],
        &["RIGHT", "INNER", "JOIN"],
        &["RIGHT", "OUTER", "JOIN"],
        &["RIGHT", "STRAIGHT", "JOIN"],
        &["RIGHT", "JOIN"],
        &["FULL", "INNER", "JOIN"],
        &["FULL", "OUTER", "JOIN"],
        &["FULL", "STRAIGHT", "JOIN"],
        &["FULL", "JOIN"],
        &["INNER", "JOIN"],
        &["OUTER", "JOIN"],
        &["STRAIGHT", "JOIN"],
        &["CROSS", "JOIN"],
        &["NATURAL", "JOIN"],
        &["JOIN"],
    ];
    if let Some(len) = first_of(text, join) {
        return Some((TokenKind::Keyword, len));
    }
    let end: &[&[&str]] = &[
        &["END", "IF"],
        &["END", "LOOP"],
        &["END", "WHILE"],
        &["END", "FOR"],
        &["END", "CASE"],
        &["END"],
    ];
    let simple: &[&[&[&str]]] = &[
        end,
        &[&["IF", "NOT", "EXISTS"], &["IF", "EXISTS"]],
        &[&["NOT", "NULL"]],
        &[
            &["ASC", "NULLS", "FIRST"],
            &["ASC", "NULLS", "LAST"],
            &["DESC", "NULLS", "FIRST"],
            &["DESC", "NULLS", "LAST"],
            &["ASC"],
            &["DESC"],
        ],
        &[&["NULLS", "FIRST"], &["NULLS", "LAST"]],
        &[&["UNION", "ALL"]],
    ];
    for alternatives in simple {
        if let Some(len) = first_of(text, alternatives) {
            return Some((TokenKind::Keyword, len));
        }
    }
    if let Some(len) = first_of(text, &[&["CREATE", "OR", "REPLACE"], &["CREATE"]]) {
        return Some((TokenKind::Create, len));
    }
    let rest: &[&[&[&str]]] = &[
        &[&["DOUBLE", "PRECISION"]],
        &[&["GROUP", "BY"]],
        &[&["ORDER", "BY"]],
        &[&["PRIMARY", "KEY"]],
        &[&["HANDLER", "FOR"]],
    ];
    for alternatives in rest {
        if let Some(len) = first_of(text, alternatives) {
            return Some((TokenKind::Keyword, len));
        }
    }
    // `GO(\s\d+)\b`: GO, one whitespace character, digits.
    if text
        .get(..2)
        .is_some_and(|head| head.eq_ignore_ascii_case("GO"))
    {
        let after = &text[2..];
        if let Some(space) = after.chars().next().filter(|c| is_space(*c)) {
            let digits_at = 2 + space.len_utf8();
            let digits = text[digits_at..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(text.len() - digits_at);
            let end = digits_at + digits;
            if digits > 0 && !text[end..].chars().next().is_some_and(is_word) {
                return Some((TokenKind::Keyword, end));
            }
        }
    }
    if let Some(len) = time_zone(text) {
        return Some((TokenKind::Keyword, len));
    }
    let comparison: &[&[&str]] = &[
        &["NOT", "LIKE"],
        &["NOT", "ILIKE"],
        &["NOT", "RLIKE"],
        &["LIKE"],
        &["ILIKE"],
        &["RLIKE"],
        &["NOT", "REGEXP", "BINARY"],
        &["NOT", "REGEXP"],
        &["REGEXP", "BINARY"],
        &["REGEXP"],
    ];
    first_of(text, comparison).map(|len| (TokenKind::Operator, len))
}

/// `(AT|WITH')\s+TIME\s+ZONE\s+'[^']+'`: one token, the zone's string included.
fn time_zone(text: &str) -> Option<usize> {
    let head = ["AT", "WITH'"].iter().find(|w| {
        text.get(..w.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(w))
    })?;
    let mut at = head.len();
    for word in ["TIME", "ZONE"] {
        let space = text[at..]
            .chars()
            .take_while(|c| is_space(*c))
            .map(char::len_utf8)
            .sum::<usize>();
        if space == 0
            || !text
                .get(at + space..at + space + word.len())?
                .eq_ignore_ascii_case(word)
        {
            return None;
        }
        at += space + word.len();
    }
    let space = text[at..]
        .chars()
        .take_while(|c| is_space(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    let zone = text[at + space..].strip_prefix('\'')?;
    let close = zone.find('\'')?;
    (close > 0).then_some(at + space + 1 + close + 1)
}

/// sqlparse's number patterns, in its order: hexadecimal, with an exponent, with a fraction,
/// integer. The last two may not be followed by a letter or `_`; their greedy digit runs give
/// back one digit at a time until what follows is not one (`12x` lexes as `1`, then `2x`).
fn number(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let sign = usize::from(bytes.first() == Some(&b'-'));
    let digits = |from: usize| {
        bytes.get(from..).map_or(0, |tail| {
            tail.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let letter_at = |at: usize| {
        text[at..]
            .chars()
            .next()
            .is_some_and(|c| c == '_' || is_name_start(c))
    };
    // A run of `run` digits ending at `end` that must not be followed by a letter, or that
    // gives back its last digit when it is (keeping at least `keep`).
    let backtracked = |end: usize, run: usize, keep: usize| {
        if !letter_at(end) {
            Some(end)
        } else if run > keep {
            Some(end - 1)
        } else {
            None
        }
    };
    // -?0x[\dA-F]+
    let after_sign = &text[sign..];
    if after_sign
        .get(..2)
        .is_some_and(|head| head.eq_ignore_ascii_case("0x"))
    {
        let hex = bytes[sign + 2..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        if hex > 0 {
            return Some(sign + 2 + hex);
        }
    }
    let whole = digits(sign);
    // -?\d+(\.\d+)?E-?\d+
    if whole > 0 {
        let mut at = sign + whole;
        if bytes.get(at) == Some(&b'.') && digits(at + 1) > 0 {
            at += 1 + digits(at + 1);
        }
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            let exp = at + 1 + usize::from(bytes.get(at + 1) == Some(&b'-'));
            let n = digits(exp);
            if n > 0 {
                return Some(exp + n);
            }
        }
    }
    // -?(\d+(\.\d*)|\.\d+)(?![_A-ZÀ-Ü])
    if whole > 0 && bytes.get(sign + whole) == Some(&b'.') {
        let fraction = digits(sign + whole + 1);
        if let Some(end) = backtracked(sign + whole + 1 + fraction, fraction, 0) {
            return Some(end);
        }
    }
    if whole == 0 && bytes.get(sign) == Some(&b'.') {
        let fraction = digits(sign + 1);
        if fraction > 0
            && let Some(end) = backtracked(sign + 1 + fraction, fraction, 1)
        {
            return Some(end);
        }
    }
    // -?\d+(?![_A-ZÀ-Ü])
    if whole > 0 {
        return backtracked(sign + whole, whole, 1);
    }
    None
}

/// sqlparse's operator patterns.
fn operator(text: &str) -> Option<usize> {
    for fixed in [
        "->>", "->", "#>>", "#>", "@>", "<@", "?|", "?&", "#-", "?", "-",
    ] {
        if text.starts_with(fixed) {
            return Some(fixed.len());
        }
    }
    let run = |set: &str| text.chars().take_while(|c| set.contains(*c)).count();
    let comparison = run("<>=~!");
    if comparison > 0 {
        return Some(comparison);
    }
    let other = run("+/@#%^&|-");
    (other > 0).then_some(other)
}

/// The first statement of `text`, as `sqlparse.parse(text)[0]` holds it: up to and including
/// the first `;` outside brackets and `BEGIN ... END` blocks, with the spaces and `--` comments
/// that follow it on the same line. `None` when the text holds nothing but whitespace.
pub(crate) fn first_statement(text: &str) -> Option<&str> {
    statements(text, false).into_iter().next()
}

/// Every statement of `text`, as sqlparse's `StatementSplitter` cuts them. With
/// `keywords_upper`, keywords were upper-cased first (`sqlparse.format(keyword_case="upper")`),
/// which matters to one rule: a keyword `GO` ends a statement, and the splitter compares it
/// case-sensitively.
pub(crate) fn statements(text: &str, keywords_upper: bool) -> Vec<&str> {
    let mut found = Vec::new();
    let mut splitter = Splitter::default();
    let mut start = 0;
    let mut end = 0;
    let mut consume_ws = false;
    let mut only_space = true;
    for token in tokenize(text) {
        if consume_ws && !matches!(token.kind, TokenKind::Whitespace | TokenKind::CommentSingle) {
            found.push(&text[start..end]);
            start = end;
            splitter = Splitter::default();
            consume_ws = false;
            only_space = true;
        }
        splitter.level += splitter.change(&token);
        end += token.text.len();
        only_space &= matches!(token.kind, TokenKind::Whitespace | TokenKind::Newline);
        let first_word = token.text.split_whitespace().next().unwrap_or_default();
        let go = if keywords_upper {
            first_word.eq_ignore_ascii_case("GO")
        } else {
            first_word == "GO"
        };
        if token.kind == TokenKind::Punctuation && token.text == ";" {
            splitter.seen_begin = false;
            if splitter.level <= 0 && !splitter.blocks.contains(&"BEGIN") {
                consume_ws = true;
            }
        } else if is_keyword(&token) && go {
            consume_ws = true;
        } else {
            let quiet = matches!(
                token.kind,
                TokenKind::Whitespace
                    | TokenKind::Newline
                    | TokenKind::CommentSingle
                    | TokenKind::CommentMulti
            );
            let begin = is_keyword(&token) && token.text.eq_ignore_ascii_case("BEGIN");
            if !quiet && !begin {
                splitter.seen_begin = false;
            }
        }
    }
    if end > start && !only_space {
        found.push(&text[start..end]);
    }
    found
}

/// `sqlparse.format(text, keyword_case="upper")` without the upper-casing: each statement's
/// lines (split at line breaks outside quotes) with their trailing whitespace removed, the
/// statements joined as they were.
pub(crate) fn format(text: &str) -> String {
    statements(text, true)
        .into_iter()
        .map(|statement| {
            unquoted_lines(statement)
                .iter()
                .map(|line| {
                    line.trim_end_matches(|c: char| {
                        c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
                    })
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// `utils.split_unquoted_newlines`: the text split at `\r\n`, `\r` and `\n` outside `'...'`
/// and `"..."` (a backslash escapes the next character but a line break; a quote never closed
/// is plain text).
fn unquoted_lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let (mut line_start, mut pos) = (0, 0);
    let mut unclosed_before = [0usize; 2];
    while pos < bytes.len() {
        match bytes[pos] {
            b'\r' | b'\n' => {
                lines.push(&text[line_start..pos]);
                pos += if bytes[pos..].starts_with(b"\r\n") {
                    2
                } else {
                    1
                };
                line_start = pos;
            }
            quote @ (b'"' | b'\'') => {
                let which = usize::from(quote == b'\'');
                if pos >= unclosed_before[which] {
                    let mut end = pos + 1;
                    while end < bytes.len() && bytes[end] != quote {
                        if bytes[end] == b'\\'
                            && end + 1 < bytes.len()
                            && !matches!(bytes[end + 1], b'\n' | b'\r')
                        {
                            end += 2;
                        } else if bytes[end] == b'\\' {
                            break;
                        } else {
                            end += 1;
                        }
                    }
                    let end = end.min(bytes.len());
                    if end < bytes.len() && bytes[end] == quote {
                        pos = end + 1;
                        continue;
                    }
                    unclosed_before[which] = end;
                }
                pos += 1;
            }
            _ => pos += 1,
        }
    }
    lines.push(&text[line_start..]);
    lines
}

/// Whether sqlparse types the token as a keyword (of any kind) — for the words the splitter
/// reads.
fn is_keyword(token: &Token<'_>) -> bool {
    match token.kind {
        TokenKind::Keyword | TokenKind::Create => true,
        TokenKind::Word => splitter_keyword(token.text),
        _ => false,
    }
}

/// sqlparse's `StatementSplitter` state.
#[derive(Default)]
struct Splitter {
    level: i64,
    blocks: Vec<&'static str>,
    unconfirmed: Option<&'static str>,
    is_create: bool,
    seen_begin: bool,
}

impl Splitter {
    /// `_change_splitlevel`.
    fn change(&mut self, token: &Token<'_>) -> i64 {
        if token.kind == TokenKind::Punctuation && token.text == ";" {
            self.unconfirmed = None;
            if self.seen_begin {
                self.seen_begin = false;
                if self.blocks.last() == Some(&"BEGIN") {
                    self.blocks.pop();
                    return -1;
                }
            }
            return 0;
        }
        if token.kind == TokenKind::Punctuation && token.text == "(" {
            return 1;
        }
        if token.kind == TokenKind::Punctuation && token.text == ")" {
            return -1;
        }
        if !is_keyword(token) {
            return 0;
        }
        let unified = token.text.to_uppercase();
        if token.kind == TokenKind::Create {
            self.is_create = true;
            return 0;
        }
        if unified == "DECLARE" && self.is_create && self.blocks.is_empty() {
            self.blocks.push("DECLARE");
            return 1;
        }
        if unified == "BEGIN" {
            self.seen_begin = true;
            if self.blocks.last() == Some(&"DECLARE") {
                self.blocks.pop();
                self.blocks.push("BEGIN");
                return 0;
            }
            self.blocks.push("BEGIN");
            return 1;
        }
        if self.seen_begin
            && matches!(
                unified.as_str(),
                "TRANSACTION" | "WORK" | "DEFERRED" | "IMMEDIATE" | "EXCLUSIVE"
            )
        {
            self.seen_begin = false;
            if self.blocks.last() == Some(&"BEGIN") {
                self.blocks.pop();
                return -1;
            }
            return 0;
        }
        if self.blocks.contains(&"BEGIN")
            && let Some(change) = self.nested_block(&unified)
        {
            return change;
        }
        self.closing(&unified)
    }

    /// `_handle_nested_block`.
    fn nested_block(&mut self, unified: &str) -> Option<i64> {
        match unified {
            "FOR" => {
                self.unconfirmed = Some("FOR");
                Some(0)
            }
            "WHILE" => {
                self.unconfirmed = Some("WHILE");
                Some(0)
            }
            "LOOP" | "DO" => {
                if let Some(start) = self.unconfirmed.take() {
                    self.blocks.push(start);
                    return Some(1);
                }
                if unified == "LOOP" {
                    self.blocks.push("LOOP");
                    return Some(1);
                }
                None
            }
            "IF" => {
                self.blocks.push("IF");
                Some(1)
            }
            "CASE" => {
                self.blocks.push("CASE");
                Some(1)
            }
            _ => None,
        }
    }

    /// `_handle_closing_keyword`: `END` always lowers the level, the `END x` forms only when
    /// they close the innermost block.
    fn closing(&mut self, unified: &str) -> i64 {
        if unified == "END" {
            self.blocks.pop();
            return -1;
        }
        let closes: &[&str] = match unified {
            "END IF" => &["IF"],
            "END FOR" => &["FOR"],
            "END WHILE" => &["WHILE"],
            "END LOOP" => &["LOOP", "FOR", "WHILE"],
            "END CASE" => &["CASE"],
            _ => &[],
        };
        if self.blocks.last().is_some_and(|b| closes.contains(b)) {
            self.blocks.pop();
            return -1;
        }
        0
    }
}

/// Spider's `parse.remove_distinct`: the first statement's tokens without those that read
/// `distinct` (in any case), joined as they were. `DISTINCT` goes wherever it stands, inside
/// `COUNT(DISTINCT x)` too, and whatever followed the first `;` is gone.
pub(crate) fn remove_distinct(text: &str) -> String {
    let Some(statement) = first_statement(text) else {
        return String::new();
    };
    tokenize(statement)
        .iter()
        .filter(|t| !t.text.eq_ignore_ascii_case("distinct"))
        .map(|t| t.text)
        .collect()
}

/// Whether a `DISTINCT` token stands first in a call's brackets (`COUNT(DISTINCT x)`): after
/// `(`, which follows a name. `SELECT DISTINCT(a)` is not one.
fn in_aggregate(tokens: &[Token<'_>], at: usize) -> bool {
    let mut before = tokens[..at].iter().rev().filter(|t| {
        !matches!(
            t.kind,
            TokenKind::Whitespace
                | TokenKind::Newline
                | TokenKind::CommentSingle
                | TokenKind::CommentMulti
        )
    });
    before.next().is_some_and(|t| t.text == "(")
        && before.next().is_some_and(|t| {
            matches!(
                t.kind,
                TokenKind::Name | TokenKind::Word | TokenKind::Keyword
            )
        })
}

/// Whether the first statement has `DISTINCT` inside an aggregate (`COUNT(DISTINCT x)`), which
/// `remove_distinct` removes and changes what the query counts.
pub(crate) fn has_aggregate_distinct(text: &str) -> bool {
    let Some(statement) = first_statement(text) else {
        return false;
    };
    let tokens = tokenize(statement);
    (0..tokens.len())
        .any(|at| tokens[at].text.eq_ignore_ascii_case("distinct") && in_aggregate(&tokens, at))
}

/// `remove_distinct` with the correction qeval's strict verdict makes: a `DISTINCT` inside an
/// aggregate (`COUNT(DISTINCT x)`) stays; every other goes, as Spider's rule has it.
pub(crate) fn remove_distinct_outside_aggregates(text: &str) -> String {
    let Some(statement) = first_statement(text) else {
        return String::new();
    };
    let tokens = tokenize(statement);
    (0..tokens.len())
        .filter(|&at| {
            !tokens[at].text.eq_ignore_ascii_case("distinct") || in_aggregate(&tokens, at)
        })
        .map(|at| tokens[at].text)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_keeps_distinct_inside_aggregates_only() {
        let sql = "SELECT DISTINCT a, count(DISTINCT b), COUNT ( distinct c) FROM t";
        assert!(has_aggregate_distinct(sql));
        assert_eq!(
            remove_distinct_outside_aggregates(sql),
            "SELECT  a, count(DISTINCT b), COUNT ( distinct c) FROM t"
        );
        assert!(!has_aggregate_distinct("select distinct(a) from t"));
        assert!(!has_aggregate_distinct("SELECT DISTINCT a FROM t"));
    }

    fn texts(sql: &str) -> Vec<&str> {
        tokenize(sql).iter().map(|t| t.text).collect()
    }

    #[test]
    fn distinct_goes_wherever_it_is_a_token() {
        assert_eq!(
            remove_distinct("SELECT DISTINCT name FROM t"),
            "SELECT  name FROM t"
        );
        assert_eq!(
            remove_distinct("SELECT count(DISTINCT name) FROM t"),
            "SELECT count( name) FROM t"
        );
        assert_eq!(
            remove_distinct("select distinct(a) from t"),
            "select (a) from t"
        );
        assert_eq!(
            remove_distinct("SELECT 'distinct', \"distinct\", distinct_x FROM t"),
            "SELECT 'distinct', \"distinct\", distinct_x FROM t"
        );
        assert_eq!(
            remove_distinct("select t.distinct from t"),
            "select t. from t"
        );
    }

    #[test]
    fn only_the_first_statement_is_kept() {
        assert_eq!(remove_distinct("select a; b"), "select a; ");
        assert_eq!(
            remove_distinct("select a;  -- c\n  x"),
            "select a;  -- c\n  "
        );
        assert_eq!(remove_distinct("select (a; b"), "select (a; b");
        assert_eq!(remove_distinct("   "), "");
    }

    #[test]
    fn strings_follow_sqlparses_backtracking() {
        assert_eq!(texts("'it''s'"), ["'it''s'"]);
        assert_eq!(texts("'a\\'s'"), ["'a\\'s'"]);
        assert_eq!(texts("'a\\'"), ["'a\\'"]);
        assert_eq!(texts("'a' 'b'"), ["'a'", " ", "'b'"]);
        assert_eq!(texts("'open"), ["'", "open"]);
    }

    #[test]
    fn multiword_keywords_and_numbers_are_one_token() {
        assert_eq!(
            texts("ORDER  BY x LEFT JOIN y"),
            ["ORDER  BY", " ", "x", " ", "LEFT JOIN", " ", "y"]
        );
        assert_eq!(texts("a=-1.5"), ["a", "=", "-1.5"]);
        assert_eq!(texts("1e5 2x"), ["1e5", " ", "2x"]);
        assert_eq!(texts("T1.name"), ["T1", ".", "name"]);
    }
}
