//! A benchmark scored from its own files on this machine: the files read, each `db_id`'s
//! databases found in its folder, the core's pipeline planned, its jobs run on every core, the
//! records and summaries made. `qeval bench` and Python's `qeval.bench` both call this; Ray's
//! front end calls the same pieces ([`plan_spider`], [`plan_bird`], [`databases`]) and runs
//! the jobs on its cluster instead.

use std::path::{Path, PathBuf};

use qeval_core::{
    BenchError, BenchSummary, BenchmarkPipeline, BirdOptions, EvaluationRecord, Spider2Files,
    Spider2Options, Spider2Outcome, SpiderOptions, bird, bird::BirdPredictions,
    bird::QuestionEntry, eval_ids, spider, spider::SpiderFiles, spider2, spider2::PredictionForm,
    spider2::Variant,
};

use crate::jobs::{DatabaseSource, run_jobs};

/// `qeval bench spider`'s inputs.
#[derive(Debug, Clone)]
pub struct SpiderRequest {
    pub gold: PathBuf,
    pub predictions: Vec<PathBuf>,
    /// The folder of `db_id` folders.
    pub db: PathBuf,
    /// `tables.json`, which exact set match (`--etype match` or `all`) needs.
    pub table: Option<PathBuf>,
    pub options: SpiderOptions,
}

/// `qeval bench bird`'s inputs.
#[derive(Debug, Clone)]
pub struct BirdRequest {
    pub gold: PathBuf,
    pub predictions: Vec<PathBuf>,
    /// The folder of `db_id` folders (`--db_root_path`).
    pub db_root: PathBuf,
    /// The difficulty file (`--diff_json_path`), when there is one.
    pub difficulties: Option<PathBuf>,
    pub options: BirdOptions,
}

/// A benchmark planned: the pipeline, and what the files said beside it.
#[derive(Debug, Clone)]
pub struct Planned {
    pub pipeline: BenchmarkPipeline,
    /// Where the pipeline's databases are.
    pub root: PathBuf,
    /// BIRD: per prediction file, predictions out of their key's place.
    pub misplaced: Vec<Option<usize>>,
    /// Things worth saying about the inputs (a difficulty file of another length...).
    pub notes: Vec<String>,
}

/// A benchmark scored.
#[derive(Debug, Clone)]
pub struct ScoredBenchmark {
    pub planned: Planned,
    /// Per prediction file, its records in example order.
    pub records: Vec<Vec<EvaluationRecord>>,
    pub summaries: Vec<BenchSummary>,
}

fn read(path: &Path) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The prediction files' names, as records and summaries give them.
fn file_names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|path| {
            path.file_name().map_or_else(
                || path.display().to_string(),
                |name| name.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

fn located(path: &Path, err: BenchError) -> String {
    format!("{}: {err}", path.display())
}

/// The names of a Spider `db_id`'s databases, relative to `root`: every file of `root/db_id`
/// whose name contains `.sqlite`, in name order.
fn spider_databases(root: &Path, db_id: &str) -> Result<Vec<String>, String> {
    let folder = root.join(db_id);
    let listing = std::fs::read_dir(&folder)
        .map_err(|err| format!("no database folder {}: {err}", folder.display()))?;
    let mut names: Vec<String> = listing
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| spider::is_database_name(name) && folder.join(name).is_file())
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("{} holds no .sqlite file", folder.display()));
    }
    Ok(names
        .into_iter()
        .map(|name| format!("{db_id}/{name}"))
        .collect())
}

/// Plans Spider: reads the files and lists each `db_id`'s databases.
pub fn plan_spider(request: &SpiderRequest) -> Result<Planned, String> {
    let gold = read(&request.gold)?;
    let files = request
        .predictions
        .iter()
        .map(|path| {
            let predictions = read(path)?;
            SpiderFiles::read(&gold, &predictions).map_err(|err| match err.line {
                Some(_) => located(&request.gold, err),
                None => format!(
                    "{} against {}: {}",
                    path.display(),
                    request.gold.display(),
                    err.message
                ),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let names = file_names(&request.predictions);
    let root = request.db.clone();
    let mut options = request.options.clone();
    if options.etype.matches() {
        let Some(table) = &request.table else {
            return Err(format!(
                "--etype {}: exact set match needs --table (Spider's tables.json, for its foreign keys)",
                serde_json::to_value(options.etype)
                    .unwrap_or_default()
                    .as_str()
                    .unwrap_or("match")
            ));
        };
        options.foreign_keys = qeval_core::spider::read_tables_json(&read(table)?)
            .map_err(|err| located(table, err))?;
    }
    let pipeline = BenchmarkPipeline::spider(
        &files,
        names,
        &mut |db_id| spider_databases(&root, db_id),
        options,
    );
    Ok(Planned {
        pipeline,
        root,
        misplaced: vec![None; request.predictions.len()],
        notes: Vec::new(),
    })
}

/// Plans BIRD: reads the files and checks each `db_id`'s database is there.
pub fn plan_bird(request: &BirdRequest) -> Result<Planned, String> {
    let golds =
        bird::read_gold(&read(&request.gold)?).map_err(|err| located(&request.gold, err))?;
    let predictions: Vec<BirdPredictions> = request
        .predictions
        .iter()
        .map(|path| {
            bird::read_predictions(&read(path)?, golds.len()).map_err(|err| located(path, err))
        })
        .collect::<Result<_, String>>()?;
    let mut notes = Vec::new();
    let entries: Vec<QuestionEntry> = match &request.difficulties {
        Some(path) => {
            let entries =
                bird::read_difficulties(&read(path)?).map_err(|err| located(path, err))?;
            if entries.len() != golds.len() {
                notes.push(format!(
                    "{} has {} for {} in {}: questions are given the entry at their place, as BIRD's script does ({})",
                    path.display(),
                    qeval_core::counted(entries.len(), "entry"),
                    qeval_core::counted(golds.len(), "gold line"),
                    request.gold.display(),
                    if entries.len() > golds.len() {
                        "its script stops with an IndexError"
                    } else {
                        "the questions past the end have no difficulty and count in `total` only"
                    }
                ));
            }
            let mismatched = entries
                .iter()
                .zip(&golds)
                .filter(|(entry, gold)| entry.db_id.as_ref().is_some_and(|d| *d != gold.db_id))
                .count();
            if mismatched > 0 {
                notes.push(format!(
                    "{} of the entries of {} name another db_id than the gold line at their place: is it the difficulty file of this gold file?",
                    mismatched,
                    path.display()
                ));
            }
            entries
        }
        None => Vec::new(),
    };
    let names = file_names(&request.predictions);
    let root = request.db_root.clone();
    let pipeline = BenchmarkPipeline::bird(
        &golds,
        &predictions,
        names,
        &entries,
        &mut |db_id| {
            let name = format!("{db_id}/{db_id}.sqlite");
            if root.join(&name).is_file() {
                Ok(vec![name])
            } else {
                Err(format!("no database {}", root.join(&name).display()))
            }
        },
        request.options.clone(),
    );
    Ok(Planned {
        pipeline,
        root,
        misplaced: predictions.iter().map(|p| Some(p.misplaced())).collect(),
        notes,
    })
}

/// The pipeline's databases as files under the benchmark's root.
pub fn databases(planned: &Planned) -> Vec<DatabaseSource> {
    planned
        .pipeline
        .databases()
        .iter()
        .map(|name| DatabaseSource::File(planned.root.join(name)))
        .collect()
}

/// Checks per job: enough jobs for every worker to have several, no job so large it holds the
/// others back.
pub fn checks_per_job(planned: &Planned, workers: usize) -> usize {
    let checks: usize = (0..planned.pipeline.examples.len())
        .map(|item| planned.pipeline.databases_of(item).len())
        .sum();
    checks.div_ceil(workers.max(1) * 8).clamp(1, 64)
}

/// Runs a planned benchmark on `workers` threads, then makes its records and summaries.
pub fn score(
    mut planned: Planned,
    workers: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> ScoredBenchmark {
    let jobs = planned.pipeline.jobs(checks_per_job(&planned, workers));
    let answers = run_jobs(&jobs, &databases(&planned), workers, progress);
    planned.pipeline.absorb(answers);
    settle(&planned, workers);
    finish(planned)
}

/// Spider 2.0's comparisons of CSVs are most of its work (in `exec_result` mode no query runs):
/// each instance's scores are worked out on every core before the records are made, which
/// then read them back.
fn settle(planned: &Planned, workers: usize) {
    if !matches!(
        planned.pipeline.benchmark,
        qeval_core::Benchmark::Spider2(_)
    ) {
        return;
    }
    let items: Vec<usize> = (0..planned.pipeline.examples.len()).collect();
    crate::pool::run(
        &items,
        workers,
        |&item| {
            planned.pipeline.verdict(0, item);
        },
        |_| {},
    );
}

/// Records and summaries of a benchmark whose jobs are all answered.
pub fn finish(planned: Planned) -> ScoredBenchmark {
    let files = planned.pipeline.prediction_files.len();
    let examples = planned.pipeline.examples.len();
    let records = (0..files)
        .map(|file| {
            (0..examples)
                .map(|item| planned.pipeline.record(file, item))
                .collect()
        })
        .collect();
    let summaries = (0..files)
        .map(|file| planned.pipeline.summary(file, planned.misplaced[file]))
        .collect();
    ScoredBenchmark {
        planned,
        records,
        summaries,
    }
}

/// Records as `evaluation-results.jsonl` text.
pub fn records_text(records: &[EvaluationRecord]) -> String {
    let mut text = String::new();
    for record in records {
        if let Ok(line) = serde_json::to_string(record) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

/// What BIRD's scripts append to `--output_log_path` for every prediction file, appended to
/// `path`.
pub fn append_log(scored: &ScoredBenchmark, path: &Path) -> Result<(), String> {
    use std::io::Write as _;
    let text: String = scored.summaries.iter().map(BenchSummary::log).collect();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
}

/// The summaries as the `--json` file holds them: one object, or an array with several
/// prediction files.
pub fn summary_json(scored: &ScoredBenchmark) -> String {
    let value = match scored.summaries.as_slice() {
        [one] => serde_json::to_value(one),
        several => serde_json::to_value(several),
    }
    .unwrap_or_default();
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// Writes each prediction file's records to its path (one path per prediction file, in
/// order).
pub fn write_records(scored: &ScoredBenchmark, paths: &[PathBuf]) -> Result<(), String> {
    for (records, path) in scored.records.iter().zip(paths) {
        crate::folder::write_file(path, records_text(records).as_bytes())?;
    }
    Ok(())
}

/// `qeval bench spider2`'s inputs.
#[derive(Debug, Clone)]
pub struct Spider2Request {
    /// The gold folder: the gold configuration and `exec_result/`.
    pub gold_dir: PathBuf,
    /// The prediction folder: `<instance_id>.csv` or `<instance_id>.sql`.
    pub result_dir: PathBuf,
    /// Lite or Snow; `None`: the one whose gold configuration the gold folder holds.
    pub variant: Option<Variant>,
    /// `sql` mode: the instance file (`spider2-lite.jsonl`); `None`: looked for two and one
    /// folders above the gold folder.
    pub instances: Option<PathBuf>,
    /// `sql` mode: the folder of `<db>.sqlite` files; `None`: `resource/databases` two folders
    /// above the gold folder, where the official script reads them.
    pub db: Option<PathBuf>,
    pub options: Spider2Options,
}

/// The files of a folder with the extension `extension`, by name without it.
fn files_with_extension(folder: &Path, extension: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let listing = std::fs::read_dir(folder)
        .map_err(|err| format!("cannot read the folder {}: {err}", folder.display()))?;
    let mut files: Vec<(String, PathBuf)> = listing
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            let stem = name.strip_suffix(&format!(".{extension}"))?.to_string();
            path.is_file().then_some((stem, path))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The gold folder's Spider 2.0 variant: the one asked for, else the one whose gold
/// configuration is there.
fn spider2_variant(request: &Spider2Request) -> Result<Variant, String> {
    if let Some(variant) = request.variant {
        return Ok(variant);
    }
    for variant in [Variant::Lite, Variant::Snow] {
        if request.gold_dir.join(variant.eval_file()).is_file() {
            return Ok(variant);
        }
    }
    Err(format!(
        "{} holds neither {} nor {}: give the gold folder of Spider 2.0-lite or -snow (--gold-dir)",
        request.gold_dir.display(),
        Variant::Lite.eval_file(),
        Variant::Snow.eval_file()
    ))
}

/// The first of `candidates` that is there, or an error naming them all.
fn first_existing(candidates: &[PathBuf], what: &str, flag: &str) -> Result<PathBuf, String> {
    candidates
        .iter()
        .find(|p| p.exists())
        .cloned()
        .ok_or_else(|| {
            let tried: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
            format!("no {what} at {}: give it with {flag}", tried.join(" or "))
        })
}

/// Plans Spider 2.0: reads the gold configuration, the prediction folder, each scored
/// instance's gold CSVs and, in `sql` mode, the instance file, and finds the databases.
pub fn plan_spider2(request: &Spider2Request) -> Result<Planned, String> {
    let mut options = request.options.clone();
    options.variant = spider2_variant(request)?;
    let variant = options.variant;
    let eval_path = request.gold_dir.join(variant.eval_file());
    let standards = spider2::read_standards(&read(&eval_path)?, variant)
        .map_err(|err| located(&eval_path, err))?;
    let extension = options.mode.extension();
    let mut predicted = files_with_extension(&request.result_dir, extension)?;
    if variant == Variant::Snow {
        // -snow names a prediction by its file name up to the first dot
        // (`file.split(".")[0]`), and reads `<that>.csv`.
        predicted = predicted
            .into_iter()
            .map(|(stem, _)| {
                let id = stem.split('.').next().unwrap_or_default().to_string();
                let path = request.result_dir.join(format!("{id}.{extension}"));
                (id, path)
            })
            .collect();
        predicted.sort();
        predicted.dedup_by(|a, b| a.0 == b.0);
    }
    let ids = eval_ids(&standards, predicted.iter().map(|(id, _)| id));
    let mut notes = Vec::new();
    let ignored = predicted.len() - ids.len();
    if ignored > 0 {
        notes.push(format!(
            "{} in {} have no line in {} and are ignored, as the official script ignores them",
            qeval_core::counted(ignored, "prediction file"),
            request.result_dir.display(),
            variant.eval_file()
        ));
    }
    let gold_folder = request.gold_dir.join("exec_result");
    let listing: Vec<String> = std::fs::read_dir(&gold_folder)
        .map_err(|err| {
            format!(
                "cannot read the gold folder {}: {err}",
                gold_folder.display()
            )
        })?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    let read_bytes = |path: &Path| {
        std::fs::read(path).map_err(|err| format!("cannot read {}: {err}", path.display()))
    };
    let mut files = Spider2Files {
        standards,
        ..Spider2Files::default()
    };
    for (id, path) in &predicted {
        if ids.binary_search(id).is_ok() {
            files.predictions.insert(id.clone(), read_bytes(path));
        }
    }
    for id in &ids {
        let gold = spider2::gold_files(id, &listing);
        let bytes = gold
            .names
            .iter()
            .map(|name| read_bytes(&gold_folder.join(name)))
            .collect();
        files.golds.insert(id.clone(), (gold, bytes));
    }
    let grandparent = request.gold_dir.join("..").join("..");
    let mut root = PathBuf::new();
    if options.mode == PredictionForm::Sql {
        let instances = match &request.instances {
            Some(path) => path.clone(),
            None => first_existing(
                &[
                    grandparent.join(variant.instances_file()),
                    request.gold_dir.join("..").join(variant.instances_file()),
                ],
                "instance file",
                "--instances",
            )?,
        };
        files.instances = spider2::read_instances(&read(&instances)?, variant)
            .map_err(|err| located(&instances, err))?;
        root = request
            .db
            .clone()
            .unwrap_or_else(|| grandparent.join("resource").join("databases"));
    }
    let name = file_names(std::slice::from_ref(&request.result_dir)).remove(0);
    let pipeline = BenchmarkPipeline::spider2(
        files,
        name,
        &mut |db| {
            let file = format!("{db}.sqlite");
            if root.join(&file).is_file() {
                Ok(vec![file])
            } else {
                Err(format!("no database {}", root.join(&file).display()))
            }
        },
        options,
    );
    Ok(Planned {
        pipeline,
        root,
        misplaced: vec![None],
        notes,
    })
}

/// The list of per-instance results the official `evaluate_spider2sql` returns (and never
/// writes): `instance_id`, `score`, `pred_sql` (the query run, `sql` mode) and `error_info`,
/// for the instances scored.
pub fn spider2_results_json(scored: &ScoredBenchmark) -> String {
    let pipeline = &scored.planned.pipeline;
    let sql_mode = matches!(
        &pipeline.benchmark,
        qeval_core::Benchmark::Spider2(o) if o.mode == PredictionForm::Sql
    );
    let results: Vec<serde_json::Value> = (0..pipeline.examples.len())
        .filter_map(|item| {
            let Some(Spider2Outcome::Scored(score)) = pipeline.spider2_outcome(item) else {
                return None;
            };
            Some(serde_json::json!({
                "instance_id": pipeline.spider2_id(item),
                "score": score.score,
                "pred_sql": sql_mode.then(|| pipeline.examples[item].predictions[0].clone()),
                "error_info": score.error_info,
            }))
        })
        .collect();
    serde_json::to_string_pretty(&results).unwrap_or_default() + "\n"
}
