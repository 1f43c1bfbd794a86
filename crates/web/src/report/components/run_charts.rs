use qeval_core::run::Summary;
use qeval_report::{Chart, Mark, VIEW_BOX};
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The report's charts as SVG: the marks qeval-report lays out for the exported page too, so
/// both show the same charts. The style sheet colors them, so they follow a light or dark page,
/// and every label is a text node.
#[component]
pub fn RunCharts(props: &Props) -> Html {
    let charts = qeval_report::charts(&props.summary);
    html! {
        <section class="charts">
            { for charts.iter().map(chart) }
        </section>
    }
}

fn chart(chart: &Chart) -> Html {
    let view_box = format!("0 0 {} {}", VIEW_BOX.0, VIEW_BOX.1);
    html! {
        <figure class="chart" id={chart.id}>
            <figcaption>{ chart.title }</figcaption>
            <svg viewBox={view_box} role="img" aria-label={chart.title}>
                { for qeval_report::marks(chart).into_iter().map(mark) }
            </svg>
        </figure>
    }
}

fn mark(mark: Mark) -> Html {
    let at = |n: f64| format!("{n:.1}");
    match mark {
        Mark::Line {
            x1,
            y1,
            x2,
            y2,
            class,
        } => html! {
            <line x1={at(x1)} y1={at(y1)} x2={at(x2)} y2={at(y2)} class={class} />
        },
        Mark::Rect {
            x,
            y,
            width,
            height,
            class,
            title,
        } => html! {
            <rect x={at(x)} y={at(y)} width={at(width)} height={at(height)} class={class}>
                <title>{ title }</title>
            </rect>
        },
        Mark::Text {
            x,
            y,
            class,
            anchor,
            text,
        } => html! {
            <text x={at(x)} y={at(y)} class={class} text-anchor={anchor}>{ text }</text>
        },
    }
}
