//! Saving text as a file the user downloads.

use wasm_bindgen::JsCast;

/// Offers `text` as a download named `name`.
pub fn save(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
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
