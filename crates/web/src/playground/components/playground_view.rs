//! The playground: two queries (and optionally their results) in, a scorecard out, all of it in
//! the URL.

use qeval_sqlite::schema_names_value;
use qeval_worker::protocol::Answer;
use yew::prelude::*;

use super::{
    DatabaseSection, PlaygroundHeader, QueryEditors, QuestionFields, ResultsInput, ScoresSection,
};
use crate::app::ViewProps;
use crate::components::JudgeSettingsPanel;
use crate::database::LoadedDb;
use crate::judge::VerdictCache;
use crate::playground::hooks::{
    DatabaseJobs, JobState, initial_state, use_cache_revision, use_database_jobs, use_debounced,
    use_llm_judge, use_scorecard, use_shared_url,
};
use crate::playground::scoring::score_with_jobs;
use crate::playground::state::PlaygroundAction;

/// How long typing must pause before the queries are scored again.
const SETTLE_MILLIS: u32 = 150;
/// How long typing (or editing the judge's settings) must pause before the LLM judge is asked:
/// longer, because every question costs a call.
const JUDGE_SETTLE_MILLIS: u32 = 700;

#[component]
pub fn PlaygroundView(props: &ViewProps) -> Html {
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
    // Armed with the state it was armed for: the first edit must not send the state before it.
    let (judged_state, judged_settings, judged_armed) = use_debounced(
        ((*state).clone(), props.settings.clone(), *armed),
        JUDGE_SETTLE_MILLIS,
    );
    let judge = use_llm_judge(&judged_state, &judged_settings, judged_armed);
    let run = judge.run_for(&settled);
    let db = &props.db;
    let time_limit = use_state_eq(|| 10.0f64);
    let jobs = use_database_jobs(&settled, db, *time_limit);
    let DatabaseJobs {
        executed,
        suite,
        checked,
        ..
    } = &jobs;
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
            let task = score_with_jobs(state, run.as_deref(), (executed, suite, checked));
            (state.clone(), task)
        },
    );
    let on_cache_cleared = use_cache_revision();
    let both_given = !settled.generated.trim().is_empty() && !settled.expected.trim().is_empty();
    html! {
        <>
            <PlaygroundHeader state={(*state).clone()} dispatch={dispatch.clone()} {share_problem} />
            <JudgeSettingsPanel
                settings={props.settings.clone()}
                on_change={props.on_settings.clone()}
                stats={VerdictCache::shared().stats()}
                {on_cache_cleared}
            />
            if let Some(notice) = &start.1 {
                <p class="notice" role="alert">{ notice.clone() }</p>
            }
            <main>
                <QuestionFields state={(*state).clone()} dispatch={dispatch.clone()} />
                <QueryEditors state={(*state).clone()} dispatch={dispatch.clone()} scored={scored.clone()}
                    schema={completion_names(db, checked)} />
                <DatabaseSection state={(*state).clone()} dispatch={dispatch.clone()}
                    db={db.clone()} on_db={props.on_db.clone()} sql={start.0.database_sql.clone()}
                    time_limit={*time_limit}
                    on_time_limit={let time_limit = time_limit.clone(); Callback::from(move |s| time_limit.set(s))}
                    executed={jobs.executed.clone()} checked={jobs.checked.clone()}
                    pristine={jobs.pristine} on_check_example={jobs.on_check_example.clone()} />
                <ResultsInput state={(*state).clone()} dispatch={dispatch.clone()} />
                <ScoresSection {both_given} {scored} judge={judge.clone()} {run}
                    settings={judged_settings.clone()}
                    on_ask={Callback::from(move |_| armed.set(true))} />
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

/// The names the editors complete from: the loaded database's tables, or else the schema the
/// equivalence check used (written or inferred).
fn completion_names(db: &LoadedDb, checked: &JobState) -> serde_json::Value {
    if db.is_loaded() {
        return schema_names_value(&db.tables);
    }
    match checked.latest() {
        Some(Answer::Checked(Some(checked))) => serde_json::json!(checked.names),
        _ => serde_json::json!({}),
    }
}
