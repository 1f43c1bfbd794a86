//! Entry points for `cargo xtask bench`, built only with the `bench` feature: the package users
//! install has none of them.

use std::cell::RefCell;

use qeval_core::{
    Case, CompareOptions, Comparison, Mode, ResultSet, case_pair, compare_results, read_result_text,
};
use wasm_bindgen::prelude::*;

use crate::error;

/// Benchmark support: reads a result from JSON text and returns its number of rows, so a
/// benchmark can time reading alone.
#[wasm_bindgen(js_name = benchRead)]
pub fn bench_read(text: &str) -> Result<usize, JsError> {
    read_result_text(text)
        .map(|result| result.rows.len())
        .map_err(|err| error(err.to_string()))
}

thread_local! {
    static BENCH_TABLES: RefCell<Option<(ResultSet, ResultSet)>> = const { RefCell::new(None) };
}

/// Benchmark support: builds two `rows` x `columns` tables inside the module, so a benchmark can
/// time the comparison alone. `case` names how the second differs from the first (`equal`:
/// rows shuffled, `near-miss`, `row-fewer`, `column-fewer`, `alike-columns`,
/// `alike-near-miss`).
#[wasm_bindgen(js_name = benchPrepare)]
pub fn bench_prepare(rows: usize, columns: usize, case: &str) -> Result<(), JsError> {
    let case = Case::named(case).ok_or_else(|| error(format!("no bench case {case:?}")))?;
    BENCH_TABLES.with(|tables| *tables.borrow_mut() = Some(case_pair(case, rows, columns, 42)));
    Ok(())
}

/// Benchmark support: compares the prepared tables in `mode` and returns the score.
#[wasm_bindgen(js_name = benchCompare)]
pub fn bench_compare(mode: &str) -> Result<f64, JsError> {
    let mode: Mode = mode.parse().map_err(error)?;
    BENCH_TABLES.with(|tables| {
        let tables = tables.borrow();
        let (expected, generated) = tables
            .as_ref()
            .ok_or_else(|| error("call benchPrepare first"))?;
        let comparison: Comparison = compare_results(
            expected,
            generated,
            &CompareOptions {
                mode,
                ..CompareOptions::default()
            },
        );
        Ok(comparison.score)
    })
}
