//! Spider 2.0 in the run pipeline. The instances scored are those with both a line in the gold
//! configuration and a prediction file (`eval_ids`, as the official script takes them). In
//! `exec_result` mode nothing runs: each predicted CSV is compared with its gold CSVs. In `sql`
//! mode each local instance's query runs on its SQLite database through a job (`Fill`), and its
//! result is written to CSV and read back as the official script does before the comparison;
//! an instance whose database is in the cloud (BigQuery, Snowflake) is listed as not scored,
//! never scored 0 for want of credentials.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Serialize;

use super::{Benchmark, BenchmarkPipeline, Example, Prepared, StrictRule, StrictVerdict};
use crate::bench::bird::QuestionEntry;
use crate::bench::spider2::write_csv::result_csv;
use crate::bench::spider2::{
    Destination, ErrorKind, FileBytes, GoldFiles, InstanceScore, PredictionForm, RowRule, Standard,
    Variant, extract_sql, score_csv,
};
use crate::pipeline::job::{Fill, Filled, Job, JobPart, Rule};
use crate::pipeline::query::{QueryError, QuerySettings, TextDecoding};

/// `qeval bench spider2`'s options (`evaluate.py`'s flags).
#[derive(Debug, Clone, PartialEq)]
pub struct Spider2Options {
    pub variant: Variant,
    pub mode: PredictionForm,
    /// `--strict`: qeval's strict verdict beside the official one.
    pub strict: bool,
    pub settings: QuerySettings,
}

/// The official script sets no time limit on a query; qeval's default is a day, so that a
/// query that never ends cannot hold a run forever.
pub(crate) const SPIDER2_TIME_LIMIT_MS: f64 = 24.0 * 3600.0 * 1000.0;

impl Default for Spider2Options {
    fn default() -> Self {
        Spider2Options {
            variant: Variant::Lite,
            mode: PredictionForm::ExecResult,
            strict: false,
            settings: QuerySettings {
                time_limit_ms: SPIDER2_TIME_LIMIT_MS,
                max_rows: 1_000_000,
                max_bytes: super::BENCH_MAX_BYTES,
                // `pd.read_sql_query` on a plain `sqlite3` connection: text that is not UTF-8
                // fails the query.
                text: TextDecoding::Strict,
                python_statements: true,
            },
        }
    }
}

/// Spider 2.0's files as the front end read them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spider2Files {
    /// The gold configuration, by instance id.
    pub standards: BTreeMap<String, Standard>,
    /// `sql` mode: each instance's database name (the instance file's `db`).
    pub instances: BTreeMap<String, Option<String>>,
    /// Each instance's gold CSVs and their bytes (only those of the instances scored are
    /// needed).
    pub golds: BTreeMap<String, (GoldFiles, Vec<FileBytes>)>,
    /// The prediction files, by instance id (the file's name without its extension).
    pub predictions: BTreeMap<String, FileBytes>,
}

/// The instances the official script scores: those with a gold line and a prediction, sorted.
pub fn eval_ids<'a>(
    standards: &'a BTreeMap<String, Standard>,
    predictions: impl IntoIterator<Item = &'a String>,
) -> Vec<String> {
    let mut ids: Vec<String> = predictions
        .into_iter()
        .filter(|id| standards.contains_key(*id))
        .cloned()
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// An instance of the run.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Instance {
    pub id: String,
    pub standard: Standard,
    pub gold: GoldFiles,
    pub gold_bytes: Vec<FileBytes>,
    pub prediction: FileBytes,
    pub destination: Destination,
    /// `sql` mode: the instance file's database name.
    pub database: Option<String>,
    /// `sql` mode: the prediction's result, once its job answered.
    pub result: Option<Result<Filled, QueryError>>,
    /// The scores once worked out (a record and the summary both ask for them).
    pub scores: ScoreCache,
}

/// An instance's scores, each worked out once.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct ScoreCache {
    official: OnceLock<Option<Spider2Outcome>>,
    whole_rows: OnceLock<Option<Spider2Outcome>>,
    gold: OnceLock<Option<InstanceScore>>,
}

/// An instance's official score, or why qeval cannot give it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spider2Outcome {
    Scored(InstanceScore),
    /// Not scored (its database is in the cloud, or qeval's time limit stopped it): the
    /// reason. Not counted in "Final score".
    NotScored(String),
}

impl BenchmarkPipeline {
    /// Spider 2.0 from its files; `prediction_file` names the prediction folder.
    /// `databases_of(db)` lists the SQLite file of a database name (`<db>.sqlite`), or says why
    /// there is none.
    pub fn spider2(
        files: Spider2Files,
        prediction_file: String,
        databases_of: &mut dyn FnMut(&str) -> Result<Vec<String>, String>,
        options: Spider2Options,
    ) -> BenchmarkPipeline {
        let ids = eval_ids(&files.standards, files.predictions.keys());
        let mut instances = Vec::with_capacity(ids.len());
        let mut examples = Vec::with_capacity(ids.len());
        for id in ids {
            let destination = Destination::of(&id, options.variant);
            let database = files.instances.get(&id).cloned().flatten();
            let prediction = files
                .predictions
                .get(&id)
                .cloned()
                .unwrap_or_else(|| Err(format!("no prediction file for {id}")));
            let text = prediction
                .as_ref()
                .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
                .unwrap_or_default();
            let runs_here =
                options.mode == PredictionForm::Sql && destination == Destination::Sqlite;
            examples.push(Example {
                db_id: if runs_here {
                    database.clone().unwrap_or_default()
                } else {
                    String::new()
                },
                gold: String::new(),
                gold_line: 0,
                predictions: vec![match options.mode {
                    PredictionForm::Sql => extract_sql(&text).to_string(),
                    PredictionForm::ExecResult => String::new(),
                }],
                hardness: None,
                interaction: 0,
                turn: examples.len(),
                entry: QuestionEntry::default(),
                predicted_db_ids: Vec::new(),
            });
            let (gold, gold_bytes) = files.golds.get(&id).cloned().unwrap_or_else(|| {
                (
                    GoldFiles {
                        names: Vec::new(),
                        single: false,
                    },
                    Vec::new(),
                )
            });
            instances.push(Instance {
                standard: files.standards[&id].clone(),
                id,
                gold,
                gold_bytes,
                prediction,
                destination,
                database,
                result: None,
                scores: ScoreCache::default(),
            });
        }
        let prepared = examples
            .iter()
            .map(|_| Prepared {
                gold: String::new(),
                variants: vec![Vec::new()],
                plug_totals: vec![1],
                rule: Rule::Spider {
                    order_matters: false,
                },
                strict: Vec::new(),
            })
            .collect();
        let mut pipeline = BenchmarkPipeline::new(
            Benchmark::Spider2(options),
            examples,
            vec![prediction_file],
            prepared,
            &mut |db| {
                if db.is_empty() {
                    Ok(Vec::new())
                } else {
                    databases_of(db)
                }
            },
        );
        pipeline.spider2 = instances;
        pipeline
    }

    /// `sql` mode: each local prediction run on its database, a `Fill` of its result.
    pub(super) fn spider2_jobs(&self, options: &Spider2Options, per_job: usize) -> Vec<Job> {
        if options.mode != PredictionForm::Sql {
            return Vec::new();
        }
        let mut by_database: BTreeMap<usize, Vec<JobPart>> = BTreeMap::new();
        for (item, example) in self.examples.iter().enumerate() {
            let Some(&database) = self.slots[item].first() else {
                continue;
            };
            if self.spider2[item].prediction.is_err() {
                continue;
            }
            by_database
                .entry(database)
                .or_default()
                .push(JobPart::Fill(Fill {
                    item,
                    expected: None,
                    alternatives: Vec::new(),
                    generated: Some(example.predictions[0].clone()),
                    settings: options.settings,
                }));
        }
        super::chunked(by_database, per_job)
    }

    /// The official score of instance `item`, or why it is not scored.
    pub fn spider2_outcome(&self, item: usize) -> Option<Spider2Outcome> {
        let scored = &self.spider2.get(item)?.scores;
        scored
            .official
            .get_or_init(|| self.spider2_outcome_by(item, RowRule::ByColumn))
            .clone()
    }

    /// `--strict`: the score with rows held whole, when the official one is given.
    pub(super) fn spider2_strict(&self, item: usize) -> Option<StrictVerdict> {
        match &self.benchmark {
            Benchmark::Spider2(options) if options.strict => {}
            _ => return None,
        }
        let Some(Spider2Outcome::Scored(official)) = self.spider2_outcome(item) else {
            return None;
        };
        let whole_rows = self
            .spider2
            .get(item)?
            .scores
            .whole_rows
            .get_or_init(|| self.spider2_outcome_by(item, RowRule::Whole));
        let Some(Spider2Outcome::Scored(strict)) = whole_rows else {
            return None;
        };
        Some(StrictVerdict {
            passed: strict.score == 1,
            score: f64::from(strict.score),
            changed_by: if strict.score != official.score {
                vec![StrictRule::RowScramble]
            } else {
                Vec::new()
            },
        })
    }

    /// Instance `item`'s score by the rows rule `rows`.
    fn spider2_outcome_by(&self, item: usize, rows: RowRule) -> Option<Spider2Outcome> {
        let Benchmark::Spider2(options) = &self.benchmark else {
            return None;
        };
        let instance = self.spider2.get(item)?;
        let score = |predicted: &FileBytes| {
            Spider2Outcome::Scored(score_csv(
                predicted,
                &instance.gold_bytes,
                instance.gold.single,
                &instance.standard,
                options.variant,
                rows,
            ))
        };
        if options.mode == PredictionForm::ExecResult {
            return Some(score(&instance.prediction));
        }
        let failed =
            |kind, info: String| Some(Spider2Outcome::Scored(InstanceScore::fail(kind, info)));
        match instance.destination {
            Destination::BigQuery => {
                return Some(Spider2Outcome::NotScored(
                    "a BigQuery task: qeval runs the local SQLite tasks only (the official script needs BigQuery credentials)".into(),
                ));
            }
            Destination::Snowflake => {
                return Some(Spider2Outcome::NotScored(
                    "a Snowflake task: qeval runs the local SQLite tasks only (the official script needs Snowflake credentials)".into(),
                ));
            }
            Destination::Unsupported if options.variant == Variant::Snow => {
                return Some(Spider2Outcome::NotScored(
                    "not an sf id: the official -snow script stops with an error on it".into(),
                ));
            }
            Destination::Unsupported => {
                return failed(
                    ErrorKind::UnsupportedPrefix,
                    format!("Unsupported instance id prefix: {}", instance.id),
                );
            }
            Destination::Sqlite => {}
        }
        if let Err(err) = &instance.prediction {
            return failed(
                ErrorKind::EvaluationError,
                format!("Evaluation Error: {err}"),
            );
        }
        let Some(database) = &instance.database else {
            return failed(
                ErrorKind::MissingDatabaseMapping,
                format!("Missing database mapping for {}", instance.id),
            );
        };
        if self.slots[item].is_empty() {
            let why = self.missing.get(database).cloned().unwrap_or_default();
            return failed(
                ErrorKind::ExecutionError,
                format!(
                    "{why} (the official script opens an empty database there, so the query fails with \"no such table\")"
                ),
            );
        }
        match &instance.result {
            None => Some(Spider2Outcome::NotScored("the query was not run".into())),
            Some(Err(QueryError::TimedOut { ms })) => Some(Spider2Outcome::NotScored(format!(
                "interrupted after {:.0} s, qeval's time limit (the official script has none)",
                ms / 1000.0
            ))),
            // pandas' `DatabaseError` names the query: "Execution failed on sql '...': ...".
            Some(Err(QueryError::Failed(message))) => failed(
                ErrorKind::ExecutionError,
                format!(
                    "Execution failed on sql '{}': {message}",
                    self.examples[item].predictions[0]
                ),
            ),
            Some(Err(err)) => failed(ErrorKind::ExecutionError, err.to_string()),
            Some(Ok(filled)) if filled.truncated => Some(Spider2Outcome::NotScored(format!(
                "the result was cut at {} rows (raise --max-rows)",
                options.settings.max_rows
            ))),
            Some(Ok(filled)) => {
                let columns: Vec<String> = filled.result["columns"]
                    .as_array()
                    .map(|c| {
                        c.iter()
                            .map(|c| c.as_str().unwrap_or_default().to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                if columns.is_empty() {
                    // No result set (an empty statement): pandas' `'NoneType' object is not
                    // iterable`.
                    return failed(
                        ErrorKind::ExecutionError,
                        "'NoneType' object is not iterable".into(),
                    );
                }
                let rows: Vec<Vec<serde_json::Value>> = filled.result["rows"]
                    .as_array()
                    .map(|rows| {
                        rows.iter()
                            .map(|row| row.as_array().cloned().unwrap_or_default())
                            .collect()
                    })
                    .unwrap_or_default();
                Some(score(&Ok(result_csv(&columns, &rows).into_bytes())))
            }
        }
    }

    /// The first gold CSV given as the prediction: what bounds the instance (a gold that
    /// fails against itself, or no gold file, cannot pass whatever the prediction).
    pub(super) fn spider2_gold_score(&self, item: usize) -> Option<InstanceScore> {
        let instance = self.spider2.get(item)?;
        instance
            .scores
            .gold
            .get_or_init(|| self.spider2_gold_score_now(item))
            .clone()
    }

    fn spider2_gold_score_now(&self, item: usize) -> Option<InstanceScore> {
        let (Benchmark::Spider2(options), Some(instance)) =
            (&self.benchmark, self.spider2.get(item))
        else {
            return None;
        };
        let first = instance
            .gold_bytes
            .first()
            .cloned()
            .unwrap_or_else(|| Ok(b"gold\n".to_vec()));
        Some(score_csv(
            &first,
            &instance.gold_bytes,
            instance.gold.single,
            &instance.standard,
            options.variant,
            RowRule::ByColumn,
        ))
    }

    /// The instance id of `item`.
    pub fn spider2_id(&self, item: usize) -> Option<&str> {
        self.spider2.get(item).map(|i| i.id.as_str())
    }

    /// The gold files and configuration of `item`, for its record.
    pub(super) fn spider2_instance(&self, item: usize) -> Option<&Instance> {
        self.spider2.get(item)
    }
}
