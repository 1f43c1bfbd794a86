use qeval_core::Judging;
use qeval_judge::{JudgeInput, Rubric};
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::judge::{JudgeChoices, ask};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub settings: JudgeChoices,
}

/// Test connection: one small real judging with the settings as they are, and what came back
/// (the model and how long it took, or the error).
#[component]
pub fn ConnectionTest(props: &Props) -> Html {
    let result = use_state_eq(|| None::<(bool, String)>);
    let on_test = {
        let (settings, result) = (props.settings.clone(), result.clone());
        Callback::from(move |_| {
            let (settings, result) = (settings.clone(), result.clone());
            if let Some(problem) = settings.problem() {
                result.set(Some((false, problem)));
                return;
            }
            result.set(Some((true, "Calling…".into())));
            spawn_local(async move {
                let started = js_sys::Date::now();
                let (outcome, _) = ask(&connection_check(), &settings).await;
                let millis = js_sys::Date::now() - started;
                result.set(Some(match outcome {
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
    html! {
        <div class="row">
            <button type="button" id="judge-test" onclick={on_test}>{ "Test connection" }</button>
            if let Some((ok, message)) = &*result {
                <span class={if *ok { "note" } else { "error-text" }} role="status" data-testid="judge-test-result">{ message.clone() }</span>
            }
        </div>
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
