use qeval_core::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The numbers at the top of a report.
#[component]
pub fn RunSummary(props: &Props) -> Html {
    let cards = qeval_report::summary_cards(&props.summary);
    html! {
        <section class="summary" aria-label="Summary">
            { for cards.into_iter().map(|(id, name, value)| html! {
                <div class="card"><span class="value" data-testid={id}>{ value }</span><span class="name">{ name }</span></div>
            }) }
        </section>
    }
}
