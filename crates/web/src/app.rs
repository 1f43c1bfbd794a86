//! The playground page: two queries (and optionally their results) in, a scorecard out, all of
//! it in the URL.

use qeval_core::datatype::AnswerType;
use qeval_core::profiles::{Profile, ProfileName};
use qeval_core::results::compare::Mode;
use qeval_core::sql::SqlDialect;
use qeval_core::{Language, PairInput, ScoreOptions, Scorecard, score_pair};
use yew::prelude::*;

use crate::components::{
    ChoiceSelect, CopyLink, MetricCard, ProfileSummary, QueryEditor, ResultEditor,
};
use crate::hooks::{initial_state, use_debounced, use_shared_url};
use crate::state::{Action, Playground};

/// How long typing must pause before the queries are scored again.
const SETTLE_MILLIS: u32 = 150;

#[component]
pub fn App() -> Html {
    let start = use_memo((), |()| initial_state());
    let state = {
        let start = start.clone();
        use_reducer(move || start.0.clone())
    };
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    let settled = use_debounced((*state).clone(), SETTLE_MILLIS);
    let card = use_memo(settled.clone(), score);
    let share_problem = use_shared_url(&settled, dispatch.clone());

    let both_given = !settled.generated.trim().is_empty() && !settled.expected.trim().is_empty();
    html! {
        <div class="app">
            <header class="top">
                <h1>{ "qeval" }<span class="subtitle">{ " playground" }</span></h1>
                <ChoiceSelect
                    id="language"
                    label="Language"
                    options={vec![("sql".into(), "SQL".into()), ("kql".into(), "KQL".into())]}
                    value={if state.language == Language::Kql { "kql" } else { "sql" }}
                    on_change={dispatch.reform(|v: String| Action::SetLanguage(v.parse().unwrap_or_default()))}
                />
                if state.language == Language::Sql {
                    <ChoiceSelect
                        id="dialect"
                        label="Dialect"
                        options={SqlDialect::ALL.iter().map(|d| (d.name().into(), d.label().into())).collect::<Vec<_>>()}
                        value={state.dialect.name()}
                        on_change={dispatch.reform(|v: String| Action::SetDialect(v.parse().unwrap_or_default()))}
                    />
                }
                <ChoiceSelect
                    id="profile"
                    label="Profile"
                    title="How the metrics add up to a total and a pass"
                    options={profile_options()}
                    value={state.profile.name()}
                    on_change={dispatch.reform(|v: String| Action::SetProfile(v.parse().unwrap_or(ProfileName::Qas)))}
                />
                <ChoiceSelect
                    id="mode"
                    label="Results"
                    title="How result tables are compared"
                    options={mode_options()}
                    value={state.mode.map_or("auto", |m| m.name())}
                    on_change={dispatch.reform(|v: String| Action::SetMode(v.parse().ok()))}
                />
                <CopyLink state={(*state).clone()} problem={share_problem} />
            </header>
            if let Some(notice) = &start.1 {
                <p class="notice" role="alert">{ notice.clone() }</p>
            }
            <main>
                <div class="editors">
                    <QueryEditor
                        id="generated"
                        label="Generated query"
                        value={state.generated.clone()}
                        on_input={dispatch.reform(Action::SetGenerated)}
                        report={(!settled.generated.trim().is_empty()).then(|| card.generated.clone())}
                        analysed_text={settled.generated.clone()}
                    />
                    <QueryEditor
                        id="expected"
                        label="Expected query"
                        value={state.expected.clone()}
                        on_input={dispatch.reform(Action::SetExpected)}
                        report={(!settled.expected.trim().is_empty()).then(|| card.expected.clone()).flatten()}
                        analysed_text={settled.expected.clone()}
                    />
                </div>
                <details class="results-input" open={!state.expected_result.is_empty() || !state.generated_result.is_empty()}>
                    <summary>{ "Results (optional): execution, results match and datatype scores" }</summary>
                    <div class="editors">
                        <ResultEditor
                            id="generated-result"
                            label="Generated query's result (JSON)"
                            value={state.generated_result.clone()}
                            on_input={dispatch.reform(Action::SetGeneratedResult)}
                        />
                        <ResultEditor
                            id="expected-result"
                            label="Expected result (JSON)"
                            value={state.expected_result.clone()}
                            on_input={dispatch.reform(Action::SetExpectedResult)}
                        />
                    </div>
                    <ChoiceSelect
                        id="answer-type"
                        label="Expected answer type"
                        options={answer_type_options()}
                        value={state.answer_type.map_or("none", |t| t.name())}
                        on_change={dispatch.reform(|v: String| Action::SetAnswerType(v.parse().ok()))}
                    />
                </details>
                <section class="results" aria-label="Scores">
                    if both_given {
                        <p class="identical" data-testid="identical">
                            if card.identical {
                                <span class="badge pass">{ "Queries are identical" }</span>
                            } else {
                                <span class="badge">{ "Queries differ after normalization" }</span>
                            }
                        </p>
                        if let Some(result) = &card.profile {
                            <ProfileSummary result={result.clone()} />
                        }
                        <div class="metrics">
                            { for ordered_metrics(&card).into_iter().map(|(name, weight)| html! {
                                <MetricCard name={name.clone()} metric={card.metrics[&name].clone()} {weight} />
                            }) }
                        </div>
                    } else {
                        <p class="muted">{ "Type both queries to see their scores." }</p>
                    }
                </section>
            </main>
            <footer>
                { "Scored in this browser: nothing you type leaves the page." }
            </footer>
        </div>
    }
}

fn profile_options() -> Vec<(AttrValue, AttrValue)> {
    [
        ProfileName::Qas,
        ProfileName::KqlBatch,
        ProfileName::SqlMetrics,
    ]
    .into_iter()
    .map(|p| {
        let label = match p {
            ProfileName::Qas => "QAS (seed 003)",
            ProfileName::KqlBatch => "KQL batch (seed 000)",
            _ => "SQL metrics (seed 002)",
        };
        (p.name().into(), label.into())
    })
    .collect()
}

fn mode_options() -> Vec<(AttrValue, AttrValue)> {
    std::iter::once(("auto".into(), "profile default".into()))
        .chain(Mode::ALL.into_iter().map(|m| {
            (
                m.name().into(),
                format!("{} — {}", m.name(), m.description()).into(),
            )
        }))
        .collect()
}

fn answer_type_options() -> Vec<(AttrValue, AttrValue)> {
    std::iter::once(("none".into(), "not given".into()))
        .chain(
            AnswerType::ALL
                .into_iter()
                .map(|t| (t.name().into(), t.name().into())),
        )
        .collect()
}

/// The profile's metrics first (with their weights), then the rest.
fn ordered_metrics(card: &Scorecard) -> Vec<(String, Option<f64>)> {
    let weights = card
        .profile
        .as_ref()
        .map(|p| p.parts.clone())
        .unwrap_or_default();
    let mut names: Vec<(String, Option<f64>)> = card
        .metrics
        .keys()
        .map(|name| (name.clone(), weights.get(name).map(|p| p.weight)))
        .collect();
    names.sort_by_key(|(name, weight)| (weight.is_none(), name != "table_accuracy", name.clone()));
    names
}

fn score(state: &Playground) -> Scorecard {
    // Text that is not JSON is left out (its editor says why) rather than scored as a string.
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    let pair = PairInput {
        generated_sql: state.generated.clone(),
        expected_sql: Some(state.expected.clone()),
        language: Some(state.language),
        dialect: Some(state.dialect),
        expected_result: json(&state.expected_result),
        generated_result: json(&state.generated_result),
        expected_answer_type: state.answer_type,
        ..PairInput::default()
    };
    let options = ScoreOptions {
        profile: Profile::preset(state.profile),
        mode: state.mode,
        evaluated_at: Some(String::from(js_sys::Date::new_0().to_iso_string())),
        ..ScoreOptions::default()
    };
    score_pair(&pair, &options)
}
