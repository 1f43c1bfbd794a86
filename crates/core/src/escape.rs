//! Untrusted text (queries, records, judge replies, file names) made safe for where it is
//! written: one escaper per kind of output, each the only one of its kind in the workspace.
//! Markdown table cells, which also cut and fold text, are `run::export`'s.

use std::fmt::Write as _;

/// Text as HTML or XML character data, or a quoted attribute value: `&`, `<`, `>`, `"` and `'`
/// escaped (`&#39;`, which both languages read), and the characters neither may hold dropped:
/// control characters other than tab, line feed and carriage return, and U+FFFE, U+FFFF. The
/// static report page and the JUnit XML export both use it.
pub fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {}
            c => out.push(c),
        }
    }
    out
}

/// Text for a terminal: control characters (an ANSI escape, a carriage return) are shown as
/// `\u{1b}` escapes, so none of them can rewrite what the user sees. Line breaks and tabs stay.
pub fn terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_cannot_escape_its_element_or_attribute() {
        assert_eq!(
            markup("<img src=x onerror=\"a('b')\">&"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
    }

    #[test]
    fn markup_drops_what_xml_cannot_hold_and_keeps_line_breaks() {
        assert_eq!(
            markup("a\u{1b}[2J\u{0}b\tc\r\nd\u{FFFF}\u{7f}"),
            "a[2Jb\tc\r\nd"
        );
    }

    #[test]
    fn control_characters_are_shown_not_obeyed_on_a_terminal() {
        assert_eq!(
            terminal("a\u{1b}[2Jb\rc\nd\te"),
            "a\\u{1b}[2Jb\\u{d}c\nd\te"
        );
    }
}
