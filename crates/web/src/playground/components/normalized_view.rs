//! Why two queries differ: both in the normalized form the exact-match check compares, side by
//! side with their differences marked, and the structural judge's agreement component by
//! component (tables, filters, output, grouping, ordering), with what is missing or extra.

use std::rc::Rc;

use qeval_core::{MetricName, Scorecard};
use serde_json::Value;
use yew::prelude::*;

use crate::components::DiffedQueries;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub card: Rc<Scorecard>,
}

fn words(list: &Value) -> String {
    list.as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

fn components(details: &Value) -> Html {
    let Some(parts) = details["components"].as_array().filter(|p| !p.is_empty()) else {
        return html! {};
    };
    html! {
        <table class="components" data-testid="judge-components">
            <caption>{ "The structural judge, part by part" }</caption>
            <thead><tr>
                <th scope="col">{ "Part" }</th>
                <th scope="col">{ "Weight" }</th>
                <th scope="col">{ "Agreement" }</th>
                <th scope="col">{ "Missing from the generated" }</th>
                <th scope="col">{ "Extra in the generated" }</th>
            </tr></thead>
            <tbody>
                { for parts.iter().map(|part| html! {
                    <tr>
                        <th scope="row">{ part["name"].as_str().unwrap_or_default() }</th>
                        <td>{ part["weight"].as_f64().map_or(String::new(), |w| format!("{w:.2}")) }</td>
                        <td>{ part["agreement"].as_f64().map_or(String::new(), |a| format!("{a:.2}")) }</td>
                        <td>{ words(&part["missing"]) }</td>
                        <td>{ words(&part["extra"]) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

#[component]
pub fn NormalizedView(props: &Props) -> Html {
    let card = &props.card;
    let expected = card
        .expected
        .as_ref()
        .map(|q| q.normalized.clone())
        .unwrap_or_default();
    let details = card
        .metrics
        .get(&MetricName::QueryCorrectness)
        .map(|m| m.details.clone())
        .unwrap_or_default();
    html! {
        <details class="normalized" open={!card.identical} data-testid="normalized">
            <summary>{ "Why they differ: the normalized queries and the judge's parts" }</summary>
            <DiffedQueries expected={expected} generated={card.generated.normalized.clone()}
                expected_label="Expected, normalized" generated_label="Generated, normalized" />
            { components(&details) }
        </details>
    }
}
