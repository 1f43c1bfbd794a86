//! The `qeval._native` module: the scoring core for Python. The `qeval` package
//! (`python/qeval/`) wraps it in the documented API; everything here takes and gives plain
//! values (text, numbers, rows) so that the wrapper decides the shapes users see.
//!
//! Heavy calls release the GIL: reading rows from Python objects needs it, comparing them and
//! scoring do not.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use qeval_core::results::compare::{CompareOptions, Comparison, Mode, compare as compare_results};
use qeval_core::results::{ResultSet, Value};
use qeval_core::score::analyse_as;
use qeval_core::sql::{ParseLimits, SqlDialect, TableName};
use qeval_core::{Language, ScoreOptions, add_equivalence, parse_pair_line, score_pair};
use qeval_sqlite::PairCheck;

/// Generated databases a check may use, as `qeval score --suite` allows.
const MAX_SUITE: usize = 1_000;

create_exception!(
    _native,
    InputError,
    PyValueError,
    "An input qeval cannot read: the message names the field or position at fault."
);

fn input_error(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

fn parse<T: std::str::FromStr<Err: std::fmt::Display>>(text: &str) -> PyResult<T> {
    text.parse::<T>()
        .map_err(|err| input_error(err.to_string()))
}

/// The base tables a query reads, as `qeval tables` prints them.
#[pyfunction]
#[pyo3(signature = (sql, dialect = "generic", language = "sql"))]
fn tables(py: Python<'_>, sql: &str, dialect: &str, language: &str) -> PyResult<Vec<String>> {
    let language: Language = parse(language)?;
    let dialect: SqlDialect = parse(dialect)?;
    let analysis = py.detach(|| analyse_as(language, sql, dialect, ParseLimits::default()));
    if let Some(err) = analysis.parse_error {
        let what = if language == Language::Kql {
            "KQL".to_string()
        } else {
            format!("{dialect} SQL")
        };
        return Err(input_error(format!(
            "the query does not parse as {what}: {err}"
        )));
    }
    Ok(match analysis.kql {
        // KQL names are case-sensitive: given as written.
        Some(query) => query.tables,
        None => analysis.tables.iter().map(TableName::qualified).collect(),
    })
}

/// The options of `qeval score`, by the same names.
#[derive(Default)]
struct Options {
    profile: Option<String>,
    mode: Option<String>,
    dialect: Option<String>,
    language: Option<String>,
    tolerance: Option<f64>,
    numeric_tolerance: Option<f64>,
    ignore_case: Option<bool>,
}

impl Options {
    fn score_options(&self) -> PyResult<ScoreOptions> {
        let defaults = ScoreOptions::default();
        Ok(ScoreOptions {
            profile: match &self.profile {
                Some(name) => qeval_core::profiles::Profile::preset(parse(name)?),
                None => defaults.profile.clone(),
            },
            mode: self.mode.as_deref().map(parse::<Mode>).transpose()?,
            dialect: match &self.dialect {
                Some(name) => parse(name)?,
                None => defaults.dialect,
            },
            language: match &self.language {
                Some(name) => parse(name)?,
                None => defaults.language,
            },
            tolerance: self.tolerance.unwrap_or(defaults.tolerance),
            numeric_tolerance: self.numeric_tolerance.unwrap_or(defaults.numeric_tolerance),
            ignore_case: self.ignore_case.unwrap_or(defaults.ignore_case),
            // As the command line stamps its error records: when the scoring ran.
            evaluated_at: Some(now()),
            ..defaults
        })
    }
}

/// Scores pairs given as pairs-file lines (JSON text), each on its own, on every core:
/// `(True, scorecard)` as `qeval score` writes it, or `(False, rejection)`, the record
/// `qeval score` writes for a line it cannot read (`{"line", "error": {"message", "field"?,
/// "column"?}}`). Both are JSON text. With `numbered`, each carries its line number (1-based) as
/// the command's output does. Unless `equivalence` is false, each pair of SQL queries is also
/// checked on `databases` generated databases (40 by default, `qeval score --suite`) from `seed`, on `schema` when given.
#[pyfunction]
#[pyo3(signature = (lines, numbered, *, profile = None, mode = None, dialect = None, language = None, tolerance = None, numeric_tolerance = None, ignore_case = None, equivalence = true, databases = None, seed = 1, schema = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per `qeval score` option
fn score_lines(
    py: Python<'_>,
    lines: Vec<String>,
    numbered: bool,
    profile: Option<String>,
    mode: Option<String>,
    dialect: Option<String>,
    language: Option<String>,
    tolerance: Option<f64>,
    numeric_tolerance: Option<f64>,
    ignore_case: Option<bool>,
    equivalence: bool,
    databases: Option<usize>,
    seed: u64,
    schema: Option<String>,
) -> PyResult<Vec<(bool, String)>> {
    let options = Options {
        profile,
        mode,
        dialect,
        language,
        tolerance,
        numeric_tolerance,
        ignore_case,
    }
    .score_options()?;
    let check = match databases {
        Some(count) if !(1..=MAX_SUITE).contains(&count) => {
            return Err(input_error(format!(
                "databases takes 1 to {MAX_SUITE}, not {count}"
            )));
        }
        _ if !equivalence => None,
        count => Some(PairCheck {
            schema,
            databases: count.unwrap_or(PairCheck::default().databases),
            seed,
        }),
    };
    let score = |(index, line): (usize, &String)| -> (bool, String) {
        let number = numbered.then_some(index + 1);
        match parse_pair_line(line) {
            Ok(pair) => {
                let mut card = score_pair(&pair, &options);
                card.line = number;
                if let Some(metric) = check
                    .as_ref()
                    .and_then(|check| check.metric(&pair, &options))
                {
                    add_equivalence(&mut card, "equivalence", metric, &pair, &options);
                }
                (true, serde_json::to_string(&card).unwrap_or_default())
            }
            Err(err) => {
                let mut error = serde_json::json!({ "message": err.message });
                if let Some(field) = err.field {
                    error["field"] = field.into();
                }
                if let Some(column) = err.column {
                    error["column"] = column.into();
                }
                let record = serde_json::json!({ "line": index + 1, "error": error });
                (false, record.to_string())
            }
        }
    };
    Ok(py.detach(|| on_every_core(&lines, score)))
}

/// `work` on every item, the items split across the machine's cores; results in input order.
fn on_every_core<T: Sync, R: Send>(items: &[T], work: impl Fn((usize, &T)) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = items.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(part, slice)| {
                let work = &work;
                scope.spawn(move || {
                    slice
                        .iter()
                        .enumerate()
                        .map(|(offset, item)| work((part * chunk + offset, item)))
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    })
}

/// One cell from Python, with the type Python gave it: `True`, `1` and `1.0` stay apart, as the
/// comparison modes that follow Python's equality need them. Other types (`Decimal`, dates)
/// compare by their `str()`.
fn cell(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if value.is_none() {
        Ok(Value::Null)
    } else if let Ok(flag) = value.cast::<PyBool>() {
        Ok(Value::Bool(flag.is_true()))
    } else if value.is_instance_of::<PyInt>() {
        // An integer beyond 64 bits compares as the nearest float.
        match value.extract::<i64>() {
            Ok(int) => Ok(Value::Int(int)),
            Err(_) => Ok(Value::Float(value.extract::<f64>()?)),
        }
    } else if let Ok(float) = value.cast::<PyFloat>() {
        Ok(Value::Float(float.value()))
    } else if let Ok(text) = value.cast::<PyString>() {
        Ok(Value::Text(text.to_cow()?.as_ref().into()))
    } else {
        Ok(Value::Text(value.str()?.to_cow()?.as_ref().into()))
    }
}

/// Rows from any iterable of sequences (a list of tuples as `cursor.fetchall()` gives it).
fn rows(value: &Bound<'_, PyAny>, side: &str) -> PyResult<ResultSet> {
    let mut rows = Vec::new();
    for (index, row) in value.try_iter()?.enumerate() {
        let row = row?;
        if row.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{side} row {index}: a row is a sequence of values, not a string"
            )));
        }
        let cells = row
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "{side} row {index}: a row is a sequence of values (a tuple or a list), not {}",
                    row.get_type()
                        .name()
                        .map_or_else(|_| "this".to_string(), |n| n.to_string())
                ))
            })?
            .map(|cell_value| cell(&cell_value?))
            .collect::<PyResult<Vec<Value>>>()?;
        rows.push(cells);
    }
    Ok(ResultSet::unnamed(rows))
}

fn compare_rows(
    py: Python<'_>,
    expected: &Bound<'_, PyAny>,
    generated: &Bound<'_, PyAny>,
    options: &CompareOptions,
) -> PyResult<Comparison> {
    let expected = rows(expected, "expected")?;
    let generated = rows(generated, "generated")?;
    Ok(py.detach(|| compare_results(&expected, &generated, options)))
}

/// Compares two results (iterables of rows); the comparison as `qeval compare` prints it (JSON).
#[pyfunction]
#[pyo3(signature = (expected, generated, mode = "bag", order_matters = false, tolerance = 1e-9, ignore_case = false))]
fn compare(
    py: Python<'_>,
    expected: &Bound<'_, PyAny>,
    generated: &Bound<'_, PyAny>,
    mode: &str,
    order_matters: bool,
    tolerance: f64,
    ignore_case: bool,
) -> PyResult<String> {
    let options = CompareOptions {
        mode: parse(mode)?,
        order_matters,
        tolerance,
        ignore_case,
        ..CompareOptions::default()
    };
    let comparison = compare_rows(py, expected, generated, &options)?;
    serde_json::to_string(&comparison).map_err(|err| PyValueError::new_err(err.to_string()))
}

/// `(equal, score)` of two results in `mode`: what the drop-ins return, without the JSON.
#[pyfunction]
#[pyo3(signature = (expected, generated, mode, order_matters = false))]
fn verdict(
    py: Python<'_>,
    expected: &Bound<'_, PyAny>,
    generated: &Bound<'_, PyAny>,
    mode: &str,
    order_matters: bool,
) -> PyResult<(bool, f64)> {
    let options = CompareOptions {
        mode: parse(mode)?,
        order_matters,
        ..CompareOptions::default()
    };
    let comparison = compare_rows(py, expected, generated, &options)?;
    Ok((comparison.equal, comparison.score))
}

/// The time now as `qeval score` stamps error records (RFC 3339, UTC, seconds).
fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("InputError", module.py().get_type::<InputError>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(tables, module)?)?;
    module.add_function(wrap_pyfunction!(score_lines, module)?)?;
    module.add_function(wrap_pyfunction!(compare, module)?)?;
    module.add_function(wrap_pyfunction!(verdict, module)?)?;
    Ok(())
}
