//! Escaping for text and attribute values: every piece of record text goes through here.

/// `text` safe inside an element or a double-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON safe inside a `<script type="application/json">` element: no `<`, `>` or `&` can end
/// the element or start markup (they are written as `\u003c` ... inside strings, the only place
/// JSON has them).
pub fn json_for_script(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_cannot_escape() {
        assert_eq!(
            escape("<img src=x onerror=\"a()\">&"),
            "&lt;img src=x onerror=&quot;a()&quot;&gt;&amp;"
        );
        let json = json_for_script(&serde_json::json!({"q": "</script><script>alert(1)</script>"}));
        assert!(!json.contains('<'), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).expect("still JSON");
        assert_eq!(back["q"], "</script><script>alert(1)</script>");
    }
}
