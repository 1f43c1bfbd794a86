use std::cell::Cell;
use std::rc::Rc;

use qeval_core::profiles::ProfileName;
use qeval_core::run::{compare_runs, export, summarize};
use qeval_core::words::counted;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use super::{
    ClassificationView, JudgeAgreementView, RunCharts, RunComparisonView, RunGroups, RunLoader,
    RunSummary, StrictVerdicts, TestDetail, TestTable,
};
use crate::components::{ChoiceSelect, JudgeSettingsPanel, TextField};
use crate::connect_policy::{is_same_origin, resolve};
use crate::database::LoadedDb;
use crate::download::save;
use crate::judge::{JudgeChoices, VerdictCache};
use crate::report::hooks::{FLAG_LIMIT, Recheck, use_stored_score_check, use_test_address};
use crate::report::load::{DroppedFile, MAX_FETCHED_BYTES, fetched, read_run};
use crate::report::score::{RunScoring, jsonl, score_run, with_hardness};
use crate::report::state::{ReportAction, ReportState, Slot, Work};
use crate::report::{LoadedRun, Shared};

/// The example run shipped with the app (`static/example-run`, copied next to the page).
const EXAMPLE: &str = "example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl";
/// The example's earlier run, loaded with it as the run it is compared with.
const EXAMPLE_BEFORE: &str = "example-run/run-2026-11-19T16-00-00/evaluation-results.jsonl";

#[derive(Properties, PartialEq)]
pub struct Props {
    pub settings: JudgeChoices,
    pub on_settings: Callback<JudgeChoices>,
    /// The page's database: tests without results are run on it when scoring.
    pub db: LoadedDb,
    pub on_db: Callback<LoadedDb>,
}

/// A run to read into the report.
struct LoadRequest {
    slot: Slot,
    name: String,
    sources: Vec<DroppedFile>,
    /// The host a link downloaded it from.
    from: Option<String>,
}

#[component]
pub fn ReportView(props: &Props) -> Html {
    let workers = use_context::<crate::workers::Workers>().unwrap_or_default();
    let state = use_reducer(ReportState::default);
    let dispatch = state.dispatcher();
    // Set to cancel the scoring under way; each scoring gets its own flag.
    let cancel = use_mut_ref(|| Rc::new(Cell::new(false)));
    use_test_address(
        state.run.as_ref().map(|loaded| loaded.records.clone()),
        state.selected,
        dispatch
            .to_callback()
            .reform(|index| ReportAction::Select(Some(index))),
    );
    // Escape in the table, or Close (or Escape) in the detail.
    let close_test = dispatch
        .to_callback()
        .reform(|()| ReportAction::Select(None));
    // An opened test's detail is brought into view: below the table, or beside it.
    let detail = use_node_ref();
    {
        let detail = detail.clone();
        use_effect_with(state.selected, move |selected| {
            if selected.is_some() {
                bring_into_view(&detail);
            }
        });
    }

    let load = {
        let (dispatch, workers) = (dispatch.clone(), workers.clone());
        Callback::from(move |request: LoadRequest| {
            let (dispatch, workers) = (dispatch.clone(), workers.clone());
            dispatch.dispatch(ReportAction::Started(Work::Loading {
                done: 0.0,
                total: 1.0,
            }));
            spawn_local(async move {
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
            });
        })
    };
    let fetch = {
        let (load, dispatch) = (load.clone(), dispatch.clone());
        Callback::from(move |(slot, url): (Slot, String)| {
            let (load, dispatch) = (load.clone(), dispatch.clone());
            let host = host_of(&url);
            dispatch.dispatch(ReportAction::Started(Work::Fetching {
                done: 0.0,
                total: 0.0,
                host: host.clone(),
            }));
            spawn_local(async move {
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
            });
        })
    };
    // A link to a run elsewhere is only followed once the user agrees: the page shows which
    // host, and loads nothing from another site on its own.
    {
        let (fetch, dispatch) = (fetch.clone(), dispatch.clone());
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
    let confirm_view = match &state.pending {
        None => html! {},
        Some(url) => {
            let accept = {
                let (fetch, dispatch, url) = (fetch.clone(), dispatch.clone(), url.clone());
                Callback::from(move |_| {
                    dispatch.dispatch(ReportAction::Answered);
                    fetch.emit((Slot::Main, url.clone()));
                })
            };
            let decline = dispatch.to_callback().reform(|_| ReportAction::Answered);
            html! {
                <div class="banner" role="alertdialog" aria-labelledby="run-confirm-text" data-testid="run-confirm">
                    <p id="run-confirm-text">
                        { format!("This link asks to load a run from {}, another site than this page. Its records are shown as text and never run; at most {:.0} MB is read. Load it?", host_of(url), MAX_FETCHED_BYTES / 1e6) }
                    </p>
                    <p class="note">{ url.clone() }</p>
                    <button type="button" id="run-confirm-load" onclick={accept}>{ format!("Load from {}", host_of(url)) }</button>
                    { " " }
                    <button type="button" id="run-confirm-cancel" onclick={decline}>{ "Cancel" }</button>
                </div>
            }
        }
    };
    let on_score = {
        let (dispatch, cancel, workers) = (dispatch.clone(), cancel.clone(), workers.clone());
        let (settings, db) = (props.settings.clone(), props.db.clone());
        // score_run checks on test-suite databases only when a database is loaded.
        let run_scoring = RunScoring {
            profile: state.profile,
            suite: state.suite,
        };
        let shown = state.run.clone();
        Callback::from(move |_| {
            let Some(loaded) = shown.clone() else { return };
            let Some(raw) = loaded.raw.clone() else {
                return;
            };
            let flag = Rc::new(Cell::new(false));
            *cancel.borrow_mut() = flag.clone();
            let (dispatch, settings, db, workers) = (
                dispatch.clone(),
                settings.clone(),
                db.clone(),
                workers.clone(),
            );
            dispatch.dispatch(ReportAction::Started(Work::Scoring {
                done: 0,
                total: raw.tests.len(),
            }));
            spawn_local(async move {
                let progress = {
                    let dispatch = dispatch.clone();
                    move |done, total| {
                        dispatch.dispatch(ReportAction::Progress(Work::Scoring { done, total }))
                    }
                };
                let records =
                    score_run(&raw, run_scoring, &settings, &db, &workers, flag, progress).await;
                dispatch.dispatch(ReportAction::Scored {
                    of: loaded,
                    records,
                });
            });
        })
    };
    let on_cancel = {
        let cancel = cancel.clone();
        Callback::from(move |_| cancel.borrow().set(true))
    };

    let records = state.run.as_ref().map(|r| r.records.clone());
    let summary = use_memo(records.clone(), |records| {
        Shared(Rc::new(
            records
                .as_ref()
                .map(|r| summarize(r.iter()))
                .unwrap_or_default(),
        ))
    });
    let flags = use_stored_score_check(records.clone());
    let comparison = use_memo(
        (records, state.earlier.as_ref().map(|r| r.records.clone())),
        |(a, b)| match (a, b) {
            // The shown run is the later one, as in `qeval report RUN --compare EARLIER` and in
            // this page's export: the run loaded to compare with is the one before it.
            (Some(shown), Some(earlier)) => Some(Shared(Rc::new(compare_runs(earlier, shown)))),
            _ => None,
        },
    );

    html! {
        <main>
            <header class="top">
                <h1>{ "qeval" }<span class="subtitle">{ " run report" }</span></h1>
            </header>
            <JudgeSettingsPanel
                settings={props.settings.clone()}
                on_change={props.on_settings.clone()}
                stats={VerdictCache::shared().stats()}
                on_cache_cleared={dispatch.to_callback().reform(|()| ReportAction::CacheChanged)}
            />
            <RunLoader
                id="run"
                label="Drop a run folder here (evaluation-results.jsonl, or test-results.jsonl with its questions file), or pick its files."
                on_sources={load.reform(|(name, sources)| LoadRequest { slot: Slot::Main, name, sources, from: None })}
                on_example={Some({
                    let fetch = fetch.clone();
                    // The example comes with the run before it, so the comparison shows too.
                    Callback::from(move |()| {
                        fetch.emit((Slot::Main, EXAMPLE.to_string()));
                        fetch.emit((Slot::Compare, EXAMPLE_BEFORE.to_string()));
                    })
                })}
            />
            { confirm_view }
            { progress_view(&state.work, on_cancel) }
            if let Some(problem) = &state.problem {
                <p class="notice" role="alert" data-testid="load-problem">{ problem.clone() }</p>
            }
            if let Some(loaded) = &state.run {
                <p class="note" data-testid="load-status">
                    { format!("{}{}: {} read: {}, {} rejected ({})", loaded.name, state.fetched_from.as_ref().map_or(String::new(), |host| format!(" (from {host})")), counted(loaded.lines_read, "line"), counted(loaded.records.len().max(loaded.raw.as_ref().map_or(0, |r| r.tests.len())), "record"), loaded.rejected.len(), loaded.files.join(", ")) }
                </p>
                if !loaded.rejected.is_empty() {
                    <section class="rejected" data-testid="rejected-lines">
                        <h2>{ format!("Rejected lines ({})", loaded.rejected.len()) }</h2>
                        <ul>{ for loaded.rejected.iter().take(200).map(|(file, r)| html! {
                            <li>{ format!("{file}, line {}: {}", r.line, r.reason) }</li>
                        }) }</ul>
                    </section>
                }
                if let Some(raw) = &loaded.raw {
                    <section class="score-run row">
                        <span>{ format!("{} to score ({} matched by id).", counted(raw.tests.len(), "test"), counted(raw.questions.len(), "question")) }</span>
                        <ChoiceSelect
                            id="run-profile"
                            label="Profile"
                            options={crate::components::profile_options()}
                            value={state.profile.name()}
                            on_change={dispatch.to_callback().reform(|v: String| ReportAction::SetProfile(v.parse().unwrap_or(ProfileName::Qas)))}
                        />
                        if props.db.is_loaded() {
                            <span class="note" data-testid="run-database">{ format!("Tests without results run on {}.", props.db.name) }</span>
                            <TextField
                                id="run-suite"
                                label="Test-suite databases (0: off)"
                                kind="number"
                                title="Also run each test's two queries on this many databases generated from the loaded database's schema, as qeval run --db --suite N"
                                value={state.suite.to_string()}
                                on_change={dispatch.to_callback().reform(|v: String| ReportAction::SetSuite(v.parse().unwrap_or(0)))}
                            />
                        }
                        <button type="button" id="score-run" onclick={on_score}>{ if props.settings.enabled { "Score with the LLM judge" } else { "Score" } }</button>
                    </section>
                } else {
                    <RunSummary summary={(*summary).clone()} />
                    <div class="row exports">
                        <button type="button" id="download-results" onclick={download_results(loaded.clone())}>{ "Download evaluation-results.jsonl" }</button>
                        <button type="button" id="export-report" onclick={export_report(loaded.clone(), state.earlier.clone())}>{ "Export static report" }</button>
                        <button type="button" id="download-csv" onclick={download_export(loaded.clone(), (*summary).clone(), Export::Csv)}>{ "Download CSV" }</button>
                        <button type="button" id="download-junit" onclick={download_export(loaded.clone(), (*summary).clone(), Export::Junit)}>{ "Download JUnit XML" }</button>
                        <button type="button" id="download-markdown" onclick={download_export(loaded.clone(), (*summary).clone(), Export::Markdown)}>{ "Download Markdown summary" }</button>
                    </div>
                    <RunCharts summary={(*summary).clone()} />
                    <RunGroups summary={(*summary).clone()} />
                    <JudgeAgreementView summary={(*summary).clone()} />
                    <ClassificationView summary={(*summary).clone()} />
                    <StrictVerdicts records={loaded.records.clone()}
                        on_select={dispatch.to_callback().reform(|i| ReportAction::Select(Some(i)))} />
                    { flags_view(&flags) }
                    <div class={classes!("tests-and-detail", state.selected.is_some().then_some("open"))}>
                    <TestTable records={loaded.records.clone()} selected={state.selected}
                        on_select={dispatch.to_callback().reform(|i| ReportAction::Select(Some(i)))}
                        on_close={close_test.clone()} />
                    <div ref={detail} class="detail-slot">
                        if let Some(record) = state.selected.and_then(|i| loaded.records.get(i)) {
                            <TestDetail record={record.clone()} on_close={close_test} />
                        }
                    </div>
                    </div>
                    <RunLoader
                        id="compare"
                        label="Compare with an earlier run of the same tests: drop or pick it."
                        on_sources={load.reform(|(name, sources)| LoadRequest { slot: Slot::Compare, name, sources, from: None })}
                    />
                    if let (Some(comparison), Some(earlier)) = ((*comparison).clone(), &state.earlier) {
                        <RunComparisonView {comparison} before={earlier.name.clone()} after={loaded.name.clone()} />
                    }
                }
            }
        </main>
    }
}

fn flags_view(check: &Recheck) -> Html {
    match check {
        Recheck::Running { done, total } => html! {
            <p class="note" data-testid="flags-progress">{ format!("Checking stored scores against their data: {done} of {total}") }</p>
        },
        Recheck::Done(flags) if flags.is_empty() => html! {},
        Recheck::Done(flags) => html! {
            <section class="flags" data-testid="flags">
                <h2>{ format!("Stored scores their data contradicts ({}{})", flags.len(), if flags.len() >= FLAG_LIMIT { "+" } else { "" }) }</h2>
                <ul>{ for flags.iter().take(100).map(|(id, d)| html! {
                    <li>{ format!("Test {id}: {} is {} but its data gives {} ({})", d.field, d.stored, d.recomputed, d.reason) }</li>
                }) }</ul>
            </section>
        },
    }
}

fn progress_view(work: &Work, on_cancel: Callback<MouseEvent>) -> Html {
    match *work {
        Work::Idle => html! {},
        Work::Loading { done, total } => html! {
            <div class="row" data-testid="progress">
                <progress max={total.max(1.0).to_string()} value={done.to_string()}></progress>
                <span class="note">{ format!("Reading {:.1} of {:.1} MB", done / 1e6, total / 1e6) }</span>
            </div>
        },
        Work::Fetching {
            done,
            total,
            ref host,
        } => html! {
            <div class="row" data-testid="progress">
                if total > 0.0 {
                    <progress max={total.to_string()} value={done.to_string()}></progress>
                } else {
                    <progress></progress>
                }
                <span class="note">{
                    if total > 0.0 {
                        format!("Downloading from {host}: {:.1} of {:.1} MB", done / 1e6, total / 1e6)
                    } else {
                        format!("Downloading from {host}: {:.1} MB", done / 1e6)
                    }
                }</span>
            </div>
        },
        Work::Scoring { done, total } => html! {
            <div class="row" data-testid="progress">
                <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
                <span class="note">{ format!("Scored {done} of {}", counted(total, "test")) }</span>
                <button type="button" id="cancel-scoring" onclick={on_cancel}>{ "Cancel" }</button>
            </div>
        },
    }
}

fn download_results(run: Rc<LoadedRun>) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        save(
            "evaluation-results.jsonl",
            "application/x-ndjson",
            &jsonl(&run.records),
        )
    })
}

/// The CI exports `qeval run` writes with `--csv`, `--junit` and `--markdown`.
#[derive(Debug, Clone, Copy)]
enum Export {
    Csv,
    Junit,
    Markdown,
}

fn download_export(
    run: Rc<LoadedRun>,
    summary: Shared<qeval_core::run::Summary>,
    kind: Export,
) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        let (file, mime, text) = match kind {
            Export::Csv => ("csv", "text/csv", export::csv(&run.records)),
            Export::Junit => (
                "junit.xml",
                "application/xml",
                export::junit(&run.name, &run.records),
            ),
            Export::Markdown => (
                "md",
                "text/markdown",
                export::markdown(&run.name, &summary, &run.records),
            ),
        };
        save(&format!("qeval-{}.{file}", run.name), mime, &text);
    })
}

/// The report page of `run`; with the run it is compared with (`other`), the page also says how
/// `run` compares with that one.
fn export_report(run: Rc<LoadedRun>, other: Option<Rc<LoadedRun>>) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        let compared = other.as_ref().map(|other| {
            (
                other.name.clone(),
                compare_runs(&other.records, &run.records),
            )
        });
        let generated_at = String::from(js_sys::Date::new_0().to_iso_string());
        let rejected: Vec<_> = run.rejected.iter().map(|(_, r)| r.clone()).collect();
        let page = qeval_report::render(&qeval_report::Report {
            title: &run.name,
            records: &run.records,
            rejected: &rejected,
            lines_read: run.lines_read,
            generated_at: &generated_at,
            compared_with: compared
                .as_ref()
                .map(|(name, comparison)| (name.as_str(), comparison)),
        });
        save(
            &format!("qeval-report-{}.html", run.name),
            "text/html",
            &page,
        );
    })
}

/// `?run=URL`, decoded.
fn run_parameter() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("run").filter(|u| !u.trim().is_empty())
}

/// The host a link points at (`data.example.com`), or this page's when it is relative.
fn host_of(url: &str) -> String {
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

/// Scrolls the page as little as needed to show `node` (its top first when it is taller than the
/// window).
pub(super) fn bring_into_view(node: &NodeRef) {
    if let Some(element) = node.cast::<web_sys::Element>() {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    }
}
