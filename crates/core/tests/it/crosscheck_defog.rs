//! defog sql-eval's `compare_df` and `subset_df`, and the `defog` mode built on them, against
//! the verdicts sql-eval itself gives, case by case (`tests/crosscheck/README.md` says how they
//! were made).

use std::path::PathBuf;

use qeval_core::{
    Asked, CompareOptions, Dtype, Frame, InTurn, Mode, QueryContext, Series, Value, compare_df,
    compare_results, read_result, subset_df,
};
use serde_json::Value as Json;

fn cases(file: &str) -> Vec<Json> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/crosscheck")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("the cross-check cases");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("JSON case"))
        .collect()
}

/// A case's frame: `columns`, pandas `dtypes` and `rows`, as the Python test builds it.
fn frame(side: &Json) -> Frame {
    let rows = side["rows"].as_array().expect("rows");
    let dtypes = side["dtypes"].as_array().expect("dtypes");
    let names = side["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(Value::from_json)
        .collect();
    let columns = dtypes
        .iter()
        .enumerate()
        .map(|(index, dtype)| {
            let cells = rows.iter().map(|row| Value::from_json(&row[index]));
            let (dtype, missing) = match dtype.as_str().expect("a dtype") {
                "int64" => (Dtype::Int, Value::Null),
                "bool" => (Dtype::Bool, Value::Null),
                "float64" => (Dtype::Float, Value::Float(f64::NAN)),
                "str" => (Dtype::Str, Value::Float(f64::NAN)),
                _ => (Dtype::Object, Value::Null),
            };
            let cells = cells
                .map(|cell| match cell {
                    Value::Null => missing.clone(),
                    Value::Int(int) if dtype == Dtype::Float => Value::Float(int as f64),
                    cell => cell,
                })
                .collect();
            Series::new(dtype, cells)
        })
        .collect();
    Frame::new(names, rows.len(), columns).expect("a frame")
}

fn verdict<E>(outcome: Result<bool, E>) -> Json {
    outcome.map_or_else(|_| Json::from("raises"), Json::from)
}

#[test]
fn compare_df_and_subset_df_give_sql_evals_verdict_on_every_case() {
    let cases = cases("defog.jsonl");
    assert!(cases.len() > 700);
    let mut wrong = Vec::new();
    for case in &cases {
        let (gold, generated) = (frame(&case["gold"]), frame(&case["generated"]));
        let asked = Asked {
            query_category: case["query_category"].as_str().unwrap_or_default(),
            question: case["question"].as_str().unwrap_or_default(),
        };
        let (query_gold, query_gen) = (case["query_gold"].as_str(), case["query_gen"].as_str());
        let compared = compare_df(&gold, &generated, &asked, query_gold, query_gen, &InTurn);
        let subset = subset_df(&gold, &generated, &asked, query_gold, query_gen, &InTurn)
            .map(|subset| subset.equal);
        for (name, ours) in [
            ("compare_df", verdict(compared)),
            ("subset_df", verdict(subset)),
        ] {
            if ours != case[name] {
                wrong.push(format!(
                    "{} {name}: sql-eval {}, qeval {ours}",
                    case["id"], case[name]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_defog_mode_gives_compare_query_results_verdict_on_query_results() {
    let cases = cases("defog_results.jsonl");
    assert!(cases.len() > 700);
    let mut wrong = Vec::new();
    for case in &cases {
        let expected = read_result(&case["expected"]).expect("expected rows");
        let generated = read_result(&case["generated"]).expect("generated rows");
        let text = |field: &str| case[field].as_str().map(str::to_string);
        let options = CompareOptions {
            mode: Mode::Defog,
            query_context: QueryContext {
                question: text("question").unwrap_or_default(),
                query_category: text("query_category").unwrap_or_default(),
                expected_sql: text("query_gold"),
                generated_sql: text("query_gen"),
            },
            ..CompareOptions::default()
        };
        let comparison = compare_results(&expected, &generated, &options);
        let raised = comparison.explanation.starts_with("sql-eval raises");
        let ours = if raised {
            Json::from("raises")
        } else {
            Json::from(comparison.equal)
        };
        if ours != case["verdict"] || (raised && comparison.equal) {
            wrong.push(format!(
                "{}: sql-eval {}, qeval {ours} ({})",
                case["id"], case["verdict"], comparison.explanation
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
