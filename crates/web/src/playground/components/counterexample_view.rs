//! A database on which two queries differ: its tables, what each query gives on it with the
//! rows the other lacks marked, and its script to copy.

use qeval_core::counted;
use qeval_sqlite::{Counterexample, ShownResult, ShownTable};
use serde_json::Value;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub counterexample: Counterexample,
    /// The `data-testid` of the section.
    pub testid: AttrValue,
}

#[component]
pub fn CounterexampleView(props: &Props) -> Html {
    let copied = use_state_eq(|| None::<String>);
    let counterexample = &props.counterexample;
    let copy = {
        let script = counterexample.script.clone();
        let copied = copied.clone();
        Callback::from(move |_| {
            let Some(window) = web_sys::window() else {
                return;
            };
            let promise = window.navigator().clipboard().write_text(&script);
            let copied = copied.clone();
            spawn_local(async move {
                copied.set(Some(match JsFuture::from(promise).await {
                    Ok(_) => "Copied the script".into(),
                    Err(_) => {
                        "The browser refused the clipboard: select the script below instead".into()
                    }
                }));
            });
        })
    };
    html! {
        <section class="counterexample" data-testid={props.testid.clone()} aria-label="Counterexample">
            <h3>{ format!("A database where they differ (shrunk from generated database {})", counterexample.database) }</h3>
            <div class="tables">
                { for counterexample.tables.iter().map(table) }
            </div>
            <div class="side">
                { result("generated", "Generated query gives", &counterexample.generated) }
                { result("expected", "Expected query gives", &counterexample.expected) }
            </div>
            <p class="row">
                <button type="button" data-testid="copy-counterexample" onclick={copy}>{ "Copy as SQL" }</button>
                if let Some(note) = &*copied {
                    <span class="note" role="status">{ note.clone() }</span>
                }
            </p>
            <details>
                <summary>{ "The script" }</summary>
                <pre data-testid="counterexample-script">{ counterexample.script.clone() }</pre>
            </details>
        </section>
    }
}

fn cell(value: &Value) -> Html {
    match value {
        Value::Null => html! { <td class="null">{ "NULL" }</td> },
        Value::String(s) => html! { <td>{ s.clone() }</td> },
        other => html! { <td class="number">{ other.to_string() }</td> },
    }
}

fn table(shown: &ShownTable) -> Html {
    html! {
        <figure class="db-table" data-testid={format!("counterexample-table-{}", shown.name)}>
            <figcaption>{ format!("{} ({})", shown.name, counted(shown.rows.len(), "row")) }</figcaption>
            <table class="result">
                <tr>{ for shown.columns.iter().map(|c| html! { <th>{ c.clone() }</th> }) }</tr>
                { for shown.rows.iter().map(|row| html! { <tr>{ for row.iter().map(cell) }</tr> }) }
            </table>
        </figure>
    }
}

fn result(id: &str, title: &str, shown: &ShownResult) -> Html {
    html! {
        <div data-testid={format!("counterexample-{id}")}>
            <h4>{ title }</h4>
            if let Some(error) = &shown.error {
                <p class="error-text">{ format!("An error: {error}") }</p>
            } else {
                <table class="result">
                    <tr>{ for shown.columns.iter().map(|c| html! { <th>{ c.clone() }</th> }) }</tr>
                    { for shown.rows.iter().enumerate().map(|(i, row)| {
                        let unmatched = shown.unmatched.contains(&i);
                        html! {
                            <tr class={classes!(unmatched.then_some("unmatched"))} title={unmatched.then_some("no equal row in the other result")}>
                                { for row.iter().map(cell) }
                            </tr>
                        }
                    }) }
                </table>
                if shown.rows.is_empty() {
                    <p class="muted">{ "(no rows)" }</p>
                }
            }
        </div>
    }
}
