use yew::prelude::*;

use crate::report::hooks::host_of;
use crate::report::load::MAX_FETCHED_BYTES;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The link to another site's run.
    pub url: String,
    /// `true`: load it; `false`: do not.
    pub on_answer: Callback<bool>,
}

/// Asks before a run is downloaded from another site than the page's, naming the host.
#[component]
pub fn FetchConfirm(props: &Props) -> Html {
    let host = host_of(&props.url);
    let answer = |yes: bool| props.on_answer.reform(move |_: MouseEvent| yes);
    html! {
        <div class="banner" role="alertdialog" aria-labelledby="run-confirm-text" data-testid="run-confirm">
            <p id="run-confirm-text">
                { format!("This link asks to load a run from {host}, another site than this page. Its records are shown as text and never run; at most {:.0} MB is read. Load it?", MAX_FETCHED_BYTES / 1e6) }
            </p>
            <p class="note">{ props.url.clone() }</p>
            <button type="button" id="run-confirm-load" onclick={answer(true)}>{ format!("Load from {host}") }</button>
            { " " }
            <button type="button" id="run-confirm-cancel" onclick={answer(false)}>{ "Cancel" }</button>
        </div>
    }
}
