//! From what the user typed to what the scoring worker scores: the pair, the options, and the
//! results a database or a check added.

use std::collections::BTreeMap;

use qeval_core::{JudgeOutcome, Metric, MetricName, PairInput};
use qeval_worker::protocol::{Answer, Executed, ScorePair, Scoring, Task};

use crate::judge::JudgeRun;
use crate::playground::hooks::JobState;
use crate::playground::state::Playground;

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
        question: given(&state.question),
        query_category: given(&state.query_category),
        ..PairInput::default()
    }
}

/// Text the user typed, or nothing when it is blank.
fn given(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.trim().to_string())
}

pub fn scoring_of(state: &Playground) -> Scoring {
    Scoring {
        profile: state.profile,
        mode: state.mode,
        evaluated_at: Some(String::from(js_sys::Date::new_0().to_iso_string())),
        judge_prompt: qeval_judge::PromptVersion::default(),
        schema: Some(state.schema.clone()).filter(|s| !s.trim().is_empty()),
    }
}

/// The task asking for the judgings the LLM judge would be asked for; none until both queries
/// are given.
pub fn judge_tasks_task(state: &Playground, prompt: qeval_judge::PromptVersion) -> Option<Task> {
    if state.generated.trim().is_empty() || state.expected.trim().is_empty() {
        return None;
    }
    Some(Task::JudgeTasks {
        pair: pair_of(state),
        scoring: Scoring {
            judge_prompt: prompt,
            ..scoring_of(state)
        },
    })
}

/// What the scoring worker needs for the playground's scorecard: the pair, with the results
/// from the database (when one is loaded) where no result was typed; the LLM verdicts (when
/// given) to use in place of the structural judge's; and the equivalence checks that reached a
/// verdict (`test_suite`, `equivalence`).
pub fn score_task(
    state: &Playground,
    judged: &BTreeMap<String, JudgeOutcome>,
    executed: Option<&Executed>,
    checks: Vec<(MetricName, Metric)>,
) -> Task {
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
        // Both queries ran on the database as typed: their VM steps give `efficiency`.
        if let (Some(Ok(expected)), Some(Ok(generated))) = (&executed.expected, &executed.generated)
            && !expected.truncated
            && !generated.truncated
            && state.expected_result.trim().is_empty()
            && state.generated_result.trim().is_empty()
        {
            pair.expected_vm_steps = Some(expected.vm_steps);
            pair.generated_vm_steps = Some(generated.vm_steps);
        }
    }
    Task::Score(ScorePair {
        pair,
        scoring: scoring_of(state),
        judged: judged.clone(),
        checks,
    })
}

/// The scoring task for `state` with what its jobs and the LLM judge gave so far: the results
/// run on the loaded database, its test-suite metric, the equivalence check's metric, and the
/// LLM judge's verdicts (none: the structural judge decides).
pub fn score_with_jobs(
    state: &Playground,
    run: Option<&JudgeRun>,
    (executed, suite, checked): (&JobState, &JobState, &JobState),
) -> Task {
    let executed = match executed.answer() {
        Some(Answer::Executed(executed)) => Some(executed),
        _ => None,
    };
    let mut checks = Vec::new();
    if let Some(Answer::Suite(Some(metric))) = suite.answer() {
        checks.push((MetricName::TestSuite, metric.clone()));
    }
    if let Some(Answer::Checked(Some(checked))) = checked.answer() {
        checks.push((MetricName::Equivalence, checked.report.metric()));
    }
    let empty = BTreeMap::new();
    let judged = run.map_or(&empty, |run| &run.outcomes);
    score_task(state, judged, executed, checks)
}
