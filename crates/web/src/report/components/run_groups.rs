use qeval_core::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The pass rate by each field the records carry (difficulty, agent, SQL hardness, database,
/// dialect, tags), a small table per field, as the exported report shows it.
#[component]
pub fn RunGroups(props: &Props) -> Html {
    if props.summary.groupings.is_empty() {
        return html! {};
    }
    html! {
        <section class="groups" aria-label="Pass rate by field">
            <h2>{ "Pass rate by field" }</h2>
            <div class="group-tables">
                { for props.summary.groupings.iter().map(|grouping| {
                    let label = grouping.label();
                    html! {
                        // Keyed by field: the SQL hardness table arrives after the others, and
                        // unkeyed siblings are paired from the end.
                        <table key={grouping.field.clone()} data-testid={format!("group-{}", grouping.field)}>
                            <caption>{ format!("By {label}") }</caption>
                            <thead><tr>
                                <th scope="col">{ label.clone() }</th>
                                <th scope="col">{ "Tests" }</th>
                                <th scope="col">{ "Passed" }</th>
                                <th scope="col">{ "Pass rate" }</th>
                            </tr></thead>
                            <tbody>
                                { for grouping.groups.iter().map(|(name, g)| html! {
                                    <tr>
                                        <td>{ name.clone() }</td>
                                        <td>{ g.tests }</td>
                                        <td>{ g.passed }</td>
                                        <td>{ format!("{:.1}%", g.pass_rate() * 100.0) }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    }
                }) }
            </div>
        </section>
    }
}
