//! The page: the playground or a run's report, and the judge settings both use.

use yew::prelude::*;

use crate::database::LoadedDb;
use crate::judge::JudgeChoices;
use crate::playground::components::PlaygroundView;
use crate::playground::hooks::TypedFragment;
use crate::report::components::ReportView;
use crate::theme::ThemeChoice;
use crate::workers::{WorkerStatus, Workers};

/// What the page gives each view: the judge's settings and the database, both the page's, so a
/// database loaded in the playground also runs a report's tests.
#[derive(Properties, PartialEq)]
pub struct ViewProps {
    pub settings: JudgeChoices,
    pub on_settings: Callback<JudgeChoices>,
    pub db: LoadedDb,
    pub on_db: Callback<LoadedDb>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Playground,
    Report,
}

/// `?view=report` or `?run=URL` open the report; anything else the playground.
fn view_of_address() -> View {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    if search.contains("view=report") || search.contains("run=") {
        View::Report
    } else {
        View::Playground
    }
}

/// Opens `to` as a new history entry, so the browser's Back button returns to the tab before.
/// The playground's entries hold its state as typed (`typed`) in the fragment: the entry left
/// behind is brought up to date first, as the address bar waits for typing to pause.
fn push_view(from: View, to: View, typed: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    if from == View::Playground && !typed.is_empty() {
        let search = location.search().unwrap_or_default();
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{search}{typed}")),
        );
    }
    let address = match to {
        View::Report => format!("{path}?view=report"),
        View::Playground => format!("{path}{typed}"),
    };
    let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address));
}

#[component]
pub fn App() -> Html {
    let view = use_state_eq(view_of_address);
    // The playground's fragment as typed, written by the playground.
    let typed = use_memo((), |()| TypedFragment::default());
    {
        let view = view.clone();
        use_effect_with((), move |()| {
            let listener = web_sys::window().map(|window| {
                gloo_events::EventListener::new(&window, "popstate", move |_| {
                    view.set(view_of_address());
                })
            });
            move || drop(listener)
        });
    }
    let settings = use_state(JudgeChoices::load);
    use_effect_with((*settings).clone(), |settings| settings.save());
    let theme = use_state_eq(ThemeChoice::load);
    use_effect_with(*theme, |theme| theme.apply());
    let on_theme = {
        let theme = theme.clone();
        Callback::from(move |_| theme.set(theme.next()))
    };
    let on_settings = {
        let settings = settings.clone();
        Callback::from(move |next| settings.set(next))
    };
    // The database is the page's: loaded in the playground, it also executes a run's queries.
    let db = use_state(LoadedDb::default);
    let on_db = {
        let db = db.clone();
        Callback::from(move |next| db.set(next))
    };
    // Scoring runs in a worker started with the page; SQLite in one the page starts on its first
    // database action. The page re-renders when the database worker's state changes (a job
    // starts or ends, the worker starts), and when the scoring worker fails.
    let workers = use_memo((), |()| Workers::new());
    let update = use_force_update();
    let scoring_error = use_state_eq(|| None::<String>);
    {
        let workers = (*workers).clone();
        let scoring_error = scoring_error.clone();
        use_effect_with((), move |()| {
            workers
                .database
                .set_on_change(std::rc::Rc::new(move || update.force_update()));
            let scorer = workers.scorer.clone();
            workers.scorer.set_on_change(std::rc::Rc::new(move || {
                scoring_error.set(scorer.status().error);
            }));
            workers.scorer.warm_up();
        });
    }
    let status: WorkerStatus = workers.database.status();
    let tab = |target: View, label: &'static str, id: &'static str| {
        let (view, typed) = (view.clone(), typed.clone());
        let current = *view == target;
        let on_click = Callback::from(move |_| {
            if *view == target {
                return;
            }
            push_view(*view, target, &typed.0.borrow());
            view.set(target);
        });
        html! {
            <button type="button" {id} class={classes!("tab", current.then_some("current"))}
                aria-current={current.then_some("page")}
                onclick={on_click}>{ label }</button>
        }
    };
    html! {
        <ContextProvider<TypedFragment> context={(*typed).clone()}>
        <ContextProvider<Workers> context={(*workers).clone()}>
        <ContextProvider<WorkerStatus> context={status}>
        <div class="app">
            <nav class="views" aria-label="Views">
                { tab(View::Playground, "Playground", "tab-playground") }
                { tab(View::Report, "Run report", "tab-report") }
                <button type="button" id="theme-toggle" class="theme-toggle" onclick={on_theme}
                    title="Light, dark, or as the system says">{ format!("Theme: {}", theme.name()) }</button>
            </nav>
            if let Some(error) = &*scoring_error {
                <p class="error-text" role="alert" id="scoring-error">
                    { format!("Scoring is unavailable: {error}. Reload the page to try again.") }
                </p>
            }
            if *view == View::Playground {
                <PlaygroundView settings={(*settings).clone()} {on_settings} db={(*db).clone()} {on_db} />
            } else {
                <ReportView settings={(*settings).clone()} {on_settings} db={(*db).clone()} {on_db} />
            }
        </div>
        </ContextProvider<WorkerStatus>>
        </ContextProvider<Workers>>
        </ContextProvider<TypedFragment>>
    }
}
