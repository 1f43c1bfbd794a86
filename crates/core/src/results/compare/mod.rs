//! Comparing a generated result set with the expected one, in one of seven named modes.
//!
//! | mode | what it checks | reproduces |
//! |---|---|---|
//! | `seed` | schema overlap by name (extra columns free) and the share of expected rows found, order ignored | KQL batch testing's "results match" |
//! | `bag` | same multiset of rows under some column permutation; order matters iff the expected query has ORDER BY | Spider test-suite `result_eq` |
//! | `set` | same set of rows, columns by position | BIRD EX |
//! | `subset` | every expected column equals some generated column (numeric tolerance) | defog / Spider 2.0 style |
//! | `soft-f1` | row-by-row cell matches as precision/recall F1 | BIRD mini-dev Soft-F1 |
//! | `defog` | the same after normalising rows and columns, or every expected column among the generated | defog sql-eval `compare_df`, then `subset_df` |
//! | `f1` | columns aligned by name then values; multiset row F1 times column coverage | ours (default) |
//!
//! `bag`, `set`, `soft-f1` and `defog` give the verdict of the Python evaluator they reproduce on every
//! input, quirks included (values compare as Python compares them after `json.loads`).

mod align;
mod bag;
pub(crate) mod defog;
mod f1;
mod key;
mod seed;
mod set;
mod soft_f1;
mod subset;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::ResultSet;

pub(crate) use align::{AlignedBy, ColumnPair};

/// A comparison mode; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum Mode {
    Seed,
    Bag,
    Set,
    Subset,
    SoftF1,
    Defog,
    #[default]
    F1,
}

impl Mode {
    pub const ALL: [Mode; 7] = [
        Mode::F1,
        Mode::Seed,
        Mode::Bag,
        Mode::Set,
        Mode::Subset,
        Mode::SoftF1,
        Mode::Defog,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Seed => "seed",
            Mode::Bag => "bag",
            Mode::Set => "set",
            Mode::Subset => "subset",
            Mode::SoftF1 => "soft-f1",
            Mode::Defog => "defog",
            Mode::F1 => "f1",
        }
    }

    /// One line for menus and `--help`.
    pub fn description(self) -> &'static str {
        match self {
            Mode::Seed => "KQL batch: column overlap and expected rows found (order ignored)",
            Mode::Bag => "Spider test-suite: same rows as a multiset, any column order",
            Mode::Set => "BIRD EX: same set of rows",
            Mode::Subset => "Spider 2.0 / defog: every expected column found among the generated",
            Mode::SoftF1 => "BIRD mini-dev Soft-F1: cell matches row by row",
            Mode::Defog => {
                "defog sql-eval: compare_df, else subset_df (the question and queries set the order)"
            }
            Mode::F1 => "columns aligned by name then values; row F1 x column coverage",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Mode::ALL
            .into_iter()
            .find(|mode| mode.name() == wanted || (wanted == "softf1" && *mode == Mode::SoftF1))
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                format!(
                    "unknown comparison mode \"{s}\" (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// How to compare. `Default` gives the documented defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareOptions {
    pub mode: Mode,
    /// Relative tolerance for numbers in `seed` and `f1` (`|a - b| <= tol * max(|a|, |b|)`).
    pub tolerance: f64,
    /// Absolute tolerance for numbers in `subset` (Spider 2.0 uses 0.01).
    pub subset_tolerance: f64,
    /// Whether row order counts (`bag` and `subset`). See [`order_matters_for`].
    pub order_matters: bool,
    /// Compare strings ignoring case in `seed`, `subset` and `f1`.
    pub ignore_case: bool,
    /// The question, its category and the queries' text, which `defog` reads to decide the row
    /// and column order (the other modes ignore them).
    pub query_context: defog::QueryContext,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            mode: Mode::F1,
            tolerance: 1e-9,
            subset_tolerance: 1e-2,
            order_matters: false,
            ignore_case: false,
            query_context: defog::QueryContext::default(),
        }
    }
}

/// Spider's rule for whether row order counts: the expected query, lowercased, contains
/// `order by`. Without an expected query, order does not count.
pub fn order_matters_for(expected_sql: Option<&str>) -> bool {
    expected_sql.is_some_and(|sql| sql.to_lowercase().contains("order by"))
}

/// The outcome of a comparison, with the parts the score came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Comparison {
    pub mode: Mode,
    /// 0..=1; the binary modes (`bag`, `set`, `subset`) give 0 or 1.
    pub score: f64,
    /// Whether the results count as the same under this mode.
    pub equal: bool,
    pub expected_rows: usize,
    pub generated_rows: usize,
    /// Expected rows found in the generated result (as this mode counts them).
    pub matched_rows: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall: Option<f64>,
    /// Which generated column stands for each expected column.
    pub alignment: Vec<ColumnPair>,
    pub order_matters: bool,
    pub explanation: String,
}

impl Comparison {
    /// Results that differ before any row is matched (a shape the mode cannot compare, rows of
    /// other widths), with why.
    fn unequal(
        mode: Mode,
        expected: &ResultSet,
        generated: &ResultSet,
        order_matters: bool,
        explanation: String,
    ) -> Comparison {
        Comparison {
            mode,
            score: 0.0,
            equal: false,
            expected_rows: expected.rows.len(),
            generated_rows: generated.rows.len(),
            matched_rows: 0,
            precision: None,
            recall: None,
            alignment: Vec::new(),
            order_matters,
            explanation,
        }
    }
}

/// Compares `generated` with `expected` under `options.mode`. Results this mode cannot compare
/// (see [`shape_problem`]) are different, with the reason as the explanation.
pub fn compare(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Comparison {
    if let Some(problem) = shape_problem(expected, generated, options) {
        return Comparison::unequal(
            options.mode,
            expected,
            generated,
            options.order_matters,
            problem,
        );
    }
    match options.mode {
        Mode::Seed => seed::compare(expected, generated, options),
        Mode::Bag => bag::compare(expected, generated, options),
        Mode::Set => set::compare(expected, generated),
        Mode::Subset => subset::compare(expected, generated, options),
        Mode::SoftF1 => soft_f1::compare(expected, generated),
        Mode::Defog => defog::compare(expected, generated, options),
        Mode::F1 => f1::compare(expected, generated, options),
    }
}

/// Why `options.mode` cannot compare these results, if it cannot: rows of several widths (a
/// Python list of tuples can hold them; a database's result cannot). `set` and `soft-f1` compare
/// such rows as BIRD does; `bag` as Spider does, except where Spider's `result_eq` raises
/// `IndexError` (a gold row shorter than the first, once its quick check passes); the other
/// modes align columns and need every row as wide as the columns. Front ends that take rows
/// from users (Python) turn this into an input error; [`compare`] into a verdict of "different".
pub fn shape_problem(
    expected: &ResultSet,
    generated: &ResultSet,
    options: &CompareOptions,
) -> Option<String> {
    match options.mode {
        Mode::Set | Mode::SoftF1 => None,
        Mode::Bag => bag::raises(&expected.rows, &generated.rows, options.order_matters),
        Mode::F1 | Mode::Seed | Mode::Subset | Mode::Defog => [("expected", expected), ("generated", generated)]
            .into_iter()
            .find_map(|(side, result)| {
                let width = result.columns.len();
                let row = result.rows.iter().position(|row| row.len() != width)?;
                let has = result.rows.get(row).map_or(0, <[_]>::len);
                Some(format!(
                    "{side} row at index {row} has {has} values, not {width} as the columns: the {} mode compares tables, whose rows are all as wide",
                    options.mode
                ))
            }),
    }
}

/// F1 of precision and recall, 0 when both are 0.
fn f1_of(precision: f64, recall: f64) -> f64 {
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

/// `1 row`, `2 rows`.
fn rows(n: usize) -> String {
    crate::words::counted(n, "row")
}
