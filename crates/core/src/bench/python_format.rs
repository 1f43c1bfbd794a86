//! Python's `str.format` for the specs the official tables use: `{:20}` and `{:<20}` (left
//! aligned in a width, never cut) and `{:<20.3f}` (fixed decimals, rounded half to even on the
//! exact binary value, as Rust's formatting also rounds).

/// `"{:<width}".format(text)`.
pub(crate) fn left(text: &str, width: usize) -> String {
    format!("{text:<width$}")
}

/// `"{:<width.decimalsf}".format(value)`.
pub(crate) fn left_fixed(value: f64, decimals: usize, width: usize) -> String {
    left(&format!("{value:.decimals$}"), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_round_to_even_as_python_does() {
        // Python: '{:.3f}'.format(0.0625) == '0.062', '{:.2f}'.format(0.125) == '0.12'.
        assert_eq!(left_fixed(0.0625, 3, 0), "0.062");
        assert_eq!(left_fixed(0.125, 2, 0), "0.12");
        assert_eq!(left_fixed(12.345, 2, 8), "12.35   ");
        assert_eq!(left("count", 7), "count  ");
        assert_eq!(left("a longer text", 4), "a longer text");
    }
}
