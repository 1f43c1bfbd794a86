//! Sending a judge request from the browser: `fetch` with an `AbortSignal` for the time limit,
//! and every failure told in words a user can act on.

use gloo_net::http::Request;
use gloo_timers::callback::Timeout;
use qeval_judge::{HttpRequest, JudgeConfig, Received, ReplyError};

use super::settings::Preset;

/// Sends `request` with the key in the header `config` names. The key goes into the request and
/// nowhere else: not into errors, not into logs.
pub async fn send(
    config: &JudgeConfig,
    preset: Preset,
    request: &HttpRequest,
    key: Option<&str>,
    timeout_ms: u32,
) -> Received {
    let Ok(controller) = web_sys::AbortController::new() else {
        return Received::Failed(ReplyError::Transport(
            "this browser cannot make cancellable requests".into(),
        ));
    };
    let signal = controller.signal();
    // Aborts the call, headers and body alike, when the time is up; dropped (cancelled) once
    // the whole reply is read.
    let _deadline = Timeout::new(timeout_ms, move || controller.abort());
    let seconds = f64::from(timeout_ms) / 1000.0;

    // No redirect is followed: it would carry the key's header (`x-api-key`, `api-key`, a
    // custom one) to whatever host the server names, and take that host's reply as the verdict.
    let mut builder = Request::post(&request.url)
        .abort_signal(Some(&signal))
        .redirect(web_sys::RequestRedirect::Error);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some(key) = key {
        let (header, format) = config.key_header();
        builder = builder.header(&header, &format.value(key));
    }
    let call = match builder.body(request.body.clone()) {
        Ok(call) => call,
        Err(err) => return Received::Failed(ReplyError::Transport(err.to_string())),
    };
    let response = match call.send().await {
        Ok(response) => response,
        Err(err) => return Received::Failed(failure(&err, seconds, request, preset)),
    };
    let status = response.status();
    let retry_after = response.headers().get("retry-after");
    match response.text().await {
        Ok(body) => Received::Reply {
            status,
            body,
            retry_after,
        },
        Err(err) => Received::Failed(failure(&err, seconds, request, preset)),
    }
}

/// Why a call got no reply. `fetch` tells a page almost nothing (a CORS refusal, a refused
/// connection and a DNS failure are all "Failed to fetch"), so the message lists what to check.
fn failure(
    err: &gloo_net::Error,
    seconds: f64,
    request: &HttpRequest,
    preset: Preset,
) -> ReplyError {
    if let gloo_net::Error::JsError(js) = err
        && js.name == "AbortError"
    {
        return ReplyError::Timeout { seconds };
    }
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    ReplyError::Transport(format!(
        "the browser could not reach {} ({err}). Either the server is not running at that address, or it does not allow calls from this page ({origin}) through CORS, or it answered with a redirect, which is not followed so that the key goes to no other host. {}",
        request.host(),
        preset.unreachable_hint(&origin)
    ))
}
