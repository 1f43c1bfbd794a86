//! One judging, from first request to verdict or error, as a state machine the transport drives:
//! it sends what it is told, after waiting as long as it is told, and reports what came back.
//!
//! - A reply in the wrong shape (invalid verdict, truncated) is retried once, quoting the error.
//! - HTTP 429 and 5xx are retried up to twice, after the `Retry-After` the server asked for (in
//!   seconds) or else 1 s and then 2 s.
//! - Everything else is final: the metric becomes 0.0 with the error.

use crate::provider::{HttpRequest, JudgeConfig, Retry, build_request, parse_reply};
use crate::rubric::{JudgeInput, Rubric};
use crate::verdict::{JudgeScores, ReplyError};

/// Most waits for a busy or failing service.
const MAX_WAITS: u32 = 2;
/// Longest wait honoured from `Retry-After`.
const MAX_WAIT_MS: u64 = 30_000;

/// What the transport got back.
#[derive(Debug, Clone, PartialEq)]
pub enum Received {
    Reply {
        status: u16,
        body: String,
        retry_after: Option<String>,
    },
    /// No reply: timeout, network or CORS failure.
    Failed(ReplyError),
}

/// What the transport does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Send { request: HttpRequest, wait_ms: u64 },
    Done(JudgeScores),
    Failed(ReplyError),
}

#[derive(Debug, Clone)]
pub struct Conversation {
    config: JudgeConfig,
    task: Rubric,
    input: JudgeInput,
    retry: Option<Retry>,
    waits: u32,
    /// Longest wait the caller accepts (its own time limit for a verdict).
    max_wait_ms: u64,
    /// Requests sent so far.
    pub calls: u32,
}

impl Conversation {
    pub fn new(config: JudgeConfig, task: Rubric, input: JudgeInput) -> Conversation {
        Conversation {
            config,
            task,
            input,
            retry: None,
            waits: 0,
            max_wait_ms: MAX_WAIT_MS,
            calls: 0,
        }
    }

    /// Waits no longer than `ms` (the caller's time limit): a server that asks for a longer
    /// wait gets no retry, and the judging fails at once, saying so.
    pub fn with_max_wait(mut self, ms: u64) -> Conversation {
        self.max_wait_ms = ms.min(MAX_WAIT_MS);
        self
    }

    /// The first request, sent at once.
    pub fn start(&mut self) -> Step {
        self.send(0)
    }

    fn send(&mut self, wait_ms: u64) -> Step {
        self.calls += 1;
        Step::Send {
            request: build_request(&self.config, self.task, &self.input, self.retry.as_ref()),
            wait_ms,
        }
    }

    /// Takes what the last request got and says what to do next.
    pub fn on_received(&mut self, outcome: Received) -> Step {
        let (error, retry_after) = match outcome {
            Received::Failed(error) => (error, None),
            Received::Reply {
                status,
                body,
                retry_after,
            } => match parse_reply(self.config.provider, self.task, status, &body) {
                Ok(verdict) => return Step::Done(verdict),
                Err(error) => (error, retry_after),
            },
        };
        if error.retry_with_feedback() && self.retry.is_none() {
            let previous_reply = match &error {
                ReplyError::Invalid { raw, .. } => raw.clone(),
                _ => String::new(),
            };
            self.retry = Some(Retry {
                previous_reply,
                error: error.to_string(),
            });
            return self.send(0);
        }
        if error.retry_after_waiting() && self.waits < MAX_WAITS {
            self.waits += 1;
            let asked = retry_after
                .as_deref()
                .and_then(|value| value.trim().parse::<f64>().ok())
                .filter(|seconds| seconds.is_finite() && *seconds >= 0.0);
            if let Some(seconds) = asked
                && seconds * 1000.0 > self.max_wait_ms as f64
            {
                return Step::Failed(ReplyError::Transport(format!(
                    "{error}; the server asked to wait {seconds} s before trying again, longer than the {} s the judge waits",
                    self.max_wait_ms as f64 / 1000.0
                )));
            }
            let wait_ms = asked.map_or(1000 * u64::from(self.waits), |seconds| {
                (seconds * 1000.0) as u64
            });
            return self.send(wait_ms);
        }
        Step::Failed(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::Provider;
    use serde_json::json;

    fn conversation() -> Conversation {
        Conversation::new(
            JudgeConfig::new(Provider::Openai, "m"),
            Rubric::QasSemantic,
            JudgeInput::default(),
        )
    }

    fn openai(content: &str) -> Received {
        let body = json!({"choices": [{"message": {"content": content}, "finish_reason": "stop"}]});
        Received::Reply {
            status: 200,
            body: body.to_string(),
            retry_after: None,
        }
    }

    #[test]
    fn a_good_reply_is_a_verdict() {
        let mut c = conversation();
        assert!(matches!(c.start(), Step::Send { wait_ms: 0, .. }));
        match c.on_received(openai(r#"{"reasoning": "same", "score": 0.9}"#)) {
            Step::Done(v) => assert_eq!(v.score(), Some(0.9)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_invalid_verdict_is_retried_once_with_the_error_quoted() {
        let mut c = conversation();
        c.start();
        let Step::Send { request, .. } = c.on_received(openai(r#"{"reasoning": "x", "score": 5}"#))
        else {
            panic!()
        };
        assert!(
            request.body.contains("could not be used"),
            "{}",
            request.body
        );
        assert!(request.body.contains("outside 0..1"));
        assert!(matches!(
            c.on_received(openai("not json")),
            Step::Failed(ReplyError::Invalid { .. })
        ));
        assert_eq!(c.calls, 2);
    }

    #[test]
    fn a_retry_after_past_the_limit_fails_at_once() {
        let mut c = conversation().with_max_wait(30_000);
        c.start();
        let busy = Received::Reply {
            status: 429,
            body: "{}".into(),
            retry_after: Some("3600".into()),
        };
        let Step::Failed(error) = c.on_received(busy) else {
            panic!("no wait of an hour");
        };
        assert!(
            error.to_string().contains("asked to wait 3600 s"),
            "{error}"
        );
    }

    #[test]
    fn busy_services_are_retried_after_retry_after() {
        let mut c = conversation();
        c.start();
        let busy = |after: Option<&str>| Received::Reply {
            status: 429,
            body: "{}".into(),
            retry_after: after.map(str::to_string),
        };
        assert!(matches!(
            c.on_received(busy(Some("3"))),
            Step::Send { wait_ms: 3000, .. }
        ));
        assert!(matches!(
            c.on_received(busy(None)),
            Step::Send { wait_ms: 2000, .. }
        ));
        assert!(matches!(
            c.on_received(busy(None)),
            Step::Failed(ReplyError::Http { status: 429, .. })
        ));
    }

    #[test]
    fn timeouts_and_refusals_are_final() {
        let mut c = conversation();
        c.start();
        assert!(matches!(
            c.on_received(Received::Failed(ReplyError::Timeout { seconds: 30.0 })),
            Step::Failed(_)
        ));
        let mut c = conversation();
        c.start();
        let refusal = json!({"choices": [{"message": {"content": null, "refusal": "I can't"}, "finish_reason": "stop"}]});
        let step = c.on_received(Received::Reply {
            status: 200,
            body: refusal.to_string(),
            retry_after: None,
        });
        assert!(matches!(step, Step::Failed(ReplyError::Refusal(_))));
    }
}
