use std::rc::Rc;

use qeval_core::Scorecard;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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
            save("scorecard.json", &text);
        })
    };
    html! {
        <button type="button" id="download-scorecard" onclick={on_click}>{ "Download scorecard (JSON)" }</button>
    }
}

fn save(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(document) = web_sys::window().and_then(|w| w.document())
        && let Ok(link) = document.create_element("a")
        && let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
    // The download reads the URL after this click handler returns.
    gloo_timers::callback::Timeout::new(5_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}
