//! The three wire protocols: building a request, reading its reply.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::rubric::{JudgeInput, Rubric, render};
use crate::verdict::{JudgeScores, ReplyError, read_verdict};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI-compatible chat completions: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio,
    /// OpenRouter.
    Openai,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `generateContent`.
    Gemini,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Openai, Provider::Anthropic, Provider::Gemini];

    pub fn name(self) -> &'static str {
        match self {
            Provider::Openai => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Openai => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com",
            Provider::Gemini => "https://generativelanguage.googleapis.com",
        }
    }

    /// The environment variables the CLI reads the key from, first set first: Gemini's key is
    /// also found under `GOOGLE_API_KEY`, the name Google's own SDKs read.
    pub fn key_variables(self) -> &'static [&'static str] {
        match self {
            Provider::Openai => &["OPENAI_API_KEY"],
            Provider::Anthropic => &["ANTHROPIC_API_KEY"],
            Provider::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Provider {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" | "azure" | "ollama" | "vllm" | "lmstudio" | "openrouter" => {
                Ok(Provider::Openai)
            }
            "anthropic" | "claude" => Ok(Provider::Anthropic),
            "gemini" | "google" => Ok(Provider::Gemini),
            _ => Err(format!(
                "unknown judge provider \"{s}\" (expected openai, anthropic or gemini)"
            )),
        }
    }
}

/// Where and how to call a judge. No secret lives here: the transport adds the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeConfig {
    pub provider: Provider,
    /// Without a trailing slash: `https://api.openai.com/v1`, `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub temperature: f64,
    pub max_tokens: u32,
    /// The header carrying the key, when not the provider's usual one (Azure: `api-key`).
    #[serde(default)]
    pub key_header: Option<String>,
    /// Added to the URL, e.g. Azure's `api-version=2024-10-21`.
    #[serde(default)]
    pub query: Option<String>,
    /// Calls come from a browser (Anthropic then needs its direct-access header).
    #[serde(default)]
    pub browser: bool,
}

impl JudgeConfig {
    pub fn new(provider: Provider, model: &str) -> JudgeConfig {
        JudgeConfig {
            provider,
            base_url: provider.default_base_url().to_string(),
            model: model.to_string(),
            temperature: 0.0,
            max_tokens: 1024,
            key_header: None,
            query: None,
            browser: false,
        }
    }

    /// The header that carries the key, and how its value is written.
    pub fn key_header(&self) -> (String, KeyFormat) {
        if let Some(header) = &self.key_header {
            return (header.clone(), KeyFormat::Plain);
        }
        match self.provider {
            Provider::Openai => ("authorization".into(), KeyFormat::Bearer),
            Provider::Anthropic => ("x-api-key".into(), KeyFormat::Plain),
            Provider::Gemini => ("x-goog-api-key".into(), KeyFormat::Plain),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFormat {
    /// `Bearer <key>`.
    Bearer,
    Plain,
}

impl KeyFormat {
    pub fn value(self, key: &str) -> String {
        match self {
            KeyFormat::Bearer => format!("Bearer {key}"),
            KeyFormat::Plain => key.to_string(),
        }
    }
}

/// An HTTP request to make, minus the key (see [`JudgeConfig::key_header`]).
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpRequest {
    /// The host (and port) the request goes to, for messages.
    pub fn host(&self) -> &str {
        self.url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', '?']).next())
            .unwrap_or(&self.url)
    }
}

/// A failed first attempt, quoted back to the model on the one retry.
#[derive(Debug, Clone, PartialEq)]
pub struct Retry {
    pub previous_reply: String,
    pub error: String,
}

const RETRY_INSTRUCTION: &str = "Your previous reply could not be used: ";

/// Builds the request that asks `config`'s model to judge `input` for `task`.
pub fn build_request(
    config: &JudgeConfig,
    task: Rubric,
    input: &JudgeInput,
    retry: Option<&Retry>,
) -> HttpRequest {
    let prompt = render(task, input);
    let schema = task.schema();
    let base = config.base_url.trim_end_matches('/');
    let query = config
        .query
        .as_deref()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    let retry_text = retry.map(|r| {
        format!(
            "{RETRY_INSTRUCTION}{}. Reply again, only through the structured output.",
            r.error
        )
    });
    // OpenAI and Anthropic take the same turns: the prompt, and on the retry the failed reply
    // and the instruction quoting its error.
    let mut messages = vec![json!({"role": "user", "content": prompt})];
    if let (Some(r), Some(text)) = (retry, &retry_text) {
        messages.push(json!({"role": "assistant", "content": r.previous_reply}));
        messages.push(json!({"role": "user", "content": text}));
    }
    let (url, body) = match config.provider {
        Provider::Openai => {
            let body = json!({
                "model": config.model,
                "temperature": config.temperature,
                "max_tokens": config.max_tokens,
                "messages": messages,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "verdict", "strict": true, "schema": schema},
                },
            });
            (format!("{base}/chat/completions{query}"), body)
        }
        Provider::Anthropic => {
            headers.push(("anthropic-version".into(), "2023-06-01".into()));
            if config.browser {
                headers.push((
                    "anthropic-dangerous-direct-browser-access".into(),
                    "true".into(),
                ));
            }
            let body = json!({
                "model": config.model,
                "temperature": config.temperature,
                "max_tokens": config.max_tokens,
                "messages": messages,
                "tools": [{"name": "record_verdict", "description": "Record the verdict.", "input_schema": schema}],
                "tool_choice": {"type": "tool", "name": "record_verdict"},
            });
            (format!("{base}/v1/messages{query}"), body)
        }
        Provider::Gemini => {
            let mut contents = vec![json!({"role": "user", "parts": [{"text": prompt}]})];
            if let (Some(r), Some(text)) = (retry, &retry_text) {
                contents.push(json!({"role": "model", "parts": [{"text": r.previous_reply}]}));
                contents.push(json!({"role": "user", "parts": [{"text": text}]}));
            }
            let mut gemini_schema = schema;
            // Gemini's schema dialect has no `additionalProperties`.
            if let Some(object) = gemini_schema.as_object_mut() {
                object.remove("additionalProperties");
            }
            let body = json!({
                "contents": contents,
                "generationConfig": {
                    "temperature": config.temperature,
                    "maxOutputTokens": config.max_tokens,
                    "responseMimeType": "application/json",
                    "responseSchema": gemini_schema,
                },
            });
            (
                format!(
                    "{base}/v1beta/models/{}:generateContent{query}",
                    config.model
                ),
                body,
            )
        }
    };
    HttpRequest {
        url,
        headers,
        body: body.to_string(),
    }
}

/// Reads a provider's reply (HTTP status and body) into a verdict, or says precisely what is
/// wrong with it. Only the structured output is read: text anywhere else cannot change the
/// verdict.
pub fn parse_reply(
    provider: Provider,
    task: Rubric,
    status: u16,
    body: &str,
) -> Result<JudgeScores, ReplyError> {
    if !(200..300).contains(&status) {
        return Err(ReplyError::Http {
            status,
            message: error_message(body),
        });
    }
    let reply: Value = serde_json::from_str(body)
        .map_err(|err| ReplyError::Malformed(format!("the reply is not JSON ({err})")))?;
    let (raw, structured) = match provider {
        Provider::Openai => {
            let choice = &reply["choices"][0];
            if choice.is_null() {
                return Err(ReplyError::Malformed("the reply has no choices".into()));
            }
            if let Some(refusal) = choice["message"]["refusal"].as_str() {
                return Err(ReplyError::Refusal(refusal.to_string()));
            }
            if choice["finish_reason"] == "length" {
                return Err(ReplyError::Truncated);
            }
            if choice["finish_reason"] == "content_filter" {
                return Err(ReplyError::Refusal(
                    "the provider's content filter stopped the reply".into(),
                ));
            }
            let content = choice["message"]["content"]
                .as_str()
                .ok_or_else(|| ReplyError::Malformed("the reply has no message content".into()))?;
            (content.to_string(), parse_json_text(content)?)
        }
        Provider::Anthropic => {
            match reply["stop_reason"].as_str() {
                Some("max_tokens") => return Err(ReplyError::Truncated),
                Some("refusal") => {
                    return Err(ReplyError::Refusal("the model declined to answer".into()));
                }
                _ => {}
            }
            let blocks = reply["content"]
                .as_array()
                .ok_or_else(|| ReplyError::Malformed("the reply has no content".into()))?;
            let tool = blocks
                .iter()
                .find(|b| b["type"] == "tool_use" && b["name"] == "record_verdict");
            match tool {
                Some(block) => (block["input"].to_string(), block["input"].clone()),
                None => {
                    let text: String = blocks
                        .iter()
                        .filter_map(|b| b["text"].as_str())
                        .collect::<Vec<_>>()
                        .join(" ");
                    return Err(ReplyError::Malformed(format!(
                        "the reply did not use the verdict tool (it said: {})",
                        clip(&text)
                    )));
                }
            }
        }
        Provider::Gemini => {
            if let Some(reason) = reply["promptFeedback"]["blockReason"].as_str() {
                return Err(ReplyError::Refusal(format!(
                    "the prompt was blocked ({reason})"
                )));
            }
            let candidate = &reply["candidates"][0];
            match candidate["finishReason"].as_str() {
                Some("MAX_TOKENS") => return Err(ReplyError::Truncated),
                Some(
                    reason
                    @ ("SAFETY" | "RECITATION" | "PROHIBITED_CONTENT" | "BLOCKLIST" | "SPII"),
                ) => {
                    return Err(ReplyError::Refusal(format!(
                        "the reply was blocked ({reason})"
                    )));
                }
                _ => {}
            }
            let text = candidate["content"]["parts"][0]["text"]
                .as_str()
                .ok_or_else(|| ReplyError::Malformed("the reply has no candidate text".into()))?;
            (text.to_string(), parse_json_text(text)?)
        }
    };
    read_verdict(task, &structured).map_err(|err| match err {
        ReplyError::Invalid { message, .. } => ReplyError::Invalid { message, raw },
        other => other,
    })
}

fn parse_json_text(text: &str) -> Result<Value, ReplyError> {
    serde_json::from_str(text.trim()).map_err(|err| {
        if err.is_eof() {
            ReplyError::Truncated
        } else {
            ReplyError::Invalid {
                message: format!("the verdict is not valid JSON ({err})"),
                raw: text.to_string(),
            }
        }
    })
}

/// The provider's own error message, when its error body has one.
fn error_message(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|v| {
        v["error"]["message"]
            .as_str()
            .or_else(|| v["error"].as_str())
            .or_else(|| v["message"].as_str())
            .map(str::to_string)
    });
    clip(&message.unwrap_or_else(|| body.to_string()))
}

/// At most 200 characters of untrusted text, for messages.
pub fn clip(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
