//! Sending a judge request over HTTP.

use std::time::Duration;

use qeval_judge::{HttpRequest, JudgeConfig, Outcome, ReplyError};

/// An HTTP client for one judge: its time limit, and every status handed back as a reply.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into()
}

/// Sends `request` with the key in the header `config` names. The key goes into the request and
/// nowhere else.
pub fn send(
    agent: &ureq::Agent,
    config: &JudgeConfig,
    request: &HttpRequest,
    key: Option<&str>,
    timeout: Duration,
) -> Outcome {
    let mut call = agent.post(&request.url);
    for (name, value) in &request.headers {
        call = call.header(name, value);
    }
    if let Some(key) = key {
        let (header, format) = config.key_header();
        call = call.header(&header, &format.value(key));
    }
    match call.send(request.body.as_bytes()) {
        Ok(response) => {
            let status = response.status().as_u16();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            match response.into_body().read_to_string() {
                Ok(body) => Outcome::Reply {
                    status,
                    body,
                    retry_after,
                },
                Err(ureq::Error::Timeout(_)) => Outcome::Failed(ReplyError::Timeout {
                    seconds: timeout.as_secs_f64(),
                }),
                Err(err) => Outcome::Failed(ReplyError::Transport(format!(
                    "reading the reply failed: {err}"
                ))),
            }
        }
        Err(ureq::Error::Timeout(_)) => Outcome::Failed(ReplyError::Timeout {
            seconds: timeout.as_secs_f64(),
        }),
        Err(err) => Outcome::Failed(ReplyError::Transport(format!("{} ({err})", request.host()))),
    }
}
