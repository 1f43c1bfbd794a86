//! The playground: two queries (and optionally their results) in, a scorecard out, all of it in
//! the URL.

use std::collections::BTreeMap;

use qeval_core::MetricName;
use qeval_core::datatype::AnswerType;
use qeval_core::profiles::ProfileName;
use qeval_core::results::compare::Mode;
use qeval_core::sql::SqlDialect;
use qeval_core::words::counted;
use qeval_core::{Language, Scorecard};
use qeval_sqlite::schema_names_value;
use qeval_worker::protocol::Answer;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use super::{
    CopyLink, DatabasePanel, DownloadScorecard, EquivalencePanel, JobStatus, LangfuseSend,
    MetricCard, NormalizedView, ProfileSummary, QueryEditor, QueryResults, ResultEditor,
};
use crate::components::{ChoiceSelect, JudgeSettingsPanel, profile_options};
use crate::database::{BUILT_FROM_SQL, LoadedDb, equivalence_task, execute_task, suite_task};
use crate::judge::{JudgeChoices, JudgeRun, VerdictCache};
use crate::playground::editor;
use crate::playground::hooks::{
    JobState, JudgeStatus, ScoredPlayground, initial_state, use_debounced, use_llm_judge,
    use_scorecard, use_shared_url, use_worker_job,
};
use crate::playground::scoring::score_task;
use crate::playground::state::{Playground, PlaygroundAction};
use crate::workers::TaskKind;

/// How long typing must pause before the queries are scored again.
const SETTLE_MILLIS: u32 = 150;
/// How long typing (or editing the judge's settings) must pause before the LLM judge is asked:
/// longer, because every question costs a call.
const JUDGE_SETTLE_MILLIS: u32 = 700;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub settings: JudgeChoices,
    pub on_settings: Callback<JudgeChoices>,
    pub db: LoadedDb,
    pub on_db: Callback<LoadedDb>,
}

#[component]
pub fn PlaygroundView(props: &Props) -> Html {
    let start = use_memo((), |()| initial_state());
    let state = {
        let start = start.clone();
        use_reducer(move || start.0.clone())
    };
    // Nothing is sent to the LLM judge until the user acts in this page: a link or a reload
    // shows cached verdicts only.
    let armed = use_state_eq(|| false);
    let dispatch = {
        let (state, armed) = (state.clone(), armed.clone());
        Callback::from(move |action: PlaygroundAction| {
            if !matches!(action, PlaygroundAction::Load(_)) {
                armed.set(true);
            }
            state.dispatch(action)
        })
    };
    let settled = use_debounced((*state).clone(), SETTLE_MILLIS);
    let share_problem = use_shared_url(&settled, &state, dispatch.clone());

    let settings = &props.settings;
    // Armed with the state it was armed for: the first edit must not send the state before it.
    let (judged_state, judged_settings, judged_armed) = use_debounced(
        ((*state).clone(), settings.clone(), *armed),
        JUDGE_SETTLE_MILLIS,
    );
    let judge = use_llm_judge(&judged_state, &judged_settings, judged_armed);
    let run = judge.run_for(&settled);
    let db = &props.db;
    let time_limit = use_state_eq(|| 10.0f64);
    let running_key = (settled.clone(), db.clone(), *time_limit);
    let executed = use_worker_job(
        TaskKind::Execute,
        running_key.clone(),
        |(state, db, seconds)| execute_task(state, db, *seconds),
    );
    let suite = use_worker_job(TaskKind::Suite, running_key, |(state, db, seconds)| {
        suite_task(state, db, *seconds)
    });
    // Without a database, both queries run on databases generated from their schema. Not for
    // the untouched example the page opens with: SQLite loads on the first database action.
    let example_checked = use_state_eq(|| false);
    let pristine = !*example_checked && settled == Playground::example();
    let checked = use_worker_job(
        TaskKind::Equivalence,
        (settled.clone(), db.clone(), pristine),
        |(state, db, pristine)| (!pristine).then(|| equivalence_task(state, db)).flatten(),
    );
    let shown_check = match checked.latest() {
        Some(Answer::Checked(shown)) => shown.clone(),
        _ => None,
    };
    let checking = checked.is_running();
    let check_cancelled = checked == JobState::Cancelled;
    // The scorecard is the scoring worker's; until its first answer the scores say so.
    let scored = use_scorecard(
        (
            settled.clone(),
            run.clone(),
            executed.clone(),
            suite.clone(),
            checked.clone(),
        ),
        |(state, run, executed, suite, checked)| {
            let executed = match executed.answer() {
                Some(Answer::Executed(executed)) => Some(executed),
                _ => None,
            };
            let suite = match suite.answer() {
                Some(Answer::Suite(metric)) => metric.as_ref(),
                _ => None,
            };
            let checked = match checked.answer() {
                Some(Answer::Checked(checked)) => checked.as_ref(),
                _ => None,
            };
            let empty = BTreeMap::new();
            let mut checks = Vec::new();
            if let Some(suite) = suite {
                checks.push((MetricName::TestSuite, suite.clone()));
            }
            if let Some(checked) = checked {
                checks.push((MetricName::Equivalence, checked.report.metric()));
            }
            let judged = run.as_ref().map_or(&empty, |run| &run.outcomes);
            (state.clone(), score_task(state, judged, executed, checks))
        },
    );

    // The cache's counts change as verdicts come and go; this re-reads them.
    let cache_revision = use_state(|| 0u32);
    {
        let cache_revision = cache_revision.clone();
        use_effect_with((), move |()| {
            spawn_local(async move {
                VerdictCache::shared().count().await;
                cache_revision.set(1);
            });
        });
    }
    let on_cache_cleared = {
        let cache_revision = cache_revision.clone();
        Callback::from(move |()| cache_revision.set(*cache_revision + 1))
    };

    let both_given = !settled.generated.trim().is_empty() && !settled.expected.trim().is_empty();
    // What the scorecard says of each query, with the text it was said of.
    let report_of = |side: fn(&Scorecard) -> Option<qeval_core::scorecard::QueryReport>,
                     text: fn(&Playground) -> &String| {
        scored.as_ref().and_then(|scored| {
            let text = text(&scored.state);
            (!text.trim().is_empty())
                .then(|| side(&scored.card))
                .flatten()
        })
    };
    let analysed = |text: fn(&Playground) -> &String| {
        scored
            .as_ref()
            .map(|scored| text(&scored.state).clone())
            .unwrap_or_default()
    };
    let generated_report = report_of(
        |card| Some(card.generated.clone()),
        |state| &state.generated,
    );
    let expected_report = report_of(|card| card.expected.clone(), |state| &state.expected);
    // The generated query's safety findings, to mark in its editor.
    let safety = scored
        .as_ref()
        .and_then(|scored| scored.card.metrics.get(&MetricName::Safety))
        .map(|metric| &metric.details);
    // The editors complete from the loaded database's tables, or else from the schema the
    // equivalence check used (written or inferred).
    let schema = if db.is_loaded() {
        schema_names_value(&db.tables)
    } else {
        shown_check
            .as_ref()
            .map(|checked| serde_json::json!(checked.names))
            .unwrap_or_else(|| serde_json::json!({}))
    };
    html! {
        <>
            <header class="top">
                <h1>{ "qeval" }<span class="subtitle">{ " playground" }</span></h1>
                <ChoiceSelect
                    id="language"
                    label="Language"
                    options={vec![("sql".into(), "SQL".into()), ("kql".into(), "KQL".into())]}
                    value={if state.language == Language::Kql { "kql" } else { "sql" }}
                    on_change={dispatch.reform(|v: String| PlaygroundAction::SetLanguage(v.parse().unwrap_or_default()))}
                />
                if state.language == Language::Sql {
                    <ChoiceSelect
                        id="dialect"
                        label="Dialect"
                        options={SqlDialect::ALL.iter().map(|d| (d.name().into(), d.label().into())).collect::<Vec<_>>()}
                        value={state.dialect.name()}
                        on_change={dispatch.reform(|v: String| PlaygroundAction::SetDialect(v.parse().unwrap_or_default()))}
                    />
                }
                <ChoiceSelect
                    id="profile"
                    label="Profile"
                    title="How the metrics add up to a total and a pass"
                    options={profile_options()}
                    value={state.profile.name()}
                    on_change={dispatch.reform(|v: String| PlaygroundAction::SetProfile(v.parse().unwrap_or(ProfileName::Qas)))}
                />
                <ChoiceSelect
                    id="mode"
                    label="Results"
                    title="How result tables are compared"
                    options={mode_options()}
                    value={state.mode.map_or("auto", |m| m.name())}
                    on_change={dispatch.reform(|v: String| PlaygroundAction::SetMode(v.parse().ok()))}
                />
                <CopyLink state={(*state).clone()} problem={share_problem} />
            </header>
            <JudgeSettingsPanel
                settings={settings.clone()}
                on_change={props.on_settings.clone()}
                stats={VerdictCache::shared().stats()}
                {on_cache_cleared}
            />
            if let Some(notice) = &start.1 {
                <p class="notice" role="alert">{ notice.clone() }</p>
            }
            <main>
                <div class="editors">
                    <QueryEditor
                        id="generated"
                        label="Generated query"
                        value={state.generated.clone()}
                        on_input={dispatch.reform(PlaygroundAction::SetGenerated)}
                        report={generated_report.clone()}
                        analysed_text={analysed(|state| &state.generated)}
                        language={state.language}
                        dialect={state.dialect}
                        schema={schema.clone()}
                        markers={generated_report.as_ref().map(|report| editor::markers(report, safety)).unwrap_or_default()}
                    />
                    <QueryEditor
                        id="expected"
                        label="Expected query"
                        value={state.expected.clone()}
                        on_input={dispatch.reform(PlaygroundAction::SetExpected)}
                        report={expected_report.clone()}
                        analysed_text={analysed(|state| &state.expected)}
                        language={state.language}
                        dialect={state.dialect}
                        {schema}
                        markers={expected_report.as_ref().map(|report| editor::markers(report, None)).unwrap_or_default()}
                    />
                </div>
                if !state.database.is_empty() && !db.is_loaded() && state.database_sql.is_empty() {
                    <p class="notice" data-testid="database-needed">
                        if state.database == BUILT_FROM_SQL {
                            { "This link was made with a database built from SQL too long to fit in a link: paste that SQL in Database below and build it to run both queries on it." }
                        } else {
                            { format!("This link was made with the database {}: drop that file in Database below to run both queries on it.", state.database) }
                        }
                    </p>
                }
                <DatabasePanel
                    db={db.clone()}
                    sql={start.0.database_sql.clone()}
                    on_load={let (on_db, dispatch) = (props.on_db.clone(), dispatch.clone()); Callback::from(move |loaded: LoadedDb| {
                        dispatch.emit(PlaygroundAction::SetDatabase { name: loaded.name.clone(), sql: loaded.sql.clone() });
                        on_db.emit(loaded);
                    })}
                    suite={state.suite}
                    seed={state.seed}
                    on_suite={dispatch.reform(PlaygroundAction::SetSuite)}
                    on_seed={dispatch.reform(PlaygroundAction::SetSeed)}
                    time_limit={*time_limit}
                    on_time_limit={let time_limit = time_limit.clone(); Callback::from(move |s| time_limit.set(s))}
                />
                <JobStatus />
                if let JobState::Done(answer) = &executed {
                    <QueryResults answer={answer.clone()} />
                }
                if db.is_loaded() && (!state.expected_result.trim().is_empty() || !state.generated_result.trim().is_empty()) {
                    <p class="notice" role="status" data-testid="typed-results-win">
                        {{
                            let (given, them) = given_results(&state.expected_result, &state.generated_result);
                            format!("The scores use the {given} given in Results below (typed, or carried by the link), not the loaded database's. Clear {them} to score the database's results.")
                        }}
                    </p>
                }
                if !db.is_loaded() && state.language == Language::Sql {
                    <EquivalencePanel
                        report={shown_check.as_ref().map(|c| c.report.clone())}
                        millis={shown_check.as_ref().map(|c| c.millis)}
                        {checking}
                        cancelled={check_cancelled}
                        on_check={pristine.then(|| { let example_checked = example_checked.clone(); Callback::from(move |()| example_checked.set(true)) })}
                        schema={state.schema.clone()}
                        on_schema={dispatch.reform(PlaygroundAction::SetSchema)}
                        checks={state.checks}
                        on_checks={dispatch.reform(PlaygroundAction::SetChecks)}
                        seed={state.seed}
                        on_seed={dispatch.reform(PlaygroundAction::SetSeed)}
                    />
                }
                <details class="results-input" open={!state.expected_result.is_empty() || !state.generated_result.is_empty()}>
                    <summary>{ "Results (optional): execution, results match and datatype scores" }</summary>
                    <div class="editors">
                        <ResultEditor
                            id="generated-result"
                            label="Generated query's result (JSON)"
                            value={state.generated_result.clone()}
                            on_input={dispatch.reform(PlaygroundAction::SetGeneratedResult)}
                        />
                        <ResultEditor
                            id="expected-result"
                            label="Expected result (JSON)"
                            value={state.expected_result.clone()}
                            on_input={dispatch.reform(PlaygroundAction::SetExpectedResult)}
                        />
                    </div>
                    <ChoiceSelect
                        id="answer-type"
                        label="Expected answer type"
                        options={answer_type_options()}
                        value={state.answer_type.map_or("none", |t| t.name())}
                        on_change={dispatch.reform(|v: String| PlaygroundAction::SetAnswerType(v.parse().ok()))}
                    />
                </details>
                <section class="results" aria-label="Scores">
                    if !both_given {
                        <p class="muted">{ "Type both queries to see their scores." }</p>
                    } else if let Some(ScoredPlayground { card, state: scored_state }) = scored.as_deref() {
                        <p class="identical" data-testid="identical">
                            if card.identical {
                                <span class="badge pass">{ "Queries are identical" }</span>
                            } else {
                                <span class="badge">{ "Queries differ after normalization" }</span>
                            }
                        </p>
                        <NormalizedView card={card.clone()} />
                        { judge_status(&judge, run.as_deref(), { let armed = armed.clone(); Callback::from(move |_| armed.set(true)) }) }
                        { judge_failure(run.as_deref(), &judged_settings.base_url) }
                        if let Some(result) = &card.profile {
                            <ProfileSummary result={result.clone()} unsafe_query={card.unsafe_query} />
                        }
                        <div class="metrics">
                            { for ordered_metrics(card).into_iter().map(|(name, weight)| html! {
                                <MetricCard name={name.as_str()} metric={card.metrics[&name].clone()} {weight} />
                            }) }
                        </div>
                        <div class="row exports">
                            <DownloadScorecard
                                card={card.clone()}
                                state={scored_state.clone()}
                                llm={judged_settings.enabled.then(|| (judged_settings.base_url.clone(), judged_settings.model.clone()))}
                            />
                            if !judged_settings.langfuse_public_key.trim().is_empty() {
                                <LangfuseSend
                                    card={card.clone()}
                                    host={judged_settings.langfuse_host.clone()}
                                    public_key={judged_settings.langfuse_public_key.clone()}
                                />
                            }
                        </div>
                    } else {
                        <p class="muted" role="status" data-testid="scoring">{ "Scoring…" }</p>
                    }
                </section>
            </main>
            <footer>
                if judged_settings.enabled {
                    { format!("Scored in this browser; queries are sent only to the LLM judge at {}.", judged_settings.base_url) }
                } else {
                    { "Scored in this browser: nothing you type leaves the page." }
                }
            </footer>
        </>
    }
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
fn ordered_metrics(card: &Scorecard) -> Vec<(MetricName, Option<f64>)> {
    let weights = card
        .profile
        .as_ref()
        .map(|p| p.parts.clone())
        .unwrap_or_default();
    let mut names: Vec<(MetricName, Option<f64>)> = card
        .metrics
        .keys()
        .map(|name| (*name, weights.get(name.as_str()).map(|p| p.weight)))
        .collect();
    names.sort_by_key(|(name, weight)| {
        (weight.is_none(), *name != MetricName::TableAccuracy, *name)
    });
    names
}

/// What the LLM judge did for the pair on screen, in one line.
fn judge_status(status: &JudgeStatus, run: Option<&JudgeRun>, ask: Callback<MouseEvent>) -> Html {
    let text = match (status, run) {
        (JudgeStatus::Off, _) => return html! {},
        (JudgeStatus::Waiting, _) => {
            return html! {
                <p class="judge-status note" role="status" data-testid="judge-status">
                    { "LLM judge not asked yet: this page calls it only when you act (edit a query or ask). The structural judge scores meanwhile. " }
                    <button type="button" id="judge-ask" onclick={ask}>{ "Ask the LLM judge" }</button>
                </p>
            };
        }
        (JudgeStatus::Blocked(problem), _) => format!("LLM judge not asked: {problem}"),
        (_, Some(run)) if run.outcomes.is_empty() => {
            "LLM judge not needed: the queries are identical after normalization.".to_string()
        }
        (_, Some(run)) => format!(
            "LLM judge: {} ({} from cache, {}, {}) in {:.0} ms",
            counted(run.outcomes.len(), "verdict"),
            run.hits,
            counted(run.calls as usize, "call"),
            counted(run.errors as usize, "error"),
            run.millis
        ),
        (_, None) => "Asking the LLM judge…".to_string(),
    };
    html! { <p class="judge-status note" role="status" data-testid="judge-status">{ text }</p> }
}

/// A banner when judgings failed: which endpoint, what error, and what scored instead. The
/// scorecard says the same in its diagnostics, so a download carries it too.
fn judge_failure(run: Option<&JudgeRun>, endpoint: &str) -> Html {
    let Some(run) = run else { return html! {} };
    let failed: Vec<(&String, String)> = run
        .outcomes
        .iter()
        .filter_map(|(metric, outcome)| outcome.as_ref().err().map(|e| (metric, e.to_string())))
        .collect();
    let Some((_, first)) = failed.first() else {
        return html! {};
    };
    let metrics: Vec<String> = failed
        .iter()
        .map(|(m, _)| super::metric_card::title(m).to_lowercase())
        .collect();
    html! {
        <div class="banner error" role="alert" data-testid="judge-failure">
            <strong>{ format!("The LLM judge at {endpoint} failed: {first}.") }</strong>
            { format!(
                " Not judged by the LLM: {}. The structural judge's score stands where it has one; anything else is not scored and the total leaves it out. Fix the endpoint or turn the LLM judge off in the settings.",
                metrics.join(", ")
            ) }
        </div>
    }
}

/// Which results were given by hand (`expected result`, `generated result` or both), and the
/// pronoun for them.
fn given_results(expected: &str, generated: &str) -> (&'static str, &'static str) {
    match (expected.trim().is_empty(), generated.trim().is_empty()) {
        (false, false) => ("expected and generated results", "them"),
        (false, true) => ("expected result", "it"),
        _ => ("generated result", "it"),
    }
}
