use std::rc::Rc;

use qeval_core::Scorecard;
use yew::prelude::*;

use crate::download::save;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub card: Rc<Scorecard>,
}

/// Saves the scorecard as `scorecard.json`: the same JSON `qeval score` prints.
#[component]
pub fn DownloadScorecard(props: &Props) -> Html {
    let on_click = {
        let card = props.card.clone();
        Callback::from(move |_| {
            let text = serde_json::to_string_pretty(&*card).unwrap_or_default();
            save("scorecard.json", "application/json", &text);
        })
    };
    html! {
        <button type="button" id="download-scorecard" onclick={on_click}>{ "Download scorecard (JSON)" }</button>
    }
}
