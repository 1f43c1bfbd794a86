use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::judge::{CacheStats, VerdictCache};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The verdict cache's counts, as of this render.
    pub stats: CacheStats,
    /// Asked after the cache was cleared, so the counts are read again.
    pub on_cleared: Callback<()>,
}

/// The verdict cache's counts, its Clear button, and why it cannot be used if it cannot.
#[component]
pub fn CacheControls(props: &Props) -> Html {
    let on_clear = {
        let done = props.on_cleared.clone();
        Callback::from(move |_| {
            let done = done.clone();
            spawn_local(async move {
                let _ = VerdictCache::shared().clear().await;
                done.emit(());
            });
        })
    };
    let stats = props.stats;
    html! {
        <>
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
        </>
    }
}
