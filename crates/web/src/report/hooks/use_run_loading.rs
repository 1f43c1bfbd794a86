//! Reading a run into the report: files dropped or picked, or a link (`?run=URL`, the example)
//! downloaded first. A link to another site is only followed once the user agrees: the page
//! shows which host, and loads nothing from another site on its own.

use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::connect_policy::{is_same_origin, resolve};
use crate::report::load::{DroppedFile, fetched, read_run};
use crate::report::score::with_hardness;
use crate::report::state::{ReportAction, ReportState, Slot, Work};
use crate::workers::Workers;

/// A run to read into the report.
pub struct LoadRequest {
    pub slot: Slot,
    pub name: String,
    pub sources: Vec<DroppedFile>,
    /// The host a link downloaded it from.
    pub from: Option<String>,
}

/// What the report's loaders call.
#[derive(Clone)]
pub struct RunLoading {
    /// Reads files into a slot, with progress; the main run's hardness levels follow.
    pub load: Callback<LoadRequest>,
    /// Downloads a link's run, then reads it.
    pub fetch: Callback<(Slot, String)>,
}

#[hook]
pub fn use_run_loading(dispatch: UseReducerDispatcher<ReportState>) -> RunLoading {
    let workers = use_context::<Workers>().unwrap_or_default();
    let load = {
        let dispatch = dispatch.clone();
        Callback::from(move |request: LoadRequest| {
            spawn_local(read(request, dispatch.clone(), workers.clone()))
        })
    };
    let fetch = {
        let (load, dispatch) = (load.clone(), dispatch.clone());
        Callback::from(move |(slot, url): (Slot, String)| {
            spawn_local(download(slot, url, load.clone(), dispatch.clone()))
        })
    };
    {
        let fetch = fetch.clone();
        use_effect_with((), move |()| {
            if let Some(url) = run_parameter() {
                if is_same_origin(&url) {
                    fetch.emit((Slot::Main, url));
                } else {
                    dispatch.dispatch(ReportAction::AskToFetch(url));
                }
            }
        });
    }
    RunLoading { load, fetch }
}

async fn read(request: LoadRequest, dispatch: UseReducerDispatcher<ReportState>, workers: Workers) {
    dispatch.dispatch(ReportAction::Started(Work::Loading {
        done: 0.0,
        total: 1.0,
    }));
    let progress = {
        let dispatch = dispatch.clone();
        Rc::new(move |done: f64, total: f64| {
            dispatch.dispatch(ReportAction::Progress(Work::Loading { done, total }));
        })
    };
    let loaded = match read_run(request.name, request.sources, progress).await {
        Ok(loaded) => Rc::new(loaded),
        Err(err) => return dispatch.dispatch(ReportAction::Failed(err)),
    };
    dispatch.dispatch(ReportAction::Loaded {
        slot: request.slot,
        run: loaded.clone(),
        from: request.from,
    });
    // Shown at once; the levels of records scored elsewhere follow.
    if request.slot == Slot::Main
        && let Some(records) = with_hardness(&loaded.records, &workers).await
    {
        dispatch.dispatch(ReportAction::Levelled {
            of: loaded,
            records,
        });
    }
}

async fn download(
    slot: Slot,
    url: String,
    load: Callback<LoadRequest>,
    dispatch: UseReducerDispatcher<ReportState>,
) {
    let host = host_of(&url);
    dispatch.dispatch(ReportAction::Started(Work::Fetching {
        done: 0.0,
        total: 0.0,
        host: host.clone(),
    }));
    let progress = {
        let (dispatch, host) = (dispatch.clone(), host.clone());
        Rc::new(move |done: f64, total: f64| {
            dispatch.dispatch(ReportAction::Progress(Work::Fetching {
                done,
                total,
                host: host.clone(),
            }));
        }) as Rc<dyn Fn(f64, f64)>
    };
    match fetched(&url, progress).await {
        Ok(sources) => load.emit(LoadRequest {
            slot,
            name: run_name(&url),
            sources,
            from: Some(host),
        }),
        Err(err) => dispatch.dispatch(ReportAction::Failed(err)),
    }
}

/// `?run=URL`, decoded.
fn run_parameter() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("run").filter(|u| !u.trim().is_empty())
}

/// The host a link points at (`data.example.com`), or this page's when it is relative.
pub fn host_of(url: &str) -> String {
    resolve(url).map_or_else(|| url.to_string(), |u| u.host())
}

/// A name for a run fetched from `url`: its folder's name.
fn run_name(url: &str) -> String {
    let path = url.split('?').next().unwrap_or(url);
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or("run");
    parts
        .next()
        .filter(|p| !p.is_empty())
        .unwrap_or(file)
        .to_string()
}
