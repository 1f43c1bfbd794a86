use qeval_core::{Metric, MetricName};
use qeval_sqlite::Counterexample;
use serde_json::Value;
use yew::prelude::*;

use super::CounterexampleView;
use crate::components::ExplanationText;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The metric's key in the scorecard, e.g. `table_accuracy`.
    pub name: AttrValue,
    pub metric: Metric,
    /// Its weight in the profile, if it has one.
    #[prop_or_default]
    pub weight: Option<f64>,
}

/// A human title for a metric key: the metric's own, or the key made readable (the LLM judge's
/// `quality` judging fills three metrics and has no title of its own).
pub fn title(name: &str) -> String {
    name.parse::<MetricName>().map_or_else(
        |_| name.replace('_', " "),
        |metric| metric.title().to_string(),
    )
}

/// What a metric measures, in one sentence, for the title's tooltip.
fn about(name: &str) -> Option<&'static str> {
    name.parse::<MetricName>().ok().map(MetricName::about)
}

/// One metric: score, explanation, its error if it failed, and the parts it came from.
#[component]
pub fn MetricCard(props: &Props) -> Html {
    let metric = &props.metric;
    let score = metric
        .score
        .map_or_else(|| "—".to_string(), |score| format!("{score:.2}"));
    let class = match (metric.error.is_some(), metric.passed) {
        (true, _) | (_, Some(false)) => "metric fail",
        (_, Some(true)) => "metric pass",
        _ => "metric",
    };
    html! {
        <article class={class} data-testid={format!("metric-{}", props.name)}>
            <header>
                <h3 title={about(&props.name)}>{ title(&props.name) }</h3>
                <output class="score" data-testid={format!("metric-{}-score", props.name)}>{ score }</output>
            </header>
            if let Some(weight) = props.weight {
                <p class="weight">{ format!("weight {:.0}%", weight * 100.0) }</p>
            }
            // An LLM judge may write Markdown; other metrics' explanations quote SQL as it is.
            if metric.details["judge"] == "llm" {
                <div class="explanation" data-testid={format!("metric-{}-explanation", props.name)}>
                    <ExplanationText text={metric.explanation.clone()} />
                </div>
            } else {
                <p class="explanation" data-testid={format!("metric-{}-explanation", props.name)}>{ metric.explanation.clone() }</p>
            }
            if let Some(error) = &metric.error {
                <p class="error-text">{ format!("{} failed: {}", error.metric, error.message) }</p>
            }
            { details(&props.name, &metric.details) }
        </article>
    }
}

fn chips(values: &Value) -> Html {
    let names: Vec<String> = values
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        return html! { <span class="muted">{ "none" }</span> };
    }
    html! { <>{ for names.into_iter().map(|name| html! { <code class="chip">{ name }</code> }) }</> }
}

fn list(items: &Value, key: Option<&str>) -> Html {
    let texts: Vec<String> = items
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| match key {
                    Some(key) => item[key].as_str().unwrap_or_default().to_string(),
                    None => item
                        .as_str()
                        .map_or_else(|| item.to_string(), str::to_string),
                })
                .collect()
        })
        .unwrap_or_default();
    html! { <ul class="differences">{ for texts.into_iter().map(|t| html! { <li>{ t }</li> }) }</ul> }
}

/// The parts each kind of metric came from.
fn details(name: &str, details: &Value) -> Html {
    if details.is_null() {
        return html! {};
    }
    if details["judge"] == "llm" {
        return html! {
            <dl class="sets">
                <dt>{ "Judge" }</dt>
                <dd data-testid={format!("metric-{name}-judge")}>
                    { format!("{} · {}", details["provider"].as_str().unwrap_or_default(), details["model"].as_str().unwrap_or_default()) }
                    if details["cached"] == true {
                        { " " }<span class="badge" data-testid={format!("metric-{name}-cached")}>{ "from cache" }</span>
                    }
                </dd>
            </dl>
        };
    }
    let Ok(metric) = name.parse::<MetricName>() else {
        return html! {};
    };
    match metric {
        MetricName::TestSuite if details["counterexample"].is_object() => {
            match serde_json::from_value::<Counterexample>(details["counterexample"].clone()) {
                Ok(counterexample) => html! {
                    <CounterexampleView {counterexample} testid="suite-counterexample" />
                },
                Err(_) => html! {},
            }
        }
        MetricName::TableAccuracy => html! {
            <dl class="sets">
                <dt>{ "Intersection" }</dt>
                <dd data-testid="intersection">{ chips(&details["intersection"]) }</dd>
                <dt>{ "Union" }</dt>
                <dd data-testid="union">{ chips(&details["union"]) }</dd>
            </dl>
        },
        MetricName::QueryCorrectness | MetricName::SemanticSimilarity
            if details["differences"]
                .as_array()
                .is_some_and(|d| !d.is_empty()) =>
        {
            list(&details["differences"], None)
        }
        MetricName::Safety
            if details["violations"]
                .as_array()
                .is_some_and(|v| !v.is_empty()) =>
        {
            list(&details["violations"], Some("reason"))
        }
        MetricName::Safety
            if details["warnings"]
                .as_array()
                .is_some_and(|v| !v.is_empty()) =>
        {
            list(&details["warnings"], Some("reason"))
        }
        MetricName::ResultsMatch | MetricName::Execution if details.get("mode").is_some() => {
            let number = |key: &str| {
                details[key]
                    .as_u64()
                    .map_or("—".to_string(), |n| n.to_string())
            };
            let ratio = |key: &str| {
                details[key]
                    .as_f64()
                    .map_or("—".to_string(), |n| format!("{n:.3}"))
            };
            html! {
                <dl class="sets">
                    <dt>{ "Mode" }</dt><dd>{ details["mode"].as_str().unwrap_or_default() }</dd>
                    <dt>{ "Rows" }</dt><dd>{ format!("{} expected, {} generated, {} matched", number("expected_rows"), number("generated_rows"), number("matched_rows")) }</dd>
                    if details.get("precision").is_some() {
                        <dt>{ "Precision / recall" }</dt><dd>{ format!("{} / {}", ratio("precision"), ratio("recall")) }</dd>
                    }
                    if details["alignment"].as_array().is_some_and(|a| !a.is_empty()) {
                        <dt>{ "Columns" }</dt>
                        <dd>{ for details["alignment"].as_array().into_iter().flatten().map(|pair| html! {
                            <code class="chip">{ format!("{} ← {}", pair["expected"].as_str().unwrap_or_default(), pair["generated"].as_str().unwrap_or_default()) }</code>
                        }) }</dd>
                    }
                </dl>
            }
        }
        _ => html! {},
    }
}
