use yew::prelude::*;

use super::{CacheControls, CheckBox, ChoiceSelect, ConnectionTest, TextField};
use crate::judge::{CacheStats, JudgeChoices, Preset};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub settings: JudgeChoices,
    pub on_change: Callback<JudgeChoices>,
    /// The verdict cache's counts, as of this render.
    pub stats: CacheStats,
    /// Asked after the cache was cleared, so the counts are read again.
    pub on_cache_cleared: Callback<()>,
}

/// The LLM judge's settings: service, model, key, limits, cache and Langfuse.
#[component]
pub fn JudgeSettingsPanel(props: &Props) -> Html {
    let s = &props.settings;
    let edit = |change: fn(&mut JudgeChoices, String)| {
        let settings = s.clone();
        props.on_change.reform(move |value: String| {
            let mut next = settings.clone();
            change(&mut next, value);
            next
        })
    };
    let toggle = |change: fn(&mut JudgeChoices, bool)| {
        let settings = s.clone();
        props.on_change.reform(move |value: bool| {
            let mut next = settings.clone();
            change(&mut next, value);
            next
        })
    };
    let on_preset = {
        let settings = s.clone();
        props.on_change.reform(move |name: String| {
            settings.with_preset(Preset::from_name(&name).unwrap_or(settings.preset))
        })
    };
    let summary = if s.enabled {
        format!("LLM judge: {} · {}", s.preset.label(), s.model)
    } else {
        "LLM judge: off (structural judge)".to_string()
    };
    html! {
        <details class="judge-settings" id="judge-settings">
            <summary data-testid="judge-summary">{ summary }</summary>
            <CheckBox
                id="judge-enabled"
                label="Ask an LLM instead of the structural judge (semantic similarity; query correctness in the SQL metrics profile)"
                checked={s.enabled}
                on_change={toggle(|s, v| s.enabled = v)}
            />
            <div class="fields">
                <ChoiceSelect
                    id="judge-preset"
                    label="Service"
                    options={Preset::ALL.iter().map(|p| (p.name().into(), p.label().into())).collect::<Vec<_>>()}
                    value={s.preset.name()}
                    on_change={on_preset}
                />
                <TextField id="judge-url" label="Base URL" kind="url" value={s.base_url.clone()} on_change={edit(|s, v| s.base_url = v)} />
                <TextField id="judge-model" label="Model" value={s.model.clone()} on_change={edit(|s, v| s.model = v)} />
                <TextField id="judge-query" label="URL query" placeholder="e.g. api-version=2024-10-21" value={s.query.clone()} on_change={edit(|s, v| s.query = v)} />
                <TextField
                    id="judge-key"
                    label="API key"
                    kind="password"
                    placeholder={if s.preset.needs_key() { "required" } else { "not needed for a local server" }}
                    value={s.key.clone()}
                    on_change={edit(|s, v| s.key = v)}
                />
                <CheckBox id="judge-remember" label="Remember the key on this device" checked={s.remember_key} on_change={toggle(|s, v| s.remember_key = v)} />
                <TextField id="judge-timeout" label="Timeout (s)" kind="number" value={s.timeout_seconds.to_string()} on_change={edit(|s, v| s.timeout_seconds = v.parse().unwrap_or(30.0))} />
                <TextField id="judge-concurrency" label="Calls at once" kind="number" value={s.concurrency.to_string()} on_change={edit(|s, v| s.concurrency = v.parse().unwrap_or(4))} />
                <TextField id="judge-ttl" label="Cache TTL (hours)" kind="number" value={s.ttl_hours.to_string()} on_change={edit(|s, v| s.ttl_hours = v.parse().unwrap_or(24.0))} />
                <ChoiceSelect
                    id="judge-prompt"
                    label="Prompt"
                    options={vec![
                        (AttrValue::from("v2"), AttrValue::from("v2: with schema and results")),
                        (AttrValue::from("v1"), AttrValue::from("v1: queries only")),
                    ]}
                    value={s.prompt.name()}
                    on_change={edit(|s, v| s.prompt = v.parse().unwrap_or_default())}
                />
            </div>
            <p class="key-note muted">
                { "The key is sent only to the base URL above. It is kept in this tab's memory, and on this device only if you tick \"Remember\"; it never goes into links, exports or logs." }
            </p>
            <ConnectionTest settings={s.clone()} />
            <CacheControls stats={props.stats} on_cleared={props.on_cache_cleared.clone()} />
            <fieldset class="fields">
                <legend>{ "Langfuse (optional)" }</legend>
                <TextField id="langfuse-host" label="Host" kind="url" value={s.langfuse_host.clone()} on_change={edit(|s, v| s.langfuse_host = v)} />
                <TextField
                    id="langfuse-public-key"
                    label="Public key"
                    title="The project's public key (pk-lf-…). Never put a secret key in a web page."
                    value={s.langfuse_public_key.clone()}
                    on_change={edit(|s, v| s.langfuse_public_key = v)}
                />
            </fieldset>
        </details>
    }
}
