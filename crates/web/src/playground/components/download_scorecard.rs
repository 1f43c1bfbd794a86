use std::rc::Rc;

use qeval_core::Scorecard;
use yew::prelude::*;

use crate::download::save;
use crate::playground::scorecard_file::{JudgedBy, LlmJudge, document};
use crate::playground::state::Playground;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub card: Rc<Scorecard>,
    /// What was scored and how.
    pub state: Playground,
    /// The LLM judge's endpoint and model, when it judged.
    pub llm: Option<(String, String)>,
}

/// Saves `scorecard.json`: the pair as `qeval score` reads it, the options, and the scorecard
/// (see `scorecard_file`).
#[component]
pub fn DownloadScorecard(props: &Props) -> Html {
    let on_click = {
        let (card, state, llm) = (props.card.clone(), props.state.clone(), props.llm.clone());
        Callback::from(move |_| {
            let judging = JudgedBy {
                llm: llm
                    .as_ref()
                    .map(|(endpoint, model)| LlmJudge { endpoint, model }),
            };
            save(
                "scorecard.json",
                "application/json",
                &document(&state, &judging, &card),
            );
        })
    };
    html! {
        <button type="button" id="download-scorecard" onclick={on_click}>{ "Download scorecard (JSON)" }</button>
    }
}
