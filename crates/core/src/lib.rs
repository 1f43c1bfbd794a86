//! qeval-core: scores LLM-generated queries against expected ones.
//!
//! Pure functions only: no I/O, no clock, no threads, no web dependencies. The same code runs in
//! the `qeval` command line, in the browser and under Node, so the same input gives the same
//! scorecard everywhere. Malformed input never panics: it becomes a diagnostic in the scorecard.

#![warn(unreachable_pub)]

mod analysis;
mod bench;
mod datatype;
mod escape;
mod execution_similarity;
mod fields;
#[cfg(feature = "json-schema")]
mod json_schema;
mod judge;
mod kql;
mod language;
mod metric;
mod metrics;
mod pairs;
mod pipeline;
mod profiles;
mod random;
mod results;
mod run;
mod score;
mod scorecard;
mod sql;
mod words;

// The façade: everything the other crates of the workspace (the command line, the page, the
// bindings) may use, in one list, each item from the module that defines it. Every other item is
// `pub(crate)`, which `unreachable_pub` checks. Where a module's name gave an item's name its
// meaning, the item's public name says it (`kql::parse` is `parse_kql`, `run::folder::choose` is
// `choose_run_file`); names that only make sense beside their benchmark stay in its namespace
// (`spider::TIMEOUT_SECONDS`, `bird::read_gold`).
pub use analysis::{Analysis, analyse, analyse_as};
pub use bench::BenchError;
pub use datatype::{AnswerType, datatype_validity};
pub use escape::{markup as escape_markup, terminal as escape_terminal};
pub use execution_similarity::{ExecutionOptions, execution_similarity};
pub use fields::InputError;
pub use judge::sql::judge as judge_sql;
pub use kql::check_read_only as check_kql_read_only;
pub use kql::lexer::tokenize as tokenize_kql;
pub use kql::pipeline::parse as parse_kql;
pub use language::Language;
pub use metric::{Metric, MetricError, MetricKind, MetricName};
pub use metrics::calibration::{Confidence, calibration};
pub use metrics::classification::{ClassificationInput, summarize_classification};
pub use metrics::efficiency::r_ves;
pub use metrics::safety_classification::classify_safety;
pub use metrics::schema_validity::KnownNames;
pub use metrics::table_accuracy::{TableAccuracy, TableMatch};
pub use metrics::validation_accuracy::validation_accuracy;
pub use metrics::workflow::{Expectation, check_workflow, default_always_expected_agents};
pub use pairs::line::PairLine;
pub use pairs::{
    MAX_LINE_BYTES, PairInput, cut_note, pair_from_object, pairs_file_line, parse_pair_line,
    rejection, too_long,
};
pub use pipeline::benchmark::spider2::{Spider2Files, Spider2Options, Spider2Outcome, eval_ids};
pub use pipeline::benchmark::strict::{StrictRule, strict_rows};
pub use pipeline::benchmark::summary::{BenchSummary, GoldIssue, Spider2Scores};
pub use pipeline::benchmark::{Benchmark, BenchmarkPipeline, BirdOptions, SpiderOptions};
pub use pipeline::job::{Fill, Job, JobAnswer, JobPart, PartAnswer, Runner, SuiteCheck};
pub use pipeline::query::{
    MAX_RESULT_BYTES, ONE_STATEMENT, PythonStatement, QueryError, QueryRows, QuerySettings,
    TextDecoding, python_statement,
};
pub use pipeline::run_folder::{DatabaseUse, RunPipeline, SuiteSettings, TestToScore};
pub use profiles::{Profile, ProfileName, ProfileResult, apply as apply_profile};
pub use random::SplitMix64;
pub use results::ResultSet;
pub use results::compare::defog::compare_df::compare_df;
pub use results::compare::defog::frame::{Dtype, Frame, Series};
pub use results::compare::defog::normalization::Asked;
pub use results::compare::defog::subset_df::subset_df;
pub use results::compare::defog::{ErrorClass, InTurn, PythonError, QueryContext, Spread};
pub use results::compare::{
    CompareOptions, Comparison, Mode, compare as compare_results, order_matters_for, shape_problem,
};
pub use results::direct::MAX_COLUMNS;
pub use results::lines::LinesStream;
pub use results::marks::{
    DETAIL_ROWS, TableView, json_views as json_result_views, views as result_views,
};
pub use results::python::row_fingerprint;
pub use results::read::{ResultError, read_result, read_result_text};
pub use results::rows::Rows;
pub use results::sample::{
    Case, MIXED_COLUMNS, bench_max_rows, case_pair, mixed_row_json, shuffled_pair, xorshift,
};
pub use results::stream::{ResultStream, StreamOptions};
pub use results::value::Value;
pub use run::agreement::{
    LABEL_FIELD, Labelled, agreement_of, apply_labels, labels_by_test, read_labels,
    scorecard_verdicts,
};
pub use run::changes::{RunComparison, compare_runs};
pub use run::evaluate::{
    Disagreement, NOTHING_EXPECTED, evaluate_test, pair_of_test, recheck as recheck_record,
    round as round_score, suite_queries,
};
pub use run::folder::{
    EVALUATION_RESULTS, FileKind, choose as choose_run_file,
    kind_by_content as file_kind_by_content, kind_of as file_kind_of, run_files,
};
pub use run::groups::fill_hardness;
pub use run::read::{
    Lines, Rejected, read_questions, read_record_bytes, read_records, read_test_results,
};
pub use run::record::{EvaluationRecord, TestLine, test_key};
pub use run::summary::{BINS, PASS_THRESHOLD, Summary, summarize, summarize_by};
pub use score::llm::{JudgeOutcome, JudgedVerdict, Judging, judge_tasks};
pub use score::{
    ScoreOptions, add_equivalence, score_pair, score_pair_judged, table_accuracy_of_sql,
};
pub use scorecard::{Diagnostic, QueryReport, Scorecard, Severity};
pub use sql::dialect::{SqlDialect, UnknownDialect};
pub use sql::hardness::{Hardness, HardnessCounts, hardness, hardness_counts};
pub use sql::infer::{ColumnKey, Hints, Literal, hints_for_schema, infer_schema, looks_like_date};
pub use sql::normalize::normalize as normalize_sql;
pub use sql::parse::{MAX_OPERATORS, ParseError, ParseLimits, parse as parse_sql};
pub use sql::safety::{Place, SafetyReport, ViolationKind, check_read_only as check_sql_read_only};
pub use sql::schema::{ColumnType, ForeignKey, Schema, SchemaColumn, SchemaTable, quote_ident};
pub use sql::spj::{ProofKind, SpjProof, spj_proof};
pub use sql::sqlite_text::{orders_its_output, to_sqlite, to_sqlite_whole_average};
pub use sql::tables::{TableName, extract_tables};
pub use words::{counted, json_kind, plural};

/// BIRD's official evaluation (`evaluation_ex.py`, `evaluation_ves.py`), reproduced.
pub mod bird {
    pub use crate::bench::bird::table::BirdMetric;
    pub use crate::bench::bird::ves::ITERATIONS as VES_ITERATIONS;
    pub use crate::bench::bird::{
        BirdPredictions, QuestionEntry, TIMEOUT_SECONDS, read_difficulties, read_gold,
        read_predictions,
    };
}

/// Spider's official evaluation (test-suite-sql-eval's `evaluation.py`), reproduced.
pub mod spider {
    pub use crate::bench::spider::files::SpiderFiles;
    pub use crate::bench::spider::plug::MAX_VARIANTS;
    pub use crate::bench::spider::{Etype, TIMEOUT_SECONDS, is_database_name, read_tables_json};
}

/// Spider 2.0's official evaluation (`evaluate.py`), reproduced.
pub mod spider2 {
    pub use crate::bench::spider2::{
        PredictionForm, Variant, correct_ids_csv, gold_files, read_instances, read_standards,
    };
}

/// A run's records written for other tools.
pub mod export {
    pub use crate::run::export::{csv, junit, markdown};
}
