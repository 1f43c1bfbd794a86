use qeval_core::Metric;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub metric: Metric,
}

/// Table accuracy: the score, how it came about, and the sets it was computed from.
#[component]
pub fn TableAccuracyView(props: &Props) -> Html {
    let metric = &props.metric;
    let list = |key: &str| -> Html {
        let names: Vec<String> = metric.details[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if names.is_empty() {
            html! { <span class="muted">{ "none" }</span> }
        } else {
            html! { <>{ for names.into_iter().map(|name| html! { <code class="chip">{ name }</code> }) }</> }
        }
    };
    let score = metric
        .score
        .map_or_else(|| "—".to_string(), |score| format!("{score:.2}"));
    html! {
        <article class="metric" data-testid="table-accuracy">
            <header>
                <h2>{ "Table accuracy" }</h2>
                <output class="score" data-testid="table-accuracy-score">{ score }</output>
            </header>
            <p class="explanation">{ metric.explanation.clone() }</p>
            if metric.error.is_none() {
                <dl class="sets">
                    <dt>{ "Intersection" }</dt>
                    <dd data-testid="intersection">{ list("intersection") }</dd>
                    <dt>{ "Union" }</dt>
                    <dd data-testid="union">{ list("union") }</dd>
                </dl>
            }
        </article>
    }
}
