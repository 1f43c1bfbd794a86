use qeval_core::run::Summary;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::report::{Shared, charts};
use crate::theme::Dark;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The report's charts, drawn with plotters once the canvases are laid out.
#[component]
pub fn RunCharts(props: &Props) -> Html {
    // Four charts, and a fifth (the reliability diagram) when the records state confidences.
    let refs = use_memo((), |()| {
        (0..5).map(|_| NodeRef::default()).collect::<Vec<_>>()
    });
    let failure = use_state_eq(|| None::<String>);
    // Drawn again when the page turns dark or light: a canvas does not follow the stylesheet.
    let dark = use_context::<Dark>().unwrap_or_default();
    {
        let (refs, failure) = (refs.clone(), failure.clone());
        use_effect_with((props.summary.clone(), dark), move |(summary, dark)| {
            let charts = qeval_report::charts(summary);
            let palette = charts::Palette::for_theme(*dark);
            for (chart, node) in charts.iter().zip(refs.iter()) {
                if let Some(canvas) = node.cast::<HtmlCanvasElement>()
                    && let Err(err) = charts::draw(&canvas, chart, &palette)
                {
                    failure.set(Some(format!("{}: {err}", chart.title)));
                }
            }
        });
    }
    let charts = qeval_report::charts(&props.summary);
    html! {
        <section class="charts">
            { for refs.iter().zip(&charts).map(|(node, chart)| html! {
                <canvas id={chart.id} class="chart-canvas" ref={node.clone()} role="img" aria-label={chart.title}></canvas>
            }) }
            if let Some(err) = &*failure {
                <p class="error-text">{ format!("A chart could not be drawn: {err}") }</p>
            }
        </section>
    }
}
