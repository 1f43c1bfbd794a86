//! The address of an open test: `#test=ID` in the report's URL opens that test once its run is
//! loaded (and when the address changes), and opening or closing a test keeps the address in
//! step, so that one failing test can be linked in a bug report.

use qeval_core::EvaluationRecord;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::report::Shared;

const PREFIX: &str = "#test=";

/// Keeps the open test (`selected`, an index into `records`) and the address's `#test=ID` in
/// step while a run is loaded: `open` is called with the test the address names.
#[hook]
pub fn use_test_address(
    records: Option<Shared<Vec<EvaluationRecord>>>,
    selected: Option<usize>,
    open: Callback<usize>,
) {
    {
        use_effect_with(records.clone(), move |records| {
            let records = records.clone();
            let open_addressed = move || {
                if let (Some(records), Some(id)) = (&records, test_in_address())
                    && let Some(index) = records.iter().position(|r| r.key() == id)
                {
                    open.emit(index);
                }
            };
            open_addressed();
            let listener = web_sys::window().map(|window| {
                gloo_events::EventListener::new(&window, "hashchange", move |_| open_addressed())
            });
            move || drop(listener)
        });
    }
    let open_key = records
        .as_ref()
        .and_then(|records| selected.and_then(|index| records.get(index)))
        .map(EvaluationRecord::key);
    use_effect_with((records.is_some(), open_key), |(loaded, key)| {
        if *loaded {
            write_address(key.as_deref());
        }
    });
}

/// The test id in the address, if it names one.
fn test_in_address() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let encoded = hash.strip_prefix(PREFIX)?;
    js_sys::decode_uri_component(encoded).ok().map(String::from)
}

/// Puts `#test=ID` in the address (replacing the history entry), or takes it away.
fn write_address(key: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let hash = location.hash().unwrap_or_default();
    let fragment = match key {
        Some(key) => format!(
            "{PREFIX}{}",
            String::from(js_sys::encode_uri_component(key))
        ),
        // Another fragment is not this hook's to remove.
        None if !hash.starts_with(PREFIX) => return,
        None => String::new(),
    };
    if fragment == hash {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{path}{search}{fragment}")),
        );
    }
}
