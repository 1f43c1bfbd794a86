//! The equivalence check without a database: the schema it used (inferred from the queries, or
//! the user's edit of it), its verdict, and the counterexample that separates the queries.

use qeval_core::SqlDialect;
use qeval_sqlite::{Assumption, EquivalenceReport, EquivalenceVerdict, SchemaSource};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::CounterexampleView;

use crate::playground::state::MAX_CHECKS;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// `None` while there is nothing to check (a query missing, KQL, the check off).
    pub report: Option<EquivalenceReport>,
    /// How long the check took in this page.
    #[prop_or_default]
    pub millis: Option<f64>,
    /// The user's schema; empty when the inferred one is used.
    pub schema: AttrValue,
    pub on_schema: Callback<String>,
    /// Asked for when an assumption holds in another dialect's engine (SQL Server's `AVG`).
    pub on_dialect: Callback<SqlDialect>,
    pub checks: u32,
    pub on_checks: Callback<u32>,
    pub seed: u64,
    pub on_seed: Callback<u64>,
    /// A check is running in the worker; `report` is the one before, if any.
    #[prop_or_default]
    pub checking: bool,
    /// The last check was cancelled.
    #[prop_or_default]
    pub cancelled: bool,
    /// Set while the check waits for the user to act (the page's untouched example): a button
    /// runs it.
    #[prop_or_default]
    pub on_check: Option<Callback<()>>,
}

#[component]
pub fn EquivalencePanel(props: &Props) -> Html {
    let on_schema_input = {
        let on_schema = props.on_schema.clone();
        Callback::from(move |event: InputEvent| {
            let area: HtmlTextAreaElement = event.target_unchecked_into();
            on_schema.emit(area.value());
        })
    };
    let number = |callback: Callback<u64>| {
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(n) = input.value().trim().parse::<u64>() {
                callback.emit(n);
            }
        })
    };
    let on_checks = number(
        props
            .on_checks
            .reform(|n: u64| u32::try_from(n).unwrap_or(MAX_CHECKS)),
    );
    let on_seed = number(props.on_seed.clone());
    let report = props.report.as_ref();
    // The schema shown: the user's text while they edit it, else the one the check used.
    let shown_schema = if props.schema.is_empty() {
        report.map(|r| r.schema.clone()).unwrap_or_default()
    } else {
        props.schema.to_string()
    };
    html! {
        <details class="equivalence" open=true data-testid="equivalence">
            <summary>{ "Equivalence on generated databases (no database needed)" }</summary>
            <div class="row">
                <label class="field">
                    <span>{ "Generated databases" }</span>
                    <input id="eq-databases" type="number" min="0" max={MAX_CHECKS.to_string()} value={props.checks.to_string()} oninput={on_checks} />
                </label>
                <label class="field">
                    <span>{ "Seed" }</span>
                    <input id="eq-seed" type="number" min="0" value={props.seed.to_string()} oninput={on_seed} />
                </label>
            </div>
            if let Some(on_check) = &props.on_check {
                <p class="note" data-testid="equivalence-waiting">
                    { "Edit a query to check it, or " }
                    <button type="button" id="eq-check" onclick={on_check.reform(|_| ())}>{ "check the example now" }</button>
                </p>
            } else if props.checking {
                <p class="muted" role="status" data-testid="equivalence-checking">{ "Checking on generated databases…" }</p>
            } else if props.cancelled {
                <p class="muted" role="status" data-testid="equivalence-cancelled">{ "The check was cancelled. Edit a query to check again." }</p>
            }
            if let Some(report) = report {
                <p class={classes!("verdict", props.checking.then_some("stale"))} data-testid="equivalence-verdict">
                    { verdict_badge(report) }{ " " }
                    <span data-testid="equivalence-explanation">{ report.explanation() }</span>
                    if let Some(millis) = props.millis {
                        <span class="muted" data-testid="equivalence-time">{ format!(" (checked in {millis:.0} ms)") }</span>
                    }
                </p>
                if let Some(assumption) = &report.assumption {
                    <p class="note" data-testid="equivalence-assumption">
                        { assumption_note(report.verdict, assumption) }
                        <button type="button" data-testid="equivalence-accept" onclick={accept(assumption, &props.on_schema, &props.on_dialect)}>
                            { match assumption.dialect {
                                Some(dialect) => format!("Add it to the schema and check as {}", dialect.label()),
                                None => "Add this constraint to the schema".to_string(),
                            } }
                        </button>
                    </p>
                }
            }
            <div class="schema">
                <label for="eq-schema">
                    { match (report.map(|r| r.schema_source), props.schema.is_empty()) {
                        (_, false) => "Your schema (CREATE TABLE; PRIMARY KEY, NOT NULL, UNIQUE and FOREIGN KEY are kept)",
                        (Some(SchemaSource::Inferred), true) => "Schema inferred from the two queries (edit it to state types and constraints)",
                        _ => "Schema (inferred from the queries when both are given)",
                    } }
                </label>
                <textarea id="eq-schema" data-testid="equivalence-schema" rows="6" spellcheck="false" value={shown_schema} oninput={on_schema_input} />
                if !props.schema.is_empty() {
                    <button type="button" data-testid="equivalence-infer" onclick={props.on_schema.reform(|_| String::new())}>
                        { "Use the inferred schema again" }
                    </button>
                }
                if let Some(report) = report.filter(|r| !r.notes.is_empty()) {
                    <ul class="notes">{ for report.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                }
            </div>
            if let Some(counterexample) = report.and_then(|r| r.counterexample.clone()) {
                <CounterexampleView {counterexample} testid="counterexample" />
            }
        </details>
    }
}

fn verdict_badge(report: &EquivalenceReport) -> Html {
    let (class, text) = match report.verdict {
        EquivalenceVerdict::Equivalent if report.proof.is_some() => {
            ("badge pass", "Proved equivalent")
        }
        EquivalenceVerdict::Equivalent => ("badge pass", "Equivalent"),
        EquivalenceVerdict::EquivalentUnderAssumption => {
            ("badge warn", "Equivalent under an assumption")
        }
        EquivalenceVerdict::Different => ("badge fail", "Different"),
        EquivalenceVerdict::NoVerdict => ("badge", "No verdict"),
    };
    html! { <span class={class} data-testid="equivalence-badge">{ text }</span> }
}

/// What the assumption's button does: puts the schema with the constraint in the editor and,
/// when the assumption is about another dialect's engine, checks in that dialect.
fn accept(
    assumption: &Assumption,
    on_schema: &Callback<String>,
    on_dialect: &Callback<SqlDialect>,
) -> Callback<MouseEvent> {
    let (schema, dialect) = (assumption.schema.clone(), assumption.dialect);
    let (on_schema, on_dialect) = (on_schema.clone(), on_dialect.clone());
    Callback::from(move |_| {
        if let Some(dialect) = dialect {
            on_dialect.emit(dialect);
        }
        on_schema.emit(schema.clone());
    })
}

/// The sentence beside the button that adds the assumption to the schema: the condition the
/// verdict rests on, or, beside *different*, the one the check states but does not assume.
fn assumption_note(verdict: EquivalenceVerdict, assumption: &Assumption) -> String {
    let text = &assumption.text;
    match verdict {
        EquivalenceVerdict::Different => {
            format!("They agree if {text}: {}. ", assumption.why_not_assumed())
        }
        _ => format!("They differ only if {text} does not hold. "),
    }
}
