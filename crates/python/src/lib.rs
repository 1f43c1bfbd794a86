//! The `qeval._native` module: the scoring core for Python. The `qeval` package
//! (`python/qeval/`) wraps it in the documented API; everything here takes and gives plain
//! values (text, numbers, rows) so that the wrapper decides the shapes users see.
//!
//! Heavy calls release the GIL: reading rows from Python objects needs it, comparing them and
//! scoring do not.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qeval_core::{
    Asked, CompareOptions, Comparison, InputError as PairError, Language, MetricName, Mode,
    PairInput, ParseLimits, ScoreOptions, SqlDialect, TableName, add_equivalence, analyse_as,
    compare_df, compare_results, pairs_file_line, parse_pair_line, score_pair_judged,
    shape_problem, subset_df,
};
use qeval_native::pool::EveryCore;
use qeval_sqlite::PairCheck;
use std::collections::BTreeMap;
use std::path::PathBuf;

mod arrow;
mod bench;
mod defog;
mod judge;
mod rows;
mod run;
use rows::rows;

create_exception!(
    _native,
    InputError,
    PyValueError,
    "An input qeval cannot read: the message names the field or position at fault."
);

fn input_error(message: impl Into<String>) -> PyErr {
    InputError::new_err(message.into())
}

/// A number of seconds: finite and above 0, as the command line's flags take them.
pub(crate) fn seconds(name: &str, value: f64) -> PyResult<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(input_error(format!(
            "{name} takes a number of seconds above 0, not {value}"
        )))
    }
}

/// A relative tolerance: finite and not negative (`nan` would compare unequal to everything).
fn tolerance(name: &str, value: f64) -> PyResult<f64> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(input_error(format!(
            "{name} takes a finite number of 0 or more, not {value}"
        )))
    }
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
struct ScoreKeywords {
    profile: Option<String>,
    mode: Option<String>,
    dialect: Option<String>,
    language: Option<String>,
    tolerance: Option<f64>,
    numeric_tolerance: Option<f64>,
    ignore_case: Option<bool>,
}

impl ScoreKeywords {
    fn score_options(&self) -> PyResult<ScoreOptions> {
        let defaults = ScoreOptions::default();
        Ok(ScoreOptions {
            profile: match &self.profile {
                Some(name) => qeval_core::Profile::preset(parse(name)?),
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
            tolerance: match self.tolerance {
                Some(value) => tolerance("tolerance", value)?,
                None => defaults.tolerance,
            },
            numeric_tolerance: match self.numeric_tolerance {
                Some(value) => tolerance("numeric_tolerance", value)?,
                None => defaults.numeric_tolerance,
            },
            ignore_case: self.ignore_case.unwrap_or(defaults.ignore_case),
            // As the command line stamps its error records: when the scoring ran.
            evaluated_at: Some(now()),
            ..defaults
        })
    }
}

/// The boundary search's candidates: `search`, else the default (as `qeval --search`).
fn search_tries(search: Option<usize>) -> PyResult<usize> {
    let most = qeval_sqlite::BoundarySearch::MAX_TRIES;
    match search {
        Some(n) if n > most => Err(input_error(format!("search takes 0 to {most}, not {n}"))),
        Some(n) => Ok(n),
        None => Ok(qeval_sqlite::BoundarySearch::DEFAULT_TRIES),
    }
}

/// Scores pairs given as pairs-file lines (JSON text), each on its own, on every core:
/// `(True, scorecard)` as `qeval score` writes it, or `(False, rejection)`, the record
/// `qeval score` writes for a line it cannot read (`{"line", "error": {"message", "field"?,
/// "column"?}}`). Both are JSON text. With `numbers` (each line's number in its file), a
/// scorecard carries its line number as the command's output does; a rejection always does (its
/// position in `lines`, 1-based, without `numbers`). Unless `equivalence` is false, each pair of
/// SQL queries is also checked on `databases` generated databases (40 by default, as
/// `qeval score --suite`) from `seed`, on `schema` when given.
#[pyfunction]
#[pyo3(signature = (lines, numbers = None, *, profile = None, mode = None, dialect = None, language = None, tolerance = None, numeric_tolerance = None, ignore_case = None, equivalence = true, databases = None, seed = 1, search = None, schema = None, judge = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per `qeval score` option
fn score_lines(
    py: Python<'_>,
    lines: Vec<String>,
    numbers: Option<Vec<usize>>,
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
    search: Option<usize>,
    schema: Option<String>,
    judge: Option<judge::JudgeSpec>,
) -> PyResult<Vec<(bool, String)>> {
    let search = search_tries(search)?;
    let mut options = ScoreKeywords {
        profile,
        mode,
        dialect,
        language,
        tolerance,
        numeric_tolerance,
        ignore_case,
    }
    .score_options()?;
    // As `qeval score --schema`: text that is no schema is refused before any pair is scored.
    if let Some(text) = &schema {
        qeval_core::KnownNames::check(text, SqlDialect::Generic)
            .map_err(|err| input_error(format!("schema is not a schema: {err}")))?;
    }
    let check = match databases {
        Some(count) if !(1..=PairCheck::MAX_DATABASES).contains(&count) => {
            return Err(input_error(format!(
                "databases takes 1 to {}, not {count}",
                PairCheck::MAX_DATABASES
            )));
        }
        _ if !equivalence => None,
        count => Some(PairCheck {
            schema: schema.clone(),
            databases: count.unwrap_or(PairCheck::default().databases),
            seed,
            search,
            ..PairCheck::default()
        }),
    };
    if let Some(numbers) = &numbers
        && numbers.len() != lines.len()
    {
        return Err(PyValueError::new_err(format!(
            "{} line numbers for {} lines",
            numbers.len(),
            lines.len()
        )));
    }
    // As `qeval score --schema`: the names generated queries are checked against (and the judge
    // is shown), as well as the equivalence check's tables.
    options.schema = schema;
    let judge = judge.map(|spec| spec.ready(&mut options)).transpose()?;
    let parsed: Vec<Result<PairInput, PairError>> =
        py.detach(|| on_every_core(&lines, |line| parse_pair_line(line)));
    let judged = match &judge {
        Some(judge) => {
            let pairs: Vec<Option<&PairInput>> =
                parsed.iter().map(|pair| pair.as_ref().ok()).collect();
            py.detach(|| judge.judge_all(&pairs, &options))
        }
        None => parsed.iter().map(|_| BTreeMap::new()).collect(),
    };
    let work: Vec<_> = parsed.into_iter().zip(judged).enumerate().collect();
    let score = |(index, (parsed, judged)): &(
        usize,
        (Result<PairInput, PairError>, BTreeMap<_, _>),
    )|
     -> (bool, String) {
        let number = numbers.as_ref().map(|numbers| numbers[*index]);
        match parsed {
            Ok(pair) => {
                let mut card = score_pair_judged(pair, &options, judged);
                card.line = number;
                if let Some(metric) = check
                    .as_ref()
                    .and_then(|check| check.metric(pair, &options))
                {
                    add_equivalence(&mut card, MetricName::Equivalence, metric, pair, &options);
                }
                (true, serde_json::to_string(&card).unwrap_or_default())
            }
            Err(err) => (false, err.record(number.unwrap_or(index + 1)).to_string()),
        }
    };
    Ok(py.detach(|| on_every_core(&work, score)))
}

/// `work` on every item, spread over the machine's cores; the results in the items' order.
fn on_every_core<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    qeval_native::pool::run(items, qeval_native::pool::cores(), work, |_| {})
}

/// A pairs file's lines as `qeval score` reads them: `(number, line, None)` for each line that is
/// not blank (byte-order mark and carriage return removed), and `(number, None, rejection)` for
/// a line that is not UTF-8, with the record the command writes for it (JSON text).
#[pyfunction]
fn pairs_file_lines(data: &[u8]) -> Vec<(usize, Option<String>, Option<String>)> {
    data.split(|&byte| byte == b'\n')
        .enumerate()
        .filter_map(|(index, raw)| {
            let number = index + 1;
            if raw.len() > qeval_core::MAX_LINE_BYTES {
                return Some((number, None, Some(qeval_core::too_long(number).to_string())));
            }
            pairs_file_line(number, raw).map(|line| match line {
                Ok(line) => (number, Some(line.to_string()), None),
                Err(record) => (number, None, Some(record.to_string())),
            })
        })
        .collect()
}

fn compare_rows(
    py: Python<'_>,
    expected: &Bound<'_, PyAny>,
    generated: &Bound<'_, PyAny>,
    options: &CompareOptions,
) -> PyResult<Comparison> {
    let expected = rows(expected, "expected")?;
    let generated = rows(generated, "generated")?;
    if let Some(problem) = shape_problem(&expected, &generated, options) {
        return Err(input_error(problem));
    }
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
        tolerance: crate::tolerance("tolerance", tolerance)?,
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
    // BIRD's EX on two lists of tuples, the shape it is given: only the distinct rows' keys are
    // kept, which is what the `set` comparison decides on.
    if options.mode == Mode::Set
        && let Some(wanted) = rows::distinct_rows(expected)?
        && let Some(offered) = rows::distinct_rows(generated)?
    {
        let equal = wanted == offered;
        return Ok((equal, if equal { 1.0 } else { 0.0 }));
    }
    let comparison = compare_rows(py, expected, generated, &options)?;
    Ok((comparison.equal, comparison.score))
}

/// defog's `compare_df(df_gold, df_gen, query_category, question, query_gold, query_gen)`; raises
/// where sql-eval raises.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn defog_compare_df(
    py: Python<'_>,
    gold: defog::FrameParts<'_>,
    generated: defog::FrameParts<'_>,
    query_category: String,
    question: String,
    query_gold: Option<String>,
    query_gen: Option<String>,
) -> PyResult<bool> {
    let gold = defog::frame(py, gold, "df_gold")?;
    let generated = defog::frame(py, generated, "df_gen")?;
    let asked = Asked {
        query_category: &query_category,
        question: &question,
    };
    py.detach(|| {
        compare_df(
            &gold,
            &generated,
            &asked,
            query_gold.as_deref(),
            query_gen.as_deref(),
            &EveryCore,
        )
    })
    .map_err(defog::raise)
}

/// defog's `subset_df(df_sub, df_super, query_category, question, query_super, query_sub)`, and
/// the first column of `df_sub` that found no match; raises where sql-eval raises.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn defog_subset_df(
    py: Python<'_>,
    sub: defog::FrameParts<'_>,
    sup: defog::FrameParts<'_>,
    query_category: String,
    question: String,
    query_super: Option<String>,
    query_sub: Option<String>,
) -> PyResult<(bool, Option<usize>)> {
    let sub = defog::frame(py, sub, "df_sub")?;
    let sup = defog::frame(py, sup, "df_super")?;
    let asked = Asked {
        query_category: &query_category,
        question: &question,
    };
    let subset = py
        .detach(|| {
            subset_df(
                &sub,
                &sup,
                &asked,
                query_super.as_deref(),
                query_sub.as_deref(),
                &EveryCore,
            )
        })
        .map_err(defog::raise)?;
    Ok((subset.equal, subset.unmatched))
}

/// The time now as `qeval score` stamps error records (RFC 3339, UTC, seconds).
fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Scores a run folder as `qeval run` does; the report as JSON text (see `run::run`).
#[pyfunction]
#[pyo3(signature = (run_dir, *, profile = None, mode = None, dialect = None, language = None, questions = None, labels = None, output = None, db = None, suite = None, seed = 1, search = None, judge = None, limit = None, by = Vec::new(), csv = None, junit = None, markdown = None, time_limit = 10.0, max_rows = 100_000))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per `qeval run` option
fn run_folder(
    py: Python<'_>,
    run_dir: PathBuf,
    profile: Option<String>,
    mode: Option<String>,
    dialect: Option<String>,
    language: Option<String>,
    questions: Option<PathBuf>,
    labels: Option<PathBuf>,
    output: Option<PathBuf>,
    db: Option<PathBuf>,
    suite: Option<usize>,
    seed: u64,
    search: Option<usize>,
    judge: Option<judge::JudgeSpec>,
    limit: Option<usize>,
    by: Vec<String>,
    csv: Option<PathBuf>,
    junit: Option<PathBuf>,
    markdown: Option<PathBuf>,
    time_limit: f64,
    max_rows: usize,
) -> PyResult<String> {
    let time_limit = seconds("time_limit", time_limit)?;
    if max_rows == 0 {
        return Err(input_error("max_rows takes at least 1 row"));
    }
    // As `qeval run --time-limit --max-rows`: for the queries run on `db` and the test suites.
    let limits = qeval_sqlite::Limits {
        time_ms: time_limit * 1000.0,
        max_rows,
        ..qeval_sqlite::Limits::default()
    };
    let suite = match suite {
        Some(databases) if !(1..=PairCheck::MAX_DATABASES).contains(&databases) => {
            return Err(input_error(format!(
                "suite takes 1 to {} databases, not {databases}",
                PairCheck::MAX_DATABASES
            )));
        }
        // As `qeval run --db --suite N --seed S --search M`.
        Some(databases) => Some(qeval_core::SuiteSettings {
            databases,
            seed,
            search: search_tries(search)?,
        }),
        None => None,
    };
    let mut options = ScoreKeywords {
        profile,
        mode,
        dialect,
        language,
        ..ScoreKeywords::default()
    }
    .score_options()?;
    let judge = judge.map(|spec| spec.ready(&mut options)).transpose()?;
    let request = run::RunRequest {
        questions,
        labels,
        output,
        db,
        limit,
        by,
        csv,
        junit,
        markdown,
        limits,
    };
    py.detach(|| run::run(&run_dir, &options, request, suite, judge.as_ref()))
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("InputError", module.py().get_type::<InputError>())?;
    module.add(
        "ArrowTypeError",
        module.py().get_type::<rows::ArrowTypeError>(),
    )?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(tables, module)?)?;
    module.add_function(wrap_pyfunction!(score_lines, module)?)?;
    module.add_function(wrap_pyfunction!(pairs_file_lines, module)?)?;
    module.add_function(wrap_pyfunction!(run_folder, module)?)?;
    module.add_function(wrap_pyfunction!(compare, module)?)?;
    module.add_function(wrap_pyfunction!(verdict, module)?)?;
    module.add_function(wrap_pyfunction!(defog_compare_df, module)?)?;
    module.add_function(wrap_pyfunction!(defog_subset_df, module)?)?;
    module.add_class::<bench::BenchPlan>()?;
    module.add_function(wrap_pyfunction!(bench::bench_spider, module)?)?;
    module.add_function(wrap_pyfunction!(bench::bench_bird, module)?)?;
    module.add_function(wrap_pyfunction!(bench::bench_spider2, module)?)?;
    module.add_function(wrap_pyfunction!(bench::bench_run_job, module)?)?;
    module.add_function(wrap_pyfunction!(bench::bench_run_job_bytes, module)?)?;
    Ok(())
}
