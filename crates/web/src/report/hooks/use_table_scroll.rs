//! The test table's scrolling: only a screenful of rows (and some either side) is drawn, with
//! spacers standing for the rest, so a run of 100,000 tests scrolls as one of 30.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Rows are this tall (CSS says the same), so the table can show any number of them by drawing
/// only those in view.
pub const ROW: f64 = 30.0;
/// Rows in view at once.
pub const VIEWPORT_ROWS: usize = 18;
/// Rows drawn beyond the view on either side.
const OVERSCAN: usize = 8;

pub struct TableScroll {
    pub viewport: NodeRef,
    /// The spacers above and below the drawn rows.
    pub top: NodeRef,
    pub bottom: NodeRef,
    /// The drawn rows, by place among the rows shown.
    pub first: usize,
    pub last: usize,
    /// The row the keyboard is on, by its place among the rows shown.
    pub active: UseStateHandle<usize>,
    pub on_scroll: Callback<Event>,
}

/// `rows`: the records shown, in order; back to the top when `reset` changes (the filters); a
/// test opened elsewhere (`selected`) becomes the keyboard's row, which stays in view.
#[hook]
pub fn use_table_scroll<T: PartialEq + Clone + 'static>(
    rows: Rc<Vec<usize>>,
    reset: T,
    selected: Option<usize>,
) -> TableScroll {
    let scroll_top = use_state_eq(|| 0.0f64);
    let (viewport, top, bottom) = (use_node_ref(), use_node_ref(), use_node_ref());
    let active = use_state_eq(|| 0usize);
    let first = ((*scroll_top / ROW) as usize)
        .saturating_sub(OVERSCAN)
        .min(rows.len());
    let last = (first + VIEWPORT_ROWS + 2 * OVERSCAN).min(rows.len());
    {
        let (top, bottom) = (top.clone(), bottom.clone());
        use_effect_with((first, last, rows.len()), move |&(first, last, total)| {
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
        let (viewport, scroll_top, active) = (viewport.clone(), scroll_top.clone(), active.clone());
        use_effect_with(reset, move |_| {
            if let Some(element) = viewport.cast::<HtmlElement>() {
                element.set_scroll_top(0);
            }
            scroll_top.set(0.0);
            active.set(0);
        });
    }
    {
        let active = active.clone();
        use_effect_with((selected, rows), move |(selected, rows)| {
            if let Some(place) = selected.and_then(|s| rows.iter().position(|&i| i == s)) {
                active.set(place);
            }
        });
    }
    {
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
    let on_scroll = Callback::from(move |event: Event| {
        if let Some(element) = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlElement>().ok())
        {
            scroll_top.set(f64::from(element.scroll_top()));
        }
    });
    TableScroll {
        viewport,
        top,
        bottom,
        first,
        last,
        active,
        on_scroll,
    }
}
