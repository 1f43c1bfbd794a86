use qeval_core::scorecard::QueryReport;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::ParseErrorView;

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
}

/// A query editor with what qeval read from the query underneath: its tables or its parse error.
#[component]
pub fn QueryEditor(props: &Props) -> Html {
    let on_input = {
        let on_input = props.on_input.clone();
        Callback::from(move |event: InputEvent| {
            let area: HtmlTextAreaElement = event.target_unchecked_into();
            on_input.emit(area.value());
        })
    };
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
    html! {
        <section class="editor">
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <textarea
                id={props.id.clone()}
                value={props.value.clone()}
                oninput={on_input}
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                rows="8"
            />
            { findings }
        </section>
    }
}
