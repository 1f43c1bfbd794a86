//! `qeval.bench` and `qeval.ray`'s benchmarks: a benchmark planned by qeval-native (the files
//! read, each `db_id`'s databases found), run here on every core or job by job on a cluster,
//! and finished into the official tables, the summaries and the records. Conversion only: the
//! planning, the running and the finishing are the command line's.

use std::path::PathBuf;

use pyo3::prelude::*;
use qeval_core::{BirdOptions, Job, JobAnswer, SpiderOptions, bird::BirdMetric};
use qeval_native::bench::{BirdRequest, Planned, ScoredBenchmark, SpiderRequest};
use qeval_native::jobs::DatabaseSource;
use serde_json::json;

use crate::{input_error, parse, seconds};

/// A time in seconds from Python: above 0 and finite.
/// A benchmark planned, then answered; `qeval.ray` hands its jobs to the cluster.
#[pyclass(module = "qeval._native")]
pub struct BenchPlan {
    planned: Option<Planned>,
}

impl BenchPlan {
    fn planned(&self) -> PyResult<&Planned> {
        self.planned
            .as_ref()
            .ok_or_else(|| input_error("this benchmark was already finished"))
    }
}

#[pymethods]
impl BenchPlan {
    /// The jobs as JSON text, at most `per_job` checks each.
    fn jobs(&self, per_job: usize) -> PyResult<Vec<String>> {
        let planned = self.planned()?;
        planned
            .pipeline
            .jobs(per_job)
            .iter()
            .map(|job| serde_json::to_string(job).map_err(|err| input_error(err.to_string())))
            .collect()
    }

    /// Checks per job for `workers` workers, as the command line splits them.
    fn per_job(&self, workers: usize) -> PyResult<usize> {
        Ok(qeval_native::bench::checks_per_job(
            self.planned()?,
            workers,
        ))
    }

    /// Every database a job may name, by its number: the file's path.
    fn databases(&self) -> PyResult<Vec<String>> {
        let planned = self.planned()?;
        Ok(planned
            .pipeline
            .databases()
            .iter()
            .map(|name| planned.root.join(name).display().to_string())
            .collect())
    }

    /// Takes the jobs' answers (JSON text, in any order).
    fn absorb(&mut self, answers: Vec<String>) -> PyResult<()> {
        let parsed = answers
            .iter()
            .map(|text| {
                serde_json::from_str::<JobAnswer>(text)
                    .map_err(|err| input_error(format!("not a job's answer: {err}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let planned = self
            .planned
            .as_mut()
            .ok_or_else(|| input_error("this benchmark was already finished"))?;
        planned.pipeline.absorb(parsed);
        Ok(())
    }

    /// Runs every job on `workers` threads here.
    fn run(&mut self, py: Python<'_>, workers: usize) -> PyResult<()> {
        let planned = self
            .planned
            .as_mut()
            .ok_or_else(|| input_error("this benchmark was already finished"))?;
        py.detach(|| {
            let jobs = planned
                .pipeline
                .jobs(qeval_native::bench::checks_per_job(planned, workers));
            let answers = qeval_native::jobs::run_jobs(
                &jobs,
                &qeval_native::bench::databases(planned),
                workers,
                |_, _| {},
            );
            planned.pipeline.absorb(answers);
        });
        Ok(())
    }

    /// The results as JSON text: `{"notes", "results": [{"predictions", "table", "log",
    /// "summary", "records"}]}`, one result per prediction file, and the files asked for
    /// written (`output`: one records file per prediction file; `json`: the summaries;
    /// `output_log_path`: BIRD's log, appended).
    #[pyo3(signature = (*, dialect = "SQLite", output = Vec::new(), json = None, output_log_path = None))]
    fn finish(
        &mut self,
        py: Python<'_>,
        dialect: &str,
        output: Vec<PathBuf>,
        json: Option<PathBuf>,
        output_log_path: Option<PathBuf>,
    ) -> PyResult<String> {
        let planned = self
            .planned
            .take()
            .ok_or_else(|| input_error("this benchmark was already finished"))?;
        let scored: ScoredBenchmark = py.detach(|| qeval_native::bench::finish(planned));
        if !output.is_empty() && output.len() != scored.records.len() {
            return Err(input_error(format!(
                "{} output files for {} prediction files: give one per prediction file",
                output.len(),
                scored.records.len()
            )));
        }
        qeval_native::bench::write_records(&scored, &output).map_err(input_error)?;
        if let Some(path) = &output_log_path {
            qeval_native::bench::append_log(&scored, path).map_err(input_error)?;
        }
        if let Some(path) = &json {
            std::fs::write(path, qeval_native::bench::summary_json(&scored))
                .map_err(|err| input_error(format!("cannot write {}: {err}", path.display())))?;
        }
        let results: Vec<_> = scored
            .summaries
            .iter()
            .zip(&scored.records)
            .map(|(summary, records)| {
                json!({
                    "predictions": summary.predictions,
                    "table": summary.table(dialect) + &summary.strict_table().unwrap_or_default(),
                    "log": summary.log(),
                    "summary": summary,
                    "records": records,
                })
            })
            .collect();
        Ok(json!({"notes": scored.planned.notes, "results": results}).to_string())
    }
}

/// Plans Spider from its files, as `qeval bench spider` does.
#[pyfunction]
#[pyo3(signature = (gold, predictions, db, *, etype = "exec", table = None, keep_distinct = false, plug_value = false, plug_value_limit = qeval_core::spider::MAX_VARIANTS, time_limit = qeval_core::spider::TIMEOUT_SECONDS, max_rows = 1_000_000, strict = false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per command-line flag
pub fn bench_spider(
    py: Python<'_>,
    gold: PathBuf,
    predictions: Vec<PathBuf>,
    db: PathBuf,
    etype: &str,
    table: Option<PathBuf>,
    keep_distinct: bool,
    plug_value: bool,
    plug_value_limit: usize,
    time_limit: f64,
    max_rows: usize,
    strict: bool,
) -> PyResult<BenchPlan> {
    if predictions.is_empty() {
        return Err(input_error("give at least one prediction file"));
    }
    let etype = qeval_core::spider::Etype::parse(etype).ok_or_else(|| {
        input_error(format!(
            "etype={etype:?}: use \"exec\", \"match\" (exact set match) or \"all\""
        ))
    })?;
    let mut options = SpiderOptions {
        keep_distinct,
        plug_value,
        plug_limit: plug_value_limit,
        etype,
        strict,
        ..SpiderOptions::default()
    };
    options.settings.time_limit_ms = seconds("time_limit", time_limit)? * 1000.0;
    options.settings.max_rows = max_rows.max(1);
    let request = SpiderRequest {
        gold,
        predictions,
        db,
        table,
        options,
    };
    let planned = py
        .detach(|| qeval_native::bench::plan_spider(&request))
        .map_err(input_error)?;
    Ok(BenchPlan {
        planned: Some(planned),
    })
}

/// Plans BIRD from its files, as `qeval bench bird` does.
#[pyfunction]
#[pyo3(signature = (gold, predictions, db_root, *, diff = None, metrics = vec!["ex".to_string()], meta_time_out = qeval_core::bird::TIMEOUT_SECONDS, sql_dialect = "SQLite", ves_iterations = qeval_core::bird::VES_ITERATIONS, max_rows = 1_000_000, strict = false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per command-line flag
pub fn bench_bird(
    py: Python<'_>,
    gold: PathBuf,
    predictions: Vec<PathBuf>,
    db_root: PathBuf,
    diff: Option<PathBuf>,
    metrics: Vec<String>,
    meta_time_out: f64,
    sql_dialect: &str,
    ves_iterations: usize,
    max_rows: usize,
    strict: bool,
) -> PyResult<BenchPlan> {
    if predictions.is_empty() {
        return Err(input_error("give at least one prediction file"));
    }
    if !sql_dialect.eq_ignore_ascii_case("sqlite") {
        return Err(input_error(format!(
            "sql_dialect {sql_dialect}: only SQLite is scored here (BIRD's MySQL and PostgreSQL databases are servers, not files)"
        )));
    }
    let mut parsed: Vec<BirdMetric> = Vec::new();
    for metric in &metrics {
        let metric: BirdMetric = parse(metric)?;
        if !parsed.contains(&metric) {
            parsed.push(metric);
        }
    }
    if parsed.is_empty() {
        return Err(input_error("metrics: give ex, soft-f1 or ves"));
    }
    let limit = seconds("meta_time_out", meta_time_out)? * 1000.0;
    let mut options = BirdOptions {
        metrics: parsed,
        ves_iterations,
        time_limit_ms: limit,
        dialect: sql_dialect.to_string(),
        strict,
        ..BirdOptions::default()
    };
    options.settings.time_limit_ms = limit;
    options.settings.max_rows = max_rows.max(1);
    let request = BirdRequest {
        gold,
        predictions,
        db_root,
        difficulties: diff,
        options,
    };
    let planned = py
        .detach(|| qeval_native::bench::plan_bird(&request))
        .map_err(input_error)?;
    Ok(BenchPlan {
        planned: Some(planned),
    })
}

/// Plans Spider 2.0 from its files, as `qeval bench spider2` does.
#[pyfunction]
#[pyo3(signature = (result_dir, gold_dir, *, mode = "exec_result", variant = None, instances = None, db = None, timeout = None, max_rows = 1_000_000, strict = false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per command-line flag
pub fn bench_spider2(
    py: Python<'_>,
    result_dir: PathBuf,
    gold_dir: PathBuf,
    mode: &str,
    variant: Option<String>,
    instances: Option<PathBuf>,
    db: Option<PathBuf>,
    timeout: Option<f64>,
    max_rows: usize,
    strict: bool,
) -> PyResult<BenchPlan> {
    use qeval_core::{spider2::PredictionForm, spider2::Variant};
    let mode = PredictionForm::parse(mode).ok_or_else(|| {
        input_error(format!(
            "mode={mode:?}: use \"exec_result\" (predicted CSVs) or \"sql\" (predicted SQL)"
        ))
    })?;
    let variant =
        match variant {
            None => None,
            Some(text) => Some(Variant::parse(&text).ok_or_else(|| {
                input_error(format!("variant={text:?}: use \"lite\" or \"snow\""))
            })?),
        };
    let mut options = qeval_core::Spider2Options {
        mode,
        strict,
        ..Default::default()
    };
    if let Some(timeout) = timeout {
        options.settings.time_limit_ms = seconds("timeout", timeout)? * 1000.0;
    }
    options.settings.max_rows = max_rows.max(1);
    let request = qeval_native::bench::Spider2Request {
        gold_dir,
        result_dir,
        variant,
        instances,
        db,
        options,
    };
    let planned = py
        .detach(|| qeval_native::bench::plan_spider2(&request))
        .map_err(input_error)?;
    Ok(BenchPlan {
        planned: Some(planned),
    })
}

/// One job (JSON text) on the database file at `database`: a cluster worker's part. The
/// answer as JSON text.
#[pyfunction]
pub fn bench_run_job(py: Python<'_>, job: &str, database: PathBuf) -> PyResult<String> {
    let job: Job =
        serde_json::from_str(job).map_err(|err| input_error(format!("not a job: {err}")))?;
    let answer = py.detach(|| qeval_native::jobs::run_job(&job, &DatabaseSource::File(database)));
    serde_json::to_string(&answer).map_err(|err| input_error(err.to_string()))
}

/// One job (JSON text) on a database given as the file's bytes: a cluster worker's part when
/// the databases travel through the cluster's object store. The answer as JSON text.
#[pyfunction]
pub fn bench_run_job_bytes(py: Python<'_>, job: &str, database: Vec<u8>) -> PyResult<String> {
    let job: Job =
        serde_json::from_str(job).map_err(|err| input_error(format!("not a job: {err}")))?;
    let source = DatabaseSource::Bytes(std::sync::Arc::new(database));
    let answer = py.detach(|| qeval_native::jobs::run_job(&job, &source));
    serde_json::to_string(&answer).map_err(|err| input_error(err.to_string()))
}
