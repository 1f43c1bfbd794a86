//! A benchmark as one more input to the run pipeline: its examples (a gold query, its
//! `db_id`, a prediction from each prediction file), which databases each runs on, the jobs
//! that run them (grouped by database, each gold once), and, from the jobs' answers, each
//! example's official verdict (`verdict`), its record (`record`) and the official table with
//! what the benchmark itself cannot score (`summary`).

mod record;
pub(crate) mod spider2;
pub(crate) mod strict;
pub(crate) mod summary;
mod verdict;

pub(crate) use spider2::{Spider2Options, Spider2Outcome};
pub(crate) use strict::{StrictRule, StrictVerdict};

use verdict::QueryFailure;

use std::collections::BTreeMap;

use super::job::{
    Check, CheckAnswer, CheckPurpose, Job, JobAnswer, JobPart, PartAnswer, Rule, SchemaRead,
};
use super::query::{QuerySettings, TextDecoding};
use crate::bench::bird::{self, BirdGold, BirdMetric, BirdPredictions, QuestionEntry};
use crate::bench::spider::exact::{ExactGold, ForeignKeyMap, SpiderSchema};
use crate::bench::spider::{self, Etype, SpiderFiles, plug};
use crate::sql::{Hardness, SqlDialect, hardness};

/// Bytes of values a benchmark's result may hold before it is cut: the official scripts keep
/// every row, so the cap is far above the 64 MiB of qeval's own runs.
pub(crate) const BENCH_MAX_BYTES: usize = 1024 * 1024 * 1024;

/// Which benchmark, with its options.
#[derive(Debug, Clone, PartialEq)]
pub enum Benchmark {
    Spider(SpiderOptions),
    Bird(BirdOptions),
    Spider2(Spider2Options),
}

/// `qeval bench spider`'s options (`evaluation.py`'s flags).
#[derive(Debug, Clone, PartialEq)]
pub struct SpiderOptions {
    /// `--keep_distinct`: leave `DISTINCT` in both queries.
    pub keep_distinct: bool,
    /// `--plug_value`: also try the prediction with the gold's values in its value slots.
    pub plug_value: bool,
    /// Most `--plug_value` variants tried per prediction.
    pub plug_limit: usize,
    /// `--etype`: execution, exact set match, or both.
    pub etype: Etype,
    /// Exact set match: each `db_id`'s foreign-key map, from `tables.json`.
    pub foreign_keys: BTreeMap<String, ForeignKeyMap>,
    /// `--strict`: qeval's strict verdict beside the official one.
    pub strict: bool,
    pub settings: QuerySettings,
}

impl Default for SpiderOptions {
    fn default() -> Self {
        SpiderOptions {
            keep_distinct: false,
            plug_value: false,
            plug_limit: plug::MAX_VARIANTS,
            etype: Etype::Exec,
            foreign_keys: BTreeMap::new(),
            strict: false,
            settings: QuerySettings {
                time_limit_ms: spider::TIMEOUT_SECONDS * 1000.0,
                max_rows: 1_000_000,
                max_bytes: BENCH_MAX_BYTES,
                text: TextDecoding::Ignore,
                python_statements: true,
            },
        }
    }
}

/// `qeval bench bird`'s options (the scripts' flags).
#[derive(Debug, Clone, PartialEq)]
pub struct BirdOptions {
    /// The metrics asked for, in order (`--metric`).
    pub metrics: Vec<BirdMetric>,
    /// R-VES's timed runs of each query (`evaluation_ves.py` makes 100).
    pub ves_iterations: usize,
    /// `--meta_time_out`: the prediction and its gold together, in milliseconds.
    pub time_limit_ms: f64,
    /// `--sql_dialect`, as the table's last line names it.
    pub dialect: String,
    /// `--strict`: qeval's strict verdict beside the official one.
    pub strict: bool,
    pub settings: QuerySettings,
}

impl Default for BirdOptions {
    fn default() -> Self {
        BirdOptions {
            metrics: vec![BirdMetric::Ex],
            ves_iterations: bird::ves::ITERATIONS,
            time_limit_ms: bird::TIMEOUT_SECONDS * 1000.0,
            dialect: "SQLite".into(),
            strict: false,
            settings: QuerySettings {
                time_limit_ms: bird::TIMEOUT_SECONDS * 1000.0,
                max_rows: 1_000_000,
                max_bytes: BENCH_MAX_BYTES,
                text: TextDecoding::Strict,
                python_statements: true,
            },
        }
    }
}

/// One example of a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub db_id: String,
    /// The gold query as the file gives it.
    pub gold: String,
    /// Its line in the gold file.
    pub gold_line: usize,
    /// The prediction of each prediction file, as the file gives it.
    pub predictions: Vec<String>,
    /// Spider: the gold's level (`None` when Spider's grammar cannot be read from it).
    pub hardness: Option<Hardness>,
    /// Spider: the interaction (from 0) and the turn in it (from 0).
    pub interaction: usize,
    pub turn: usize,
    /// BIRD: the difficulty file's level, `db_id` and question.
    pub entry: QuestionEntry,
    /// BIRD: the `db_id` each prediction names after its separator.
    pub predicted_db_ids: Vec<Option<String>>,
}

/// What runs for an example: the gold and each file's queries, after the benchmark's text
/// rules, and how they are compared.
#[derive(Debug, Clone, PartialEq)]
struct Prepared {
    gold: String,
    /// Per prediction file: the prediction, then its `--plug_value` variants.
    variants: Vec<Vec<String>>,
    /// Per prediction file: how many `--plug_value` variants there are in all.
    plug_totals: Vec<u128>,
    rule: Rule,
    /// Spider `--strict`: the checks beside the official one.
    strict: Vec<StrictCheck>,
}

/// A check `--strict` adds to an example on each of its databases: its gold and each
/// prediction file's prediction (as written, without `--plug_value`'s variants).
#[derive(Debug, Clone, PartialEq)]
struct StrictCheck {
    purpose: CheckPurpose,
    gold: String,
    predictions: Vec<String>,
    rule: Rule,
}

/// A benchmark planned for running, and then the answers of its jobs.
#[derive(Debug, Clone)]
pub struct BenchmarkPipeline {
    pub benchmark: Benchmark,
    pub examples: Vec<Example>,
    /// The prediction files' names, for records and summaries.
    pub prediction_files: Vec<String>,
    /// Every database, as a path under the benchmark's database folder (`db_id/file`).
    databases: Vec<String>,
    /// Each example's databases (indices into `databases`), in order.
    slots: Vec<Vec<usize>>,
    /// `db_id`s without a database, and why.
    missing: BTreeMap<String, String>,
    prepared: Vec<Prepared>,
    answers: Vec<Vec<Option<CheckAnswer>>>,
    /// Spider: the interactions of the gold file, empty ones included.
    interaction_count: usize,
    /// Spider's exact set match: each `db_id`'s tables and columns, or why they could not be
    /// read.
    schemas: BTreeMap<String, Result<SpiderSchema, String>>,
    /// Spider's exact set match: each example's gold in Spider's structure, read once its
    /// `db_id`'s schema is there.
    exact_golds: Vec<Option<Result<ExactGold, QueryFailure>>>,
    /// Spider 2.0: each example's instance (its gold CSVs, its prediction, its result).
    spider2: Vec<spider2::Instance>,
    /// Spider `--strict`: the answers of the strict checks, by example, database and purpose.
    strict_answers: BTreeMap<(usize, usize, CheckPurpose), CheckAnswer>,
}

impl BenchmarkPipeline {
    /// Spider from its gold file and prediction files (one [`SpiderFiles`] per prediction file,
    /// each read with the same gold). `databases_of(db_id)` lists the database files of a
    /// `db_id`'s folder, or says why there are none.
    pub fn spider(
        files: &[SpiderFiles],
        prediction_files: Vec<String>,
        databases_of: &mut dyn FnMut(&str) -> Result<Vec<String>, String>,
        options: SpiderOptions,
    ) -> BenchmarkPipeline {
        let gold = files.first().map(|f| f.gold.clone()).unwrap_or_default();
        let mut examples = Vec::new();
        for (interaction, lines) in gold.iter().enumerate() {
            for (turn, line) in lines.iter().enumerate() {
                examples.push(Example {
                    db_id: line.db_id.clone(),
                    gold: line.sql.clone(),
                    gold_line: line.line,
                    predictions: files
                        .iter()
                        .map(|f| f.predictions[interaction][turn].0.clone())
                        .collect(),
                    hardness: hardness(&line.sql, SqlDialect::Sqlite),
                    interaction,
                    turn,
                    entry: QuestionEntry::default(),
                    predicted_db_ids: Vec::new(),
                });
            }
        }
        let prepared = examples
            .iter()
            .map(|example| prepare_spider(example, &options))
            .collect();
        let mut pipeline = BenchmarkPipeline::new(
            Benchmark::Spider(options),
            examples,
            prediction_files,
            prepared,
            databases_of,
        );
        pipeline.interaction_count = gold.len();
        pipeline
    }

    /// BIRD from its gold file, prediction files and difficulty file (`entries`, by position).
    /// The databases are `<db_id>/<db_id>.sqlite`; `databases_of` says whether a `db_id`'s is
    /// there.
    pub fn bird(
        golds: &[BirdGold],
        predictions: &[BirdPredictions],
        prediction_files: Vec<String>,
        entries: &[QuestionEntry],
        databases_of: &mut dyn FnMut(&str) -> Result<Vec<String>, String>,
        options: BirdOptions,
    ) -> BenchmarkPipeline {
        let examples: Vec<Example> = golds
            .iter()
            .enumerate()
            .map(|(index, gold)| Example {
                db_id: gold.db_id.clone(),
                gold: gold.sql.clone(),
                gold_line: index + 1,
                predictions: predictions
                    .iter()
                    .map(|p| p.by_question[index].sql.clone())
                    .collect(),
                hardness: None,
                interaction: 0,
                turn: index,
                entry: entries.get(index).cloned().unwrap_or_default(),
                predicted_db_ids: predictions
                    .iter()
                    .map(|p| p.by_question[index].db_id.clone())
                    .collect(),
            })
            .collect();
        let rule = Rule::Bird {
            soft_f1: options.metrics.contains(&BirdMetric::SoftF1),
            ves_iterations: if options.metrics.contains(&BirdMetric::Ves) {
                options.ves_iterations
            } else {
                0
            },
            time_limit_ms: options.time_limit_ms,
            strict: options.strict,
        };
        let prepared = examples
            .iter()
            .map(|example| Prepared {
                gold: example.gold.clone(),
                variants: example
                    .predictions
                    .iter()
                    .map(|p| vec![p.clone()])
                    .collect(),
                plug_totals: vec![1; example.predictions.len()],
                rule,
                strict: Vec::new(),
            })
            .collect();
        BenchmarkPipeline::new(
            Benchmark::Bird(options),
            examples,
            prediction_files,
            prepared,
            databases_of,
        )
    }

    fn new(
        benchmark: Benchmark,
        examples: Vec<Example>,
        prediction_files: Vec<String>,
        prepared: Vec<Prepared>,
        databases_of: &mut dyn FnMut(&str) -> Result<Vec<String>, String>,
    ) -> BenchmarkPipeline {
        let mut databases: Vec<String> = Vec::new();
        let mut by_db_id: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut missing = BTreeMap::new();
        let slots = examples
            .iter()
            .map(|example| {
                if let Some(found) = by_db_id.get(&example.db_id) {
                    return found.clone();
                }
                let found: Vec<usize> = match databases_of(&example.db_id) {
                    Ok(names) => names
                        .into_iter()
                        .map(|name| {
                            databases.push(name);
                            databases.len() - 1
                        })
                        .collect(),
                    Err(why) => {
                        missing.insert(example.db_id.clone(), why);
                        Vec::new()
                    }
                };
                by_db_id.insert(example.db_id.clone(), found.clone());
                found
            })
            .collect::<Vec<_>>();
        let exact_golds = vec![None; examples.len()];
        let executes = !matches!(&benchmark, Benchmark::Spider(o) if !o.etype.executes());
        let answers = slots
            .iter()
            .map(|s| vec![None; if executes { s.len() } else { 0 }])
            .collect();
        BenchmarkPipeline {
            benchmark,
            examples,
            prediction_files,
            databases,
            slots,
            missing,
            prepared,
            answers,
            interaction_count: 1,
            schemas: BTreeMap::new(),
            exact_golds,
            spider2: Vec::new(),
            strict_answers: BTreeMap::new(),
        }
    }

    /// Every database the jobs name, by index.
    pub fn databases(&self) -> &[String] {
        &self.databases
    }

    /// The database paths of an example, in order.
    pub fn databases_of(&self, example: usize) -> Vec<&str> {
        self.slots[example]
            .iter()
            .map(|&d| self.databases[d].as_str())
            .collect()
    }

    fn settings(&self) -> QuerySettings {
        match &self.benchmark {
            Benchmark::Spider(options) => options.settings,
            Benchmark::Bird(options) => options.settings,
            Benchmark::Spider2(options) => options.settings,
        }
    }

    /// The jobs: each database's checks, examples sharing a gold together and `--strict`'s
    /// checks after them, in jobs of at most `per_job` checks (see `chunked`).
    pub fn jobs(&self, per_job: usize) -> Vec<Job> {
        if let Benchmark::Spider2(options) = &self.benchmark {
            return self.spider2_jobs(options, per_job);
        }
        let mut jobs = self.schema_jobs();
        if !self.executes() {
            return jobs;
        }
        let settings = self.settings();
        let mut by_database: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.databases.len()];
        for (item, slots) in self.slots.iter().enumerate() {
            for (slot, &database) in slots.iter().enumerate() {
                by_database[database].push((item, slot));
            }
        }
        let mut parts: Vec<Vec<JobPart>> = vec![Vec::new(); self.databases.len()];
        for (database, mut checks) in by_database.into_iter().enumerate() {
            checks.sort_by(|a, b| self.prepared[a.0].gold.cmp(&self.prepared[b.0].gold));
            for (item, slot) in checks {
                let prepared = &self.prepared[item];
                parts[database].push(JobPart::Check(Check {
                    item,
                    slot,
                    purpose: CheckPurpose::Official,
                    gold: prepared.gold.clone(),
                    predictions: prepared.variants.clone(),
                    rule: prepared.rule,
                    settings,
                }));
            }
        }
        for (item, slots) in self.slots.iter().enumerate() {
            for strict in &self.prepared[item].strict {
                for (slot, &database) in slots.iter().enumerate() {
                    parts[database].push(JobPart::Check(Check {
                        item,
                        slot,
                        purpose: strict.purpose,
                        gold: strict.gold.clone(),
                        predictions: strict.predictions.iter().map(|p| vec![p.clone()]).collect(),
                        rule: strict.rule,
                        settings,
                    }));
                }
            }
        }
        jobs.extend(chunked(parts.into_iter().enumerate(), per_job));
        jobs
    }

    /// Whether the examples' gold and predicted queries run and are compared (Spider's
    /// `--etype match` runs none; Spider 2.0 has gold CSVs, and its own jobs).
    fn executes(&self) -> bool {
        match &self.benchmark {
            Benchmark::Spider(options) => options.etype.executes(),
            Benchmark::Bird(_) => true,
            Benchmark::Spider2(_) => false,
        }
    }

    /// Spider's exact set match: one job per `db_id` reading its schema from `<db_id>.sqlite`
    /// (as `evaluate` does), or its first database when there is no such file.
    fn schema_jobs(&self) -> Vec<Job> {
        let Benchmark::Spider(options) = &self.benchmark else {
            return Vec::new();
        };
        if !options.etype.matches() {
            return Vec::new();
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut jobs = Vec::new();
        for (example, slots) in self.examples.iter().zip(&self.slots) {
            if slots.is_empty() || !seen.insert(example.db_id.clone()) {
                continue;
            }
            let main = format!("{0}/{0}.sqlite", example.db_id);
            let database = slots
                .iter()
                .copied()
                .find(|&d| self.databases[d] == main)
                .unwrap_or(slots[0]);
            jobs.push(Job {
                database,
                parts: vec![JobPart::Schema(SchemaRead {
                    db_id: example.db_id.clone(),
                    settings: options.settings,
                })],
            });
        }
        jobs
    }

    /// Takes the answers of jobs (in any order).
    pub fn absorb(&mut self, answers: impl IntoIterator<Item = JobAnswer>) {
        for answer in answers {
            for part in answer.answers {
                match part {
                    PartAnswer::Check(check) if check.purpose != CheckPurpose::Official => {
                        self.strict_answers
                            .insert((check.item, check.slot, check.purpose), check);
                    }
                    PartAnswer::Check(check) => {
                        if let Some(slot) = self
                            .answers
                            .get_mut(check.item)
                            .and_then(|slots| slots.get_mut(check.slot))
                        {
                            *slot = Some(check);
                        }
                    }
                    PartAnswer::Fill(fill) => {
                        if let Some(instance) = self.spider2.get_mut(fill.item) {
                            instance.result = fill.generated;
                            instance.scores = spider2::ScoreCache::default();
                        }
                    }
                    PartAnswer::Schema { db_id, tables } => {
                        let schema = tables
                            .map(SpiderSchema::new)
                            .map_err(|err| format!("its tables could not be read: {err}"));
                        self.schemas.insert(db_id.clone(), schema);
                        self.read_exact_golds(&db_id);
                    }
                    _ => {}
                }
            }
        }
    }

    /// The examples whose checks have all been answered, out of all.
    pub fn answered(&self) -> (usize, usize) {
        let done = self
            .answers
            .iter()
            .filter(|slots| slots.iter().all(Option::is_some))
            .count();
        (done, self.answers.len())
    }
}

/// Each database's parts, in order, in jobs of at most `per_job` parts (a database with more is
/// split, so the work spreads over every core; a worker that takes the next part of the same
/// database keeps it open).
fn chunked(
    by_database: impl IntoIterator<Item = (usize, Vec<JobPart>)>,
    per_job: usize,
) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (database, parts) in by_database {
        for chunk in parts.chunks(per_job.max(1)) {
            jobs.push(Job {
                database,
                parts: chunk.to_vec(),
            });
        }
    }
    jobs
}

/// Spider's text rules on an example (`evaluate` and `eval_exec_match`).
fn prepare_spider(example: &Example, options: &SpiderOptions) -> Prepared {
    let mut gold_run = String::new();
    let mut order_matters = false;
    let mut variants = Vec::new();
    let mut plug_totals = Vec::new();
    for raw in &example.predictions {
        let prediction = spider::prediction_text(raw);
        let (gold, prediction) =
            spider::prepared(&example.gold, &prediction, options.keep_distinct);
        order_matters = spider::order_matters(&gold);
        let mut queries = vec![prediction.clone()];
        let mut total = 1;
        if options.plug_value {
            let (plugged, all) = plug::plugged_predictions(&gold, &prediction, options.plug_limit);
            total = all;
            queries.extend(plugged);
        }
        gold_run = spider::replace_cur_year(&gold);
        variants.push(
            queries
                .iter()
                .map(|q| spider::replace_cur_year(q))
                .collect(),
        );
        plug_totals.push(total);
    }
    if example.predictions.is_empty() {
        let (gold, _) = spider::prepared(&example.gold, "", options.keep_distinct);
        order_matters = spider::order_matters(&gold);
        gold_run = spider::replace_cur_year(&gold);
    }
    Prepared {
        strict: if options.strict {
            strict_checks(example, options, &gold_run)
        } else {
            Vec::new()
        },
        gold: gold_run,
        variants,
        plug_totals,
        rule: Rule::Spider { order_matters },
    }
}

/// Spider `--strict`'s checks of an example: its queries with `DISTINCT` kept inside
/// aggregates, when either has one (and `--keep_distinct` is off); and, when the gold (so
/// corrected) is cut by `ORDER BY ... LIMIT n`, the prediction against the gold's tied rows.
fn strict_checks(example: &Example, options: &SpiderOptions, gold_run: &str) -> Vec<StrictCheck> {
    let predictions: Vec<String> = example
        .predictions
        .iter()
        .map(|p| spider::prediction_text(p))
        .collect();
    let distinct = !options.keep_distinct
        && (spider::tokens::has_aggregate_distinct(&example.gold)
            || predictions
                .iter()
                .any(|p| spider::tokens::has_aggregate_distinct(p)));
    let corrected = |query: &str| {
        let text = spider::postprocess(query);
        let text = if distinct {
            spider::tokens::remove_distinct_outside_aggregates(&text)
        } else if options.keep_distinct {
            text
        } else {
            spider::tokens::remove_distinct(&text)
        };
        spider::replace_cur_year(&text)
    };
    let gold = if distinct {
        corrected(&example.gold)
    } else {
        gold_run.to_string()
    };
    let predictions: Vec<String> = predictions.iter().map(|p| corrected(p)).collect();
    let mut checks = Vec::new();
    if distinct {
        checks.push(StrictCheck {
            purpose: CheckPurpose::StrictDistinct,
            gold: gold.clone(),
            predictions: predictions.clone(),
            rule: Rule::Spider {
                order_matters: spider::order_matters(&gold),
            },
        });
    }
    if let Some(ranked) = spider::ties::ranked_gold(&gold) {
        checks.push(StrictCheck {
            purpose: CheckPurpose::StrictTies,
            gold: ranked.sql,
            predictions,
            rule: Rule::SpiderTies {
                limit: ranked.limit,
            },
        });
    }
    checks
}
