use gloo_timers::future::TimeoutFuture;
use js_sys::Uint8Array;
use qeval_worker::protocol::{Answer, DatabaseForm};
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::{DragEvent, File, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::components::TextField;
use crate::database::{BUILT_FROM_SQL, LoadedDb};
use crate::workers::{Reply, WorkerStatus, Workers};

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

/// Bytes read per slice of a dropped database, so a large file shows progress.
const SLICE: f64 = 8.0 * 1024.0 * 1024.0;
/// Larger files are refused with a message rather than risking the tab.
const MAX_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// A SQLite database for the playground: a dropped or picked `.sqlite`/`.db` file, or one built
/// from pasted DDL and INSERTs. Shows its tables.
#[component]
pub fn DatabasePanel(props: &Props) -> Html {
    let worker = use_context::<Workers>().unwrap_or_default().database;
    let worker_status = use_context::<WorkerStatus>().unwrap_or_default();
    let status = use_state(|| None::<(bool, String)>);
    let script = use_state(|| props.sql.clone());
    // Opens `source` in the worker; the panel says so until it answers.
    let open = {
        let (worker, status, on_load) = (worker.clone(), status.clone(), props.on_load.clone());
        Callback::from(
            move |(name, source, bytes): (String, DatabaseForm, Option<Uint8Array>)| {
                status.set(Some((true, format!("Opening {name}…"))));
                let sql = match &source {
                    DatabaseForm::Script(sql) => sql.clone(),
                    _ => String::new(),
                };
                let (status, on_load, shown) = (status.clone(), on_load.clone(), name.clone());
                worker.open(name, source, bytes, move |reply| match reply {
                    Reply::Answer(Answer::Opened(Ok(tables))) => {
                        status.set(None);
                        on_load.emit(LoadedDb::new(shown, tables, sql));
                    }
                    Reply::Answer(Answer::Opened(Err(err))) => status.set(Some((false, err))),
                    _ => status.set(Some((false, format!("{shown} was not opened")))),
                });
            },
        )
    };
    let load_files = {
        let (status, open) = (status.clone(), open.clone());
        Callback::from(move |files: Vec<File>| {
            let (status, open) = (status.clone(), open.clone());
            spawn_local(async move {
                match read_files(&files, &status).await {
                    Ok(opened) => open.emit(opened),
                    Err(err) => status.set(Some((false, err))),
                }
            });
        })
    };
    let on_drop = {
        let load_files = load_files.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            if let Some(files) = event.data_transfer().and_then(|d| d.files()) {
                load_files.emit((0..files.length()).filter_map(|i| files.get(i)).collect());
            }
        })
    };
    let on_pick = Callback::from(move |event: Event| {
        let input: HtmlInputElement = event.target_unchecked_into();
        if let Some(files) = input.files() {
            load_files.emit((0..files.length()).filter_map(|i| files.get(i)).collect());
        }
        input.set_value("");
    });
    let on_build = {
        let (script, open) = (script.clone(), open.clone());
        Callback::from(move |_| {
            open.emit((
                BUILT_FROM_SQL.into(),
                DatabaseForm::Script((*script).clone()),
                None,
            ))
        })
    };
    // A link's SQL is built once, when the page opens it; what the user builds later is theirs.
    {
        let (open, script) = (open.clone(), script.clone());
        let unbuilt =
            (!props.sql.is_empty() && props.sql != props.db.sql).then(|| props.sql.clone());
        use_effect_with((), move |()| {
            if let Some(sql) = unbuilt {
                script.set(sql.clone());
                open.emit((BUILT_FROM_SQL.into(), DatabaseForm::Script(sql), None));
            }
        });
    }
    // Opening the panel is the first sign a database is coming: SQLite starts loading then.
    let on_toggle = {
        let worker = worker.clone();
        Callback::from(move |_: Event| worker.warm_up())
    };
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
            <div class="drop" data-testid="db-drop" ondrop={on_drop} ondragover={Callback::from(|e: DragEvent| e.prevent_default())}>
                <p>{ "Drop a .sqlite or .db file here, or CSV files (one table each, named after the file, with a header row), or pick them. They stay in this page: nothing is uploaded, and no file is written." }</p>
                if let Some(version) = &worker_status.sqlite_version {
                    <p class="note">{ "SQLite " }<span data-testid="sqlite-version">{ version.clone() }</span>{ ", the same as the qeval command line." }</p>
                } else {
                    <p class="note" data-testid="sqlite-loading">{ "SQLite loads on the first database action…" }</p>
                }
                <label class="button">{ "Pick a database or CSV files" }<input id="db-file" type="file" multiple=true accept=".sqlite,.sqlite3,.db,.csv" onchange={on_pick} /></label>
            </div>
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
            if let Some((ok, message)) = &*status {
                <p class={if *ok { "note" } else { "error-text" }} role="status" data-testid="db-status">{ message.clone() }</p>
            }
            if props.db.is_loaded() {
                <table class="result" data-testid="db-schema">
                    <tr><th>{ "Table" }</th><th>{ "Columns" }</th><th>{ "Rows" }</th></tr>
                    { for props.db.tables.iter().map(|t| html! {
                        <tr>
                            <td>{ t.name.clone() }</td>
                            <td>{ t.columns.iter().map(|c| if c.kind.is_empty() { c.name.clone() } else { format!("{} {}", c.name, c.kind) }).collect::<Vec<_>>().join(", ") }</td>
                            <td>{ t.rows.to_string() }</td>
                        </tr>
                    }) }
                </table>
            }
        </details>
    }
}

/// CSV files become one table each; otherwise the first file is opened as a SQLite database.
/// Reads them here (with progress); the worker opens them.
async fn read_files(
    files: &[File],
    status: &UseStateHandle<Option<(bool, String)>>,
) -> Result<(String, DatabaseForm, Option<Uint8Array>), String> {
    let first = files.first().ok_or("no file")?;
    if files
        .iter()
        .any(|f| f.name().to_ascii_lowercase().ends_with(".csv"))
    {
        let mut texts = Vec::new();
        for file in files {
            let bytes = read_file(file, status).await?;
            texts.push((file.name(), String::from_utf8_lossy(&bytes).into_owned()));
        }
        let name = if texts.len() == 1 {
            texts[0].0.clone()
        } else {
            format!("{} CSV files", texts.len())
        };
        return Ok((name, DatabaseForm::Csv(texts), None));
    }
    let bytes = read_file(first, status).await?;
    Ok((
        first.name(),
        DatabaseForm::File,
        Some(Uint8Array::from(bytes.as_slice())),
    ))
}

/// The file's bytes, read in slices with the progress shown in `status`.
async fn read_file(
    file: &File,
    status: &UseStateHandle<Option<(bool, String)>>,
) -> Result<Vec<u8>, String> {
    let size = file.size();
    if size > MAX_BYTES {
        return Err(format!(
            "{} is {:.0} MB; databases up to 1 GB can be opened here",
            file.name(),
            size / 1e6
        ));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    let mut at = 0.0;
    while at < size {
        let end = (at + SLICE).min(size);
        let slice = file
            .slice_with_f64_and_f64(at, end)
            .map_err(|e| format!("{e:?}"))?;
        let buffer = JsFuture::from(slice.array_buffer())
            .await
            .map_err(|_| format!("{} could not be read", file.name()))?;
        bytes.extend(Uint8Array::new(&buffer).to_vec());
        at = end;
        status.set(Some((
            true,
            format!(
                "Reading {}: {:.0} of {:.0} MB",
                file.name(),
                at / 1e6,
                size / 1e6
            ),
        )));
        TimeoutFuture::new(0).await;
    }
    Ok(bytes)
}
