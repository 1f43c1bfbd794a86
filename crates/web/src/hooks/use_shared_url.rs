use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::share::{self, ShareError};
use crate::state::{Action, Playground};

/// The state to start from: the link's, or the example when the link has none. A link that
/// cannot be read starts the example and says why.
pub fn initial_state() -> (Playground, Option<String>) {
    let hash = gloo_hash();
    match share::decode(&hash) {
        Ok(Some(state)) => state.capped(),
        Ok(None) => (Playground::example(), None),
        Err(err) => (
            Playground::example(),
            Some(format!("This link could not be opened: {err}.")),
        ),
    }
}

fn gloo_hash() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// Keeps the address bar equal to `state` (replacing, not pushing, history entries), and loads
/// the state of a link pasted into this tab's address bar. Returns why the state cannot be
/// shared, if it cannot.
#[hook]
pub fn use_shared_url(state: &Playground, dispatch: Callback<Action>) -> Option<ShareError> {
    let problem = use_state_eq(|| None);
    {
        let problem = problem.clone();
        use_effect_with(state.clone(), move |state| match share::encode(state) {
            Ok(fragment) => {
                if gloo_hash().trim_start_matches('#') != fragment {
                    replace_fragment(&fragment);
                }
                problem.set(None);
            }
            Err(err) => problem.set(Some(err)),
        });
    }
    use_effect_with((), move |()| {
        let listener = web_sys::window().map(|window| {
            gloo_events::EventListener::new(&window, "hashchange", move |_| {
                if let Ok(Some(state)) = share::decode(&gloo_hash()) {
                    dispatch.emit(Action::Load(state));
                }
            })
        });
        move || drop(listener)
    });
    (*problem).clone()
}

fn replace_fragment(fragment: &str) {
    if let Some(window) = web_sys::window()
        && let Ok(history) = window.history()
    {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
}
