use qeval_core::Summary;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub summary: Shared<Summary>,
}

/// Each judge of the run against the human labels its records carry: agreement, Cohen's kappa,
/// the confusion matrix and the tests where the judge and the person disagree.
#[component]
pub fn JudgeAgreementView(props: &Props) -> Html {
    if props.summary.agreement.is_empty() {
        return html! {};
    }
    html! {
        <section class="agreement" aria-label="Judge calibration">
            <h2>{ "Judges against human labels" }</h2>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Judges against human labels (scrolls sideways)">
            <table data-testid="agreement">
                <thead><tr>
                    <th scope="col">{ "Judge" }</th>
                    <th scope="col">{ "Labelled" }</th>
                    <th scope="col">{ "Agreement" }</th>
                    <th scope="col">{ "Cohen's kappa" }</th>
                    <th scope="col">{ "Both correct" }</th>
                    <th scope="col">{ "Judge only" }</th>
                    <th scope="col">{ "Person only" }</th>
                    <th scope="col">{ "Both incorrect" }</th>
                    <th scope="col">{ "Disagreeing tests" }</th>
                </tr></thead>
                <tbody>
                    { for props.summary.agreement.iter().map(|judge| html! {
                        <tr>
                            <td>{ judge.judge.clone() }</td>
                            <td>{ judge.labelled }</td>
                            <td>{ format!("{:.1}%", judge.agreement * 100.0) }</td>
                            <td>{ judge.kappa_text() }</td>
                            <td>{ judge.both_correct }</td>
                            <td>{ judge.judge_correct_human_incorrect }</td>
                            <td>{ judge.judge_incorrect_human_correct }</td>
                            <td>{ judge.both_incorrect }</td>
                            <td>{ judge.disagreements.join(", ") }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
            <p class="note">{ "A score of 0.9 or more counts as the judge saying correct; passed is the profile's verdict. Kappa is agreement beyond chance: under 0.4 is fair at best." }</p>
        </section>
    }
}
