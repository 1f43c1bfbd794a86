use yew::prelude::*;

use crate::report::hooks::{FLAG_LIMIT, Recheck};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub recheck: Recheck,
}

/// Stored scores that the records' own data contradicts, and the recheck's progress.
#[component]
pub fn StoredScoreFlags(props: &Props) -> Html {
    match &props.recheck {
        Recheck::Running { done, total } => html! {
            <p class="note" data-testid="flags-progress">{ format!("Checking stored scores against their data: {done} of {total}") }</p>
        },
        Recheck::Done(flags) if flags.is_empty() => html! {},
        Recheck::Done(flags) => html! {
            <section class="flags" data-testid="flags">
                <h2>{ format!("Stored scores their data contradicts ({}{})", flags.len(), if flags.len() >= FLAG_LIMIT { "+" } else { "" }) }</h2>
                <ul>{ for flags.iter().take(100).map(|(id, d)| html! {
                    <li>{ format!("Test {id}: {} is {} but its data gives {} ({})", d.field, d.stored, d.recomputed, d.reason) }</li>
                }) }</ul>
            </section>
        },
    }
}
