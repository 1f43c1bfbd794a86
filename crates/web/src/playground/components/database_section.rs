use qeval_core::Language;
use qeval_worker::protocol::Answer;
use yew::prelude::*;

use super::{DatabasePanel, EquivalencePanel, JobStatus, QueryResults};
use crate::database::{BUILT_FROM_SQL, LoadedDb};
use crate::playground::hooks::JobState;
use crate::playground::state::{Playground, PlaygroundAction};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Playground,
    pub dispatch: Callback<PlaygroundAction>,
    pub db: LoadedDb,
    pub on_db: Callback<LoadedDb>,
    /// The SQL a link carried to build its database from.
    pub sql: String,
    pub time_limit: f64,
    pub on_time_limit: Callback<f64>,
    pub executed: JobState,
    pub checked: JobState,
    /// The untouched example: its equivalence check waits for `on_check_example`.
    pub pristine: bool,
    pub on_check_example: Callback<()>,
}

/// Where the queries run: the database (loaded, built or asked for by a link), its results, and
/// without one the equivalence check on generated databases.
#[component]
pub fn DatabaseSection(props: &Props) -> Html {
    let (state, dispatch, db) = (&props.state, &props.dispatch, &props.db);
    let on_load = {
        let (on_db, dispatch) = (props.on_db.clone(), dispatch.clone());
        Callback::from(move |loaded: LoadedDb| {
            dispatch.emit(PlaygroundAction::SetDatabase {
                name: loaded.name.clone(),
                sql: loaded.sql.clone(),
            });
            on_db.emit(loaded);
        })
    };
    let shown_check = match props.checked.latest() {
        Some(Answer::Checked(shown)) => shown.clone(),
        _ => None,
    };
    let typed_results =
        !state.expected_result.trim().is_empty() || !state.generated_result.trim().is_empty();
    html! {
        <>
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
                sql={props.sql.clone()}
                {on_load}
                suite={state.suite}
                seed={state.seed}
                on_suite={dispatch.reform(PlaygroundAction::SetSuite)}
                on_seed={dispatch.reform(PlaygroundAction::SetSeed)}
                time_limit={props.time_limit}
                on_time_limit={props.on_time_limit.clone()}
            />
            <JobStatus />
            if let JobState::Done(answer) = &props.executed {
                <QueryResults answer={answer.clone()} />
            }
            if db.is_loaded() && typed_results {
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
                    checking={props.checked.is_running()}
                    cancelled={props.checked == JobState::Cancelled}
                    on_check={props.pristine.then(|| props.on_check_example.clone())}
                    schema={state.schema.clone()}
                    on_schema={dispatch.reform(PlaygroundAction::SetSchema)}
                    on_dialect={dispatch.reform(PlaygroundAction::SetDialect)}
                    checks={state.checks}
                    on_checks={dispatch.reform(PlaygroundAction::SetChecks)}
                    seed={state.seed}
                    on_seed={dispatch.reform(PlaygroundAction::SetSeed)}
                />
            }
        </>
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
