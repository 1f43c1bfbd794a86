use wasm_bindgen_futures::{JsFuture, spawn_local};
use yew::prelude::*;

use crate::playground::share::{self, ShareError};
use crate::playground::state::Playground;

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
    /// With what the link had to leave out, if anything.
    Copied(Option<String>),
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
            let (link, left_out) = match link_to(&state) {
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
                    Ok(_) => status.set(Status::Copied(left_out)),
                    Err(_) => status.set(Status::Failed(
                        "The browser refused the clipboard: copy the address bar instead".into(),
                    )),
                }
            });
        })
    };
    let note = match (&props.problem, &*status) {
        (Some(problem), _) => format!("Cannot share: {problem}"),
        (None, Status::Copied(None)) => "Link copied".to_string(),
        (None, Status::Copied(Some(left_out))) => format!("Link copied, {left_out}"),
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

/// This page's address with `state` in its fragment, and what the link left out.
fn link_to(state: &Playground) -> Result<(String, Option<String>), String> {
    let link = share::encode(state).map_err(|err| format!("Cannot share: {err}"))?;
    let location = web_sys::window().ok_or("no window")?.location();
    let base = location.href().map_err(|_| "the page has no address")?;
    let base = base.split('#').next().unwrap_or_default();
    let left_out = link.database_sql_left_out.map(|bytes| {
        format!(
            "without the database's SQL ({} KB compressed; a link holds {} KB): whoever opens it must build the database from that SQL themselves",
            bytes.div_ceil(1024),
            share::MAX_FRAGMENT_BYTES / 1024
        )
    });
    Ok((format!("{base}#{}", link.fragment), left_out))
}
