//! Word-level differences between the expected and the generated query, for the detail view.

/// A piece of text and whether it is only on this side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub changed: bool,
}

/// Tokens: words, runs of spaces, and punctuation on their own.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut last: Option<u8> = None;
    for (i, c) in text.char_indices() {
        let class = if c.is_whitespace() {
            0
        } else if c.is_alphanumeric() || c == '_' || c == '.' {
            1
        } else {
            2
        };
        if last.is_some_and(|l| l != class || class == 2) && i > start {
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

/// Longest common subsequence over tokens (capped, so a huge query stays quick): what is only
/// in `left`, what is only in `right`.
pub fn diff(left: &str, right: &str) -> (Vec<Piece>, Vec<Piece>) {
    const CAP: usize = 1500;
    let x: Vec<&str> = tokens(left).into_iter().take(CAP).collect();
    let y: Vec<&str> = tokens(right).into_iter().take(CAP).collect();
    let (n, m) = (x.len(), y.len());
    let mut table = vec![0u16; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if x[i].eq_ignore_ascii_case(y[j]) {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    // Spaces join the run they follow, so a changed clause is marked as one piece.
    let push = |side: &mut Vec<Piece>, text: &str, changed: bool| match side.last_mut() {
        Some(last) if last.changed == changed || text.trim().is_empty() => last.text.push_str(text),
        _ => side.push(Piece {
            text: text.to_string(),
            changed,
        }),
    };
    while i < n || j < m {
        if i < n && j < m && x[i].eq_ignore_ascii_case(y[j]) {
            push(&mut a, x[i], false);
            push(&mut b, y[j], false);
            i += 1;
            j += 1;
        } else if j >= m || (i < n && table[at(i + 1, j)] >= table[at(i, j + 1)]) {
            push(&mut a, x[i], !x[i].trim().is_empty());
            i += 1;
        } else {
            push(&mut b, y[j], !y[j].trim().is_empty());
            j += 1;
        }
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_only_what_differs() {
        let (a, b) = diff(
            "SELECT name FROM users WHERE id = 1",
            "select name from users",
        );
        let changed_a: String = a
            .iter()
            .filter(|p| p.changed)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(
            changed_a.split_whitespace().collect::<Vec<_>>(),
            ["WHERE", "id", "=", "1"]
        );
        assert!(b.iter().all(|p| !p.changed));
    }
}
