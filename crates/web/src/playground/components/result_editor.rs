use qeval_core::read_result_text;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::{DragEvent, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub on_input: Callback<String>,
}

/// Largest file read from a drop, so a mistaken drop cannot freeze the tab.
const MAX_DROP_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// A JSON result: paste it, or drop a `.json` file on it. Shows the shape read, or where the
/// JSON or its shape is wrong.
#[component]
pub fn ResultEditor(props: &Props) -> Html {
    let drop_error = use_state(|| None::<String>);
    let on_input = {
        let on_input = props.on_input.clone();
        Callback::from(move |event: InputEvent| {
            let area: HtmlTextAreaElement = event.target_unchecked_into();
            on_input.emit(area.value());
        })
    };
    let on_dragover = Callback::from(|event: DragEvent| event.prevent_default());
    let on_drop = {
        let on_input = props.on_input.clone();
        let drop_error = drop_error.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            let Some(file) = event
                .data_transfer()
                .and_then(|data| data.files())
                .and_then(|files| files.get(0))
            else {
                return;
            };
            if file.size() > MAX_DROP_BYTES {
                drop_error.set(Some(format!(
                    "{} is {:.0} MB; results up to 32 MB can be dropped here",
                    file.name(),
                    file.size() / 1e6
                )));
                return;
            }
            let on_input = on_input.clone();
            let drop_error = drop_error.clone();
            spawn_local(async move {
                match JsFuture::from(file.text()).await {
                    Ok(text) => {
                        drop_error.set(None);
                        on_input.emit(text.as_string().unwrap_or_default());
                    }
                    Err(_) => drop_error.set(Some(format!("{} could not be read", file.name()))),
                }
            });
        })
    };
    // Reading a large result takes a moment: only when the text changes.
    let shape = use_memo(props.value.clone(), |text| {
        if text.trim().is_empty() {
            None
        } else {
            Some(
                read_result_text(text)
                    .map(|result| {
                        let plural = qeval_core::plural;
                        format!(
                            "{} row{} × {} column{}",
                            result.rows.len(),
                            plural(result.rows.len()),
                            result.width(),
                            plural(result.width())
                        )
                    })
                    .map_err(|err| err.to_string()),
            )
        }
    });
    let status = match &*shape {
        None => {
            html! { <span class="muted">{ "Optional. Paste JSON or drop a .json file." }</span> }
        }
        Some(Ok(shape)) => {
            html! { <span class="muted" data-testid={format!("{}-shape", props.id)}>{ shape.clone() }</span> }
        }
        Some(Err(err)) => {
            html! { <span class="error-text" role="alert" data-testid={format!("{}-error", props.id)}>{ err.clone() }</span> }
        }
    };
    html! {
        <section class="editor result-editor">
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <textarea
                id={props.id.clone()}
                value={props.value.clone()}
                oninput={on_input}
                ondragover={on_dragover}
                ondrop={on_drop}
                spellcheck="false"
                rows="5"
                placeholder={"[{\"id\": 1, \"name\": \"a\"}]"}
            />
            <p class="status">{ status }</p>
            if let Some(message) = (*drop_error).clone() {
                <p class="error-text" role="alert">{ message }</p>
            }
        </section>
    }
}
