use qeval_core::{EvaluationRecord, StrictRule, strict_rows};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub records: Shared<Vec<EvaluationRecord>>,
    /// A test opened from the table: its index in `records`.
    pub on_select: Callback<usize>,
}

/// The official and strict verdicts side by side, for benchmark records written with
/// `--strict`: how many pass by each, and the tests whose verdict a strict rule changed,
/// filtered by the rule.
#[component]
pub fn StrictVerdicts(props: &Props) -> Html {
    let rule = use_state(String::new);
    let rows = use_memo(props.records.clone(), |records| strict_rows(&records.0));
    if rows.is_empty() {
        return html! {};
    }
    let official = rows.iter().filter(|r| r.official).count();
    let strict = rows.iter().filter(|r| r.strict).count();
    let changed_by = |name: &str| {
        rows.iter()
            .filter(|r| r.changed_by.iter().any(|c| c == name))
            .count()
    };
    let shown: Vec<_> = rows
        .iter()
        .filter(|r| !r.changed_by.is_empty())
        .filter(|r| rule.is_empty() || r.changed_by.contains(&*rule))
        .collect();
    let on_rule = {
        let rule = rule.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            rule.set(select.value());
        })
    };
    let verdict = |passed: bool| if passed { "pass" } else { "fail" };
    html! {
        <section class="strict-verdicts" aria-label="Official and strict verdicts" data-testid="strict-verdicts">
            <h2>{ "Official and strict verdicts" }</h2>
            <p data-testid="strict-counts">
                { format!("Official: {official} of {} passed. Strict (the official evaluator's documented errors fixed): {strict} of {} passed.", rows.len(), rows.len()) }
            </p>
            <label class="choice">
                <span>{ "Changed by" }</span>
                <select id="strict-rule" onchange={on_rule}>
                    <option value="" selected={rule.is_empty()}>{ "any rule" }</option>
                    { for StrictRule::ALL.iter().filter(|r| changed_by(r.name()) > 0).map(|r| html! {
                        <option value={r.name()} selected={*rule == r.name()} title={r.describe()}>
                            { format!("{} ({})", r.name(), changed_by(r.name())) }
                        </option>
                    }) }
                </select>
            </label>
            if shown.is_empty() {
                <p class="note">{ "No verdict changed." }</p>
            } else {
                <table data-testid="strict-changed">
                    <caption>{ "Tests whose verdict a strict rule changed" }</caption>
                    <thead><tr>
                        <th scope="col">{ "Test" }</th>
                        <th scope="col">{ "Official" }</th>
                        <th scope="col">{ "Strict" }</th>
                        <th scope="col">{ "Changed by" }</th>
                    </tr></thead>
                    <tbody>
                        { for shown.iter().map(|row| {
                            let index = row.index;
                            let open = props.on_select.reform(move |_: MouseEvent| index);
                            html! {
                                <tr key={row.index}>
                                    <td><button type="button" class="link" onclick={open}>{ row.test_id.clone() }</button></td>
                                    <td>{ verdict(row.official) }</td>
                                    <td>{ verdict(row.strict) }</td>
                                    <td>{ row.changed_by.join(", ") }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
        </section>
    }
}
