//! Escaping for the page: every piece of record text goes through `escape` (the core's
//! `escape::markup`), and data for scripts through `json_for_script`.

/// `text` safe inside an element or a double-quoted attribute: the core's one markup escaper.
pub use qeval_core::escape_markup as escape;

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
