use std::rc::Rc;

use qeval_core::counted;
use yew::prelude::*;

use crate::report::LoadedRun;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Rc<LoadedRun>,
    /// The host the run was downloaded from.
    pub fetched_from: Option<String>,
}

/// What was read: the lines, the records, the files, and each rejected line with its reason.
#[component]
pub fn LoadNotice(props: &Props) -> Html {
    let run = &props.run;
    let from = props
        .fetched_from
        .as_ref()
        .map_or(String::new(), |host| format!(" (from {host})"));
    let records = run
        .records
        .len()
        .max(run.raw.as_ref().map_or(0, |r| r.tests.len()));
    html! {
        <>
            <p class="note" data-testid="load-status">
                { format!("{}{from}: {} read: {}, {} rejected ({})", run.name, counted(run.lines_read, "line"), counted(records, "record"), run.rejected.len(), run.files.join(", ")) }
            </p>
            if !run.rejected.is_empty() {
                <section class="rejected" data-testid="rejected-lines">
                    <h2>{ format!("Rejected lines ({})", run.rejected.len()) }</h2>
                    <ul>{ for run.rejected.iter().take(200).map(|(file, r)| html! {
                        <li>{ format!("{file}, line {}: {}", r.line, r.reason) }</li>
                    }) }</ul>
                </section>
            }
        </>
    }
}
