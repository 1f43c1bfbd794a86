use qeval_core::RunComparison;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub comparison: Shared<RunComparison>,
    pub before: AttrValue,
    pub after: AttrValue,
}

/// Two runs matched by test id: both pass rates and whether their difference is more than
/// chance, what newly fails, what newly passes, how each component moved.
#[component]
pub fn RunComparisonView(props: &Props) -> Html {
    let c = &props.comparison;
    let shift = |i: usize| format!("{:+.3}", c.mean_shift[i]);
    let list = |ids: &[String]| {
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    };
    html! {
        <section class="comparison" data-testid="comparison" aria-label="Comparison">
            <h2>{ format!("{} → {}", props.before, props.after) }</h2>
            <p>{ format!("{} in both; {} only before, {} only after.", qeval_core::counted(c.matched.len(), "test"), c.only_before.len(), c.only_after.len()) }</p>
            <p data-testid="pass-rate-change" title="95% paired bootstrap interval (2,000 resamples, seed 1); McNemar's exact test on the tests that flipped">
                { c.stats.sentence() }
            </p>
            <p data-testid="newly-failing"><strong>{ format!("Newly failing ({}): ", c.newly_failing.len()) }</strong>{ list(&c.newly_failing) }</p>
            <p data-testid="newly-passing"><strong>{ format!("Newly passing ({}): ", c.newly_passing.len()) }</strong>{ list(&c.newly_passing) }</p>
            <p data-testid="mean-shift">{ format!("Mean shift: final {}, semantic {}, execution {}, datatype {}", shift(0), shift(1), shift(2), shift(3)) }</p>
            <table class="result">
                <tr><th>{ "Test" }</th><th>{ "Before" }</th><th>{ "After" }</th><th>{ "Δ final" }</th><th>{ "Δ semantic" }</th><th>{ "Δ execution" }</th><th>{ "Δ datatype" }</th></tr>
                { for c.matched.iter().filter(|d| d.deltas.iter().any(|x| x.abs() > 1e-9)).take(100).map(|d| html! {
                    <tr>
                        <td>{ d.test_id.clone() }</td>
                        <td>{ format!("{:.2} {}", d.before_final, if d.before_passed { "PASS" } else { "FAIL" }) }</td>
                        <td>{ format!("{:.2} {}", d.after_final, if d.after_passed { "PASS" } else { "FAIL" }) }</td>
                        { for d.deltas.iter().map(|x| html! { <td>{ format!("{x:+.2}") }</td> }) }
                    </tr>
                }) }
            </table>
        </section>
    }
}
