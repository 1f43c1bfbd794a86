use qeval_core::{TableView, counted};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: TableView,
    /// Names the table for screen readers and tests.
    pub label: AttrValue,
}

/// A result as a table: rows the other result lacks marked, cells that differ from their
/// paired row marked, NULL shown apart from text.
#[component]
pub fn ResultTable(props: &Props) -> Html {
    let view = &props.view;
    let shown = view.rows.len();
    let note = match (view.unmatched_rows, shown < view.total_rows) {
        (0, false) => String::new(),
        (0, true) => format!("First {shown} of {}.", counted(view.total_rows, "row")),
        (n, cut) => format!(
            "{} not in the other result (marked){}.",
            counted(n, "row"),
            if cut {
                format!(
                    "; first {shown} of {} shown",
                    counted(view.total_rows, "row")
                )
            } else {
                String::new()
            }
        ),
    };
    html! {
        <>
            <table class="result" aria-label={props.label.clone()} data-testid={props.label.clone()}>
                <tr>{ for view.columns.iter().map(|c| html! { <th scope="col">{ c.clone() }</th> }) }</tr>
                { for view.rows.iter().map(|row| html! {
                    <tr class={classes!(row.unmatched.then_some("unmatched"))}>
                        { for row.cells.iter().map(|cell| html! {
                            <td class={classes!(cell.null.then_some("null"), cell.differs.then_some("differs"))}
                                title={cell.differs.then_some("Differs from the other result's paired row")}>
                                { cell.text.clone() }
                            </td>
                        }) }
                    </tr>
                }) }
            </table>
            if !note.is_empty() {
                <p class="note">{ note }</p>
            }
        </>
    }
}
