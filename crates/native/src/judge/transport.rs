//! Sending a judge request over HTTP.

use std::io::Read as _;
use std::time::Duration;

use qeval_judge::{HttpRequest, JudgeConfig, Received, ReplyError};

/// The largest reply read, once decompressed: a verdict is a few hundred bytes.
pub const MAX_REPLY_BYTES: u64 = 10 * 1024 * 1024;

/// An HTTP client for one judge: its time limit, every status handed back as a reply, and no
/// redirect followed: a redirect would carry the key's header (`x-api-key`, `api-key`, a custom
/// one) to wherever the server points, and take that host's reply as the verdict.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
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
) -> Received {
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
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            if (300..400).contains(&status) {
                let to = header("location").unwrap_or_else(|| "nowhere said".into());
                return Received::Failed(ReplyError::Transport(format!(
                    "{} answered {status}, a redirect to {to}: not followed, so the key goes to no other host",
                    request.host()
                )));
            }
            let retry_after = header("retry-after");
            // The cap holds for the decompressed text: a small gzip reply can inflate to
            // gigabytes.
            let mut body = String::new();
            let read = response
                .into_body()
                .into_with_config()
                .reader()
                .take(MAX_REPLY_BYTES + 1)
                .read_to_string(&mut body);
            match read {
                Ok(_) if body.len() as u64 > MAX_REPLY_BYTES => {
                    Received::Failed(ReplyError::Transport(format!(
                        "the reply is larger than {} MB once decompressed; not read further",
                        MAX_REPLY_BYTES / (1024 * 1024)
                    )))
                }
                Ok(_) => Received::Reply {
                    status,
                    body,
                    retry_after,
                },
                Err(err)
                    if err.kind() == std::io::ErrorKind::TimedOut
                        || err
                            .get_ref()
                            .and_then(|inner| inner.downcast_ref::<ureq::Error>())
                            .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_))) =>
                {
                    Received::Failed(ReplyError::Timeout {
                        seconds: timeout.as_secs_f64(),
                    })
                }
                Err(err) => Received::Failed(ReplyError::Transport(format!(
                    "reading the reply failed: {err}"
                ))),
            }
        }
        Err(ureq::Error::Timeout(_)) => Received::Failed(ReplyError::Timeout {
            seconds: timeout.as_secs_f64(),
        }),
        Err(err) => Received::Failed(ReplyError::Transport(format!("{} ({err})", request.host()))),
    }
}
