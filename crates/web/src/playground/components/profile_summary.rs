use qeval_core::ProfileResult;
use yew::prelude::*;

use super::metric_card::title;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub result: ProfileResult,
    /// The generated query is not read-only: marked UNSAFE beside the verdict.
    #[prop_or_default]
    pub unsafe_query: bool,
}

/// The profile's total, verdict and formula.
#[component]
pub fn ProfileSummary(props: &Props) -> Html {
    let result = &props.result;
    let (verdict, class) = match result.passed {
        Some(true) => ("PASS", "verdict pass"),
        Some(false) => ("FAIL", "verdict fail"),
        None => ("NO VERDICT", "verdict"),
    };
    let formula: Vec<String> = result
        .parts
        .iter()
        .map(|(name, part)| {
            format!(
                "{:.2} × {} {:.2}",
                part.weight,
                title(name).to_lowercase(),
                part.score
            )
        })
        .collect();
    html! {
        <section class="profile" data-testid="profile">
            <header>
                <h2>{ "Total" }</h2>
                <output class="score" data-testid="profile-total">
                    { result.total.map_or_else(|| "—".to_string(), |t| format!("{t:.2}")) }
                </output>
                <span class={class} data-testid="profile-verdict">{ verdict }</span>
                if props.unsafe_query {
                    <span class="badge fail" data-testid="unsafe-badge"
                        title="The generated query is not read-only: it fails whatever it scores">
                        { "UNSAFE" }
                    </span>
                }
            </header>
            <p class="explanation" data-testid="profile-explanation">{ result.explanation.clone() }</p>
            <p class="formula">{ formula.join(" + ") }</p>
            <p class="muted label">{ result.label.clone() }</p>
        </section>
    }
}
