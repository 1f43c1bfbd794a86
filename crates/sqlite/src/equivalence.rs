//! Are two queries equivalent? Test-suite checking (Zhong et al.'s method, as in Spider's
//! test-suite evaluation): generate many small databases for their schema, run both queries on
//! each, and compare the results. One database where they differ proves them different, and is
//! shrunk to a few rows to show why; agreement on all of them is strong evidence, not a proof.
//!
//! The schema is the loaded database's, one the user wrote, or, when there is neither, inferred
//! from the two queries. An inferred schema states no constraint, so when the queries differ
//! only through NULLs or duplicates in a key-like column (`id`, `..._id`, a join key), the
//! verdict says so and names the constraint that would make them equivalent.

use qeval_core::{
    CompareOptions, Mode, ParseLimits, ProofKind, Schema, SqlDialect, compare_results, counted,
    hints_for_schema, infer_schema, orders_its_output, parse_sql, read_result, to_sqlite,
    to_sqlite_whole_average,
};
use serde_json::{Value, json};

use crate::assumption::{StatedAssumption, Witness, find_assumption};
use crate::database::{Database, Limits, Validated};
use crate::generate::{Cell, KnownValues, Plan, TestDatabase, generate};
use crate::output::QueryOutput;
use crate::report::{
    BoundarySearch, Counterexample, EquivalenceReport, EquivalenceVerdict, SchemaSource,
    ShownResult, ShownTable, unmatched,
};
use crate::search::{Searched, Tried, search};

/// How the check runs. `Default` gives the documented defaults.
#[derive(Debug, Clone, Copy)]
pub struct EquivalenceOptions {
    /// Databases to generate (K).
    pub databases: usize,
    pub seed: u64,
    /// How results are compared; order counts when the expected query has `ORDER BY`.
    pub mode: Mode,
    /// The dialect both queries are written in.
    pub dialect: SqlDialect,
    /// Rows per table in an ordinary generated database, at most.
    pub max_rows: usize,
    pub limits: Limits,
    /// Databases the boundary search may build once all `databases` agree (`search.rs`); 0
    /// turns it off.
    pub search: usize,
    /// Milliseconds the whole check of one pair may take (each query also keeps its own
    /// `limits.time_ms`): past it the check ends with no verdict and says so.
    pub budget_ms: f64,
    /// Told (databases checked, databases in all) after each generated database, for a
    /// progress display. Not told while an assumption is looked for.
    pub progress: Option<fn(usize, usize)>,
}

impl Default for EquivalenceOptions {
    fn default() -> Self {
        EquivalenceOptions {
            databases: 40,
            seed: 1,
            mode: Mode::Bag,
            dialect: SqlDialect::Generic,
            max_rows: 8,
            search: BoundarySearch::DEFAULT_TRIES,
            limits: Limits {
                time_ms: 2_000.0,
                max_rows: 10_000,
                ..Limits::default()
            },
            budget_ms: 10_000.0,
            progress: None,
        }
    }
}

/// The `equivalence` metric `qeval score` gives each pair without a database: both queries on
/// databases generated from `schema` (or from one inferred from the queries).
#[derive(Debug, Clone, PartialEq)]
pub struct PairCheck {
    /// `CREATE TABLE` statements; `None`: inferred from the two queries.
    pub schema: Option<String>,
    pub databases: usize,
    pub seed: u64,
    /// Milliseconds the check of one pair may take in all (see [`EquivalenceOptions`]).
    pub budget_ms: f64,
    /// Boundary-search candidates (see [`EquivalenceOptions`]).
    pub search: usize,
}

impl Default for PairCheck {
    fn default() -> Self {
        let defaults = EquivalenceOptions::default();
        PairCheck {
            schema: None,
            databases: defaults.databases,
            seed: defaults.seed,
            budget_ms: defaults.budget_ms,
            search: defaults.search,
        }
    }
}

impl PairCheck {
    /// The most generated databases one check may ask for: more says nothing new and costs
    /// minutes.
    pub const MAX_DATABASES: usize = 1_000;

    /// The metric for a pair with an expected and a generated SQL query; `None` otherwise (KQL
    /// pairs, pairs with only expected tables or results).
    pub fn metric(
        &self,
        pair: &qeval_core::PairInput,
        options: &qeval_core::ScoreOptions,
    ) -> Option<qeval_core::Metric> {
        let expected = pair.expected_sql.as_deref()?;
        if pair.language.unwrap_or(options.language) != qeval_core::Language::Sql
            || pair.generated_sql.trim().is_empty()
        {
            return None;
        }
        let check = EquivalenceOptions {
            databases: self.databases,
            seed: self.seed,
            budget_ms: self.budget_ms,
            search: self.search,
            ..EquivalenceOptions::default()
        }
        .for_pair(pair, options);
        // The pair's own schema before the run's; names only (JSON) say nothing of types and
        // keys, so they leave the schema to inference and serve schema validity alone.
        let written = [pair.schema.as_deref(), self.schema.as_deref()]
            .into_iter()
            .flatten()
            .find(|text| !is_names_only(text));
        let schema = match written {
            Some(text) => SchemaChoice::Written(text),
            None => SchemaChoice::Infer,
        };
        Some(check_equivalence(expected, &pair.generated_sql, schema, &check).metric())
    }
}

/// A schema given as table and column names (JSON) rather than `CREATE TABLE` statements.
fn is_names_only(schema: &str) -> bool {
    schema.trim_start().starts_with(['{', '['])
}

impl EquivalenceOptions {
    /// These options for one pair: its comparison mode (else the run's, else bag) and its
    /// dialect (else the run's).
    fn for_pair(
        self,
        pair: &qeval_core::PairInput,
        options: &qeval_core::ScoreOptions,
    ) -> EquivalenceOptions {
        EquivalenceOptions {
            mode: pair.mode.or(options.mode).unwrap_or(Mode::Bag),
            dialect: pair.dialect.unwrap_or(options.dialect),
            ..self
        }
    }
}

/// The `test_suite` metric of one test of a run (`qeval run --db --suite N`): both queries on
/// `suite.databases` databases generated from `database`'s schema. `None` when test-suite
/// checking does not apply to the pair (`qeval_core::suite_queries`).
pub fn suite_metric(
    database: &mut Database,
    pair: &qeval_core::PairInput,
    options: &qeval_core::ScoreOptions,
    suite: &EquivalenceOptions,
) -> Option<qeval_core::Metric> {
    let (expected, generated) = qeval_core::suite_queries(pair)?;
    let check = suite.for_pair(pair, options);
    Some(
        check_equivalence(
            expected,
            generated,
            SchemaChoice::Database(database),
            &check,
        )
        .metric(),
    )
}

/// Where the schema comes from.
pub enum SchemaChoice<'a> {
    /// Inferred from the two queries.
    Infer,
    /// `CREATE TABLE` statements the user wrote or edited.
    Written(&'a str),
    /// A loaded database: its schema, constraints and values.
    Database(&'a mut Database),
}

impl EquivalenceReport {
    fn no_verdict(
        reason: String,
        source: SchemaSource,
        options: &EquivalenceOptions,
    ) -> EquivalenceReport {
        EquivalenceReport {
            verdict: EquivalenceVerdict::NoVerdict,
            reason: Some(reason),
            ..EquivalenceReport::start(source, String::new(), Vec::new(), options)
        }
    }

    /// A report before any database was checked.
    fn start(
        source: SchemaSource,
        schema: String,
        notes: Vec<String>,
        options: &EquivalenceOptions,
    ) -> EquivalenceReport {
        EquivalenceReport {
            verdict: EquivalenceVerdict::Equivalent,
            schema_source: source,
            schema,
            notes,
            databases: options.databases,
            agreed: 0,
            seed: options.seed,
            mode: options.mode,
            assumption: None,
            counterexample: None,
            first_difference: None,
            reason: None,
            proof: None,
            search: None,
        }
    }
}

/// Checks two queries for equivalence on generated databases.
pub fn check_equivalence(
    expected: &str,
    generated: &str,
    schema: SchemaChoice<'_>,
    options: &EquivalenceOptions,
) -> EquivalenceReport {
    let source = match &schema {
        SchemaChoice::Infer => SchemaSource::Inferred,
        SchemaChoice::Written(_) => SchemaSource::Written,
        SchemaChoice::Database(_) => SchemaSource::Database,
    };
    let limits = ParseLimits::default();
    let parsed = |sql: &str, which: &str| {
        parse_sql(sql, options.dialect, limits)
            .map_err(|e| format!("the {which} query could not be parsed: {e}"))
    };
    let (expected_ast, generated_ast) =
        match (parsed(expected, "expected"), parsed(generated, "generated")) {
            (Ok(e), Ok(g)) => (e, g),
            (Err(e), _) | (_, Err(e)) => return EquivalenceReport::no_verdict(e, source, options),
        };
    let runnable = |sql: &str, which: &str| {
        to_sqlite(sql, options.dialect, limits)
            .map_err(|e| format!("the {which} query could not be read: {e}"))
    };
    let (expected_sql, generated_sql) = match (
        runnable(expected, "expected"),
        runnable(generated, "generated"),
    ) {
        (Ok(e), Ok(g)) => (e, g),
        (Err(e), _) | (_, Err(e)) => return EquivalenceReport::no_verdict(e, source, options),
    };
    let mut unnamed = Vec::new();
    let (schema, hints, notes, known) = match schema {
        SchemaChoice::Infer => match infer_schema(&expected_ast, &generated_ast) {
            Ok(inference) => {
                unnamed = inference.unnamed_columns;
                (
                    inference.schema,
                    inference.hints,
                    inference.notes,
                    Vec::new(),
                )
            }
            Err(e) => {
                return EquivalenceReport::no_verdict(
                    format!("no schema could be inferred: {e}"),
                    source,
                    options,
                );
            }
        },
        SchemaChoice::Written(text) => match Schema::from_sql(text, SqlDialect::Sqlite) {
            Ok(schema) => {
                let hints = hints_for_schema(&schema, &expected_ast, &generated_ast);
                (schema, hints, Vec::new(), Vec::new())
            }
            Err(e) => {
                return EquivalenceReport::no_verdict(
                    format!("the schema could not be read: {e}"),
                    source,
                    options,
                );
            }
        },
        SchemaChoice::Database(db) => {
            match Schema::from_sql(&db.schema_sql().join(";\n"), SqlDialect::Sqlite) {
                Ok(schema) => {
                    let hints = hints_for_schema(&schema, &expected_ast, &generated_ast);
                    let known = known_values(db, &schema, &options.limits);
                    (schema, hints, Vec::new(), known)
                }
                Err(e) => {
                    return EquivalenceReport::no_verdict(
                        format!("the database's schema could not be read: {e}"),
                        source,
                        options,
                    );
                }
            }
        }
    };
    let check = CheckState {
        expected: Validated::check(&expected_sql),
        generated: Validated::check(&generated_sql),
        compare: CompareOptions {
            mode: options.mode,
            order_matters: orders_its_output(&expected_ast),
            ..CompareOptions::default()
        },
        limits: options.limits,
        // A written or loaded schema is the truth: a generated query that cannot run on it is
        // wrong. An inferred one is a guess: a query failing on it proves nothing.
        generated_failure_differs: source != SchemaSource::Inferred,
        deadline_ms: (options.limits.now)() + options.budget_ms,
        budget_ms: options.budget_ms,
        rows_seen: std::cell::Cell::new(false),
    };
    let mut report = EquivalenceReport::start(source, schema.to_sql(), notes, options);
    let plan = Plan {
        seed: options.seed,
        databases: options.databases,
        max_rows: options.max_rows,
        fractional: source == SchemaSource::Inferred,
        whole_numbers: Vec::new(),
    };
    let suite = generate(&schema, &hints, &known, &plan);
    let (agreed, outcome) = check.suite(&schema, &suite, options.progress);
    report.agreed = agreed;
    let difference = match outcome {
        SuiteOutcome::Agree => {
            report.proof = proof(expected, generated, options);
            if report.proof.is_some() || options.search == 0 {
                None
            } else {
                let searched = check.search(&schema, &hints, &suite, &plan, options.search);
                report.search = Some(searched.report());
                searched.found.map(|found| (found.database, found.from))
            }
        }
        SuiteOutcome::NoVerdict(reason) => {
            report.verdict = EquivalenceVerdict::NoVerdict;
            report.reason = Some(reason);
            None
        }
        SuiteOutcome::Differ(index) => Some((suite[index].clone(), index + 1)),
    };
    if let Some((database, number)) = difference {
        let shrunk = check.record_difference(&mut report, &schema, &database, number);
        let columns = report.counterexample.as_ref().and_then(|shown| {
            fn ran(result: &ShownResult) -> Option<&[String]> {
                result.error.is_none().then_some(result.columns.as_slice())
            }
            ran(&shown.expected).zip(ran(&shown.generated))
        });
        let witness = Witness {
            database: &shrunk,
            columns,
        };
        if source == SchemaSource::Inferred
            && let Some(found) =
                check.assumption(&schema, &hints, &unnamed, &plan, &witness, options)
        {
            if found.assumed {
                report.verdict = EquivalenceVerdict::EquivalentUnderAssumption;
            }
            report.assumption = Some(found.assumption);
        }
    }
    report
}

/// A proof that the queries are equivalent, where one exists and the mode compares results as
/// multisets or sets: proved queries return the same rows, not always in the same order.
fn proof(expected: &str, generated: &str, options: &EquivalenceOptions) -> Option<String> {
    let order_ignored = matches!(
        options.mode,
        Mode::Bag | Mode::Set | Mode::Seed | Mode::Subset
    );
    if !order_ignored {
        return None;
    }
    let proved = qeval_core::spj_proof(expected, generated, options.dialect)?;
    Some(match proved.kind {
        ProofKind::Isomorphic => format!(
            "both are the same select-project-join query ({}, {}{}) up to aliases, the order of tables and conditions, and the sides of each comparison, so they return the same rows on every database",
            counted(proved.tables, "table"),
            counted(proved.conditions, "condition"),
            if proved.distinct { ", DISTINCT" } else { "" }
        ),
        ProofKind::MutuallyContained => "both are DISTINCT select-project-join queries and each is contained in the other (a mapping of either one's tables onto the other's carries its columns onto the other's and its conditions onto ones that hold there), so they return the same set of rows on every database".to_string(),
    })
}

/// A sample of each column's values in a loaded database, to mix into the generated ones.
fn known_values(db: &mut Database, schema: &Schema, limits: &Limits) -> KnownValues {
    schema
        .tables
        .iter()
        .map(|table| {
            table
                .columns
                .iter()
                .map(|column| {
                    let sql = format!(
                        "SELECT DISTINCT {} FROM {} LIMIT 25",
                        qeval_core::quote_ident(&column.name),
                        qeval_core::quote_ident(&table.name)
                    );
                    db.query(&sql, limits)
                        .map(|out| {
                            out.rows
                                .into_iter()
                                .filter_map(|r| r.into_iter().next())
                                .map(cell_of)
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}

fn cell_of(value: Value) -> Cell {
    match value {
        Value::Null => Cell::Null,
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Cell::Real(n.as_f64().unwrap_or(0.0)), Cell::Int),
        Value::String(s) => Cell::Text(s),
        Value::Bool(b) => Cell::Int(i64::from(b)),
        other => Cell::Text(other.to_string()),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum DatabaseOutcome {
    Agree,
    Differ,
    /// The database could not be built, or the expected query failed on it.
    Unusable(String),
}

enum SuiteOutcome {
    Agree,
    /// Index of the first database where the results differ.
    Differ(usize),
    NoVerdict(String),
}

struct CheckState<'a> {
    expected: Validated<'a>,
    generated: Validated<'a>,
    compare: CompareOptions,
    limits: Limits,
    generated_failure_differs: bool,
    /// When the pair's budget ends, on `limits.now`'s clock.
    deadline_ms: f64,
    budget_ms: f64,
    /// Whether a database the queries agreed on gave them a row to agree on.
    rows_seen: std::cell::Cell<bool>,
}

type Ran = Result<QueryOutput, String>;

impl CheckState<'_> {
    /// The same check of two other texts of the queries.
    fn of_queries<'b>(&self, expected: &'b str, generated: &'b str) -> CheckState<'b> {
        CheckState {
            expected: Validated::check(expected),
            generated: Validated::check(generated),
            compare: self.compare.clone(),
            rows_seen: std::cell::Cell::new(false),
            ..*self
        }
    }

    /// What the queries, different on the inferred `schema`, agree under: constraints of the
    /// data (`assumption.rs`), or else, when either query averages and the dialect does not
    /// say which engine runs it, an engine whose `AVG` of whole numbers is a whole number, with
    /// such constraints or none (Calcite's rewrites of `AVG` into `SUM / COUNT`). `witness`
    /// is the counterexample: whatever is assumed must make the queries agree on it too.
    fn assumption(
        &self,
        schema: &Schema,
        hints: &qeval_core::Hints,
        unnamed: &[(String, String)],
        plan: &Plan,
        witness: &Witness<'_>,
        options: &EquivalenceOptions,
    ) -> Option<StatedAssumption> {
        let doubled = Plan {
            databases: options.databases * 2,
            ..plan.clone()
        };
        let assumed = |check: &CheckState<'_>| {
            find_assumption(schema, hints, unnamed, &doubled, witness, &|c, p, also| {
                check.agrees(c, hints, p, also, options.search)
            })
        };
        if let Some(found) = assumed(self) {
            return Some(found);
        }
        if options.dialect != SqlDialect::Generic {
            return None;
        }
        // Only where the queries average differently (`AVG(n)` in one, `SUM(n) / COUNT(n)` in
        // the other): where both take the same averages, the engine's meaning of `AVG` is not
        // what separates them, and agreeing once it is changed is luck (`HAVING AVG(c) > 2 AND
        // COUNT(b) = 2` against `>= 2`, a refuted literature pair, agreed so at two seeds).
        let whole =
            |sql: &str| to_sqlite_whole_average(sql, options.dialect, ParseLimits::default()).ok();
        let (Some((expected, mut in_expected)), Some((generated, mut in_generated))) =
            (whole(self.expected.sql()), whole(self.generated.sql()))
        else {
            return None;
        };
        for averages in [&mut in_expected, &mut in_generated] {
            averages.iter_mut().for_each(|a| a.make_ascii_lowercase());
            averages.sort();
        }
        if in_expected == in_generated {
            return None;
        }
        let averaged = self.of_queries(&expected, &generated);
        let database = Some(witness.database);
        match averaged.agrees(schema, hints, &doubled, database, options.search) {
            Some(true) => Some(StatedAssumption::whole_average_alone(schema)),
            // No row to agree on is no answer, with constraints or without.
            Some(false) => None,
            None => assumed(&averaged).map(StatedAssumption::with_whole_average),
        }
    }

    /// Whether the queries agree on `also` (the counterexample as it stands on `candidate`), on
    /// a fresh suite generated by `plan` on `candidate` and on the boundary search from it, none
    /// of a loaded database's values: calling a pair equivalent under an assumption needs more
    /// evidence than finding it different. When they agree: whether they returned a row. `also`
    /// may break a constraint SQLite enforces (a repeated key), and then tells nothing.
    fn agrees(
        &self,
        candidate: &Schema,
        hints: &qeval_core::Hints,
        plan: &Plan,
        also: Option<&TestDatabase>,
        tries: usize,
    ) -> Option<bool> {
        self.rows_seen.set(false);
        if also.is_some_and(|db| self.database(candidate, db) == DatabaseOutcome::Differ) {
            return None;
        }
        let suite = generate(candidate, hints, &Vec::new(), plan);
        let agree = matches!(self.suite(candidate, &suite, None).1, SuiteOutcome::Agree)
            && self
                .search(candidate, hints, &suite, plan, tries)
                .found
                .is_none();
        agree.then(|| self.rows_seen.get())
    }

    /// Runs the suite until the first difference. Returns how many agreed, and the outcome.
    fn suite(
        &self,
        schema: &Schema,
        suite: &[TestDatabase],
        progress: Option<fn(usize, usize)>,
    ) -> (usize, SuiteOutcome) {
        for (index, db) in suite.iter().enumerate() {
            let outcome = self.database(schema, db);
            if let Some(progress) = progress {
                progress(index + 1, suite.len());
            }
            match outcome {
                DatabaseOutcome::Agree => {}
                DatabaseOutcome::Differ => return (index, SuiteOutcome::Differ(index)),
                DatabaseOutcome::Unusable(reason) => {
                    return (
                        index,
                        SuiteOutcome::NoVerdict(format!(
                            "{reason} (generated database {} of {})",
                            index + 1,
                            suite.len()
                        )),
                    );
                }
            }
        }
        (suite.len(), SuiteOutcome::Agree)
    }

    /// The verdict *different*: the database shrunk into the counterexample, and both results
    /// on it (also as `first_difference`). Returns the shrunk database.
    fn record_difference(
        &self,
        report: &mut EquivalenceReport,
        schema: &Schema,
        database: &TestDatabase,
        number: usize,
    ) -> TestDatabase {
        report.verdict = EquivalenceVerdict::Different;
        let shrunk = shrink(database, schema, |db| {
            self.database(schema, db) == DatabaseOutcome::Differ
        });
        let counterexample = self.show(schema, &shrunk, number);
        let shown = |r: &ShownResult| match &r.error {
            Some(error) => json!({ "error": error }),
            None => json!({ "columns": r.columns, "rows": r.rows }),
        };
        report.first_difference = Some(json!({
            "database": counterexample.database,
            "expected": shown(&counterexample.expected),
            "generated": shown(&counterexample.generated),
        }));
        report.counterexample = Some(counterexample);
        shrunk
    }

    /// The boundary search from `suite`'s databases (`search.rs`).
    fn search(
        &self,
        schema: &Schema,
        hints: &qeval_core::Hints,
        suite: &[TestDatabase],
        plan: &Plan,
        tries: usize,
    ) -> Searched {
        search(schema, hints, suite, plan, tries, |db| {
            match self.database(schema, db) {
                DatabaseOutcome::Agree => Tried::Agree,
                DatabaseOutcome::Differ => Tried::Differ,
                DatabaseOutcome::Unusable(_) if self.out_of_budget().is_some() => Tried::Stop,
                DatabaseOutcome::Unusable(_) => Tried::Skip,
            }
        })
    }

    /// Runs `query` under its own time limit, and never past the pair's budget.
    fn run(&self, db: &mut Database, query: &Validated<'_>) -> Ran {
        let left = self.deadline_ms - (self.limits.now)();
        let limits = Limits {
            time_ms: self.limits.time_ms.min(left.max(1.0)),
            ..self.limits
        };
        db.query_validated(query, &limits)
            .map_err(|e| e.to_string())
    }

    /// Runs `query` to show its result once the verdict is given: under its own time limit
    /// only.
    fn run_for_display(&self, db: &mut Database, query: &Validated<'_>) -> Ran {
        db.query_validated(query, &self.limits)
            .map_err(|e| e.to_string())
    }

    /// Why the check stops here, once the pair's budget is spent.
    fn out_of_budget(&self) -> Option<DatabaseOutcome> {
        ((self.limits.now)() >= self.deadline_ms).then(|| {
            DatabaseOutcome::Unusable(format!(
                "the check ran out of its {} s for this pair before it could decide",
                self.budget_ms / 1000.0
            ))
        })
    }

    fn database(&self, schema: &Schema, test: &TestDatabase) -> DatabaseOutcome {
        if let Some(spent) = self.out_of_budget() {
            return spent;
        }
        let mut db = match Database::scratch(&test.script(schema)) {
            Ok(db) => db,
            Err(e) => {
                return DatabaseOutcome::Unusable(format!(
                    "a generated database could not be built: {e}"
                ));
            }
        };
        let expected = self.run(&mut db, &self.expected);
        let generated = self.run(&mut db, &self.generated);
        // A query stopped by the budget failed for want of time, not for what it says.
        if let Some(spent) = self.out_of_budget() {
            return spent;
        }
        let expected = match expected {
            Ok(out) => out,
            Err(e) => {
                return DatabaseOutcome::Unusable(format!(
                    "the expected query fails on the schema: {e}"
                ));
            }
        };
        let generated = match generated {
            Ok(out) => out,
            Err(_) if self.generated_failure_differs => return DatabaseOutcome::Differ,
            Err(e) => {
                return DatabaseOutcome::Unusable(format!(
                    "the generated query fails on the inferred schema: {e}"
                ));
            }
        };
        if expected.truncated || generated.truncated {
            let cut = |side: &str, out: &QueryOutput| {
                out.truncated.then(|| {
                    format!(
                        "the {side} query's result was {}",
                        qeval_core::cut_note(out.rows.len())
                    )
                })
            };
            let sides: Vec<String> = [cut("expected", &expected), cut("generated", &generated)]
                .into_iter()
                .flatten()
                .collect();
            return DatabaseOutcome::Unusable(format!(
                "{} (the row limit, --max-rows {}, or 64 MB of values), and a partial result gets no verdict",
                sides.join(" and "),
                self.limits.max_rows
            ));
        }
        if self.same(&expected, &generated) {
            if !expected.rows.is_empty() {
                self.rows_seen.set(true);
            }
            return DatabaseOutcome::Agree;
        }
        // Is the difference one the queries do not determine? Run both again with unordered
        // scans reversed: a result that changes was picked among ties (ORDER BY on equal keys,
        // LIMIT on ties), and either pick is right.
        if db.set_reverse_order(true).is_err() {
            return DatabaseOutcome::Differ;
        }
        let expected_again = self.run(&mut db, &self.expected);
        let generated_again = self.run(&mut db, &self.generated);
        let _ = db.set_reverse_order(false);
        let (Ok(expected_again), Ok(generated_again)) = (expected_again, generated_again) else {
            return DatabaseOutcome::Differ;
        };
        let expected_varies = expected_again.rows != expected.rows;
        let generated_varies = generated_again.rows != generated.rows;
        if !expected_varies && !generated_varies {
            return DatabaseOutcome::Differ;
        }
        if self.compare.order_matters
            && expected_varies
            && self.same_ignoring_order(&expected, &generated)
        {
            return DatabaseOutcome::Agree;
        }
        let agree = [&expected, &expected_again].iter().any(|e| {
            [&generated, &generated_again]
                .iter()
                .any(|g| self.same(e, g))
        });
        if agree {
            DatabaseOutcome::Agree
        } else {
            DatabaseOutcome::Differ
        }
    }

    fn same_with(&self, a: &QueryOutput, b: &QueryOutput, options: &CompareOptions) -> bool {
        match (read_result(&a.to_json()), read_result(&b.to_json())) {
            (Ok(a), Ok(b)) => compare_results(&a, &b, options).equal,
            _ => false,
        }
    }

    fn same(&self, a: &QueryOutput, b: &QueryOutput) -> bool {
        self.same_with(a, b, &self.compare)
    }

    fn same_ignoring_order(&self, a: &QueryOutput, b: &QueryOutput) -> bool {
        let options = CompareOptions {
            order_matters: false,
            ..self.compare.clone()
        };
        self.same_with(a, b, &options)
    }

    /// The counterexample as tables and both results, with unmatched rows marked.
    fn show(&self, schema: &Schema, test: &TestDatabase, database: usize) -> Counterexample {
        let script = test.script(schema);
        let (expected, generated) = match Database::scratch(&script) {
            Ok(mut db) => (
                self.run_for_display(&mut db, &self.expected),
                self.run_for_display(&mut db, &self.generated),
            ),
            Err(e) => (Err(e.to_string()), Err(e.to_string())),
        };
        let shown = |r: &Ran| match r {
            Ok(out) => ShownResult {
                columns: out.columns.clone(),
                rows: out.rows.clone(),
                unmatched: Vec::new(),
                error: None,
            },
            Err(e) => ShownResult {
                columns: Vec::new(),
                rows: Vec::new(),
                unmatched: Vec::new(),
                error: Some(e.clone()),
            },
        };
        let (mut expected, mut generated) = (shown(&expected), shown(&generated));
        expected.unmatched = unmatched(&expected.rows, &generated.rows);
        generated.unmatched = unmatched(&generated.rows, &expected.rows);
        if self.compare.order_matters
            && expected.unmatched.is_empty()
            && generated.unmatched.is_empty()
        {
            // Same rows in another order: mark where the order departs.
            expected.unmatched = (0..expected.rows.len())
                .filter(|i| generated.rows.get(*i) != expected.rows.get(*i))
                .collect();
            generated.unmatched = expected.unmatched.clone();
        }
        Counterexample {
            database,
            tables: schema
                .tables
                .iter()
                .zip(&test.tables)
                .map(|(t, rows)| ShownTable {
                    name: t.name.clone(),
                    columns: t.columns.iter().map(|c| c.name.clone()).collect(),
                    rows: rows
                        .iter()
                        .map(|r| r.iter().map(Cell::json).collect())
                        .collect(),
                })
                .collect(),
            expected,
            generated,
            script,
        }
    }
}

/// Delta debugging: drop rows, in halves then one by one, while the queries still differ.
fn shrink(
    db: &TestDatabase,
    schema: &Schema,
    mut differs: impl FnMut(&TestDatabase) -> bool,
) -> TestDatabase {
    let mut current = db.clone();
    let mut budget = 400usize;
    let mut try_candidate =
        |candidate: TestDatabase, current: &mut TestDatabase, budget: &mut usize| {
            if *budget == 0 || !candidate.keys_resolve(schema) {
                return false;
            }
            *budget -= 1;
            if differs(&candidate) {
                *current = candidate;
                true
            } else {
                false
            }
        };
    loop {
        let before = current.rows();
        for t in 0..current.tables.len() {
            let mut chunk = current.tables[t].len().div_ceil(2).max(1);
            loop {
                let mut start = 0;
                while start < current.tables[t].len() {
                    let mut candidate = current.clone();
                    let end = (start + chunk).min(candidate.tables[t].len());
                    candidate.tables[t].drain(start..end);
                    if !try_candidate(candidate, &mut current, &mut budget) {
                        start += chunk;
                    }
                }
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2);
            }
        }
        if current.rows() == before || budget == 0 {
            break;
        }
    }
    current
}
