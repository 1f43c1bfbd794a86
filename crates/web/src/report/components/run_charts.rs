use qeval_core::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The report's charts: the SVG qeval-report draws with plotters for the exported page too, so
/// both show the same charts. The style sheet colors them, so they follow a light or dark page.
/// The SVG is put in as markup: every text in it comes from plotters' SVG writer, which escapes
/// it, so a label from the records stays text (`charts::tests` in qeval-report holds it to that).
#[component]
pub fn RunCharts(props: &Props) -> Html {
    let charts = use_memo(props.summary.clone(), |summary| {
        qeval_report::charts(summary)
            .iter()
            .map(qeval_report::chart_svg)
            .collect::<String>()
    });
    html! {
        <section class="charts">
            { Html::from_html_unchecked(AttrValue::from((*charts).clone())) }
        </section>
    }
}
