//! defog's sql-eval (`eval/eval.py`): `compare_df` and `subset_df`, reproduced verdict for verdict
//! on results held as pandas holds them.
//!
//! sql-eval scores a generated query "correct" when `compare_df` finds its result equal to the
//! gold one after normalising both, or else `subset_df` finds every gold column among the
//! generated columns (`compare_query_results`). The `defog` comparison mode does the same on two
//! result sets, built into DataFrames as `pd.DataFrame(cursor.fetchall(), columns=names)` builds
//! them (see [`Frame::from_result`]); the Python drop-ins (`qeval.compat.defog`) run each function
//! on the caller's own DataFrames.
//!
//! What the functions do, and this module therefore does:
//! - `normalize_table` drops duplicate rows, puts the columns in the alphabetical order of their
//!   names and sorts the rows on every column, unless the question asks for an order (the words
//!   "order", "sort" or "arrange") or `query_category` is `"order_by"`; then the query's
//!   `ORDER BY` columns, read from its text, lead the sort and go last among the columns, in the
//!   one direction the text gives (descending when it names none). See [`Normalization`].
//! - `df.values == df.values` compares with Python's `==`, broadcasting shapes as NumPy does: a
//!   one-row frame is compared with every row of the other, and a broadcast to zero rows is
//!   "all equal". NaN equals nothing, `None` equals `None`.
//! - `drop_duplicates` keeps each row's first occurrence; NaN matches NaN there, `None` only
//!   `None`, and `1`, `1.0` and `True` are one value.
//! - `sort_values` is stable, puts missing values last in either direction, numbers before text;
//!   sorting a single column that mixes text with other values is a `TypeError`.
//! - `assert_series_equal(check_dtype=False)` compares exactly when either column is of an integer
//!   or boolean type, and numbers within `rtol=1e-5, atol=1e-8` otherwise; missing values must
//!   sit at the same places and be of the same kind (NaN with NaN, `None` with `None`).
//! - Where sql-eval raises (a column mixing text and numbers sorted alone, duplicate column names
//!   reindexed), these return the same exception as a [`PythonError`]; sql-eval's runner scores
//!   such a pair 0 with the error.
//!
//! One difference is known: where every column of a frame holds numbers and one holds floats,
//! NumPy compares its values as floats, so an integer past 2^53 equals the float nearest it;
//! here they compare exactly, as Python compares them.

pub(crate) mod compare_df;
pub(crate) mod frame;
pub(crate) mod normalization;
mod normalize;
mod sort;
pub(crate) mod subset_df;

use std::fmt;

pub(crate) use compare_df::compare_df;
pub(crate) use frame::Frame;
pub(crate) use normalization::Asked;
pub(crate) use subset_df::subset_df;

use super::{CompareOptions, Comparison, Mode};
use crate::results::ResultSet;

/// An exception the reproduced Python code raises, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonError {
    pub class: ErrorClass,
    pub message: String,
}

/// The Python exception classes sql-eval's comparison raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    TypeError,
    ValueError,
    KeyError,
}

impl PythonError {
    fn new(class: ErrorClass, message: impl Into<String>) -> PythonError {
        PythonError {
            class,
            message: message.into(),
        }
    }
}

impl fmt::Display for PythonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.class, self.message)
    }
}

/// How independent parts of a comparison (columns to sort, the two sides to normalise) are
/// run: one after another by [`InTurn`], which the browser uses, or on threads, which native
/// front ends supply. The verdict is the same either way.
pub trait Spread: Sync {
    /// `work` applied to every item; the results in the items' order.
    fn each<T: Sync, R: Send>(&self, items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R>;
}

/// Every part in turn, on the calling thread.
pub struct InTurn;

impl Spread for InTurn {
    fn each<T: Sync, R: Send>(&self, items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
        items.iter().map(work).collect()
    }
}

/// What the `defog` mode reads beside the two results: the question, its category and both
/// queries' text, which decide how `normalize_table` orders rows and columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryContext {
    pub question: String,
    pub query_category: String,
    pub expected_sql: Option<String>,
    pub generated_sql: Option<String>,
}

/// The `defog` mode: `compare_query_results`' verdict on one gold query. `compare_df` with both
/// queries' text, then, when it finds a difference, `subset_df` without them (sql-eval passes
/// none there, so the rows are sorted on every column unless the question asks for an order).
pub(super) fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    let context = &options.query_context;
    let asked = Asked {
        query_category: &context.query_category,
        question: &context.question,
    };
    let (equal, explanation) = match verdict(expected, generated, &asked, context) {
        Ok(verdict) => verdict,
        Err(err) => (
            false,
            format!("sql-eval raises {err}: its runner scores the query 0"),
        ),
    };
    let mut comparison = Comparison::unequal(
        Mode::Defog,
        expected,
        generated,
        asked.asks_order(),
        explanation,
    );
    if equal {
        comparison.score = 1.0;
        comparison.equal = true;
        comparison.matched_rows = expected.rows.len();
    }
    comparison
}

/// Whether sql-eval counts the generated result correct, and why.
fn verdict(
    expected: &ResultSet,
    generated: &ResultSet,
    asked: &Asked<'_>,
    context: &QueryContext,
) -> Result<(bool, String), PythonError> {
    let gold = Frame::from_result(expected);
    let offered = Frame::from_result(generated);
    let (query_gold, query_gen) = (
        context.expected_sql.as_deref(),
        context.generated_sql.as_deref(),
    );
    if compare_df(&gold, &offered, asked, query_gold, query_gen, &InTurn)? {
        return Ok((
            true,
            "the same after sql-eval's normalisation (compare_df: an exact match)".into(),
        ));
    }
    let subset = subset_df(&gold, &offered, asked, None, None, &InTurn)?;
    Ok(match subset.unmatched {
        _ if subset.equal => (
            true,
            "every expected column is among the generated ones, with the same rows (subset_df: correct, though not an exact match)".into(),
        ),
        Some(column) => (
            false,
            format!(
                "different: compare_df finds the results unequal, and subset_df finds no generated column with the values of the expected column {:?}",
                expected.columns.get(column).map_or("", String::as_str)
            ),
        ),
        None => (
            false,
            "different: compare_df finds the results unequal, and subset_df finds every expected column but not the same rows".into(),
        ),
    })
}
