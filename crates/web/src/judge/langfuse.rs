//! Sending a scorecard to Langfuse from the browser. A page must never hold a secret key, so this
//! uses the project's public key alone, which Langfuse accepts on its ingestion endpoint for
//! `score-create` events.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use gloo_net::http::Request;
use qeval_core::Scorecard;
use serde_json::{Value, json};

/// Sends the scores as one ingestion batch. Each score's id is derived from the trace and the
/// metric, so sending again updates the scores instead of adding copies.
pub async fn send(
    host: &str,
    public_key: &str,
    trace_id: &str,
    card: &Scorecard,
) -> Result<usize, String> {
    let timestamp = String::from(js_sys::Date::new_0().to_iso_string());
    let batch: Vec<Value> = card
        .named_scores()
        .into_iter()
        .map(|(name, value, comment)| {
            let id = format!("{trace_id}-{name}");
            json!({
                "id": format!("{id}-{}", js_sys::Date::now()),
                "timestamp": timestamp,
                "type": "score-create",
                "body": {"id": id, "traceId": trace_id, "name": name, "value": value, "comment": comment},
            })
        })
        .collect();
    let count = batch.len();
    let url = format!("{}/api/public/ingestion", host.trim().trim_end_matches('/'));
    let authorization = format!(
        "Basic {}",
        STANDARD.encode(format!("{}:", public_key.trim()))
    );
    let response = Request::post(&url)
        .header("authorization", &authorization)
        .header("content-type", "application/json")
        .body(json!({ "batch": batch }).to_string())
        .map_err(|e| e.to_string())?
        .send()
        .await
        .map_err(|e| format!("Langfuse unreachable at {host}: {e}"))?;
    let status = response.status();
    let body: Value = response
        .text()
        .await
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let rejected = body["errors"].as_array().map_or(0, Vec::len);
    match status {
        200..=299 if rejected == 0 => Ok(count),
        200..=299 => Err(format!(
            "Langfuse rejected {rejected} of {count} scores: {}",
            body["errors"][0]["message"]
                .as_str()
                .unwrap_or("no reason given")
        )),
        _ => Err(format!("Langfuse answered HTTP {status}")),
    }
}
