use wasm_bindgen_futures::{JsFuture, spawn_local};
use yew::prelude::*;

use crate::share::{self, ShareError};
use crate::state::Playground;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The state as typed, so a click right after typing copies what is on screen even before
    /// the address bar catches up.
    pub state: Playground,
    /// Why the settled state cannot be shared as a link, if it cannot.
    pub problem: Option<ShareError>,
}

#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Copied,
    Failed(String),
}

/// Copies a link that reproduces everything on the page.
#[component]
pub fn CopyLink(props: &Props) -> Html {
    let status = use_state_eq(|| Status::Idle);
    {
        // A copied link goes stale as soon as the state changes.
        let status = status.clone();
        use_effect_with(props.state.clone(), move |_| status.set(Status::Idle));
    }
    let on_click = {
        let status = status.clone();
        let state = props.state.clone();
        Callback::from(move |_| {
            let status = status.clone();
            let link = match link_to(&state) {
                Ok(link) => link,
                Err(message) => {
                    status.set(Status::Failed(message));
                    return;
                }
            };
            let Some(window) = web_sys::window() else {
                return;
            };
            let promise = window.navigator().clipboard().write_text(&link);
            spawn_local(async move {
                match JsFuture::from(promise).await {
                    Ok(_) => status.set(Status::Copied),
                    Err(_) => status.set(Status::Failed(
                        "The browser refused the clipboard: copy the address bar instead".into(),
                    )),
                }
            });
        })
    };
    let note = match (&props.problem, &*status) {
        (Some(problem), _) => format!("Cannot share: {problem}"),
        (None, Status::Copied) => "Link copied".to_string(),
        (None, Status::Failed(message)) => message.clone(),
        (None, Status::Idle) => String::new(),
    };
    html! {
        <div class="copy-link">
            <button type="button" onclick={on_click} disabled={props.problem.is_some()}>
                { "Copy link" }
            </button>
            <span class="note" role="status" aria-live="polite" data-testid="copy-status">{ note }</span>
        </div>
    }
}

/// This page's address with `state` in its fragment.
fn link_to(state: &Playground) -> Result<String, String> {
    let fragment = share::encode(state).map_err(|err| format!("Cannot share: {err}"))?;
    let location = web_sys::window().ok_or("no window")?.location();
    let base = location.href().map_err(|_| "the page has no address")?;
    let base = base.split('#').next().unwrap_or_default();
    Ok(format!("{base}#{fragment}"))
}
