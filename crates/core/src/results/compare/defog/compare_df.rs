//! `compare_df(df_gold, df_gen, query_category, question, query_gold, query_gen)`.

use super::frame::{Dtype, Frame, Series, is_missing, numpy_eq, values_equal};
use super::normalization::{Asked, Normalization};
use super::normalize::{normalize_both, rows_agree, same_distinct_rows, sort_both};
use super::{ErrorClass, PythonError, Spread};
use crate::results::Value;

/// What `fillna(-99999)` puts in place of a missing value (NaN or `None`).
const FILLED: Value = Value::Int(-99_999);

fn filled(cell: &Value) -> &Value {
    if is_missing(cell) { &FILLED } else { cell }
}

/// `compare_df`: the values as given (NumPy's `==`, broadcast), then both sides normalised, their
/// missing values filled with -99999, and compared cell by cell (so a missing value equals
/// another, and equals -99999). An error is what sql-eval raises.
pub fn compare_df(
    gold: &Frame,
    generated: &Frame,
    asked: &Asked<'_>,
    query_gold: Option<&str>,
    query_gen: Option<&str>,
    spread: &impl Spread,
) -> Result<bool, PythonError> {
    if values_equal(gold, generated) {
        return Ok(true);
    }
    let gold_plan = Normalization::new(&gold.names, asked, query_gold);
    let gen_plan = Normalization::new(&generated.names, asked, query_gen);
    let (gold_plan, gen_plan) = (gold_plan?, gen_plan?);
    if let Some(equal) = same_distinct_rows(
        (&gold.view(), gold.rows, &gold_plan),
        (&generated.view(), generated.rows, &gen_plan),
        spread,
    )? {
        return Ok(equal);
    }
    let (gold_sorted, gen_sorted) = sort_both(gold, generated, spread);
    let (gold_rows, gen_rows) = normalize_both(
        (
            &gold.view(),
            &gold_sorted.iter().collect::<Vec<_>>(),
            gold.rows,
            &gold_plan,
        ),
        (
            &generated.view(),
            &gen_sorted.iter().collect::<Vec<_>>(),
            generated.rows,
            &gen_plan,
        ),
        spread,
    )?;
    if gold_rows.len() != gen_rows.len() || gold_plan.order.len() != gen_plan.order.len() {
        return Ok(false);
    }
    // `fillna(-99999, inplace=True)` on the generated side, then the gold side: pandas' text type
    // cannot hold a number, so a text column with a missing value raises.
    for (frame, plan, rows) in [
        (generated, &gen_plan, &gen_rows),
        (gold, &gold_plan, &gold_rows),
    ] {
        let holes = plan.order.iter().map(|&c| &frame.columns[c]).any(|column| {
            column.dtype == Dtype::Str && rows.iter().any(|&row| is_missing(&column.cells[row]))
        });
        if holes {
            return Err(PythonError::new(
                ErrorClass::TypeError,
                "Invalid value '-99999' for dtype 'str'. Value should be a string or missing value, got 'int' instead.",
            ));
        }
    }
    let pairs: Vec<(&Series, &Series)> = gold_plan
        .order
        .iter()
        .zip(&gen_plan.order)
        .map(|(&a, &b)| (&gold.columns[a], &generated.columns[b]))
        .collect();
    Ok(rows_agree(
        &pairs,
        &gold_rows,
        &gen_rows,
        |a, b, _| numpy_eq(filled(a), filled(b)),
        spread,
    ))
}
