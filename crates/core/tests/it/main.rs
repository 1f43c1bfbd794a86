//! Every integration test of this crate, one module per concern, built as one binary: a
//! binary per file would link the crate and its dependencies once per file (about 40 MB
//! each, and a link each). Run one concern with `cargo test -p qeval-core --test it <module>::`.

mod comparison_properties;
mod corpus_tables;
mod crosscheck;
mod crosscheck_defog;
mod dates;
mod deep_input;
mod fuzz_analysis;
mod hardness;
mod judge_cases;
mod kql_operators;
mod layers;
mod per_test_options;
mod result_reading;
mod run_records;
mod safety_places;
mod safety_policy;
mod scenarios;
mod schema_validity;
mod scorecards;
mod several_answers;
mod source_files;
mod table_accuracy_scenarios;
mod table_extraction;
mod type_names;
mod wrong_answers;
