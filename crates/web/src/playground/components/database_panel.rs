use qeval_worker::protocol::DatabaseForm;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::{DatabaseDrop, DatabaseSchema};
use crate::components::TextField;
use crate::database::{BUILT_FROM_SQL, LoadedDb};
use crate::playground::hooks::use_database_opening;
use crate::workers::Workers;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub db: LoadedDb,
    /// SQL to build the database from as soon as the panel shows: a shared link's.
    #[prop_or_default]
    pub sql: String,
    pub on_load: Callback<LoadedDb>,
    /// Seconds a query may run before it is interrupted.
    pub time_limit: f64,
    pub on_time_limit: Callback<f64>,
    /// Test-suite databases to generate (0: off), and their seed.
    pub suite: u32,
    pub seed: u64,
    pub on_suite: Callback<u32>,
    pub on_seed: Callback<u64>,
}

/// A SQLite database for the playground: a dropped or picked `.sqlite`/`.db` file, or one built
/// from pasted DDL and INSERTs. Shows its tables.
#[component]
pub fn DatabasePanel(props: &Props) -> Html {
    let worker = use_context::<Workers>().unwrap_or_default().database;
    let opening = use_database_opening(props.on_load.clone(), props.sql.clone(), &props.db);
    let script = use_state(|| props.sql.clone());
    let on_build = {
        let (script, open) = (script.clone(), opening.open.clone());
        Callback::from(move |_| {
            open.emit((
                BUILT_FROM_SQL.into(),
                DatabaseForm::Script((*script).clone()),
                None,
            ))
        })
    };
    // Opening the panel is the first sign a database is coming: SQLite starts loading then.
    let on_toggle = Callback::from(move |_: Event| worker.warm_up());
    let on_script = {
        let script = script.clone();
        Callback::from(move |e: InputEvent| {
            script.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    html! {
        <details class="database" id="database" open={props.db.is_loaded()} ontoggle={on_toggle}>
            <summary data-testid="database-summary">
                { if props.db.is_loaded() { format!("Database: {} (both queries run on it)", props.db.name) } else { "Database (optional): run both queries on SQLite in this page".into() } }
            </summary>
            <DatabaseDrop on_files={opening.load_files.clone()} />
            <label class="field"><span>{ "Or build one from SQL (CREATE TABLE and INSERT statements)" }</span>
                <textarea id="db-script" rows="4" spellcheck="false" value={(*script).clone()} oninput={on_script} />
            </label>
            <div class="row">
                <button type="button" id="db-build" onclick={on_build}>{ "Build database" }</button>
                <TextField
                    id="db-time-limit"
                    label="Time limit per query (s)"
                    kind="number"
                    value={props.time_limit.to_string()}
                    on_change={props.on_time_limit.reform(|v: String| v.parse().unwrap_or(10.0))}
                />
                <TextField
                    id="db-suite"
                    label="Test-suite databases (0: off)"
                    kind="number"
                    title="Also run both queries on this many databases generated from the schema (Spider's test-suite method)"
                    value={props.suite.to_string()}
                    on_change={props.on_suite.reform(|v: String| v.parse().unwrap_or(0))}
                />
                <TextField
                    id="db-seed"
                    label="Seed"
                    kind="number"
                    value={props.seed.to_string()}
                    on_change={props.on_seed.reform(|v: String| v.parse().unwrap_or(0))}
                />
            </div>
            if let Some((ok, message)) = &opening.status {
                <p class={if *ok { "note" } else { "error-text" }} role="status" data-testid="db-status">{ message.clone() }</p>
            }
            if props.db.is_loaded() {
                <DatabaseSchema db={props.db.clone()} />
            }
        </details>
    }
}
