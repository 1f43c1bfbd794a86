use qeval_core::{ProfileName, counted};
use yew::prelude::*;

use crate::components::{ChoiceSelect, TextField, profile_options};
use crate::database::LoadedDb;
use crate::report::{RawRun, Shared};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub raw: Shared<RawRun>,
    pub profile: ProfileName,
    /// Test-suite databases per test (0: none).
    pub suite: u32,
    pub db: LoadedDb,
    /// The LLM judge is on.
    pub llm_judge: bool,
    pub on_profile: Callback<ProfileName>,
    pub on_suite: Callback<u32>,
    pub on_score: Callback<MouseEvent>,
}

/// A run of raw results, ready to score: how many tests and questions, the profile, the
/// database's test suite when one is loaded, and the Score button.
#[component]
pub fn ScorePanel(props: &Props) -> Html {
    let raw = &props.raw;
    html! {
        <section class="score-run row">
            <span>{ format!("{} to score ({} matched by id).", counted(raw.tests.len(), "test"), counted(raw.questions.len(), "question")) }</span>
            <ChoiceSelect
                id="run-profile"
                label="Profile"
                options={profile_options()}
                value={props.profile.name()}
                on_change={props.on_profile.reform(|v: String| v.parse().unwrap_or(ProfileName::Qas))}
            />
            if props.db.is_loaded() {
                <span class="note" data-testid="run-database">{ format!("Tests without results run on {}.", props.db.name) }</span>
                <TextField
                    id="run-suite"
                    label="Test-suite databases (0: off)"
                    kind="number"
                    title="Also run each test's two queries on this many databases generated from the loaded database's schema, as qeval run --db --suite N"
                    value={props.suite.to_string()}
                    on_change={props.on_suite.reform(|v: String| v.parse().unwrap_or(0))}
                />
            }
            <button type="button" id="score-run" onclick={props.on_score.clone()}>{ if props.llm_judge { "Score with the LLM judge" } else { "Score" } }</button>
        </section>
    }
}
