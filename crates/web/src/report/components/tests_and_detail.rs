use qeval_core::EvaluationRecord;
use yew::prelude::*;

use super::{TestDetail, TestTable};
use crate::report::Shared;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub records: Shared<Vec<EvaluationRecord>>,
    pub selected: Option<usize>,
    /// A test opened (`Some`), or closed with Close or Escape (`None`).
    pub on_select: Callback<Option<usize>>,
}

/// The test table and, when a test is open, its detail: below the table, or beside it on a wide
/// screen; an opened detail is brought into view.
#[component]
pub fn TestsAndDetail(props: &Props) -> Html {
    let detail = use_node_ref();
    {
        let detail = detail.clone();
        use_effect_with(props.selected, move |selected| {
            if selected.is_some() {
                bring_into_view(&detail);
            }
        });
    }
    let close = props.on_select.reform(|()| None);
    html! {
        <div class={classes!("tests-and-detail", props.selected.is_some().then_some("open"))}>
            <TestTable records={props.records.clone()} selected={props.selected}
                on_select={props.on_select.reform(Some)}
                on_close={close.clone()} />
            <div ref={detail} class="detail-slot">
                if let Some(record) = props.selected.and_then(|i| props.records.get(i)) {
                    <TestDetail record={record.clone()} on_close={close} />
                }
            </div>
        </div>
    }
}

/// Scrolls the page as little as needed to show `node` (its top first when it is taller than the
/// window).
pub(super) fn bring_into_view(node: &NodeRef) {
    if let Some(element) = node.cast::<web_sys::Element>() {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    }
}
