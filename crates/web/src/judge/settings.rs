//! The judge settings: which endpoint, which model, which key, and how patiently to call it.
//!
//! Settings live in `localStorage` so they survive a reload. The API key is not part of them: it
//! is kept in memory only, and written to its own entry only when the user ticks "remember on
//! this device". It never goes into the URL, the scorecard or any export.

use qeval_judge::{JudgeConfig, Provider};
use serde::{Deserialize, Serialize};

const SETTINGS_ITEM: &str = "qeval.judge.settings";
const KEY_ITEM: &str = "qeval.judge.key";

/// A known service: the provider protocol it speaks and where it usually listens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    Openai,
    Azure,
    Ollama,
    Vllm,
    LmStudio,
    OpenRouter,
    Anthropic,
    Gemini,
}

impl Preset {
    pub const ALL: [Preset; 8] = [
        Preset::Openai,
        Preset::Azure,
        Preset::Ollama,
        Preset::Vllm,
        Preset::LmStudio,
        Preset::OpenRouter,
        Preset::Anthropic,
        Preset::Gemini,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Openai => "openai",
            Preset::Azure => "azure",
            Preset::Ollama => "ollama",
            Preset::Vllm => "vllm",
            Preset::LmStudio => "lm-studio",
            Preset::OpenRouter => "openrouter",
            Preset::Anthropic => "anthropic",
            Preset::Gemini => "gemini",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Preset::Openai => "OpenAI",
            Preset::Azure => "Azure OpenAI",
            Preset::Ollama => "Ollama (local)",
            Preset::Vllm => "vLLM (local)",
            Preset::LmStudio => "LM Studio (local)",
            Preset::OpenRouter => "OpenRouter",
            Preset::Anthropic => "Anthropic",
            Preset::Gemini => "Google Gemini",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn provider(self) -> Provider {
        match self {
            Preset::Anthropic => Provider::Anthropic,
            Preset::Gemini => Provider::Gemini,
            _ => Provider::Openai,
        }
    }

    pub fn base_url(self) -> &'static str {
        match self {
            Preset::Openai => "https://api.openai.com/v1",
            Preset::Azure => {
                "https://YOUR-RESOURCE.openai.azure.com/openai/deployments/YOUR-DEPLOYMENT"
            }
            Preset::Ollama => "http://localhost:11434/v1",
            Preset::Vllm => "http://localhost:8000/v1",
            Preset::LmStudio => "http://localhost:1234/v1",
            Preset::OpenRouter => "https://openrouter.ai/api/v1",
            Preset::Anthropic => "https://api.anthropic.com",
            Preset::Gemini => "https://generativelanguage.googleapis.com",
        }
    }

    pub fn model(self) -> &'static str {
        match self {
            Preset::Openai | Preset::Azure => "gpt-4o-mini",
            Preset::Ollama => "llama3.1",
            Preset::Vllm => "Qwen/Qwen2.5-7B-Instruct",
            Preset::LmStudio => "local-model",
            Preset::OpenRouter => "openai/gpt-4o-mini",
            Preset::Anthropic => "claude-3-5-haiku-latest",
            Preset::Gemini => "gemini-2.0-flash",
        }
    }

    /// The query string the service needs on every call.
    pub fn query(self) -> &'static str {
        match self {
            Preset::Azure => "api-version=2024-10-21",
            _ => "",
        }
    }

    /// Azure takes its key in `api-key`; the others in their provider's usual header.
    fn key_header(self) -> Option<&'static str> {
        (self == Preset::Azure).then_some("api-key")
    }

    /// Local servers run without a key.
    pub fn needs_key(self) -> bool {
        !matches!(self, Preset::Ollama | Preset::Vllm | Preset::LmStudio)
    }

    /// What to do when the browser cannot reach this service.
    pub fn unreachable_hint(self, origin: &str) -> String {
        match self {
            Preset::Ollama => format!(
                "Is Ollama running? It must also allow this page's origin: start it with OLLAMA_ORIGINS={origin} ollama serve."
            ),
            Preset::Vllm => format!(
                "Is vLLM running? Start it with --allowed-origins '[\"{origin}\"]' so the browser may call it."
            ),
            Preset::LmStudio => {
                "Is LM Studio's server running? Turn on \"Enable CORS\" in its server settings.".into()
            }
            _ => "Check the base URL and your network; a proxy or browser extension may also block the request.".into(),
        }
    }
}

/// Everything the judge needs besides the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JudgeChoices {
    /// Use the LLM judge instead of the structural one.
    pub enabled: bool,
    pub preset: Preset,
    pub base_url: String,
    pub model: String,
    /// Added to every call's URL, e.g. Azure's `api-version=...`.
    pub query: String,
    /// In memory only; see the module comment.
    #[serde(skip)]
    pub key: String,
    pub remember_key: bool,
    pub timeout_seconds: f64,
    /// Judge calls in flight at once.
    pub concurrency: u32,
    /// How long a cached verdict is reused.
    pub ttl_hours: f64,
    /// Langfuse: where scores are sent from the browser, with the project's public key only.
    pub langfuse_host: String,
    pub langfuse_public_key: String,
    /// The prompt version the judge is asked with (v2 shows it the schema and the results).
    pub prompt: qeval_judge::PromptVersion,
}

impl Default for JudgeChoices {
    fn default() -> Self {
        JudgeChoices::for_preset(Preset::Openai)
    }
}

impl JudgeChoices {
    pub fn for_preset(preset: Preset) -> JudgeChoices {
        JudgeChoices {
            enabled: false,
            preset,
            base_url: preset.base_url().into(),
            model: preset.model().into(),
            query: preset.query().into(),
            key: String::new(),
            remember_key: false,
            timeout_seconds: 30.0,
            concurrency: 4,
            ttl_hours: 24.0,
            langfuse_host: "https://cloud.langfuse.com".into(),
            langfuse_public_key: String::new(),
            prompt: qeval_judge::PromptVersion::default(),
        }
    }

    /// Another preset, keeping the key, the limits and Langfuse.
    pub fn with_preset(&self, preset: Preset) -> JudgeChoices {
        JudgeChoices {
            enabled: self.enabled,
            key: self.key.clone(),
            remember_key: self.remember_key,
            timeout_seconds: self.timeout_seconds,
            concurrency: self.concurrency,
            ttl_hours: self.ttl_hours,
            langfuse_host: self.langfuse_host.clone(),
            langfuse_public_key: self.langfuse_public_key.clone(),
            prompt: self.prompt,
            ..JudgeChoices::for_preset(preset)
        }
    }

    /// The protocol-level configuration, for requests and cache keys.
    pub fn config(&self) -> JudgeConfig {
        let mut config = JudgeConfig::new(self.preset.provider(), self.model.trim());
        config.base_url = self.base_url.trim().trim_end_matches('/').to_string();
        config.key_header = self.preset.key_header().map(str::to_string);
        config.query = Some(self.query.trim().to_string()).filter(|q| !q.is_empty());
        config.browser = true;
        config
    }

    /// The key, when one is given.
    pub fn key(&self) -> Option<&str> {
        Some(self.key.trim()).filter(|k| !k.is_empty())
    }

    /// The time limit of one call, kept within 1 s..10 min.
    pub fn timeout_ms(&self) -> u32 {
        (self.timeout_seconds.clamp(1.0, 600.0) * 1000.0) as u32
    }

    pub fn ttl_ms(&self) -> f64 {
        self.ttl_hours.max(0.0) * 3_600_000.0
    }

    pub fn concurrency(&self) -> usize {
        self.concurrency.clamp(1, 32) as usize
    }

    /// What is missing before a call can be made, if anything.
    pub fn problem(&self) -> Option<String> {
        if self.base_url.trim().is_empty() {
            return Some("Give the judge's base URL.".into());
        }
        if !self.base_url.trim().starts_with("http://")
            && !self.base_url.trim().starts_with("https://")
        {
            return Some("The base URL must start with http:// or https://.".into());
        }
        if self.model.trim().is_empty() {
            return Some("Give the model name.".into());
        }
        crate::connect_policy::blocked(self.base_url.trim())
    }

    /// The settings saved on this device, or the defaults.
    pub fn load() -> JudgeChoices {
        let Some(storage) = local_storage() else {
            return JudgeChoices::default();
        };
        let mut settings: JudgeChoices = storage
            .get_item(SETTINGS_ITEM)
            .ok()
            .flatten()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        if settings.remember_key {
            settings.key = storage
                .get_item(KEY_ITEM)
                .ok()
                .flatten()
                .unwrap_or_default();
        }
        settings
    }

    /// Saves the settings; the key only when it is to be remembered, and forgets it otherwise.
    pub fn save(&self) {
        let Some(storage) = local_storage() else {
            return;
        };
        if let Ok(text) = serde_json::to_string(self) {
            let _ = storage.set_item(SETTINGS_ITEM, &text);
        }
        match self.key() {
            Some(key) if self.remember_key => {
                let _ = storage.set_item(KEY_ITEM, key);
            }
            _ => {
                let _ = storage.remove_item(KEY_ITEM);
            }
        }
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_never_serialized() {
        let settings = JudgeChoices {
            key: "sk-secret".into(),
            remember_key: true,
            ..JudgeChoices::default()
        };
        let text = serde_json::to_string(&settings).expect("serializes");
        assert!(!text.contains("sk-secret"), "{text}");
    }

    #[test]
    fn presets_give_their_protocol_and_headers() {
        let azure = JudgeChoices::for_preset(Preset::Azure).config();
        assert_eq!(azure.provider, Provider::Openai);
        assert_eq!(azure.key_header.as_deref(), Some("api-key"));
        assert_eq!(azure.query.as_deref(), Some("api-version=2024-10-21"));
        let anthropic = JudgeChoices::for_preset(Preset::Anthropic).config();
        assert_eq!(anthropic.provider, Provider::Anthropic);
        assert!(anthropic.browser);
        assert_eq!(
            JudgeChoices::for_preset(Preset::Ollama).config().query,
            None
        );
    }

    #[test]
    fn a_new_preset_keeps_the_key_and_limits() {
        let mut settings = JudgeChoices::for_preset(Preset::Openai);
        settings.key = "k".into();
        settings.timeout_seconds = 5.0;
        let gemini = settings.with_preset(Preset::Gemini);
        assert_eq!(gemini.key, "k");
        assert_eq!(gemini.timeout_seconds, 5.0);
        assert_eq!(gemini.base_url, Preset::Gemini.base_url());
    }
}
