use qeval_core::run::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// The numbers at the top of a report.
#[component]
pub fn RunSummary(props: &Props) -> Html {
    let s = &props.summary;
    let cards = [
        ("tests", "Tests", s.tests.to_string()),
        ("passed", "Passed", s.passed.to_string()),
        ("failed", "Failed", s.failed.to_string()),
        (
            "pass-rate",
            "Pass rate",
            format!("{:.1}%", s.pass_rate * 100.0),
        ),
        (
            "mean-final",
            "Mean final score",
            format!("{:.3}", s.mean_final),
        ),
        (
            "mean-semantic",
            "Mean semantic",
            format!("{:.3}", s.mean_semantic),
        ),
        (
            "mean-execution",
            "Mean execution",
            format!("{:.3}", s.mean_execution),
        ),
        (
            "mean-datatype",
            "Mean datatype",
            format!("{:.3}", s.mean_datatype),
        ),
        ("errors", "Errors", s.errors.to_string()),
    ];
    html! {
        <section class="summary" aria-label="Summary">
            { for cards.into_iter().map(|(id, name, value)| html! {
                <div class="card"><span class="value" data-testid={id}>{ value }</span><span class="name">{ name }</span></div>
            }) }
        </section>
    }
}
