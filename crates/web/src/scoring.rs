//! From what the user typed to what the core scores: the pair, the options, the scorecard.

use std::collections::BTreeMap;

use qeval_core::profiles::Profile;
use qeval_core::score::{JudgeOutcome, JudgeTask, judge_tasks};
use qeval_core::{PairInput, ScoreOptions, Scorecard, score_pair_judged};

use crate::state::Playground;

pub fn pair_of(state: &Playground) -> PairInput {
    // Text that is not JSON is left out (its editor says why) rather than scored as a string.
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    PairInput {
        generated_sql: state.generated.clone(),
        expected_sql: Some(state.expected.clone()),
        language: Some(state.language),
        dialect: Some(state.dialect),
        expected_result: json(&state.expected_result),
        generated_result: json(&state.generated_result),
        expected_answer_type: state.answer_type,
        ..PairInput::default()
    }
}

pub fn options_of(state: &Playground) -> ScoreOptions {
    ScoreOptions {
        profile: Profile::preset(state.profile),
        mode: state.mode,
        evaluated_at: Some(String::from(js_sys::Date::new_0().to_iso_string())),
        ..ScoreOptions::default()
    }
}

/// The judgings the LLM judge would be asked for; none until both queries are given.
pub fn tasks_of(state: &Playground) -> Vec<JudgeTask> {
    if state.generated.trim().is_empty() || state.expected.trim().is_empty() {
        return Vec::new();
    }
    judge_tasks(&pair_of(state), &options_of(state))
}

/// The scorecard, with the LLM verdicts (when given) in place of the structural judge's.
pub fn score(state: &Playground, judged: &BTreeMap<String, JudgeOutcome>) -> Scorecard {
    score_pair_judged(&pair_of(state), &options_of(state), judged)
}
