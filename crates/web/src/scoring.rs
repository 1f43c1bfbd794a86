//! From what the user typed to what the core scores: the pair, the options, the scorecard.

use std::collections::BTreeMap;

use qeval_core::profiles::Profile;
use qeval_core::score::{JudgeOutcome, JudgeTask, judge_tasks};
use qeval_core::{PairInput, ScoreOptions, Scorecard, score_pair_judged};

use crate::state::Playground;
use qeval_worker::protocol::Executed;

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

/// The scorecard, with the LLM verdicts (when given) in place of the structural judge's, and
/// the results from the database (when one is loaded) where no result was typed.
pub fn score(
    state: &Playground,
    judged: &BTreeMap<String, JudgeOutcome>,
    executed: Option<&Executed>,
) -> Scorecard {
    let mut pair = pair_of(state);
    if let Some(executed) = executed {
        if state.expected_result.trim().is_empty()
            && let Some(Ok(out)) = &executed.expected
        {
            pair.expected_result = Some(out.to_json());
        }
        if state.generated_result.trim().is_empty() {
            match &executed.generated {
                Some(Ok(out)) => pair.generated_result = Some(out.to_json()),
                Some(Err(err)) => pair.generated_error = Some(err.to_string()),
                None => {}
            }
        }
    }
    score_pair_judged(&pair, &options_of(state), judged)
}
