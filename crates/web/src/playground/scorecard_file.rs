//! The playground's scorecard download: what was scored, how, and the scorecard, so the file
//! alone says where its numbers came from.
//!
//! `input` is one line of the pairs file `qeval score` reads, so `qeval score` on it gives the
//! same scorecard (with the same database and judge). A result text that is not JSON, which
//! the page scored without, is kept under `options.results_not_json`. Numbers are rounded to four decimal
//! places: the page shows two, and binary fractions such as 0.30000000000000004 are noise, not
//! information.

use qeval_core::{Scorecard, round_score};
use serde_json::{Map, Value, json};

use crate::playground::scoring::pair_of;
use crate::playground::state::Playground;

/// How the semantic metrics were judged, as the file states it: never the key.
pub struct JudgedBy<'a> {
    /// `None`: the structural judge.
    pub llm: Option<LlmJudge<'a>>,
}

pub struct LlmJudge<'a> {
    pub endpoint: &'a str,
    pub model: &'a str,
}

/// The file's text: `{"input": …, "options": …, "scorecard": …}`, pretty-printed.
pub fn document(state: &Playground, judging: &JudgedBy<'_>, card: &Scorecard) -> String {
    let mut scorecard = serde_json::to_value(card).unwrap_or(Value::Null);
    round(&mut scorecard);
    let file = json!({
        "input": input(state),
        "options": options(state, judging),
        "scorecard": scorecard,
    });
    serde_json::to_string_pretty(&file).unwrap_or_default()
}

/// The pair as the page scored it and `qeval score` reads it: the fields it left unset are
/// left out.
fn input(state: &Playground) -> Value {
    let mut line = match serde_json::to_value(pair_of(state)) {
        Ok(Value::Object(fields)) => fields,
        _ => Map::new(),
    };
    line.retain(|_, value| !value.is_null());
    line.insert("profile".into(), json!(state.profile));
    if let Some(mode) = state.mode {
        line.insert("mode".into(), json!(mode));
    }
    Value::Object(line)
}

/// Result texts the page could not read as JSON, and so scored without: kept as typed, so the
/// file still holds everything the user gave.
fn unread_results(state: &Playground) -> Map<String, Value> {
    [
        ("expected_result", &state.expected_result),
        ("generated_result", &state.generated_result),
    ]
    .into_iter()
    .filter(|(_, text)| !text.trim().is_empty() && serde_json::from_str::<Value>(text).is_err())
    .map(|(field, text)| (field.to_string(), Value::String(text.clone())))
    .collect()
}

/// Everything else the scores depend on.
fn options(state: &Playground, judging: &JudgedBy<'_>) -> Value {
    let judge = match &judging.llm {
        None => json!({"kind": "structural"}),
        Some(llm) => json!({"kind": "llm", "endpoint": llm.endpoint, "model": llm.model}),
    };
    let mut options = Map::new();
    options.insert("judge".into(), judge);
    if !state.database.is_empty() {
        options.insert("database".into(), state.database.clone().into());
        if !state.database_sql.is_empty() {
            options.insert("database_sql".into(), state.database_sql.clone().into());
        }
        options.insert("test_suite_databases".into(), state.suite.into());
    } else {
        options.insert("equivalence_databases".into(), state.checks.into());
        if !state.schema.trim().is_empty() {
            options.insert("schema".into(), state.schema.clone().into());
        }
    }
    options.insert("seed".into(), state.seed.into());
    let unread = unread_results(state);
    if !unread.is_empty() {
        options.insert("results_not_json".into(), Value::Object(unread));
    }
    Value::Object(options)
}

/// Rounds every fractional number in `value` to four decimal places, as `qeval run` writes
/// scores.
fn round(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            if let Some(n) = number
                .as_f64()
                .and_then(|x| serde_json::Number::from_f64(round_score(x)))
            {
                *number = n;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(round),
        Value::Object(fields) => fields.values_mut().for_each(round),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qeval_core::{PairInput, score_pair};

    fn state() -> Playground {
        Playground {
            generated: "SELECT name FROM t WHERE x > 0.1".into(),
            expected: "SELECT name FROM t WHERE x > 0.3".into(),
            expected_result: r#"[{"name": "a"}, {"name": "b"}, {"name": "c"}]"#.into(),
            generated_result: r#"[{"name": "a"}]"#.into(),
            ..Playground::default()
        }
    }

    #[test]
    fn the_file_holds_the_inputs_the_options_and_rounded_numbers() {
        let state = state();
        let line = input(&state);
        let pair: PairInput = serde_json::from_value(line.clone()).expect("qeval score reads it");
        let card = score_pair(&pair, &Default::default());
        let text = document(
            &state,
            &JudgedBy {
                llm: Some(LlmJudge {
                    endpoint: "http://localhost:8080/v1",
                    model: "judge-1",
                }),
            },
            &card,
        );
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["input"], line);
        assert_eq!(file["input"]["generated_result"], json!([{"name": "a"}]));
        assert_eq!(file["options"]["judge"]["model"], "judge-1");
        assert_eq!(file["options"]["equivalence_databases"], 40);
        // One expected row of three found: thirds, at four places.
        assert!(text.contains("0.3333"), "{text}");
        assert!(!text.contains("0.33333"), "{text}");
    }

    #[test]
    fn a_result_that_is_not_json_is_kept_as_typed_beside_the_pair_scored_without_it() {
        let state = Playground {
            generated_result: "[1, 2".into(),
            ..state()
        };
        assert_eq!(input(&state).get("generated_result"), None);
        let options = options(&state, &JudgedBy { llm: None });
        assert_eq!(options["results_not_json"]["generated_result"], "[1, 2");
        assert_eq!(options["judge"]["kind"], "structural");
    }

    #[test]
    fn only_fractions_are_rounded() {
        let mut value = json!({"a": 0.1 + 0.2, "b": [2, 1.23456789], "c": "0.123456"});
        round(&mut value);
        assert_eq!(value, json!({"a": 0.3, "b": [2, 1.2346], "c": "0.123456"}));
    }
}
