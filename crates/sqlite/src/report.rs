//! What an equivalence check reports, as data: the page shows it and the command line prints
//! it. No SQLite here, so the page's main bundle can hold these without the database engine.

use std::collections::BTreeMap;

use qeval_core::{Metric, Mode, SqlDialect};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum SchemaSource {
    Inferred,
    Written,
    Database,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum EquivalenceVerdict {
    /// Same results on every generated database.
    Equivalent,
    /// Different only when a key-like column holds NULLs or duplicates.
    EquivalentUnderAssumption,
    /// A database where the results differ.
    Different,
    /// The check could not run (a query does not parse or run on the schema).
    NoVerdict,
}

/// A constraint that, if the real database has it, makes the queries equivalent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Assumption {
    /// In plain words: "`singer.singer_id` is never NULL".
    pub text: String,
    /// The inferred schema with the constraint added, to copy into the schema editor.
    pub schema: String,
    /// When the assumption is also about the engine (its `AVG` of whole numbers is a whole
    /// number): the dialect whose engine has it, to check the pair in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<SqlDialect>,
}

impl Assumption {
    /// Why the assumption is stated beside the verdict *different* rather than assumed.
    pub fn why_not_assumed(&self) -> &'static str {
        if self.dialect.is_some() {
            "most engines' `AVG` of whole numbers is a fraction, so that is not assumed: check in SQL Server's dialect if the queries run there"
        } else {
            "a column that is neither a key nor joined to another table is not assumed never NULL: state it in the schema if your data has it"
        }
    }
}

/// A table of a counterexample, or a query's result on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ShownTable {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

/// What one query gave on the counterexample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ShownResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// Indexes of rows with no equal row in the other query's result.
    pub unmatched: Vec<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The smallest database found on which the queries differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Counterexample {
    /// 1-based: which generated database it was shrunk from.
    pub database: usize,
    pub tables: Vec<ShownTable>,
    pub expected: ShownResult,
    pub generated: ShownResult,
    /// `CREATE TABLE` and `INSERT` statements that rebuild it.
    pub script: String,
}

/// What the boundary search did once every generated database agreed: it builds more databases
/// from them, each a few edits away, aimed at the boundaries of the queries' comparisons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct BoundarySearch {
    /// Candidates it may build ([`BoundarySearch::DEFAULT_TRIES`] unless `--search` says).
    pub tries: usize,
    /// Candidates it built and ran both queries on.
    pub tried: usize,
    /// The candidate (1-based, counted among `tries`) the results differ on, when one did: the
    /// counterexample was shrunk from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_at: Option<usize>,
    /// Whether the pair's time budget stopped it before `tries`.
    pub stopped: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct EquivalenceReport {
    pub verdict: EquivalenceVerdict,
    pub schema_source: SchemaSource,
    /// The schema used, as `CREATE TABLE` statements.
    pub schema: String,
    /// What the inference had to guess.
    pub notes: Vec<String>,
    pub databases: usize,
    /// Databases checked in agreement (the check stops at the first difference).
    pub agreed: usize,
    pub seed: u64,
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumption: Option<Assumption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
    /// The counterexample's database number and both results: the shape test-suite checking
    /// reported before counterexamples were shrunk (kept, since scorecard JSON only grows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<Value>,
    /// Why there is no verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the two queries are provably equivalent, beyond the generated databases' evidence:
    /// only for select-project-join queries that are the same query up to renaming, or both
    /// `DISTINCT` and each contained in the other (`qeval_core::spj_proof`), under a mode that
    /// ignores row order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The boundary search, when it ran: after every generated database agreed, and no proof.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<BoundarySearch>,
}

impl EquivalenceReport {
    pub fn explanation(&self) -> String {
        let of = format!("{} generated databases, seed {}", self.databases, self.seed);
        match self.verdict {
            EquivalenceVerdict::Equivalent => match &self.proof {
                Some(proof) => format!(
                    "Proved equivalent: {proof}; the {} generated databases agree too (seed {})",
                    self.databases, self.seed
                ),
                None => format!(
                    "Same results on all {} generated databases{} (seed {}); agreement on generated databases is strong evidence, not a proof",
                    self.databases,
                    self.search
                        .as_ref()
                        .map_or(String::new(), BoundarySearch::agreed),
                    self.seed
                ),
            },
            EquivalenceVerdict::EquivalentUnderAssumption => format!(
                "Equivalent if {}: the results differ only when that does not hold ({of})",
                self.assumption.as_ref().map_or("", |a| a.text.as_str())
            ),
            EquivalenceVerdict::Different => {
                let which = self.counterexample.as_ref().map_or(0, |c| c.database);
                let detail = self.counterexample.as_ref().map(|c| {
                    let (e, g) = (&c.expected, &c.generated);
                    match (&e.error, &g.error) {
                        (_, Some(error)) => format!(": the generated query fails there ({error})"),
                        (Some(error), None) => {
                            format!(": the expected query fails there ({error})")
                        }
                        _ if e.rows.len() != g.rows.len() => format!(
                            ": the expected query returns {}, the generated one {}",
                            rows_text(e.rows.len()),
                            rows_text(g.rows.len())
                        ),
                        _ if e.rows != g.rows && unmatched(&e.rows, &g.rows).is_empty() => {
                            format!(
                                ": both return the same {} in a different order",
                                rows_text(e.rows.len())
                            )
                        }
                        _ => format!(
                            ": both return {}, with different values",
                            rows_text(e.rows.len())
                        ),
                    }
                });
                let found = self
                    .search
                    .as_ref()
                    .and_then(|s| s.found_at.map(|at| (at, s.tries)));
                let different = match found {
                    Some((at, tries)) => format!(
                        "Different results on a database the boundary search built from generated database {which} (candidate {at} of {tries}; {} generated databases agreed, seed {}){}",
                        self.databases,
                        self.seed,
                        detail.unwrap_or_default()
                    ),
                    None => format!(
                        "Different results on generated database {which} of {} (seed {}){}",
                        self.databases,
                        self.seed,
                        detail.unwrap_or_default()
                    ),
                };
                match &self.assumption {
                    // Stated, not assumed: see `assumption::StatedAssumption::assumed`.
                    Some(assumption) => format!(
                        "{different}; they agree if {} ({})",
                        assumption.text,
                        assumption.why_not_assumed()
                    ),
                    None => different,
                }
            }
            EquivalenceVerdict::NoVerdict => format!(
                "No verdict: {}",
                self.reason.as_deref().unwrap_or("the check could not run")
            ),
        }
    }

    /// The report as a scorecard metric: 1.0 equivalent (also under a stated assumption), 0.0
    /// different, no score without a verdict.
    pub fn metric(&self) -> Metric {
        let (score, passed) = match self.verdict {
            EquivalenceVerdict::Equivalent | EquivalenceVerdict::EquivalentUnderAssumption => {
                (Some(1.0), Some(true))
            }
            EquivalenceVerdict::Different => (Some(0.0), Some(false)),
            EquivalenceVerdict::NoVerdict => (None, None),
        };
        Metric {
            score,
            passed,
            explanation: self.explanation(),
            details: serde_json::to_value(self).unwrap_or_default(),
            error: None,
        }
    }
}

impl BoundarySearch {
    /// Candidates the search may build by default: enough to reach every boundary of the
    /// labelled boundary class at every seed tried, about 75 ms for a typical pair natively.
    pub const DEFAULT_TRIES: usize = 200;
    /// The most it may be asked for.
    pub const MAX_TRIES: usize = 10_000;

    /// What an agreeing search adds to the explanation.
    fn agreed(&self) -> String {
        let stopped = if self.stopped {
            " before the time budget ran out"
        } else {
            ""
        };
        format!(
            " and on the {} more the boundary search built from them{stopped}",
            self.tried
        )
    }
}

fn rows_text(n: usize) -> String {
    if n == 1 {
        "1 row".into()
    } else {
        format!("{n} rows")
    }
}

/// Rows of `rows` with no equal row left in `other` (a row's values compared as a multiset, so
/// a column order difference does not mark every row).
pub(crate) fn unmatched(rows: &[Vec<Value>], other: &[Vec<Value>]) -> Vec<usize> {
    let key = |row: &Vec<Value>| {
        let mut values: Vec<String> = row
            .iter()
            .map(|v| match v {
                Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), |x| format!("{x}")),
                other => other.to_string(),
            })
            .collect();
        values.sort();
        values
    };
    let mut left: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for row in other {
        *left.entry(key(row)).or_default() += 1;
    }
    rows.iter()
        .enumerate()
        .filter_map(|(i, row)| match left.get_mut(&key(row)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                None
            }
            _ => Some(i),
        })
        .collect()
}
