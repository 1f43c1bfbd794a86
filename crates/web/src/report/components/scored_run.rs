use std::rc::Rc;

use qeval_core::{compare_runs, summarize};
use yew::prelude::*;

use super::{
    ClassificationView, ExportButtons, JudgeAgreementView, RunCharts, RunComparisonView, RunGroups,
    RunLoader, RunSummary, StoredScoreFlags, StrictVerdicts, TestsAndDetail,
};
use crate::report::hooks::use_stored_score_check;
use crate::report::load::DroppedFile;
use crate::report::{LoadedRun, Shared};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Rc<LoadedRun>,
    /// The earlier run of the same tests it is compared with.
    pub earlier: Option<Rc<LoadedRun>>,
    pub selected: Option<usize>,
    pub on_select: Callback<Option<usize>>,
    /// Files of an earlier run to compare with.
    pub on_earlier: Callback<(String, Vec<DroppedFile>)>,
}

/// A scored run: its summary, exports, charts and groups, the judges against the labels, the
/// tests with their detail, and how it compares with an earlier run.
#[component]
pub fn ScoredRun(props: &Props) -> Html {
    let records = props.run.records.clone();
    let summary = use_memo(records.clone(), |records| {
        Shared(Rc::new(summarize(records.iter())))
    });
    let recheck = use_stored_score_check(records.clone());
    let comparison = use_memo(
        (
            records.clone(),
            props.earlier.as_ref().map(|r| r.records.clone()),
        ),
        |(shown, earlier)| {
            // The shown run is the later one, as in `qeval report RUN --compare EARLIER` and in
            // this page's export: the run loaded to compare with is the one before it.
            earlier
                .as_ref()
                .map(|earlier| Shared(Rc::new(compare_runs(earlier, shown))))
        },
    );
    let summary = (*summary).clone();
    html! {
        <>
            <RunSummary summary={summary.clone()} />
            <ExportButtons run={props.run.clone()} earlier={props.earlier.clone()} summary={summary.clone()} />
            <RunCharts summary={summary.clone()} />
            <RunGroups summary={summary.clone()} />
            <JudgeAgreementView summary={summary.clone()} />
            <ClassificationView {summary} />
            <StrictVerdicts records={records.clone()} on_select={props.on_select.reform(Some)} />
            <StoredScoreFlags {recheck} />
            <TestsAndDetail {records} selected={props.selected} on_select={props.on_select.clone()} />
            <RunLoader
                id="compare"
                label="Compare with an earlier run of the same tests: drop or pick it."
                on_sources={props.on_earlier.clone()}
            />
            if let (Some(comparison), Some(earlier)) = ((*comparison).clone(), &props.earlier) {
                <RunComparisonView {comparison} before={earlier.name.clone()} after={props.run.name.clone()} />
            }
        </>
    }
}
