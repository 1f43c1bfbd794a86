use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::judge::VerdictCache;

/// Re-renders the page when the verdict cache's counts change: once they are first read, and
/// each time the returned callback is told the cache was cleared.
#[hook]
pub fn use_cache_revision() -> Callback<()> {
    let revision = use_state(|| 0u32);
    {
        let revision = revision.clone();
        use_effect_with((), move |()| {
            spawn_local(async move {
                VerdictCache::shared().count().await;
                revision.set(1);
            });
        });
    }
    Callback::from(move |()| revision.set(*revision + 1))
}
