use std::rc::Rc;

use qeval_core::{Summary, compare_runs, export};
use yew::prelude::*;

use crate::download::save;
use crate::report::score::jsonl;
use crate::report::{LoadedRun, Shared};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Rc<LoadedRun>,
    /// The run it is compared with, said in the exported page.
    pub earlier: Option<Rc<LoadedRun>>,
    pub summary: Shared<Summary>,
}

/// The run's files to take away: its records, the static report page, and the CI exports
/// `qeval run` writes with `--csv`, `--junit` and `--markdown`.
#[component]
pub fn ExportButtons(props: &Props) -> Html {
    let export = |kind: Export| download_export(props.run.clone(), props.summary.clone(), kind);
    html! {
        <div class="row exports">
            <button type="button" id="download-results" onclick={download_results(props.run.clone())}>{ "Download evaluation-results.jsonl" }</button>
            <button type="button" id="export-report" onclick={export_report(props.run.clone(), props.earlier.clone())}>{ "Export static report" }</button>
            <button type="button" id="download-csv" onclick={export(Export::Csv)}>{ "Download CSV" }</button>
            <button type="button" id="download-junit" onclick={export(Export::Junit)}>{ "Download JUnit XML" }</button>
            <button type="button" id="download-markdown" onclick={export(Export::Markdown)}>{ "Download Markdown summary" }</button>
        </div>
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

#[derive(Debug, Clone, Copy)]
enum Export {
    Csv,
    Junit,
    Markdown,
}

fn download_export(
    run: Rc<LoadedRun>,
    summary: Shared<Summary>,
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
