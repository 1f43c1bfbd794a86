//! The options every entry point accepts, read from a JavaScript object.

use qeval_core::{
    CompareOptions, Mode, Profile, QueryContext, ScoreOptions, SqlDialect, TableMatch,
};
use qeval_sqlite::{
    BoundarySearch, EquivalenceOptions, EquivalenceReport, SchemaChoice, check_equivalence,
};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::error;

/// Options every entry point accepts, all optional.
///
/// Names are read as text, so the error for an unknown one can list the known ones; the
/// TypeScript declaration names the types they must be.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Options {
    /// The SQL dialect, e.g. `"postgres"`; default `"generic"`.
    #[cfg_attr(test, schemars(with = "Option<SqlDialect>"))]
    dialect: Option<String>,
    /// `"sql"` (default) or `"kql"`.
    #[cfg_attr(test, schemars(with = "Option<qeval_core::Language>"))]
    language: Option<String>,
    /// `"name"` (default) or `"qualified"`.
    #[cfg_attr(test, schemars(with = "Option<TableMatch>"))]
    table_match: Option<String>,
    /// A profile name, e.g. `"qas"` (default), `"kql-batch"`.
    #[cfg_attr(test, schemars(with = "Option<qeval_core::ProfileName>"))]
    profile: Option<String>,
    /// A comparison mode, e.g. `"f1"` (default), `"bag"`.
    #[cfg_attr(test, schemars(with = "Option<Mode>"))]
    mode: Option<String>,
    /// Relative tolerance for numbers in result tables.
    tolerance: Option<f64>,
    /// Row order counts (`bag`, `subset`).
    order_matters: Option<bool>,
    ignore_case: Option<bool>,
    /// What the `defog` mode reads beside the results (`compareResults`): the question and its
    /// sql-eval category (the words "order", "sort" or "arrange", or the category `"order_by"`,
    /// keep the queries' row order), and both queries' text (their `ORDER BY`).
    question: Option<String>,
    query_category: Option<String>,
    expected_sql: Option<String>,
    generated_sql: Option<String>,
    /// The equivalence check: generated databases (default 40), their seed (default 1),
    /// `CREATE TABLE` statements to use instead of the inferred schema, and whether `scorePair`
    /// runs it at all (default true, as `qeval score` does without `--db`).
    databases: Option<usize>,
    seed: Option<u64>,
    /// Databases the boundary search may build once the generated ones agree (default 200,
    /// 0: none).
    search: Option<usize>,
    schema: Option<String>,
    pub(crate) equivalence: Option<bool>,
    /// Runs: more fields to give pass rates by (`summarizeRun`), and the run's name in an
    /// export (`exportRun`, default "run").
    pub(crate) by: Option<Vec<String>>,
    pub(crate) name: Option<String>,
}

/// At most this many generated databases per check.
const MAX_DATABASES: usize = 1_000;

impl Options {
    pub(crate) fn read(value: JsValue) -> Result<Options, JsError> {
        if value.is_undefined() || value.is_null() {
            return Ok(Options::default());
        }
        // Through a JSON value, so a misspelt option is an error rather than silently ignored.
        let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
            .map_err(|err| error(format!("options: {err}")))?;
        serde_json::from_value(json).map_err(|err| error(format!("options: {err}")))
    }

    pub(crate) fn score_options(&self) -> Result<ScoreOptions, JsError> {
        let table_match = match self.table_match.as_deref() {
            None | Some("name") => TableMatch::Name,
            Some("qualified") => TableMatch::Qualified,
            Some(other) => {
                return Err(error(format!(
                    "options.tableMatch: expected \"name\" or \"qualified\", found \"{other}\""
                )));
            }
        };
        let defaults = ScoreOptions::default();
        Ok(ScoreOptions {
            dialect: self.dialect()?,
            language: self
                .language
                .as_deref()
                .map_or(Ok(qeval_core::Language::Sql), str::parse)
                .map_err(|err| error(format!("options.language: {err}")))?,
            table_match,
            profile: match self.profile.as_deref() {
                None => defaults.profile.clone(),
                Some(name) => Profile::preset(
                    name.parse()
                        .map_err(|err| error(format!("options.profile: {err}")))?,
                ),
            },
            mode: self.mode()?,
            tolerance: self.tolerance.unwrap_or(defaults.tolerance),
            ignore_case: self.ignore_case.unwrap_or(false),
            ..defaults
        })
    }

    pub(crate) fn mode(&self) -> Result<Option<Mode>, JsError> {
        self.mode
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|err| error(format!("options.mode: {err}")))
    }

    pub(crate) fn compare_options(&self) -> Result<CompareOptions, JsError> {
        let defaults = CompareOptions::default();
        Ok(CompareOptions {
            mode: self.mode()?.unwrap_or_default(),
            tolerance: self.tolerance.unwrap_or(defaults.tolerance),
            order_matters: self.order_matters.unwrap_or(false),
            ignore_case: self.ignore_case.unwrap_or(false),
            query_context: QueryContext {
                question: self.question.clone().unwrap_or_default(),
                query_category: self.query_category.clone().unwrap_or_default(),
                expected_sql: self.expected_sql.clone(),
                generated_sql: self.generated_sql.clone(),
            },
            ..defaults
        })
    }

    pub(crate) fn equivalence_options(
        &self,
        dialect: SqlDialect,
        mode: Option<Mode>,
    ) -> Result<EquivalenceOptions, JsError> {
        let defaults = EquivalenceOptions::default();
        let databases = self.databases.unwrap_or(defaults.databases);
        if databases == 0 || databases > MAX_DATABASES {
            return Err(error(format!(
                "options.databases: expected 1 to {MAX_DATABASES}, found {databases}"
            )));
        }
        let search = self.search.unwrap_or(defaults.search);
        if search > BoundarySearch::MAX_TRIES {
            return Err(error(format!(
                "options.search: expected 0 to {}, found {search}",
                BoundarySearch::MAX_TRIES
            )));
        }
        Ok(EquivalenceOptions {
            databases,
            seed: self.seed.unwrap_or(defaults.seed),
            search,
            mode: mode.unwrap_or(Mode::Bag),
            dialect,
            ..defaults
        })
    }

    pub(crate) fn check(
        &self,
        expected: &str,
        generated: &str,
        options: &EquivalenceOptions,
    ) -> EquivalenceReport {
        let schema = match self.schema.as_deref() {
            Some(text) if !text.trim().is_empty() => SchemaChoice::Written(text),
            _ => SchemaChoice::Infer,
        };
        check_equivalence(expected, generated, schema, options)
    }

    pub(crate) fn dialect(&self) -> Result<SqlDialect, JsError> {
        self.dialect
            .as_deref()
            .map_or(Ok(SqlDialect::Generic), str::parse)
            .map_err(|err| error(format!("options.dialect: {err}")))
    }
}
