use qeval_core::counted;
use yew::prelude::*;

use crate::report::state::Work;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub work: Work,
    /// Stops a scoring under way (loading and downloading run to the end).
    pub on_cancel: Callback<MouseEvent>,
}

/// How far the report's current work has got: reading files, downloading a run, or scoring.
#[component]
pub fn WorkProgress(props: &Props) -> Html {
    match props.work {
        Work::Idle => html! {},
        Work::Loading { done, total } => html! {
            <div class="row" data-testid="progress">
                <progress max={total.max(1.0).to_string()} value={done.to_string()}></progress>
                <span class="note">{ format!("Reading {:.1} of {:.1} MB", done / 1e6, total / 1e6) }</span>
            </div>
        },
        Work::Fetching {
            done,
            total,
            ref host,
        } => html! {
            <div class="row" data-testid="progress">
                if total > 0.0 {
                    <progress max={total.to_string()} value={done.to_string()}></progress>
                } else {
                    <progress></progress>
                }
                <span class="note">{
                    if total > 0.0 {
                        format!("Downloading from {host}: {:.1} of {:.1} MB", done / 1e6, total / 1e6)
                    } else {
                        format!("Downloading from {host}: {:.1} MB", done / 1e6)
                    }
                }</span>
            </div>
        },
        Work::Scoring { done, total } => html! {
            <div class="row" data-testid="progress">
                <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
                <span class="note">{ format!("Scored {done} of {}", counted(total, "test")) }</span>
                <button type="button" id="cancel-scoring" onclick={props.on_cancel.clone()}>{ "Cancel" }</button>
            </div>
        },
    }
}
