use wasm_bindgen_futures::spawn_local;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::report::load::{DroppedFile, dropped, source_of_file};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Distinguishes the first run's loader from the comparison's.
    pub id: AttrValue,
    pub label: AttrValue,
    /// The run's name and its files.
    pub on_sources: Callback<(String, Vec<DroppedFile>)>,
    #[prop_or_default]
    pub on_example: Option<Callback<()>>,
}

/// Where a run comes in: drop a folder or files, pick files, pick a folder.
#[component]
pub fn RunLoader(props: &Props) -> Html {
    let over = use_state_eq(|| false);
    let on_drop = {
        let (over, emit) = (over.clone(), props.on_sources.clone());
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            over.set(false);
            let Some(data) = event.data_transfer() else {
                return;
            };
            let emit = emit.clone();
            spawn_local(async move {
                let sources = dropped(data).await;
                let name = folder_name(&sources);
                emit.emit((name, sources));
            });
        })
    };
    let on_over = {
        let over = over.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            over.set(true);
        })
    };
    let on_leave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let on_pick = {
        let emit = props.on_sources.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(files) = input.files() else { return };
            let sources: Vec<DroppedFile> = (0..files.length())
                .filter_map(|i| files.get(i))
                .map(source_of_file)
                .collect();
            input.set_value("");
            let name = folder_name(&sources);
            emit.emit((name, sources));
        })
    };
    let id = &props.id;
    html! {
        <section
            class={classes!("drop", (*over).then_some("over"))}
            data-testid={format!("{id}-drop")}
            ondrop={on_drop}
            ondragover={on_over}
            ondragleave={on_leave}
        >
            <p>{ props.label.clone() }</p>
            <div class="row">
                <label class="button">
                    { "Pick files" }
                    <input id={format!("{id}-files")} type="file" multiple=true accept=".jsonl,.json,.ndjson" onchange={on_pick.clone()} />
                </label>
                <label class="button">
                    { "Pick a folder" }
                    <input id={format!("{id}-folder")} type="file" webkitdirectory=true onchange={on_pick} />
                </label>
                if let Some(example) = &props.on_example {
                    <button type="button" id="try-example" onclick={example.reform(|_| ())}>{ "Try the example" }</button>
                }
            </div>
        </section>
    }
}

/// The run's name: the dropped folder's, else the first file's.
fn folder_name(sources: &[DroppedFile]) -> String {
    let first = sources.first().map(|s| s.path.as_str()).unwrap_or("run");
    let parts: Vec<&str> = first.split('/').collect();
    if parts.len() >= 2 {
        parts[parts.len() - 2].to_string()
    } else {
        first.to_string()
    }
}
