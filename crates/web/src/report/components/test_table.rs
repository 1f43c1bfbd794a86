use std::rc::Rc;

use qeval_core::run::EvaluationRecord;
use qeval_core::words::counted;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use super::report_view::bring_into_view;
use crate::report::Shared;

/// Rows are this tall (CSS says the same), so the table can show any number of them by drawing
/// only those in view.
const ROW: f64 = 30.0;
const VIEWPORT_ROWS: usize = 18;
const OVERSCAN: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Id,
    Question,
    Agent,
    Difficulty,
    Final,
    Semantic,
    Execution,
    Datatype,
    Result,
}

const COLUMNS: [(Field, &str); 9] = [
    (Field::Id, "Test"),
    (Field::Question, "Question"),
    (Field::Agent, "Agent"),
    (Field::Difficulty, "Difficulty"),
    (Field::Final, "Final"),
    (Field::Semantic, "Semantic"),
    (Field::Execution, "Execution"),
    (Field::Datatype, "Datatype"),
    (Field::Result, "Result"),
];

impl Field {
    /// The class of the column's cells: the stylesheet hides some columns on narrow screens.
    fn class(self) -> &'static str {
        match self {
            Field::Id => "c-id",
            Field::Question => "c-question",
            Field::Agent => "c-agent",
            Field::Difficulty => "c-difficulty",
            Field::Final => "c-final",
            Field::Semantic => "c-semantic",
            Field::Execution => "c-execution",
            Field::Datatype => "c-datatype",
            Field::Result => "c-result",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub failed_only: bool,
    pub agent: String,
    pub difficulty: String,
    pub text: String,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub records: Shared<Vec<EvaluationRecord>>,
    /// A test opened (clicked, or Enter on the active row): its index in `records`.
    pub on_select: Callback<usize>,
    /// Escape in the table: the open test closes.
    pub on_close: Callback<()>,
    #[prop_or_default]
    pub selected: Option<usize>,
}

/// Where the keyboard moves the active row (its place among the rows shown) from `active`, of
/// `count` rows; `None` for a key that does not move it.
fn moved(key: &str, active: usize, count: usize) -> Option<usize> {
    let last = count.saturating_sub(1);
    Some(match key {
        "ArrowDown" => (active + 1).min(last),
        "ArrowUp" => active.saturating_sub(1),
        "PageDown" => (active + VIEWPORT_ROWS).min(last),
        "PageUp" => active.saturating_sub(VIEWPORT_ROWS),
        "Home" => 0,
        "End" => last,
        _ => return None,
    })
}

fn number(record: &EvaluationRecord, column: Field) -> Option<f64> {
    let q = record.qas_evaluation.as_ref()?;
    Some(match column {
        Field::Final => q.final_score,
        Field::Semantic => q.semantic_score,
        Field::Execution => q.execution_score,
        Field::Datatype => q.datatype_score,
        Field::Result => f64::from(u8::from(q.passed)),
        _ => return None,
    })
}

fn text(record: &EvaluationRecord, column: Field) -> String {
    match column {
        Field::Id => record.key(),
        Field::Question => record.question.clone(),
        Field::Agent => record.agent_used.clone().unwrap_or_default(),
        Field::Difficulty => record.difficulty.clone().unwrap_or_default(),
        Field::Result => match record.passed() {
            Some(false) if record.is_unsafe() => "FAIL · UNSAFE".into(),
            Some(true) => "PASS".into(),
            Some(false) => "FAIL".into(),
            None => "—".into(),
        },
        _ => number(record, column).map_or("—".into(), |x| format!("{x:.2}")),
    }
}

fn matches(record: &EvaluationRecord, filters: &Filters) -> bool {
    if filters.failed_only && record.passed() != Some(false) {
        return false;
    }
    if !filters.agent.is_empty() && record.agent_used.as_deref() != Some(filters.agent.as_str()) {
        return false;
    }
    if !filters.difficulty.is_empty()
        && record.difficulty.as_deref() != Some(filters.difficulty.as_str())
    {
        return false;
    }
    let needle = filters.text.trim().to_lowercase();
    needle.is_empty()
        || [
            record.key(),
            record.question.clone(),
            record.generated_sql.clone().unwrap_or_default(),
            record.expected_sql.clone().unwrap_or_default(),
        ]
        .iter()
        .any(|hay| hay.to_lowercase().contains(&needle))
}

/// A cell's value for sorting: numbers (ids too, when they are numbers) before text.
#[derive(PartialEq, PartialOrd)]
enum CellOrder {
    Number(f64),
    Text(String),
}

fn sort_key(record: &EvaluationRecord, column: Field) -> CellOrder {
    if let Some(x) = number(record, column) {
        return CellOrder::Number(x);
    }
    let text = text(record, column);
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => CellOrder::Number(x),
        _ => CellOrder::Text(text),
    }
}

/// Indices of the records that pass the filters, in the chosen order. Sort keys are computed
/// once per row, not once per comparison: 100,000 rows sort in a few milliseconds.
fn order(records: &[EvaluationRecord], filters: &Filters, sort: (Field, bool)) -> Vec<usize> {
    let (column, ascending) = sort;
    let mut rows: Vec<(CellOrder, usize)> = (0..records.len())
        .filter(|&i| matches(&records[i], filters))
        .map(|i| (sort_key(&records[i], column), i))
        .collect();
    rows.sort_by(|(x, i), (y, j)| {
        let order = x
            .partial_cmp(y)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(i.cmp(j));
        if ascending { order } else { order.reverse() }
    });
    rows.into_iter().map(|(_, i)| i).collect()
}

fn distinct(
    records: &[EvaluationRecord],
    get: fn(&EvaluationRecord) -> Option<&String>,
) -> Vec<String> {
    let mut values: Vec<String> = records.iter().filter_map(|r| get(r).cloned()).collect();
    values.sort();
    values.dedup();
    values
}

/// Every test of a run: sortable, filterable, and drawn a screenful at a time.
#[component]
pub fn TestTable(props: &Props) -> Html {
    let filters = use_state(Filters::default);
    let sort = use_state_eq(|| (Field::Id, true));
    let scroll_top = use_state_eq(|| 0.0f64);
    let rows = use_memo(
        (props.records.clone(), (*filters).clone(), *sort),
        |(records, filters, sort)| Rc::new(order(records, filters, *sort)),
    );
    let agents = use_memo(props.records.clone(), |r| {
        distinct(r, |x| x.agent_used.as_ref())
    });
    let difficulties = use_memo(props.records.clone(), |r| {
        distinct(r, |x| x.difficulty.as_ref())
    });
    let viewport = use_node_ref();
    let (top, bottom) = (use_node_ref(), use_node_ref());
    // The row the keyboard is on, by its place among the rows shown.
    let active = use_state_eq(|| 0usize);

    let first = ((*scroll_top / ROW) as usize)
        .saturating_sub(OVERSCAN)
        .min(rows.len());
    let last = (first + VIEWPORT_ROWS + 2 * OVERSCAN).min(rows.len());
    {
        let (top, bottom) = (top.clone(), bottom.clone());
        let total = rows.len();
        use_effect_with((first, last, total), move |&(first, last, total)| {
            // Heights through the CSS object model: the page's policy allows no style attributes.
            for (node, rows) in [(top, first), (bottom, total - last)] {
                if let Some(element) = node.cast::<HtmlElement>() {
                    let _ = element
                        .style()
                        .set_property("height", &format!("{}px", rows as f64 * ROW));
                }
            }
        });
    }
    {
        let viewport = viewport.clone();
        let scroll_top = scroll_top.clone();
        let active = active.clone();
        use_effect_with((*filters).clone(), move |_| {
            if let Some(element) = viewport.cast::<HtmlElement>() {
                element.set_scroll_top(0);
            }
            scroll_top.set(0.0);
            active.set(0);
        });
    }
    {
        // A test opened by a click or by its address becomes the keyboard's row.
        let active = active.clone();
        use_effect_with((props.selected, rows.clone()), move |(selected, rows)| {
            if let Some(place) = selected.and_then(|s| rows.iter().position(|&i| i == s)) {
                active.set(place);
            }
        });
    }
    {
        // The keyboard's row stays in view.
        let viewport = viewport.clone();
        use_effect_with(*active, move |&active| {
            if let Some(element) = viewport.cast::<HtmlElement>() {
                let top = active as f64 * ROW;
                let shown = f64::from(element.client_height());
                let scrolled = f64::from(element.scroll_top());
                if top < scrolled {
                    element.set_scroll_top(top as i32);
                } else if top + ROW > scrolled + shown {
                    element.set_scroll_top((top + ROW - shown).ceil() as i32);
                }
            }
        });
    }
    let on_key = {
        let (active, rows, viewport) = (active.clone(), rows.clone(), viewport.clone());
        let (on_select, on_close) = (props.on_select.clone(), props.on_close.clone());
        Callback::from(move |event: KeyboardEvent| {
            let key = event.key();
            if let Some(next) = moved(&key, *active, rows.len()) {
                active.set(next);
            } else if key == "Enter" || key == " " {
                if let Some(&index) = rows.get(*active) {
                    on_select.emit(index);
                }
            } else if key == "Escape" {
                on_close.emit(());
                // Back to the table, which an opened detail may have scrolled away.
                bring_into_view(&viewport);
            } else {
                return;
            }
            event.prevent_default();
        })
    };
    let on_scroll = {
        let scroll_top = scroll_top.clone();
        Callback::from(move |event: Event| {
            if let Some(element) = event
                .target()
                .and_then(|t| t.dyn_into::<HtmlElement>().ok())
            {
                scroll_top.set(f64::from(element.scroll_top()));
            }
        })
    };
    let set = |change: fn(&mut Filters, String)| {
        let filters = filters.clone();
        Callback::from(move |value: String| {
            let mut next = (*filters).clone();
            change(&mut next, value);
            filters.set(next);
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
    let show = |failed: bool| {
        let filters = filters.clone();
        Callback::from(move |_| {
            filters.set(Filters {
                failed_only: failed,
                ..Filters::default()
            })
        })
    };
    let records = &props.records;
    html! {
        <section class="tests" aria-label="Tests">
            <h2>{ "Tests" }</h2>
            <div class="controls row">
                <button type="button" id="show-failed" onclick={show(true)}>{ "Failed tests" }</button>
                <button type="button" id="show-all" onclick={show(false)}>{ "All tests" }</button>
                <label class="check"><input type="checkbox" id="f-failed" checked={filters.failed_only} onchange={on_failed} />{ "failed only" }</label>
                <label class="choice"><span>{ "Agent" }</span>
                    <select id="f-agent" onchange={on_agent}>
                        <option value="" selected={filters.agent.is_empty()}>{ "all" }</option>
                        { for agents.iter().map(|a| html! { <option value={a.clone()} selected={*a == filters.agent}>{ a.clone() }</option> }) }
                    </select>
                </label>
                <label class="choice"><span>{ "Difficulty" }</span>
                    <select id="f-difficulty" onchange={on_difficulty}>
                        <option value="" selected={filters.difficulty.is_empty()}>{ "all" }</option>
                        { for difficulties.iter().map(|d| html! { <option value={d.clone()} selected={*d == filters.difficulty}>{ d.clone() }</option> }) }
                    </select>
                </label>
                <input type="search" id="f-search" placeholder="Search id, question, queries" value={filters.text.clone()} oninput={on_text} />
                <span class="note" data-testid="table-count">{ format!("{} of {}", rows.len(), counted(records.len(), "test")) }</span>
            </div>
            <div class="table-head row-grid">
                { for COLUMNS.iter().map(|&(column, label)| {
                    let sort = sort.clone();
                    let mark = match *sort { (c, true) if c == column => " ▲", (c, false) if c == column => " ▼", _ => "" };
                    html! {
                        <button type="button" class={classes!("th", column.class())} onclick={Callback::from(move |_| {
                            let ascending = if sort.0 == column { !sort.1 } else { true };
                            sort.set((column, ascending));
                        })}>{ format!("{label}{mark}") }</button>
                    }
                }) }
            </div>
            <div class="table-viewport" ref={viewport} onscroll={on_scroll} onkeydown={on_key}
                data-testid="table-viewport" tabindex="0" role="grid" aria-readonly="true"
                aria-label="Tests: arrow keys move, Enter opens, Escape closes"
                aria-rowcount={rows.len().to_string()}
                aria-activedescendant={(!rows.is_empty()).then(|| format!("test-row-{}", *active))}>
                <div ref={top}></div>
                { for rows[first..last].iter().enumerate().map(|(offset, &index)| {
                    let place = first + offset;
                    let record = &records[index];
                    let select = {
                        let (active, on_select) = (active.clone(), props.on_select.clone());
                        Callback::from(move |_: MouseEvent| {
                            active.set(place);
                            on_select.emit(index);
                        })
                    };
                    let chosen = props.selected == Some(index);
                    let class = classes!("row-grid", "tr", chosen.then_some("selected"), (place == *active).then_some("active"));
                    html! {
                        <div class={class} role="row" id={format!("test-row-{place}")} aria-rowindex={(place + 1).to_string()}
                            aria-selected={chosen.to_string()} onclick={select} data-testid="test-row" data-test-id={record.key()}>
                            { for COLUMNS.iter().map(|&(column, _)| {
                                let value = text(record, column);
                                let verdict = match (column, record.passed()) {
                                    (Field::Result, Some(true)) => Some("pass"),
                                    (Field::Result, Some(false)) => Some("fail"),
                                    _ => None,
                                };
                                html! { <span class={classes!("td", column.class(), verdict)} role="gridcell">{ value }</span> }
                            }) }
                        </div>
                    }
                }) }
                <div ref={bottom}></div>
            </div>
        </section>
    }
}
