use std::rc::Rc;

use qeval_core::{MetricName, QueryReport};
use yew::prelude::*;

use super::QueryEditor;
use crate::playground::editor;
use crate::playground::hooks::ScoredPlayground;
use crate::playground::state::{Playground, PlaygroundAction};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Playground,
    pub dispatch: Callback<PlaygroundAction>,
    /// The newest scorecard, with the state it was made for.
    pub scored: Option<Rc<ScoredPlayground>>,
    /// Table and column names to complete from.
    pub schema: serde_json::Value,
}

/// The generated and the expected query's editors, each marked with what the scorecard says of
/// the text it was said of (parse errors; the generated query's safety findings too).
#[component]
pub fn QueryEditors(props: &Props) -> Html {
    let (state, dispatch, scored) = (&props.state, &props.dispatch, props.scored.as_deref());
    let generated = report_of(
        scored,
        |card| Some(card.generated.clone()),
        |s| &s.generated,
    );
    let expected = report_of(scored, |card| card.expected.clone(), |s| &s.expected);
    let safety = scored
        .and_then(|scored| scored.card.metrics.get(&MetricName::Safety))
        .map(|metric| &metric.details);
    let analysed = |text: fn(&Playground) -> &String| {
        scored
            .map(|scored| text(&scored.state).clone())
            .unwrap_or_default()
    };
    html! {
        <div class="editors">
            <QueryEditor
                id="generated"
                label="Generated query"
                value={state.generated.clone()}
                on_input={dispatch.reform(PlaygroundAction::SetGenerated)}
                report={generated.clone()}
                analysed_text={analysed(|state| &state.generated)}
                language={state.language}
                dialect={state.dialect}
                schema={props.schema.clone()}
                markers={generated.as_ref().map(|report| editor::markers(report, safety)).unwrap_or_default()}
            />
            <QueryEditor
                id="expected"
                label="Expected query"
                value={state.expected.clone()}
                on_input={dispatch.reform(PlaygroundAction::SetExpected)}
                report={expected.clone()}
                analysed_text={analysed(|state| &state.expected)}
                language={state.language}
                dialect={state.dialect}
                schema={props.schema.clone()}
                markers={expected.as_ref().map(|report| editor::markers(report, None)).unwrap_or_default()}
            />
        </div>
    }
}

/// What the scorecard says of one query (`side`), when the text it was said of (`text`) is not
/// blank.
fn report_of(
    scored: Option<&ScoredPlayground>,
    side: fn(&qeval_core::Scorecard) -> Option<QueryReport>,
    text: fn(&Playground) -> &String,
) -> Option<QueryReport> {
    let scored = scored?;
    (!text(&scored.state).trim().is_empty())
        .then(|| side(&scored.card))
        .flatten()
}
