//! Word-level differences between the expected and the generated query: one implementation for
//! the app's detail view, the playground's normalized forms and the exported page (which gets
//! the pieces made here, so every view marks the same words).
//!
//! Tokens are words (letters, digits, `_` and `.`), runs of white space, and each other
//! character on its own; they match ignoring ASCII case, as SQL keywords do. The diff is Myers'
//! (the `similar` crate) over the whole of both queries. Its time grows with the product of the
//! length and the number of differences, so past [`MAX_TOKENS`] tokens on a side only the common
//! start and end are matched and the middle is marked as one changed block.

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// Tokens per side the word-level diff takes on; longer queries are compared by their common
/// start and end alone.
pub const MAX_TOKENS: usize = 20_000;

/// A piece of text and whether it is only on this side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub changed: bool,
}

/// Tokens: words, runs of white space, and other characters one by one.
fn tokens(text: &str) -> Vec<&str> {
    #[derive(PartialEq, Clone, Copy)]
    enum DiffClass {
        Space,
        Word,
        Other,
    }
    let class_of = |c: char| {
        if c.is_whitespace() {
            DiffClass::Space
        } else if c.is_alphanumeric() || c == '_' || c == '.' {
            DiffClass::Word
        } else {
            DiffClass::Other
        }
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut last = None;
    for (i, c) in text.char_indices() {
        let class = class_of(c);
        if last.is_some_and(|l| l != class || class == DiffClass::Other) && i > start {
            out.push(&text[start..i]);
            start = i;
        }
        last = Some(class);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One side's pieces as they are built: runs of the same kind joined, and white space joining
/// the run it follows, so a changed clause is marked as one piece.
#[derive(Default)]
struct Side(Vec<Piece>);

impl Side {
    fn push(&mut self, text: &str, changed: bool) {
        let changed = changed && !text.trim().is_empty();
        match self.0.last_mut() {
            Some(last) if last.changed == changed || text.trim().is_empty() => {
                last.text.push_str(text);
            }
            _ => self.0.push(Piece {
                text: text.to_string(),
                changed,
            }),
        }
    }

    fn extend<'a>(&mut self, tokens: impl IntoIterator<Item = &'a &'a str>, changed: bool) {
        for token in tokens {
            self.push(token, changed);
        }
    }
}

/// What is only in `left` and what is only in `right`, each side's text whole and in order.
pub fn diff(left: &str, right: &str) -> (Vec<Piece>, Vec<Piece>) {
    let (x, y) = (tokens(left), tokens(right));
    let keys = |tokens: &[&str]| -> Vec<String> {
        tokens.iter().map(|t| t.to_ascii_lowercase()).collect()
    };
    let (kx, ky) = (keys(&x), keys(&y));
    let (mut a, mut b) = (Side::default(), Side::default());
    if x.len() > MAX_TOKENS || y.len() > MAX_TOKENS {
        let start = kx.iter().zip(&ky).take_while(|(p, q)| p == q).count();
        let end = kx[start..]
            .iter()
            .rev()
            .zip(ky[start..].iter().rev())
            .take_while(|(p, q)| p == q)
            .count();
        a.extend(&x[..start], false);
        a.extend(&x[start..x.len() - end], true);
        a.extend(&x[x.len() - end..], false);
        b.extend(&y[..start], false);
        b.extend(&y[start..y.len() - end], true);
        b.extend(&y[y.len() - end..], false);
        return (a.0, b.0);
    }
    for op in capture_diff_slices(Algorithm::Myers, &kx, &ky) {
        let (old, new) = (op.old_range(), op.new_range());
        let changed = !matches!(op, DiffOp::Equal { .. });
        a.extend(&x[old], changed);
        b.extend(&y[new], changed);
    }
    (a.0, b.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(pieces: &[Piece]) -> Vec<&str> {
        pieces
            .iter()
            .filter(|p| p.changed)
            .flat_map(|p| p.text.split_whitespace())
            .collect()
    }

    fn whole(pieces: &[Piece]) -> String {
        pieces.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn marks_only_what_differs_ignoring_keyword_case() {
        let (a, b) = diff(
            "SELECT name FROM users WHERE id = 1",
            "select name from users",
        );
        assert_eq!(changed(&a), ["WHERE", "id", "=", "1"]);
        assert!(changed(&b).is_empty());
    }

    #[test]
    fn long_queries_are_compared_to_their_end() {
        // Words past the 1,500th token used to go unmarked.
        let columns: Vec<String> = (0..3_000).map(|i| format!("c{i}")).collect();
        let expected = format!("SELECT {} FROM t WHERE a = 1", columns.join(", "));
        let generated = format!("SELECT {} FROM t WHERE a = 2", columns.join(", "));
        let (a, b) = diff(&expected, &generated);
        assert_eq!(changed(&a), ["1"]);
        assert_eq!(changed(&b), ["2"]);
        assert_eq!((whole(&a), whole(&b)), (expected, generated));
    }

    #[test]
    fn past_the_limit_the_middle_is_one_changed_block() {
        let filler = "x ".repeat(MAX_TOKENS);
        let (a, b) = diff(
            &format!("SELECT 1 {filler} END"),
            &format!("SELECT 2 {filler}y END"),
        );
        assert_eq!(changed(&a).first(), Some(&"1"));
        assert_eq!(whole(&a), format!("SELECT 1 {filler} END"));
        assert!(b.iter().any(|p| p.changed && p.text.contains('y')));
        assert!(
            !b.last().is_some_and(|p| p.changed),
            "the common end is not marked"
        );
    }
}
