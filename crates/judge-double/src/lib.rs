//! A test double of the LLM providers (and of Langfuse), for qeval's own tests: a small HTTP/1.1
//! server on 127.0.0.1 that answers the three providers' wire formats. It is a stand-in for the
//! remote service, not for any of qeval's code.
//!
//! The model name chooses the behaviour:
//! - any ordinary name: a verdict. 1.0 when the generated and expected queries quoted in the
//!   prompt are equal ignoring case and spacing, else 0.5; the three agent quality scores for
//!   the quality prompt;
//! - `fault-timeout`: no answer for 120 s; `slow-<ms>`: the verdict after `<ms>` milliseconds;
//! - `fault-429`: 429 with `Retry-After: 1`, then a verdict on the next call;
//! - `fault-500`, `fault-malformed` (not JSON), `fault-truncated` (cut at the token limit),
//!   `fault-refusal`, `fault-range` (a score of 7), `fault-string-score` (the score as the
//!   string `"1.0"`);
//! - `redirect-<port>`: 307 to the same path on `127.0.0.1:<port>`, another origin;
//! - `fault-retry-hour`: 429 with `Retry-After: 3600`, every time;
//! - `fault-gzip-bomb`: a 200 whose gzip body (about 64 KB) inflates to 64 MB.
//!
//! `GET /_stats` gives `{"requests": n, "keys": [...]}` (provider calls only, and the distinct
//! API keys they carried); `POST /_reset` zeroes it;
//! `GET /_langfuse` lists the scores received on `/api/public/scores` and
//! `/api/public/ingestion`, `GET /_langfuse_auth` the `authorization` header of each of those calls. Every answer allows any origin, so browsers can call it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

#[derive(Default)]
struct DoubleState {
    requests: AtomicUsize,
    /// Distinct API keys seen on provider calls.
    keys: Mutex<Vec<String>>,
    langfuse: Mutex<Vec<Value>>,
    /// The `authorization` values Langfuse calls carried.
    langfuse_auth: Mutex<Vec<String>>,
    /// Models that already got their one 429.
    throttled: Mutex<Vec<String>>,
}

/// A running double. It stops when the process ends.
pub struct JudgeDouble {
    pub url: String,
    state: Arc<DoubleState>,
}

impl JudgeDouble {
    /// Starts on a free port of 127.0.0.1.
    pub fn start() -> std::io::Result<JudgeDouble> {
        Self::start_on(0)
    }

    pub fn start_on(port: u16) -> std::io::Result<JudgeDouble> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let url = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
        let state = Arc::new(DoubleState::default());
        let shared = state.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = shared.clone();
                thread::spawn(move || {
                    let _ = serve(stream, &state);
                });
            }
        });
        Ok(JudgeDouble { url, state })
    }

    /// Provider calls answered so far.
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// The distinct API keys provider calls carried.
    pub fn keys(&self) -> Vec<String> {
        self.state
            .keys
            .lock()
            .map(|k| k.clone())
            .unwrap_or_default()
    }

    /// Scores received by the Langfuse endpoints.
    pub fn langfuse_scores(&self) -> Vec<Value> {
        self.state
            .langfuse
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default()
    }
}

struct Incoming {
    method: String,
    path: String,
    body: String,
    /// The API key the request carried, in whichever provider's header.
    key: Option<String>,
}

fn read_request(stream: &TcpStream) -> std::io::Result<Option<Incoming>> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or_default().to_string(),
        parts.next().unwrap_or_default().to_string(),
    );
    let mut length = 0usize;
    let mut key = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            match name.as_str() {
                "content-length" => length = value.parse().unwrap_or(0),
                "authorization" | "x-api-key" | "x-goog-api-key" | "api-key" => {
                    key = Some(value.trim_start_matches("Bearer ").to_string());
                }
                _ => {}
            }
        }
    }
    let mut body = vec![0u8; length.min(16 * 1024 * 1024)];
    reader.read_exact(&mut body)?;
    Ok(Some(Incoming {
        method,
        path,
        body: String::from_utf8_lossy(&body).into_owned(),
        key,
    }))
}

fn respond(
    mut stream: &TcpStream,
    status: u16,
    extra: &[(&str, &str)],
    body: &str,
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        204 => "No Content",
        307 => "Temporary Redirect",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Error",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\
         access-control-allow-origin: *\r\naccess-control-allow-headers: *, authorization\r\naccess-control-allow-methods: GET, POST, OPTIONS\r\n\
         access-control-expose-headers: retry-after\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}

/// 64 MB of spaces, gzip-compressed: a reply small on the wire and huge once inflated.
fn respond_gzip_bomb(mut stream: &TcpStream) -> std::io::Result<()> {
    let plain = vec![b' '; 64 * 1024 * 1024];
    let deflated = miniz_oxide::deflate::compress_to_vec(&plain, 6);
    let mut body = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    body.extend_from_slice(&deflated);
    body.extend_from_slice(&crc32(&plain).to_le_bytes());
    body.extend_from_slice(&(plain.len() as u32).to_le_bytes());
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

/// CRC-32 (IEEE), as gzip's trailer has it.
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, entry) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *entry = c;
    }
    let mut crc = !0u32;
    for byte in data {
        crc = table[((crc ^ u32::from(*byte)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

fn serve(stream: TcpStream, state: &DoubleState) -> std::io::Result<()> {
    let Some(request) = read_request(&stream)? else {
        return Ok(());
    };
    if request.method == "OPTIONS" {
        return respond(&stream, 204, &[], "");
    }
    let path = request
        .path
        .split('?')
        .next()
        .unwrap_or_default()
        .to_string();
    match (request.method.as_str(), path.as_str()) {
        ("GET", "/_stats") => {
            return respond(
                &stream,
                200,
                &[],
                &json!({
                    "requests": state.requests.load(Ordering::SeqCst),
                    "keys": state.keys.lock().map(|k| k.clone()).unwrap_or_default(),
                })
                .to_string(),
            );
        }
        ("POST", "/_reset") => {
            state.requests.store(0, Ordering::SeqCst);
            if let Ok(mut k) = state.keys.lock() {
                k.clear();
            }
            if let Ok(mut a) = state.langfuse_auth.lock() {
                a.clear();
            }
            if let Ok(mut l) = state.langfuse.lock() {
                l.clear();
            }
            return respond(&stream, 200, &[], "{}");
        }
        ("GET", "/_langfuse_auth") => {
            let auth = state
                .langfuse_auth
                .lock()
                .map(|l| l.clone())
                .unwrap_or_default();
            return respond(&stream, 200, &[], &json!(auth).to_string());
        }
        ("GET", "/_langfuse") => {
            let scores = state.langfuse.lock().map(|l| l.clone()).unwrap_or_default();
            return respond(&stream, 200, &[], &Value::from(scores).to_string());
        }
        ("POST", "/api/public/scores" | "/api/public/ingestion") => {
            if let Ok(mut auth) = state.langfuse_auth.lock() {
                auth.push(request.key.clone().unwrap_or_default());
            }
            let body: Value = serde_json::from_str(&request.body).unwrap_or(Value::Null);
            let scores = if path.ends_with("/scores") {
                vec![body]
            } else {
                let events = body["batch"].as_array().cloned().unwrap_or_default();
                events
                    .into_iter()
                    .filter(|e| e["type"] == "score-create")
                    .map(|e| e["body"].clone())
                    .collect()
            };
            if let Ok(mut l) = state.langfuse.lock() {
                l.extend(scores);
            }
            return if path.ends_with("/scores") {
                respond(&stream, 200, &[], r#"{"id": "score"}"#)
            } else {
                respond(&stream, 207, &[], r#"{"successes": [], "errors": []}"#)
            };
        }
        _ => {}
    }
    let body: Value = serde_json::from_str(&request.body).unwrap_or(Value::Null);
    let provider = if path.ends_with("/chat/completions") {
        "openai"
    } else if path.ends_with("/v1/messages") {
        "anthropic"
    } else if path.contains(":generateContent") {
        "gemini"
    } else {
        return respond(
            &stream,
            404,
            &[],
            r#"{"error": {"message": "no such endpoint"}}"#,
        );
    };
    state.requests.fetch_add(1, Ordering::SeqCst);
    if let (Some(key), Ok(mut keys)) = (&request.key, state.keys.lock())
        && !keys.contains(key)
    {
        keys.push(key.clone());
    }
    let model = match provider {
        "gemini" => path
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .split(':')
            .next()
            .unwrap_or_default()
            .to_string(),
        _ => body["model"].as_str().unwrap_or_default().to_string(),
    };
    let prompt = prompt_text(provider, &body);
    if let Some(ms) = model
        .strip_prefix("slow-")
        .and_then(|ms| ms.parse::<u64>().ok())
    {
        thread::sleep(Duration::from_millis(ms));
    }
    if let Some(port) = model.strip_prefix("redirect-") {
        let to = format!("http://127.0.0.1:{port}{}", request.path);
        return respond(&stream, 307, &[("location", &to)], "{}");
    }
    match model.as_str() {
        "fault-retry-hour" => {
            return respond(
                &stream,
                429,
                &[("retry-after", "3600")],
                r#"{"error": {"message": "come back in an hour"}}"#,
            );
        }
        "fault-gzip-bomb" => return respond_gzip_bomb(&stream),
        "fault-timeout" => {
            thread::sleep(Duration::from_secs(120));
            return Ok(());
        }
        "fault-500" => {
            return respond(
                &stream,
                500,
                &[],
                r#"{"error": {"message": "the double failed on purpose"}}"#,
            );
        }
        "fault-429" => {
            let first = state.throttled.lock().map(|mut t| {
                let first = !t.contains(&prompt);
                if first {
                    t.push(prompt.clone());
                }
                first
            });
            if first.unwrap_or(true) {
                return respond(
                    &stream,
                    429,
                    &[("retry-after", "1")],
                    r#"{"error": {"message": "slow down"}}"#,
                );
            }
        }
        "fault-malformed" => return respond(&stream, 200, &[], "{\"choices\": [oops"),
        _ => {}
    }
    let verdict = verdict(&prompt, &model);
    let reply = match (provider, model.as_str()) {
        ("openai", "fault-truncated") => {
            json!({"choices": [{"message": {"content": "{\"reasoning\": \"The que"}, "finish_reason": "length"}]})
        }
        ("openai", "fault-refusal") => {
            json!({"choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]})
        }
        ("openai", _) => {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": verdict.to_string()}, "finish_reason": "stop"}]})
        }
        ("anthropic", "fault-truncated") => json!({"content": [], "stop_reason": "max_tokens"}),
        ("anthropic", "fault-refusal") => json!({"content": [], "stop_reason": "refusal"}),
        ("anthropic", _) => {
            json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "record_verdict", "input": verdict}], "stop_reason": "tool_use"})
        }
        (_, "fault-truncated") => {
            json!({"candidates": [{"content": {"parts": [{"text": "{\"reasoning\": \"The que"}]}, "finishReason": "MAX_TOKENS"}]})
        }
        (_, "fault-refusal") => json!({"candidates": [{"finishReason": "SAFETY"}]}),
        _ => {
            json!({"candidates": [{"content": {"parts": [{"text": verdict.to_string()}], "role": "model"}, "finishReason": "STOP"}]})
        }
    };
    respond(&stream, 200, &[], &reply.to_string())
}

/// The prompt text of the first user message.
fn prompt_text(provider: &str, body: &Value) -> String {
    let text = match provider {
        "gemini" => &body["contents"][0]["parts"][0]["text"],
        _ => &body["messages"][0]["content"],
    };
    text.as_str().unwrap_or_default().to_string()
}

/// The JSON string that follows `label:` on its own line in the prompt.
fn quoted_after(prompt: &str, label: &str) -> Option<String> {
    let start = prompt.find(&format!("\n{label}:\n"))? + label.len() + 3;
    let line = prompt[start..].lines().next()?;
    serde_json::from_str::<String>(line).ok()
}

fn verdict(prompt: &str, model: &str) -> Value {
    if prompt.contains("Answer quality") {
        return json!({"reasoning": "Clear and supported by the sources.", "answer_quality": 0.9, "factual_correctness": 0.95, "completeness": 0.85});
    }
    let squash = |text: String| {
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let generated = quoted_after(prompt, "GENERATED").map(squash);
    let expected = quoted_after(prompt, "EXPECTED").map(squash);
    let score = if model == "fault-range" {
        7.0
    } else if generated.is_some() && generated == expected {
        1.0
    } else {
        0.5
    };
    let reasoning = if model == "markdown" {
        // Models often answer in Markdown, and may repeat markup from the queries they read.
        "The queries **differ**:\n\n- the filter `id = 1` is *not* `id = 2`\n- <img src=x onerror=alert(1)> is text\n\nSee [the guide](https://example.com)."
    } else if score == 1.0 {
        "The queries are equivalent."
    } else {
        "The queries differ."
    };
    if model == "fault-string-score" {
        return json!({"reasoning": reasoning, "score": "1.0"});
    }
    json!({"reasoning": reasoning, "score": score})
}
