//! Sending scores to Langfuse: each metric of each scorecard as a score on its trace.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

pub struct Langfuse {
    host: String,
    authorization: String,
    agent: ureq::Agent,
}

impl Langfuse {
    /// With the project's public and secret keys (from `LANGFUSE_PUBLIC_KEY`,
    /// `LANGFUSE_SECRET_KEY`).
    pub fn new(host: &str, public_key: &str, secret_key: &str) -> Langfuse {
        Langfuse {
            host: host.trim_end_matches('/').to_string(),
            authorization: format!(
                "Basic {}",
                STANDARD.encode(format!("{public_key}:{secret_key}"))
            ),
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(std::time::Duration::from_secs(30)))
                .build()
                .into(),
        }
    }

    /// Posts one score to `/api/public/scores`.
    pub fn send(
        &self,
        trace_id: &str,
        name: &str,
        value: f64,
        comment: &str,
    ) -> Result<(), String> {
        let body = json!({ "traceId": trace_id, "name": name, "value": value, "comment": comment });
        let url = format!("{}/api/public/scores", self.host);
        match self
            .agent
            .post(&url)
            .header("authorization", &self.authorization)
            .header("content-type", "application/json")
            .send(body.to_string().as_bytes())
        {
            Ok(response) if response.status().is_success() => Ok(()),
            Ok(response) => Err(format!("Langfuse answered {}", response.status())),
            Err(err) => Err(format!("Langfuse unreachable at {}: {err}", self.host)),
        }
    }
}
