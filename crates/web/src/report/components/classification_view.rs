use qeval_core::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The run's classification metrics (safety classification, validation accuracy, confidence
/// calibration), the same rows as the exported report; the reliability diagram is among the
/// charts.
#[component]
pub fn ClassificationView(props: &Props) -> Html {
    let parts = qeval_report::classification_rows(&props.summary);
    if parts.is_empty() {
        return html! {};
    }
    html! {
        <section class="classification" aria-label="Classification metrics">
            <h2>{ "Classification metrics" }</h2>
            <div class="group-tables">
                { for parts.into_iter().map(|(title, rows)| html! {
                    <table data-testid={title.to_ascii_lowercase().replace(' ', "-")}>
                        <caption>{ title }</caption>
                        <tbody>
                            { for rows.into_iter().map(|(name, value)| html! {
                                <tr><th scope="row">{ name }</th><td>{ value }</td></tr>
                            }) }
                        </tbody>
                    </table>
                }) }
            </div>
        </section>
    }
}
