use qeval_core::AnswerType;
use yew::prelude::*;

use super::ResultEditor;
use crate::components::ChoiceSelect;
use crate::playground::state::{Playground, PlaygroundAction};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Playground,
    pub dispatch: Callback<PlaygroundAction>,
}

/// The optional results typed by hand, and the expected answer's type: what the execution,
/// results-match and datatype scores read without a database.
#[component]
pub fn ResultsInput(props: &Props) -> Html {
    let (state, dispatch) = (&props.state, &props.dispatch);
    html! {
        <details class="results-input" open={!state.expected_result.is_empty() || !state.generated_result.is_empty()}>
            <summary>{ "Results (optional): execution, results match and datatype scores" }</summary>
            <div class="editors">
                <ResultEditor
                    id="generated-result"
                    label="Generated query's result (JSON)"
                    value={state.generated_result.clone()}
                    on_input={dispatch.reform(PlaygroundAction::SetGeneratedResult)}
                />
                <ResultEditor
                    id="expected-result"
                    label="Expected result (JSON)"
                    value={state.expected_result.clone()}
                    on_input={dispatch.reform(PlaygroundAction::SetExpectedResult)}
                />
            </div>
            <ChoiceSelect
                id="answer-type"
                label="Expected answer type"
                options={answer_type_options()}
                value={state.answer_type.map_or("none", |t| t.name())}
                on_change={dispatch.reform(|v: String| PlaygroundAction::SetAnswerType(v.parse().ok()))}
            />
        </details>
    }
}

fn answer_type_options() -> Vec<(AttrValue, AttrValue)> {
    std::iter::once(("none".into(), "not given".into()))
        .chain(
            AnswerType::ALL
                .into_iter()
                .map(|t| (t.name().into(), t.name().into())),
        )
        .collect()
}
