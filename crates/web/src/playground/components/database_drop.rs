use web_sys::{DragEvent, File, HtmlInputElement};
use yew::prelude::*;

use crate::workers::WorkerStatus;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Files dropped or picked.
    pub on_files: Callback<Vec<File>>,
}

/// Where a database or CSV files are dropped or picked, with the SQLite the page runs.
#[component]
pub fn DatabaseDrop(props: &Props) -> Html {
    let worker_status = use_context::<WorkerStatus>().unwrap_or_default();
    let on_drop = {
        let on_files = props.on_files.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            if let Some(files) = event.data_transfer().and_then(|d| d.files()) {
                on_files.emit((0..files.length()).filter_map(|i| files.get(i)).collect());
            }
        })
    };
    let on_pick = {
        let on_files = props.on_files.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Some(files) = input.files() {
                on_files.emit((0..files.length()).filter_map(|i| files.get(i)).collect());
            }
            input.set_value("");
        })
    };
    html! {
        <div class="drop" data-testid="db-drop" ondrop={on_drop} ondragover={Callback::from(|e: DragEvent| e.prevent_default())}>
            <p>{ "Drop a .sqlite or .db file here, or CSV files (one table each, named after the file, with a header row), or pick them. They stay in this page: nothing is uploaded, and no file is written." }</p>
            if let Some(version) = &worker_status.sqlite_version {
                <p class="note">{ "SQLite " }<span data-testid="sqlite-version">{ version.clone() }</span>{ ", the same as the qeval command line." }</p>
            } else {
                <p class="note" data-testid="sqlite-loading">{ "SQLite loads on the first database action…" }</p>
            }
            <label class="button">{ "Pick a database or CSV files" }<input id="db-file" type="file" multiple=true accept=".sqlite,.sqlite3,.db,.csv" onchange={on_pick} /></label>
        </div>
    }
}
