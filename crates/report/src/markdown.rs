//! The little Markdown LLM judges write in their explanations (paragraphs, `-` and `1.` lists,
//! fenced code, `**strong**`, `*emphasis*`, `` `code` ``), read into blocks that the app and the
//! exported page lay out as elements. Nothing here makes HTML: every piece is text, a link is
//! kept as its words and its address in brackets, never as something to click, and anything
//! else stays as written.
//!
//! Emphasis needs a letter or digit inside each marker (`*this*`, `**that**`), so the asterisks
//! of SQL (`COUNT(*)`, `SELECT *`, `a * b`) stay as they are.

use serde::Serialize;

/// A block of an explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "block", rename_all = "snake_case")]
pub enum Block {
    Paragraph {
        spans: Vec<Span>,
    },
    List {
        ordered: bool,
        items: Vec<Vec<Span>>,
    },
    Code {
        text: String,
    },
}

/// A run of text in one style.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    pub style: Style,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Plain,
    Strong,
    Emphasis,
    Code,
}

/// The blocks of `text` when it uses any of the Markdown read here; `None` for plain text,
/// which is then shown as it is.
pub fn read(text: &str) -> Option<Vec<Block>> {
    let blocks = blocks(text);
    let plain = |block: &Block| matches!(block, Block::Paragraph { spans } if spans.iter().all(|s| s.style == Style::Plain));
    (!blocks.iter().all(plain)).then_some(blocks)
}

/// Reads `text` into blocks: blank lines part paragraphs, lines of a list are its items, a
/// ```` ``` ```` line opens and closes code.
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut list: Option<(bool, Vec<String>)> = None;
    let mut code: Option<Vec<&str>> = None;
    let flush = |blocks: &mut Vec<Block>,
                 paragraph: &mut Vec<&str>,
                 list: &mut Option<(bool, Vec<String>)>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph {
                spans: spans(&paragraph.join("\n")),
            });
            paragraph.clear();
        }
        if let Some((ordered, items)) = list.take() {
            let items = items.iter().map(|item| spans(item)).collect();
            blocks.push(Block::List { ordered, items });
        }
    };
    for line in text.lines() {
        if let Some(lines) = &mut code {
            if line.trim_start().starts_with("```") {
                blocks.push(Block::Code {
                    text: lines.join("\n"),
                });
                code = None;
            } else {
                lines.push(line);
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            flush(&mut blocks, &mut paragraph, &mut list);
            code = Some(Vec::new());
        } else if trimmed.is_empty() {
            flush(&mut blocks, &mut paragraph, &mut list);
        } else if let Some((ordered, item)) = list_item(trimmed) {
            if !paragraph.is_empty() || list.as_ref().is_some_and(|(o, _)| *o != ordered) {
                flush(&mut blocks, &mut paragraph, &mut list);
            }
            list.get_or_insert_with(|| (ordered, Vec::new()))
                .1
                .push(item.to_string());
        } else if let Some((_, items)) = &mut list
            && line.starts_with(' ')
        {
            // An indented line goes on with the item above it.
            if let Some(last) = items.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            if list.is_some() {
                flush(&mut blocks, &mut paragraph, &mut list);
            }
            paragraph.push(heading_text(trimmed));
        }
    }
    if let Some(lines) = code {
        // An unclosed fence: the code runs to the end.
        blocks.push(Block::Code {
            text: lines.join("\n"),
        });
    }
    flush(&mut blocks, &mut paragraph, &mut list);
    blocks
}

/// A heading's words (`## Verdict` gives `Verdict`); other lines as they are.
fn heading_text(line: &str) -> &str {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    match line[hashes..].strip_prefix(' ') {
        Some(words) if (1..=6).contains(&hashes) => words.trim_start(),
        _ => line,
    }
}

/// `- item`, `* item`, `+ item`, `1. item`, `1) item`: whether it is numbered, and the item.
fn list_item(line: &str) -> Option<(bool, &str)> {
    for bullet in ["- ", "* ", "+ "] {
        if let Some(item) = line.strip_prefix(bullet) {
            return Some((false, item.trim_start()));
        }
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let rest = &line[digits..];
        for mark in [". ", ") "] {
            if let Some(item) = rest.strip_prefix(mark) {
                return Some((true, item.trim_start()));
            }
        }
    }
    None
}

/// The styled runs of one paragraph or item.
fn spans(text: &str) -> Vec<Span> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Span> = Vec::new();
    let mut plain = String::new();
    let mut at = 0;
    while at < chars.len() {
        if let Some((style, inner, next)) = styled_at(&chars, at) {
            push(&mut out, Style::Plain, std::mem::take(&mut plain));
            push(&mut out, style, inner);
            at = next;
        } else if let Some((words, next)) = link_at(&chars, at) {
            plain.push_str(&words);
            at = next;
        } else {
            plain.push(chars[at]);
            at += 1;
        }
    }
    push(&mut out, Style::Plain, plain);
    out
}

fn push(out: &mut Vec<Span>, style: Style, text: String) {
    if !text.is_empty() {
        out.push(Span { style, text });
    }
}

/// A styled run starting at `at`: its style, its text, and where the text after it starts.
fn styled_at(chars: &[char], at: usize) -> Option<(Style, String, usize)> {
    let rest = &chars[at..];
    if rest[0] == '`' {
        let end = rest[1..].iter().position(|&c| c == '`')? + 1;
        return (end > 1).then(|| (Style::Code, rest[1..end].iter().collect(), at + end + 1));
    }
    for (marker, style) in [
        ("**", Style::Strong),
        ("__", Style::Strong),
        ("*", Style::Emphasis),
        ("_", Style::Emphasis),
    ] {
        let marker: Vec<char> = marker.chars().collect();
        let width = marker.len();
        if !rest.starts_with(&marker) {
            continue;
        }
        // `_` inside a word (snake_case names) is not emphasis.
        if marker[0] == '_' && at > 0 && chars[at - 1].is_alphanumeric() {
            continue;
        }
        let opens = rest.get(width).is_some_and(|c| c.is_alphanumeric());
        if !opens {
            continue;
        }
        let mut end = width + 1;
        while end + width <= rest.len() {
            let closes = rest[end..].starts_with(&marker)
                && (rest[end - 1].is_alphanumeric()
                    || matches!(rest[end - 1], '.' | '!' | '?' | ')' | '"' | '\''))
                && !(marker[0] == '_'
                    && rest.get(end + width).is_some_and(|c| c.is_alphanumeric()));
            if closes {
                let inner: String = rest[width..end].iter().collect();
                if inner.contains("\n\n") {
                    return None;
                }
                return Some((style, inner, at + end + width));
            }
            end += 1;
        }
    }
    None
}

/// `[words](address)` at `at`: the words with the address after them in brackets, and where the
/// text after it starts.
fn link_at(chars: &[char], at: usize) -> Option<(String, usize)> {
    if chars[at] != '[' {
        return None;
    }
    let close = chars[at..].iter().position(|&c| c == ']')? + at;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = chars[close..].iter().position(|&c| c == ')')? + close;
    let words: String = chars[at + 1..close].iter().collect();
    let address: String = chars[close + 2..end].iter().collect();
    Some((format!("{words} ({address})"), end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styles(text: &str) -> Vec<(Style, String)> {
        spans(text).into_iter().map(|s| (s.style, s.text)).collect()
    }

    #[test]
    fn inline_styles_are_read() {
        use Style::*;
        assert_eq!(
            styles("The **filter** is *wrong*: `age > 30` drops _ties_."),
            [
                (Plain, "The ".into()),
                (Strong, "filter".into()),
                (Plain, " is ".into()),
                (Emphasis, "wrong".into()),
                (Plain, ": ".into()),
                (Code, "age > 30".into()),
                (Plain, " drops ".into()),
                (Emphasis, "ties".into()),
                (Plain, ".".into()),
            ]
        );
    }

    #[test]
    fn the_asterisks_and_underscores_of_sql_stay_as_written() {
        for text in [
            "COUNT(*) against COUNT(*)",
            "SELECT * FROM t WHERE a * b > 2 * c",
            "user_id and order_id differ",
            "**",
            "a ** b",
            "`",
        ] {
            assert_eq!(styles(text), [(Style::Plain, text.to_string())], "{text}");
            assert!(read(text).is_none(), "{text}");
        }
    }

    #[test]
    fn links_are_words_and_address_never_a_link() {
        assert_eq!(
            styles("See [the docs](javascript:alert`1`) now"),
            [(
                Style::Plain,
                "See the docs (javascript:alert`1`) now".to_string()
            )],
        );
    }

    #[test]
    fn lists_paragraphs_and_code_are_blocks() {
        let text = "## Verdict\nThe queries differ.\n\n- the **filter**\n- the order\n  of rows\n\n1. first\n2) second\n\n```sql\nSELECT 1\n```\nAfter.";
        let blocks = blocks(text);
        assert_eq!(blocks.len(), 5, "{blocks:?}");
        assert_eq!(
            blocks[0],
            Block::Paragraph {
                spans: spans("Verdict\nThe queries differ.")
            }
        );
        assert_eq!(
            blocks[1],
            Block::List {
                ordered: false,
                items: vec![spans("the **filter**"), spans("the order of rows")]
            }
        );
        assert!(matches!(&blocks[2], Block::List { ordered: true, items } if items.len() == 2));
        assert_eq!(
            blocks[3],
            Block::Code {
                text: "SELECT 1".into()
            }
        );
        assert!(read(text).is_some());
    }

    #[test]
    fn plain_text_is_one_paragraph() {
        let text = "Columns differ: expected name, got id";
        assert_eq!(blocks(text), [Block::Paragraph { spans: spans(text) }]);
        assert!(read(text).is_none());
        assert_eq!(blocks(""), []);
    }
}
