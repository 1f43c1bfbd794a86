use qeval_core::results::read_result;
use qeval_core::run::EvaluationRecord;
use serde_json::Value;
use yew::prelude::*;

use super::DiffedQueries;

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

/// A result as a table when it reads as one, else as JSON.
fn result_view(value: Option<&Value>) -> Html {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return html! { <p class="muted">{ "(none)" }</p> };
    };
    match read_result(value) {
        Ok(set) if set.width() > 1 || set.rows.len() > 1 => html! {
            <table class="result">
                <tr>{ for set.columns.iter().map(|c| html! { <th>{ c.clone() }</th> }) }</tr>
                { for set.rows.iter().take(200).map(|row| html! {
                    <tr>{ for row.iter().map(|cell| html! { <td>{ cell.to_string() }</td> }) }</tr>
                }) }
            </table>
        },
        _ => html! { <pre>{ serde_json::to_string_pretty(value).unwrap_or_default() }</pre> },
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
                <div><h3>{ "Expected results" }</h3>{ result_view(r.expected_results.as_ref()) }</div>
                <div><h3>{ "Actual results" }</h3>{ result_view(r.actual_results.as_ref()) }</div>
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
                    <li>{ format!("Semantic {:.2}: {}", q.semantic_score, q.breakdown.semantic_explanation) }</li>
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
