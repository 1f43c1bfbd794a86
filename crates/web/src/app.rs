//! The playground page: two editors in, a scorecard out, all of it in the URL.

use qeval_core::{PairInput, ScoreOptions, Scorecard, score_pair};
use yew::prelude::*;

use crate::components::{CopyLink, DialectSelect, QueryEditor, TableAccuracyView};
use crate::hooks::{initial_state, use_debounced, use_shared_url};
use crate::state::{Action, Playground};

/// How long typing must pause before the queries are scored again.
const SETTLE_MILLIS: u32 = 150;

#[component]
pub fn App() -> Html {
    let start = use_memo((), |()| initial_state());
    let state = {
        let start = start.clone();
        use_reducer(move || start.0.clone())
    };
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    let settled = use_debounced((*state).clone(), SETTLE_MILLIS);
    let card = use_memo(settled.clone(), score);
    let share_problem = use_shared_url(&settled, dispatch.clone());

    let on_generated = dispatch.reform(Action::SetGenerated);
    let on_expected = dispatch.reform(Action::SetExpected);
    let on_dialect = dispatch.reform(Action::SetDialect);

    let both_given = !settled.generated.trim().is_empty() && !settled.expected.trim().is_empty();
    html! {
        <div class="app">
            <header class="top">
                <h1>{ "qeval" }<span class="subtitle">{ " playground" }</span></h1>
                <DialectSelect value={state.dialect} on_change={on_dialect} />
                <CopyLink state={(*state).clone()} problem={share_problem} />
            </header>
            if let Some(notice) = &start.1 {
                <p class="notice" role="alert">{ notice.clone() }</p>
            }
            <main>
                <div class="editors">
                    <QueryEditor
                        id="generated"
                        label="Generated query"
                        value={state.generated.clone()}
                        on_input={on_generated}
                        report={(!settled.generated.trim().is_empty()).then(|| card.generated.clone())}
                        analysed_text={settled.generated.clone()}
                    />
                    <QueryEditor
                        id="expected"
                        label="Expected query"
                        value={state.expected.clone()}
                        on_input={on_expected}
                        report={(!settled.expected.trim().is_empty())
                            .then(|| card.expected.clone())
                            .flatten()}
                        analysed_text={settled.expected.clone()}
                    />
                </div>
                <section class="results" aria-label="Scores">
                    if both_given {
                        <p class="identical" data-testid="identical">
                            if card.identical {
                                <span class="badge pass">{ "Queries are identical" }</span>
                            } else {
                                <span class="badge">{ "Queries differ after normalization" }</span>
                            }
                        </p>
                        if let Some(metric) = card.metrics.get("table_accuracy") {
                            <TableAccuracyView metric={metric.clone()} />
                        }
                    } else {
                        <p class="muted">{ "Type both queries to see their scores." }</p>
                    }
                </section>
            </main>
            <footer>
                { "Scored in this browser: nothing you type leaves the page." }
            </footer>
        </div>
    }
}

fn score(state: &Playground) -> Scorecard {
    let pair = PairInput {
        generated_sql: state.generated.clone(),
        expected_sql: Some(state.expected.clone()),
        dialect: Some(state.dialect),
        ..PairInput::default()
    };
    score_pair(&pair, &ScoreOptions::default())
}
