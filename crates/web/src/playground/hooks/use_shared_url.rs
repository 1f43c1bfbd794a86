use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::playground::share::{self, ShareError};
use crate::playground::state::{Playground, PlaygroundAction};

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

/// The fragment of the playground as typed, kept up to date even while the address bar waits
/// for typing to pause: leaving the playground for another tab takes it from here, so the
/// history entry left behind holds the last keystroke.
#[derive(Clone, Default)]
pub struct TypedFragment(pub Rc<RefCell<String>>);

impl PartialEq for TypedFragment {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Keeps the address bar equal to `settled` (replacing, not pushing, history entries), and
/// loads the state of a link pasted into this tab's address bar; keeps the page's
/// [`TypedFragment`] equal to `typed`. Returns why the state cannot be shared, if it cannot.
#[hook]
pub fn use_shared_url(
    settled: &Playground,
    typed: &Playground,
    dispatch: Callback<PlaygroundAction>,
) -> Option<ShareError> {
    let latest = use_context::<TypedFragment>().unwrap_or_default();
    use_effect_with(typed.clone(), move |typed| {
        if let Ok(link) = share::encode(typed) {
            *latest.0.borrow_mut() = format!("#{}", link.fragment);
        }
    });
    let problem = use_state_eq(|| None);
    {
        let problem = problem.clone();
        use_effect_with(settled.clone(), move |settled| {
            match share::encode(settled) {
                Ok(link) => {
                    if gloo_hash().trim_start_matches('#') != link.fragment {
                        replace_fragment(&link.fragment);
                    }
                    problem.set(None);
                }
                Err(err) => problem.set(Some(err)),
            }
        });
    }
    use_effect_with((), move |()| {
        let listener = web_sys::window().map(|window| {
            gloo_events::EventListener::new(&window, "hashchange", move |_| {
                if let Ok(Some(state)) = share::decode(&gloo_hash()) {
                    dispatch.emit(PlaygroundAction::Load(state));
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
