//! The one declaration of what a line says about a test: every field of a pairs-file line, of a
//! line of `test-results.jsonl` and of a question, with the other names each is accepted under.
//! `qeval score`, `qeval run`, the page, Node and Python all read lines through [`PairLine::read`],
//! and the JavaScript package's `Pair` type is derived from it.
//!
//! Two names for one field (`generated_sql` and `generated_query`) in one line are refused: the
//! line does not say which it means.

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::{Expected, InputError, PairInput, TestOptions, WorkflowInput};
use crate::datatype::AnswerType;
use crate::fields::{self, Expects, List, read, refuse, refused};
use crate::language::Language;
use crate::metrics::classification::ClassificationInput;
use crate::metrics::workflow::{Expectation, default_always_expected_agents};
use crate::profiles::ProfileName;
use crate::results::compare::Mode;
use crate::sql::SqlDialect;

/// One line about a test, as users write it: a pair to score needs a generated query (or an
/// agent's answer or workflow) and something to score it against; a line of a run needs its
/// test id. Field names are snake_case in files (`generated_sql`); the JavaScript API spells them
/// in camelCase (`generatedSql`) and accepts both.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct PairLine {
    /// Echoed into the scorecard: a string or a number (`test_id` in a run).
    #[serde(alias = "test_id", deserialize_with = "fields::id")]
    #[cfg_attr(
        feature = "json-schema",
        schemars(schema_with = "crate::json_schema::text_or_number")
    )]
    pub id: Option<Value>,
    /// The generated SQL or KQL query.
    #[serde(
        alias = "generated_query",
        alias = "generated_kql",
        alias = "sql",
        deserialize_with = "fields::text"
    )]
    pub generated_sql: Option<String>,
    /// The expected query, or several acceptable ones: the first is the expected query, the rest
    /// alternatives.
    #[serde(
        alias = "expected_query",
        alias = "expected_kql",
        deserialize_with = "fields::one_or_more_texts"
    )]
    #[cfg_attr(
        feature = "json-schema",
        schemars(schema_with = "crate::json_schema::one_or_more_texts")
    )]
    pub expected_sql: Option<Vec<String>>,
    /// Expected table names, when there is no expected query.
    #[serde(deserialize_with = "fields::texts")]
    pub expected_tables: Option<Vec<String>>,
    /// Results in any shape `results::read_result` reads: rows as arrays or objects,
    /// `{columns, rows}`...
    #[serde(alias = "expected_results", deserialize_with = "fields::any")]
    pub expected_result: Option<Value>,
    #[serde(
        alias = "actual_result",
        alias = "actual_results",
        alias = "results",
        deserialize_with = "fields::any"
    )]
    pub generated_result: Option<Value>,
    /// The error the generated query (or the agent) failed with.
    #[serde(alias = "error", deserialize_with = "fields::error_text")]
    #[cfg_attr(feature = "json-schema", schemars(with = "Option<Value>"))]
    pub generated_error: Option<String>,
    /// More acceptable answers, each with its query, its result or both.
    #[serde(deserialize_with = "alternatives")]
    pub expected_alternatives: Vec<Expected>,
    #[serde(deserialize_with = "fields::named")]
    pub dialect: Option<SqlDialect>,
    #[serde(deserialize_with = "fields::named")]
    pub language: Option<Language>,
    #[serde(deserialize_with = "fields::named")]
    pub profile: Option<ProfileName>,
    #[serde(deserialize_with = "fields::named")]
    pub mode: Option<Mode>,
    /// How far apart two numbers may be and still be equal.
    #[serde(deserialize_with = "fields::tolerance")]
    pub tolerance: Option<f64>,
    #[serde(deserialize_with = "fields::flag")]
    pub ignore_order: Option<bool>,
    /// Only these columns (0-based) of the expected result are compared.
    #[serde(deserialize_with = "fields::positions")]
    pub condition_cols: Option<Vec<usize>>,
    /// The question asked, for the LLM judge and the `defog` mode (order, sort, arrange).
    #[serde(deserialize_with = "fields::text")]
    pub question: Option<String>,
    /// defog sql-eval's `query_category`: `order_by` keeps the rows' order in the `defog` mode.
    #[serde(deserialize_with = "fields::text")]
    pub query_category: Option<String>,
    /// `CREATE TABLE` statements, for schema validity and the equivalence check.
    #[serde(deserialize_with = "fields::text")]
    pub schema: Option<String>,
    /// The type the answer should have (`table`, `number`, `date`...).
    #[serde(deserialize_with = "fields::named")]
    #[cfg_attr(feature = "json-schema", schemars(with = "Option<String>"))]
    pub expected_answer_type: Option<AnswerType>,
    /// An agent's final answer.
    #[serde(
        alias = "response",
        alias = "final_answer",
        deserialize_with = "fields::answer"
    )]
    pub answer: Option<String>,
    /// What a complete answer covers.
    #[serde(deserialize_with = "fields::text")]
    pub expected_answer_criteria: Option<String>,
    /// The correct answer, in a run: a judge checks an agent's answer against it.
    #[serde(deserialize_with = "fields::any")]
    pub expected_answer: Option<Value>,
    /// The sources the answer may rely on: one string, or a list (one per line).
    #[serde(deserialize_with = "fields::one_or_more_texts")]
    #[cfg_attr(
        feature = "json-schema",
        schemars(schema_with = "crate::json_schema::one_or_more_texts")
    )]
    pub sources: Option<Vec<String>>,
    /// Which agents and tools were called, and which the scenario expects.
    #[serde(deserialize_with = "fields::texts")]
    pub agents_called: Option<Vec<String>>,
    #[serde(deserialize_with = "fields::texts")]
    pub tools_used: Option<Vec<String>>,
    #[serde(deserialize_with = "fields::texts")]
    pub agents_should_include: Option<Vec<String>>,
    #[serde(deserialize_with = "fields::texts")]
    pub agents_should_exclude: Option<Vec<String>>,
    #[serde(deserialize_with = "fields::texts")]
    pub tools_should_include: Option<Vec<String>>,
    #[serde(deserialize_with = "fields::texts")]
    pub tools_should_exclude: Option<Vec<String>>,
    /// SQLite's virtual machine steps for each query, when they ran on a database.
    #[serde(deserialize_with = "fields::steps")]
    pub expected_vm_steps: Option<u64>,
    #[serde(deserialize_with = "fields::steps")]
    pub generated_vm_steps: Option<u64>,
    /// A person's verdict (true/false, correct/incorrect...), compared with the judges'.
    #[serde(alias = "label", deserialize_with = "fields::label")]
    #[cfg_attr(
        feature = "json-schema",
        schemars(schema_with = "crate::json_schema::verdict_label")
    )]
    pub human_label: Option<bool>,
    /// The trace the scores belong to in an observability tool (Langfuse); `session_id` is used
    /// when there is none.
    #[serde(deserialize_with = "fields::text")]
    pub trace_id: Option<String>,
    #[serde(deserialize_with = "fields::text")]
    pub session_id: Option<String>,
    /// In a run: the agent that answered, and the test's difficulty.
    #[serde(alias = "agent", deserialize_with = "fields::text")]
    pub agent_used: Option<String>,
    #[serde(deserialize_with = "fields::text")]
    pub difficulty: Option<String>,
}

impl PairLine {
    /// Reads a line's fields from its JSON object, and its classification fields (which
    /// [`ClassificationInput`] declares); the error names the field as the line spells it.
    pub fn read(
        object: &Map<String, Value>,
    ) -> Result<(PairLine, ClassificationInput), InputError> {
        let line = read(object)?;
        let classification = read(object)?;
        Ok((line, classification))
    }

    /// Every name a line's fields are read under, aliases included.
    pub fn names() -> &'static [&'static str] {
        crate::fields::names_of::<PairLine>()
    }

    /// The expected query, the expected result and the further acceptable answers, as a line
    /// gives them: when only alternatives are given, the first is the expectation.
    pub fn expectation(&self) -> (Option<String>, Option<Value>, Vec<Expected>) {
        let mut queries = self.expected_sql.clone().unwrap_or_default().into_iter();
        let mut sql = queries.next();
        let mut alternatives: Vec<Expected> = queries
            .map(|query| Expected {
                expected_sql: Some(query),
                expected_result: None,
            })
            .collect();
        alternatives.extend(self.expected_alternatives.iter().cloned());
        let mut result = self.expected_result.clone();
        if sql.is_none() && result.is_none() && !alternatives.is_empty() {
            let first = alternatives.remove(0);
            sql = first.expected_sql;
            result = first.expected_result;
        }
        (sql, result, alternatives)
    }

    /// The line's comparison options.
    pub fn options(&self) -> TestOptions {
        TestOptions {
            mode: self.mode,
            ignore_order: self.ignore_order,
            tolerance: self.tolerance,
            condition_cols: self.condition_cols.clone(),
        }
    }

    /// The workflow fields, when any is given. `orchestrator` is always an expected agent.
    pub fn workflow(&self) -> Option<WorkflowInput> {
        let lists = [
            &self.agents_called,
            &self.tools_used,
            &self.agents_should_include,
            &self.agents_should_exclude,
            &self.tools_should_include,
            &self.tools_should_exclude,
        ];
        if lists.iter().all(|list| list.is_none()) {
            return None;
        }
        let list = |list: &Option<Vec<String>>| list.clone().unwrap_or_default();
        Some(WorkflowInput {
            agents_called: list(&self.agents_called),
            tools_used: list(&self.tools_used),
            agents: Expectation {
                should_include: list(&self.agents_should_include),
                should_exclude: list(&self.agents_should_exclude),
                always_expected: default_always_expected_agents(),
            },
            tools: Expectation {
                should_include: list(&self.tools_should_include),
                should_exclude: list(&self.tools_should_exclude),
                always_expected: Vec::new(),
            },
        })
    }

    /// The pair a pairs-file line asks to score. It needs a generated query (or an agent's
    /// answer or workflow) and something to score it against.
    pub fn into_pair(self, classification: ClassificationInput) -> Result<PairInput, InputError> {
        let workflow = self.workflow();
        let judged_as_agent = self.answer.is_some() || workflow.is_some();
        let (expected_sql, expected_result, alternatives) = self.expectation();
        let generated_sql = match self.generated_sql {
            Some(sql) => sql,
            // An agent's record may have an answer and no query.
            None if judged_as_agent => String::new(),
            None => return Err(InputError::field("generated_sql", "is missing")),
        };
        if expected_sql.is_none()
            && self.expected_tables.is_none()
            && expected_result.is_none()
            && !judged_as_agent
        {
            return Err(InputError::field(
                "expected_sql",
                "is missing (give expected_sql, expected_tables or expected_result; or an agent's answer or workflow)",
            ));
        }
        Ok(PairInput {
            id: self.id,
            generated_sql,
            expected_sql,
            expected_tables: self.expected_tables,
            dialect: self.dialect,
            language: self.language,
            question: self.question,
            query_category: self.query_category,
            expected_result,
            generated_result: self.generated_result,
            expected_answer_type: self.expected_answer_type,
            generated_error: self.generated_error,
            expected_error: None,
            expected_cut: None,
            generated_cut: None,
            profile: self.profile,
            mode: self.mode,
            ignore_order: self.ignore_order,
            tolerance: self.tolerance,
            condition_cols: self.condition_cols,
            trace_id: self.trace_id.or(self.session_id),
            answer: self.answer,
            answer_criteria: self.expected_answer_criteria,
            sources: self.sources.map(|sources| sources.join("\n")),
            workflow,
            classification,
            expected_vm_steps: self.expected_vm_steps,
            generated_vm_steps: self.generated_vm_steps,
            alternatives,
            schema: self.schema,
            human_label: self.human_label,
        })
    }
}

/// Further acceptable answers: `{"expected_sql", "expected_result"}` objects.
fn alternatives<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Expected>, D::Error> {
    d.deserialize_any(List::new("a list of objects", Alternative))
        .map(Option::unwrap_or_default)
}

/// One acceptable answer; the inner fields are read by `Expected`'s own `deserialize_with`s, so
/// a refused one is named (`expected_alternatives[0].expected_sql`).
#[derive(Clone, Copy)]
struct Alternative;

impl<'de> DeserializeSeed<'de> for Alternative {
    type Value = Expected;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Expected, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Alternative {
    type Value = Expected;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.expected())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Expected, A::Error> {
        let alternative = Expected::deserialize(de::value::MapAccessDeserializer::new(map))?;
        if alternative.expected_sql.is_none() && alternative.expected_result.is_none() {
            return Err(de::Error::custom(
                "gives neither expected_sql nor expected_result",
            ));
        }
        Ok(alternative)
    }
    refuse!(unit, bool, numbers, str, seq);
}

impl Expects for Alternative {
    fn expected(&self) -> &'static str {
        "an object with expected_sql or expected_result"
    }
}
