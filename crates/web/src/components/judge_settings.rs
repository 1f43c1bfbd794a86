use qeval_core::score::Judging;
use qeval_judge::{JudgeInput, Rubric};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use super::{CheckBox, ChoiceSelect, TextField};
use crate::judge::{CacheStats, JudgeChoices, Preset, VerdictCache, ask};

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
    let test_result = use_state_eq(|| None::<(bool, String)>);
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
    let on_test = {
        let settings = s.clone();
        let test_result = test_result.clone();
        Callback::from(move |_| {
            let settings = settings.clone();
            let test_result = test_result.clone();
            if let Some(problem) = settings.problem() {
                test_result.set(Some((false, problem)));
                return;
            }
            test_result.set(Some((true, "Calling…".into())));
            spawn_local(async move {
                let started = js_sys::Date::now();
                let (outcome, _) = ask(&connection_check(), &settings).await;
                let millis = js_sys::Date::now() - started;
                test_result.set(Some(match outcome {
                    Ok(judged) => (
                        true,
                        format!(
                            "Connected: {} answered with a valid verdict in {millis:.0} ms.",
                            judged.model
                        ),
                    ),
                    Err(err) => (false, err.to_string()),
                }));
            });
        })
    };
    let on_clear = {
        let done = props.on_cache_cleared.clone();
        Callback::from(move |_| {
            let done = done.clone();
            spawn_local(async move {
                let _ = VerdictCache::shared().clear().await;
                done.emit(());
            });
        })
    };
    let stats = props.stats;
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
            <div class="row">
                <button type="button" id="judge-test" onclick={on_test}>{ "Test connection" }</button>
                if let Some((ok, message)) = &*test_result {
                    <span class={if *ok { "note" } else { "error-text" }} role="status" data-testid="judge-test-result">{ message.clone() }</span>
                }
            </div>
            <div class="row">
                <span class="note" data-testid="cache-stats">
                    { format!(
                        "Verdict cache: {} stored · this page: {} hits, {} misses (IndexedDB, TTL applies)",
                        stats.stored.map_or_else(|| "?".to_string(), |n| n.to_string()),
                        stats.hits,
                        stats.misses
                    ) }
                </span>
                <button type="button" id="judge-clear-cache" onclick={on_clear}>{ "Clear cache" }</button>
            </div>
            if let Some(problem) = VerdictCache::shared().problem() {
                <p class="error-text">{ problem }</p>
            }
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

/// A small, real judging: two SQL queries that differ by a filter.
fn connection_check() -> Judging {
    Judging {
        metric: "connection".into(),
        task: Rubric::QasSemantic,
        input: JudgeInput {
            generated: "SELECT name FROM users".into(),
            expected: "SELECT name FROM users WHERE active = 1".into(),
            language: "sql".into(),
            dialect: "generic".into(),
            ..JudgeInput::default()
        },
    }
}
