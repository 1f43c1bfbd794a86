use qeval_core::{Language, QueryReport, SqlDialect};
use serde_json::json;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::ParseErrorView;
use crate::playground::editor::{self, Marker};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The element id, also used to point parse errors at this editor.
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub on_input: Callback<String>,
    /// What qeval read from the settled text; `None` while there is nothing to read.
    pub report: Option<QueryReport>,
    /// The text that analysis was made from (it lags the editor while typing).
    pub analysed_text: AttrValue,
    pub language: Language,
    pub dialect: SqlDialect,
    /// Table and column names to complete (`{"orders": ["id", "total"]}`).
    pub schema: serde_json::Value,
    /// The findings to mark in the analysed text.
    pub markers: Vec<Marker>,
}

/// A query editor (CodeMirror: highlighting, line numbers, brackets, completion from the
/// schema, findings marked in the text) with what qeval read from the query underneath: its
/// tables or its parse error.
#[component]
pub fn QueryEditor(props: &Props) -> Html {
    let host = use_node_ref();
    // The editor calls whichever callback the latest render gave.
    let on_input = use_mut_ref(|| props.on_input.clone());
    *on_input.borrow_mut() = props.on_input.clone();
    {
        let (host, id, on_input) = (host.clone(), props.id.clone(), on_input.clone());
        let settings = json!({
            "text": props.value.as_str(),
            "label": props.label.as_str(),
            "language": language_name(props.language),
            "dialect": props.dialect.name(),
            "schema": props.schema,
        });
        use_effect_with((), move |()| {
            let changed = Closure::<dyn Fn(String)>::new(move |text: String| {
                let callback = on_input.borrow().clone();
                callback.emit(text);
            });
            let settings = editor::to_js(&settings);
            let _ = js_sys::Reflect::set(&settings, &"onChange".into(), changed.as_ref());
            if let Some(element) = host.get() {
                editor::mount(&element.unchecked_into(), &id, &settings);
            }
            move || {
                editor::unmount(&id);
                drop(changed);
            }
        });
    }
    {
        let id = props.id.clone();
        use_effect_with(props.value.clone(), move |text| editor::set_text(&id, text));
    }
    {
        let id = props.id.clone();
        let changes = (props.language, props.dialect, props.schema.clone());
        use_effect_with(changes, move |(language, dialect, schema)| {
            let changes = json!({
                "language": language_name(*language),
                "dialect": dialect.name(),
                "schema": schema,
            });
            editor::configure(&id, &editor::to_js(&changes));
        });
    }
    {
        // Findings are placed in the text they were found in; while the text has moved on, the
        // editor keeps the last ones, moved along with the edits.
        let id = props.id.clone();
        let current = props.analysed_text == props.value;
        use_effect_with(
            (props.markers.clone(), current),
            move |(markers, current)| {
                if *current {
                    editor::set_markers(&id, markers);
                }
            },
        );
    }
    let findings = match &props.report {
        None => html! {},
        Some(report) => match &report.parse_error {
            Some(error) => html! {
                <ParseErrorView
                    error={error.clone()}
                    source={props.analysed_text.clone()}
                    editor_id={props.id.clone()}
                />
            },
            None => html! {
                <p class="tables" data-testid={format!("{}-tables", props.id)}>
                    <span class="caption">{ "Reads " }</span>
                    if report.tables.is_empty() {
                        <span class="muted">{ "no tables" }</span>
                    }
                    { for report.tables.iter().map(|table| html! {
                        <code class="chip">{ table.qualified() }</code>
                    }) }
                </p>
            },
        },
    };
    let focus = {
        let id = props.id.clone();
        Callback::from(move |_| editor::focus(&id))
    };
    html! {
        <section class="editor">
            <label id={format!("{}-label", props.id)} onclick={focus}>{ props.label.clone() }</label>
            <div id={props.id.clone()} class="code-editor" ref={host} />
            { findings }
        </section>
    }
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::Sql => "sql",
        Language::Kql => "kql",
    }
}
