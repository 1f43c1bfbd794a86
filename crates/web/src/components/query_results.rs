use qeval_core::words::counted;
use qeval_sqlite::{QueryError, QueryOutput};
use yew::prelude::*;

use std::rc::Rc;

use qeval_worker::protocol::Answer;

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

fn side(id: &str, title: &str, result: &Option<Result<QueryOutput, QueryError>>) -> Html {
    html! {
        <div data-testid={format!("{id}-execution")}>
            <h3>{ title }</h3>
            { match result {
                None => html! { <p class="muted">{ "(no query)" }</p> },
                Some(Err(err)) => html! { <p class="error-text" data-testid={format!("{id}-execution-error")}>{ format!("Did not execute: {err}") }</p> },
                Some(Ok(out)) => html! {
                    <>
                        <p class="note" data-testid={format!("{id}-execution-status")}>
                            { format!("Executes without errors: {} in {:.0} ms{}", counted(out.rows.len(), "row"), out.millis, if out.truncated { " (cut at the row cap or at 64 MB)" } else { "" }) }
                        </p>
                        <table class="result">
                            <tr>{ for out.columns.iter().map(|c| html! { <th>{ c.clone() }</th> }) }</tr>
                            { for out.rows.iter().take(100).map(|row| html! {
                                <tr>{ for row.iter().map(|v| html! { <td>{ v.as_str().map_or_else(|| v.to_string(), str::to_string) }</td> }) }</tr>
                            }) }
                        </table>
                    </>
                },
            } }
        </div>
    }
}

/// Both queries' results on the database, side by side.
#[component]
pub fn QueryResults(props: &Props) -> Html {
    let Answer::Executed(executed) = &*props.answer else {
        return Html::default();
    };
    html! {
        <section class="side executions" aria-label="Results on the database">
            { side("generated", "Generated query on the database", &executed.generated) }
            { side("expected", "Expected query on the database", &executed.expected) }
        </section>
    }
}
