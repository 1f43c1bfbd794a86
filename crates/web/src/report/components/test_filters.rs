use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Which tests the table shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub failed_only: bool,
    pub agent: String,
    pub difficulty: String,
    pub text: String,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub filters: Filters,
    pub on_change: Callback<Filters>,
    /// The run's agents and difficulty levels, to choose from.
    pub agents: Rc<Vec<String>>,
    pub difficulties: Rc<Vec<String>>,
    /// Tests shown, and in all.
    pub shown: String,
}

/// The test table's filters: failed only, agent, difficulty, and a search over id, question and
/// queries; with two shortcuts (failed tests, all tests).
#[component]
pub fn TestFilters(props: &Props) -> Html {
    let filters = &props.filters;
    let set = |change: fn(&mut Filters, String)| {
        let (filters, on_change) = (filters.clone(), props.on_change.clone());
        Callback::from(move |value: String| {
            let mut next = filters.clone();
            change(&mut next, value);
            on_change.emit(next);
        })
    };
    let on_text = set(|f, v| f.text = v)
        .reform(|e: InputEvent| e.target_unchecked_into::<HtmlInputElement>().value());
    let on_agent = set(|f, v| f.agent = v)
        .reform(|e: Event| e.target_unchecked_into::<HtmlSelectElement>().value());
    let on_difficulty = set(|f, v| f.difficulty = v)
        .reform(|e: Event| e.target_unchecked_into::<HtmlSelectElement>().value());
    let on_failed = set(|f, v| f.failed_only = v == "true").reform(|e: Event| {
        e.target_unchecked_into::<HtmlInputElement>()
            .checked()
            .to_string()
    });
    let show = |failed_only: bool| {
        props.on_change.reform(move |_: MouseEvent| Filters {
            failed_only,
            ..Filters::default()
        })
    };
    let options = |values: &[String], chosen: &str| -> Html {
        html! {
            <>
                <option value="" selected={chosen.is_empty()}>{ "all" }</option>
                { for values.iter().map(|v| html! { <option value={v.clone()} selected={v == chosen}>{ v.clone() }</option> }) }
            </>
        }
    };
    html! {
        <div class="controls row">
            <button type="button" id="show-failed" onclick={show(true)}>{ "Failed tests" }</button>
            <button type="button" id="show-all" onclick={show(false)}>{ "All tests" }</button>
            <label class="check"><input type="checkbox" id="f-failed" checked={filters.failed_only} onchange={on_failed} />{ "failed only" }</label>
            <label class="choice"><span>{ "Agent" }</span>
                <select id="f-agent" onchange={on_agent}>{ options(&props.agents, &filters.agent) }</select>
            </label>
            <label class="choice"><span>{ "Difficulty" }</span>
                <select id="f-difficulty" onchange={on_difficulty}>{ options(&props.difficulties, &filters.difficulty) }</select>
            </label>
            <input type="search" id="f-search" placeholder="Search id, question, queries" value={filters.text.clone()} oninput={on_text} />
            <span class="note" data-testid="table-count">{ props.shown.clone() }</span>
        </div>
    }
}
