use qeval_core::Mode;
use yew::prelude::*;

use crate::components::TextField;
use crate::playground::state::{Playground, PlaygroundAction};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Playground,
    pub dispatch: Callback<PlaygroundAction>,
}

/// The question the queries answer (the LLM judge is shown it; the `defog` mode keeps the rows'
/// order when it asks for one), and in the `defog` mode, sql-eval's `query_category`.
#[component]
pub fn QuestionFields(props: &Props) -> Html {
    let (state, dispatch) = (&props.state, &props.dispatch);
    html! {
        <div class="row question">
            <TextField
                id="question"
                label="Question (optional)"
                placeholder="What the queries answer, e.g. Which users spent most, in order of total?"
                title="Shown to the LLM judge; the defog mode keeps the rows' order when the question has the word order, sort or arrange, as sql-eval reads it"
                value={state.question.clone()}
                on_change={dispatch.reform(PlaygroundAction::SetQuestion)}
            />
            if state.mode == Some(Mode::Defog) {
                <TextField
                    id="query-category"
                    label="query_category (defog)"
                    placeholder="e.g. order_by"
                    title="defog sql-eval's query_category: order_by keeps the rows' order"
                    value={state.query_category.clone()}
                    on_change={dispatch.reform(PlaygroundAction::SetQueryCategory)}
                />
            }
        </div>
    }
}
