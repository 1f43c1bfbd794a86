//! The page: the playground or a run's report, and the judge settings both use.

use yew::prelude::*;

use crate::components::{PlaygroundView, ReportView};
use crate::execution::LoadedDb;
use crate::judge::JudgeSettings;
use crate::theme::{self, Dark, ThemeChoice};
use crate::workers::{WorkerStatus, Workers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Playground,
    Report,
}

/// `?view=report` or `?run=URL` open the report; anything else the playground.
fn initial_view() -> View {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    if search.contains("view=report") || search.contains("run=") {
        View::Report
    } else {
        View::Playground
    }
}

/// Keeps `?view=report` in the address bar while the report is shown, so a reload stays there.
fn remember_view(view: View) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let search = location.search().unwrap_or_default();
    if search.contains("run=") {
        return;
    }
    let hash = location.hash().unwrap_or_default();
    let query = if view == View::Report {
        "?view=report"
    } else {
        ""
    };
    let path = location.pathname().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}{hash}")),
        );
    }
}

#[component]
pub fn App() -> Html {
    let view = use_state_eq(initial_view);
    let settings = use_state(JudgeSettings::load);
    use_effect_with((*settings).clone(), |settings| settings.save());
    use_effect_with(*view, |view| remember_view(*view));
    let theme = use_state_eq(ThemeChoice::load);
    let system_dark = use_state_eq(theme::system_prefers_dark);
    use_effect_with(*theme, |theme| theme.apply());
    {
        let system_dark = system_dark.clone();
        use_effect_with((), move |()| {
            let listener = theme::watch_system(move |dark| system_dark.set(dark));
            move || drop(listener)
        });
    }
    let dark = theme.dark(*system_dark);
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
        let view = view.clone();
        let current = *view == target;
        html! {
            <button type="button" {id} class={classes!("tab", current.then_some("current"))}
                aria-current={current.then_some("page")}
                onclick={Callback::from(move |_| view.set(target))}>{ label }</button>
        }
    };
    html! {
        <ContextProvider<Workers> context={(*workers).clone()}>
        <ContextProvider<WorkerStatus> context={status}>
        <ContextProvider<Dark> context={dark}>
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
        </ContextProvider<Dark>>
        </ContextProvider<WorkerStatus>>
        </ContextProvider<Workers>>
    }
}
