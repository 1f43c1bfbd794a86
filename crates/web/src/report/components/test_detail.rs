use qeval_core::{DETAIL_ROWS, EvaluationRecord, TableView, json_result_views};
use serde_json::Value;
use yew::prelude::*;

use crate::components::{DiffedQueries, ExplanationText, ResultTable};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub record: EvaluationRecord,
    /// The Close button, or Escape inside the detail.
    pub on_close: Callback<()>,
}

const KNOWN: [&str; 9] = [
    "test_id",
    "question",
    "agent_used",
    "difficulty",
    "expected_sql",
    "generated_sql",
    "expected_results",
    "actual_results",
    "qas_evaluation",
];

/// Both results as tables marked against each other when both read as results; one that does
/// not is shown as its JSON, and one that is missing says so.
fn result_views(expected: Option<&Value>, generated: Option<&Value>) -> (Html, Html) {
    let (expected, generated) = (given(expected), given(generated));
    let (expected_view, generated_view) = json_result_views(expected, generated, DETAIL_ROWS);
    (
        show(expected, expected_view, "expected-result-table"),
        show(generated, generated_view, "generated-result-table"),
    )
}

fn given(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

fn show(value: Option<&Value>, view: Option<TableView>, label: &'static str) -> Html {
    match (value, view) {
        (None, _) => html! { <p class="muted">{ "(none)" }</p> },
        (Some(_), Some(view)) => html! { <ResultTable {view} {label} /> },
        (Some(value), None) => {
            html! { <pre>{ serde_json::to_string_pretty(value).unwrap_or_default() }</pre> }
        }
    }
}

/// One test: the question, both queries with their differences marked, both results, every
/// explanation, and the fields qeval does not know.
#[component]
pub fn TestDetail(props: &Props) -> Html {
    let r = &props.record;
    let expected = r.expected_sql.clone().unwrap_or_default();
    let generated = r.generated_sql.clone().unwrap_or_default();
    let extra: serde_json::Map<String, Value> = r
        .extra
        .iter()
        .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let (expected_view, generated_view) =
        result_views(r.expected_results.as_ref(), r.actual_results.as_ref());
    let on_key = {
        let on_close = props.on_close.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Escape" {
                event.prevent_default();
                on_close.emit(());
            }
        })
    };
    html! {
        <section class="detail" data-testid="test-detail" aria-label="Test detail" onkeydown={on_key}>
            <div class="detail-head">
                <h2>{ format!("Test {}", r.key()) }</h2>
                <button type="button" id="detail-close" onclick={props.on_close.reform(|_| ())}>{ "Close" }</button>
            </div>
            <p data-testid="detail-question">{ if r.question.is_empty() { "(no question)".to_string() } else { r.question.clone() } }</p>
            <DiffedQueries expected={expected} generated={generated}
                expected_label="Expected query" generated_label="Generated query" />
            <div class="side">
                <div><h3>{ "Expected results" }</h3>{ expected_view }</div>
                <div><h3>{ "Actual results" }</h3>{ generated_view }</div>
            </div>
            if let Some(q) = &r.qas_evaluation {
                <h3>
                    { format!("Final {:.2}: {}", q.final_score, if q.passed { "PASS" } else { "FAIL" }) }
                    if r.is_unsafe() {
                        { " " }
                        <span class="badge fail" data-testid="detail-unsafe"
                            title="The generated query is not read-only: it fails whatever it scores">{ "UNSAFE" }</span>
                    }
                </h3>
                <ul class="explanations" data-testid="detail-explanations">
                    <li>
                        { format!("Semantic {:.2}: ", q.semantic_score) }
                        <ExplanationText text={q.breakdown.semantic_explanation.clone()} />
                    </li>
                    <li>{ format!("Execution {:.2}: {}", q.execution_score, q.breakdown.execution_explanation) }</li>
                    <li>{ format!("Datatype {:.2}: {}", q.datatype_score, q.breakdown.datatype_explanation) }</li>
                </ul>
            }
            if !extra.is_empty() {
                <h3>{ "Other fields" }</h3>
                <pre data-testid="detail-extra">{ serde_json::to_string_pretty(&extra).unwrap_or_default() }</pre>
            }
        </section>
    }
}
