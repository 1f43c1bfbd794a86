use yew::prelude::*;

use super::{FetchConfirm, LoadNotice, RunLoader, ScorePanel, ScoredRun, WorkProgress};
use crate::app::ViewProps;
use crate::components::JudgeSettingsPanel;
use crate::judge::VerdictCache;
use crate::report::hooks::{LoadRequest, use_run_loading, use_run_scoring, use_test_address};
use crate::report::score::RunScoring;
use crate::report::state::{ReportAction, ReportState, Slot};

/// The example run shipped with the app (`static/example-run`, copied next to the page).
const EXAMPLE: &str = "example-run/run-2026-11-20T14-30-00/evaluation-results.jsonl";
/// The example's earlier run, loaded with it as the run it is compared with.
const EXAMPLE_BEFORE: &str = "example-run/run-2026-11-19T16-00-00/evaluation-results.jsonl";

/// The run report: a run loaded from files or a link, scored here when it holds raw results,
/// and shown with everything `qeval report` shows.
#[component]
pub fn ReportView(props: &ViewProps) -> Html {
    let state = use_reducer(ReportState::default);
    let dispatch = state.dispatcher();
    let select = dispatch.to_callback().reform(ReportAction::Select);
    use_test_address(
        state.run.as_ref().map(|loaded| loaded.records.clone()),
        state.selected,
        select.reform(Some),
    );
    let loading = use_run_loading(dispatch.clone());
    let scoring = use_run_scoring(
        dispatch.clone(),
        state.run.clone(),
        RunScoring {
            profile: state.profile,
            suite: state.suite,
        },
        props.settings.clone(),
        props.db.clone(),
    );
    let load_into = |slot: Slot| {
        loading.load.reform(move |(name, sources)| LoadRequest {
            slot,
            name,
            sources,
            from: None,
        })
    };
    // The example comes with the run before it, so the comparison shows too.
    let on_example = {
        let fetch = loading.fetch.clone();
        Callback::from(move |()| {
            fetch.emit((Slot::Main, EXAMPLE.to_string()));
            fetch.emit((Slot::Compare, EXAMPLE_BEFORE.to_string()));
        })
    };
    let on_answer = {
        let (fetch, dispatch, pending) = (
            loading.fetch.clone(),
            dispatch.clone(),
            state.pending.clone(),
        );
        Callback::from(move |yes: bool| {
            dispatch.dispatch(ReportAction::Answered);
            if let (true, Some(url)) = (yes, pending.clone()) {
                fetch.emit((Slot::Main, url));
            }
        })
    };
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
                on_sources={load_into(Slot::Main)}
                on_example={Some(on_example)}
            />
            if let Some(url) = &state.pending {
                <FetchConfirm url={url.clone()} {on_answer} />
            }
            <WorkProgress work={state.work.clone()} on_cancel={scoring.on_cancel} />
            if let Some(problem) = &state.problem {
                <p class="notice" role="alert" data-testid="load-problem">{ problem.clone() }</p>
            }
            if let Some(run) = &state.run {
                <LoadNotice run={run.clone()} fetched_from={state.fetched_from.clone()} />
                if let Some(raw) = &run.raw {
                    <ScorePanel raw={raw.clone()} profile={state.profile} suite={state.suite}
                        db={props.db.clone()} llm_judge={props.settings.enabled}
                        on_profile={dispatch.to_callback().reform(ReportAction::SetProfile)}
                        on_suite={dispatch.to_callback().reform(ReportAction::SetSuite)}
                        on_score={scoring.on_score} />
                } else {
                    <ScoredRun run={run.clone()} earlier={state.earlier.clone()}
                        selected={state.selected} on_select={select}
                        on_earlier={load_into(Slot::Compare)} />
                }
            }
        </main>
    }
}
