//! The rows of a result set, stored flat: every cell in one buffer, row after row.
//!
//! A result of a million rows held as a `Vec` per row pays a header and an allocation per row
//! (about 40 bytes each, a third of an 8-column row's cells); one buffer pays neither, and reading
//! appends cells without allocating per row. Rows are usually all as wide as the first; rows of
//! other widths (a Python list of tuples of several lengths, records that gained a key as they
//! went) keep where each row ends, so every row reads back exactly as it was given.

use std::fmt;
use std::ops::Index;

use serde::ser::{Serialize, SerializeSeq, Serializer};

use super::Value;

#[derive(Clone, Default)]
pub struct Rows {
    cells: Vec<Value>,
    shape: Shape,
}

#[derive(Clone)]
enum Shape {
    /// `len` rows of `width` cells each.
    Uniform { width: usize, len: usize },
    /// Row `i` ends at `ends[i]` in the buffer.
    Ragged { ends: Vec<usize> },
}

impl Default for Shape {
    fn default() -> Shape {
        Shape::Uniform { width: 0, len: 0 }
    }
}

impl Rows {
    /// No rows yet; room for `rows` rows of `width` cells.
    pub fn with_capacity(width: usize, rows: usize) -> Rows {
        Rows {
            cells: Vec::with_capacity(width.saturating_mul(rows)),
            shape: Shape::Uniform { width, len: 0 },
        }
    }

    pub fn len(&self) -> usize {
        match &self.shape {
            Shape::Uniform { len, .. } => *len,
            Shape::Ragged { ends } => ends.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The width of the first row (0 without rows).
    pub fn first_width(&self) -> usize {
        self.first().map_or(0, <[Value]>::len)
    }

    /// Whether every row is as wide as the first.
    pub fn is_uniform(&self) -> bool {
        matches!(self.shape, Shape::Uniform { .. })
    }

    pub fn get(&self, row: usize) -> Option<&[Value]> {
        let (start, end) = self.bounds(row)?;
        self.cells.get(start..end)
    }

    pub fn first(&self) -> Option<&[Value]> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&[Value]> {
        self.get(self.len().checked_sub(1)?)
    }

    pub fn iter(&self) -> RowIter<'_> {
        RowIter {
            rows: self,
            next: 0,
            end: self.len(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: impl IntoIterator<Item = Value>) {
        let start = self.cells.len();
        self.cells.extend(row);
        self.end_row(start);
    }

    /// Appends a row read value by value; on the first error nothing is appended.
    pub fn try_push<E>(
        &mut self,
        row: impl IntoIterator<Item = Result<Value, E>>,
    ) -> Result<(), E> {
        let start = self.cells.len();
        for value in row {
            match value {
                Ok(value) => self.cells.push(value),
                Err(err) => {
                    self.cells.truncate(start);
                    return Err(err);
                }
            }
        }
        self.end_row(start);
        Ok(())
    }

    /// Every row as a `Vec` (for callers that reorder or edit rows).
    pub fn to_vecs(&self) -> Vec<Vec<Value>> {
        self.iter().map(<[Value]>::to_vec).collect()
    }

    /// Every row with only the cells at `columns`, in that order (a cell a short row lacks is
    /// left out).
    pub fn select(&self, columns: &[usize]) -> Rows {
        let mut selected = Rows::with_capacity(columns.len(), self.len());
        for row in self.iter() {
            selected.push(columns.iter().filter_map(|&c| row.get(c).cloned()));
        }
        selected
    }

    /// Pads every row with NULL to `width` cells, making the rows uniform; rows already wider
    /// keep their cells.
    pub fn pad_to(&mut self, width: usize) {
        let uniform_at = match &self.shape {
            Shape::Uniform { width: w, .. } => Some(*w),
            Shape::Ragged { .. } => None,
        };
        if uniform_at == Some(width) || (self.is_empty() && uniform_at.is_some()) {
            self.shape = Shape::Uniform {
                width,
                len: self.len(),
            };
            return;
        }
        let old = std::mem::take(self);
        let mut padded = Rows::with_capacity(width, old.len());
        for row in old.iter() {
            let fill = width.saturating_sub(row.len());
            padded.push(
                row.iter()
                    .cloned()
                    .chain(std::iter::repeat_n(Value::Null, fill)),
            );
        }
        *self = padded;
    }

    /// Where the next row starts, for a reader that appends its cells one by one
    /// ([`Rows::push_cell`]) and then ends it ([`Rows::end_row`]).
    pub(crate) fn start_row(&self) -> usize {
        self.cells.len()
    }

    pub(crate) fn push_cell(&mut self, value: Value) {
        self.cells.push(value);
    }

    /// Makes room for `rows` more rows as wide as the first.
    pub(crate) fn reserve(&mut self, rows: usize) {
        self.cells.reserve(rows.saturating_mul(self.first_width()));
    }

    /// Drops the cells of a row started at `start` and not ended.
    pub(crate) fn abandon_row(&mut self, start: usize) {
        self.cells.truncate(start);
    }

    /// Records that a row starting at `start` in the buffer has just been appended.
    pub(crate) fn end_row(&mut self, start: usize) {
        let end = self.cells.len();
        let width = end - start;
        match &mut self.shape {
            Shape::Uniform { width: w, len } if *len == 0 => {
                *w = width;
                *len = 1;
            }
            Shape::Uniform { width: w, len } if *w == width => *len += 1,
            Shape::Uniform { width: w, len } => {
                let mut ends: Vec<usize> = (1..=*len).map(|i| i * *w).collect();
                ends.push(end);
                self.shape = Shape::Ragged { ends };
            }
            Shape::Ragged { ends } => ends.push(end),
        }
    }

    fn bounds(&self, row: usize) -> Option<(usize, usize)> {
        match &self.shape {
            Shape::Uniform { width, len } => (row < *len).then(|| (row * width, (row + 1) * width)),
            Shape::Ragged { ends } => {
                let end = *ends.get(row)?;
                let start = row.checked_sub(1).map_or(0, |before| ends[before]);
                Some((start, end))
            }
        }
    }
}

impl From<Vec<Vec<Value>>> for Rows {
    fn from(rows: Vec<Vec<Value>>) -> Rows {
        let width = rows.first().map_or(0, Vec::len);
        let mut flat = Rows::with_capacity(width, rows.len());
        for row in rows {
            flat.push(row);
        }
        flat
    }
}

impl Index<usize> for Rows {
    type Output = [Value];

    /// Row `row`; panics past the last row, as a slice does.
    fn index(&self, row: usize) -> &[Value] {
        let (start, end) = self
            .bounds(row)
            .unwrap_or_else(|| panic!("row {row} of {}", self.len()));
        &self.cells[start..end]
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Rows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Rows serialize as an array of arrays, as they were read.
impl Serialize for Rows {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for row in self.iter() {
            seq.serialize_element(row)?;
        }
        seq.end()
    }
}

#[derive(Clone)]
pub struct RowIter<'a> {
    rows: &'a Rows,
    next: usize,
    end: usize,
}

impl<'a> Iterator for RowIter<'a> {
    type Item = &'a [Value];

    fn next(&mut self) -> Option<&'a [Value]> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        self.rows.get(self.next - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<&'a [Value]> {
        self.next = self.next.saturating_add(n).min(self.end);
        self.next()
    }
}

impl DoubleEndedIterator for RowIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        self.rows.get(self.end)
    }
}

impl ExactSizeIterator for RowIter<'_> {}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a [Value];
    type IntoIter = RowIter<'a>;

    fn into_iter(self) -> RowIter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(row: &[i64]) -> Vec<Value> {
        row.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn uniform_rows_read_back_as_given() {
        let rows = Rows::from(vec![ints(&[1, 2]), ints(&[3, 4]), ints(&[5, 6])]);
        assert!(rows.is_uniform());
        assert_eq!(rows.len(), 3);
        assert_eq!(&rows[1], ints(&[3, 4]).as_slice());
        assert_eq!(rows.iter().next_back(), Some(ints(&[5, 6]).as_slice()));
        assert_eq!(rows.get(3), None);
        assert_eq!(rows.last(), Some(ints(&[5, 6]).as_slice()));
        assert_eq!(Rows::default().last(), None);
        assert_eq!(
            rows.to_vecs(),
            vec![ints(&[1, 2]), ints(&[3, 4]), ints(&[5, 6])]
        );
    }

    #[test]
    fn rows_of_other_widths_keep_their_own_length() {
        let given = vec![ints(&[1, 2]), ints(&[3]), vec![], ints(&[4, 5, 6])];
        let rows = Rows::from(given.clone());
        assert!(!rows.is_uniform());
        assert_eq!(rows.to_vecs(), given);
        assert_eq!(rows.first_width(), 2);
        let mut padded = rows.clone();
        padded.pad_to(3);
        assert!(padded.is_uniform());
        assert_eq!(
            &padded[1],
            [Value::Int(3), Value::Null, Value::Null].as_slice()
        );
    }

    #[test]
    fn rows_without_columns_still_count() {
        let rows = Rows::from(vec![vec![], vec![]]);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows.iter().count(), 2);
        assert_eq!(serde_json::to_string(&rows).unwrap(), "[[],[]]");
    }

    #[test]
    fn equal_rows_are_equal_however_they_were_built() {
        let mut built = Rows::with_capacity(2, 0);
        built.push(ints(&[1, 2]));
        built.push(ints(&[3, 4]));
        assert_eq!(built, Rows::from(vec![ints(&[1, 2]), ints(&[3, 4])]));
        assert_ne!(built, Rows::from(vec![ints(&[1, 2])]));
    }
}
