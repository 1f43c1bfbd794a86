use std::rc::Rc;

use qeval_core::{EvaluationRecord, counted};
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::tests_and_detail::bring_into_view;
use super::{Filters, TestFilters};
use crate::report::Shared;
use crate::report::hooks::{VIEWPORT_ROWS, use_table_scroll};

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
    let scroll = use_table_scroll((*rows).clone(), (*filters).clone(), props.selected);
    let active = scroll.active.clone();
    let on_key = {
        let (active, rows, viewport) = (active.clone(), rows.clone(), scroll.viewport.clone());
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
    let records = &props.records;
    let on_sort = {
        let sort = sort.clone();
        Callback::from(move |column: Field| {
            let ascending = if sort.0 == column { !sort.1 } else { true };
            sort.set((column, ascending));
        })
    };
    html! {
        <section class="tests" aria-label="Tests">
            <h2>{ "Tests" }</h2>
            <TestFilters filters={(*filters).clone()} on_change={let filters = filters.clone(); Callback::from(move |f| filters.set(f))}
                agents={agents.clone()} difficulties={difficulties.clone()}
                shown={format!("{} of {}", rows.len(), counted(records.len(), "test"))} />
            { table_head(*sort, on_sort) }
            <div class="table-viewport" ref={scroll.viewport.clone()} onscroll={scroll.on_scroll.clone()} onkeydown={on_key}
                data-testid="table-viewport" tabindex="0" role="grid" aria-readonly="true"
                aria-label="Tests: arrow keys move, Enter opens, Escape closes"
                aria-rowcount={rows.len().to_string()}
                aria-activedescendant={(!rows.is_empty()).then(|| format!("test-row-{}", *active))}>
                <div ref={scroll.top.clone()}></div>
                { for rows[scroll.first..scroll.last].iter().enumerate().map(|(offset, &index)| {
                    let place = scroll.first + offset;
                    let select = {
                        let (active, on_select) = (active.clone(), props.on_select.clone());
                        Callback::from(move |_: MouseEvent| {
                            active.set(place);
                            on_select.emit(index);
                        })
                    };
                    let marks = (props.selected == Some(index), place == *active);
                    test_row(&records[index], place, marks, select)
                }) }
                <div ref={scroll.bottom.clone()}></div>
            </div>
        </section>
    }
}

/// The column headings, each a button that sorts by it (again: the other way).
fn table_head(sort: (Field, bool), on_sort: Callback<Field>) -> Html {
    html! {
        <div class="table-head row-grid">
            { for COLUMNS.iter().map(|&(column, label)| {
                let mark = match sort { (c, true) if c == column => " ▲", (c, false) if c == column => " ▼", _ => "" };
                html! {
                    <button type="button" class={classes!("th", column.class())} onclick={on_sort.reform(move |_| column)}>{ format!("{label}{mark}") }</button>
                }
            }) }
        </div>
    }
}

/// One test's row at `place` among the rows shown; `(chosen, active)`: its detail is open, the
/// keyboard is on it.
fn test_row(
    record: &EvaluationRecord,
    place: usize,
    (chosen, active): (bool, bool),
    select: Callback<MouseEvent>,
) -> Html {
    let class = classes!(
        "row-grid",
        "tr",
        chosen.then_some("selected"),
        active.then_some("active")
    );
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
}
