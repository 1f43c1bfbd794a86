use qeval_core::{ResultSet, TableView, counted, read_result, result_views};
use qeval_sqlite::{QueryError, QueryOutput};
use yew::prelude::*;

use std::rc::Rc;

use qeval_worker::protocol::Answer;

use crate::components::ResultTable;

#[derive(Properties)]
pub struct Props {
    /// The worker's answer to running both queries (anything else shows nothing).
    pub answer: Rc<Answer>,
}

/// The same answer is the same results: no row-by-row comparison on every render.
impl PartialEq for Props {
    fn eq(&self, other: &Props) -> bool {
        Rc::ptr_eq(&self.answer, &other.answer)
    }
}

/// Rows shown of each result.
const SHOWN_ROWS: usize = 100;

fn side(
    id: &str,
    title: &str,
    result: &Option<Result<QueryOutput, QueryError>>,
    view: Option<TableView>,
) -> Html {
    html! {
        <div data-testid={format!("{id}-execution")}>
            <h3>{ title }</h3>
            { match (result, view) {
                (None, _) => html! { <p class="muted">{ "(no query)" }</p> },
                (Some(Err(err)), _) => html! { <p class="error-text" data-testid={format!("{id}-execution-error")}>{ format!("Did not execute: {err}") }</p> },
                (Some(Ok(out)), view) => html! {
                    <>
                        <p class="note" data-testid={format!("{id}-execution-status")}>
                            { format!("Executes without errors: {} in {:.0} ms{}", counted(out.rows.len(), "row"), out.millis, if out.truncated { " (cut at the row cap or at 64 MB)" } else { "" }) }
                        </p>
                        if let Some(view) = view {
                            <ResultTable {view} label={format!("{id}-result-table")} />
                        }
                    </>
                },
            } }
        </div>
    }
}

/// A query's output as a result, when it ran.
fn output(result: &Option<Result<QueryOutput, QueryError>>) -> Option<ResultSet> {
    match result {
        Some(Ok(out)) => read_result(&out.to_json()).ok(),
        _ => None,
    }
}

/// Both queries' results on the database, side by side, each marked against the other.
#[component]
pub fn QueryResults(props: &Props) -> Html {
    let Answer::Executed(executed) = &*props.answer else {
        return Html::default();
    };
    let (generated, expected) = (output(&executed.generated), output(&executed.expected));
    let (expected_view, generated_view) =
        result_views(expected.as_ref(), generated.as_ref(), SHOWN_ROWS);
    html! {
        <section class="side executions" aria-label="Results on the database">
            { side("generated", "Generated query on the database", &executed.generated, generated_view) }
            { side("expected", "Expected query on the database", &executed.expected, expected_view) }
        </section>
    }
}
