use std::rc::Rc;

use qeval_core::{MetricName, Scorecard, counted};
use yew::prelude::*;

use super::{DownloadScorecard, LangfuseSend, MetricCard, NormalizedView, ProfileSummary};
use crate::judge::{JudgeChoices, JudgeRun};
use crate::playground::hooks::{JudgeStatus, ScoredPlayground};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Both queries are given: otherwise there is nothing to score.
    pub both_given: bool,
    pub scored: Option<Rc<ScoredPlayground>>,
    pub judge: JudgeStatus,
    /// What the LLM judge gave for the pair on screen.
    pub run: Option<Rc<JudgeRun>>,
    /// The judge's settings the shown verdicts were asked with.
    pub settings: JudgeChoices,
    /// Asks the LLM judge now (it waits for the user to act).
    pub on_ask: Callback<MouseEvent>,
}

/// The scorecard: identical or not, the normalized queries, the LLM judge's line, the profile's
/// total, each metric, and the scorecard's downloads.
#[component]
pub fn ScoresSection(props: &Props) -> Html {
    let settings = &props.settings;
    let content = if !props.both_given {
        html! { <p class="muted">{ "Type both queries to see their scores." }</p> }
    } else if let Some(ScoredPlayground { card, state }) = props.scored.as_deref() {
        html! {
            <>
                <p class="identical" data-testid="identical">
                    if card.identical {
                        <span class="badge pass">{ "Queries are identical" }</span>
                    } else {
                        <span class="badge">{ "Queries differ after normalization" }</span>
                    }
                </p>
                <NormalizedView card={card.clone()} />
                { judge_status(&props.judge, props.run.as_deref(), props.on_ask.clone()) }
                { judge_failure(props.run.as_deref(), &settings.base_url) }
                if let Some(result) = &card.profile {
                    <ProfileSummary result={result.clone()} unsafe_query={card.unsafe_query} />
                }
                <div class="metrics">
                    { for ordered_metrics(card).into_iter().map(|(name, weight)| html! {
                        <MetricCard name={name.as_str()} metric={card.metrics[&name].clone()} {weight} />
                    }) }
                </div>
                <div class="row exports">
                    <DownloadScorecard
                        card={card.clone()}
                        state={state.clone()}
                        llm={settings.enabled.then(|| (settings.base_url.clone(), settings.model.clone()))}
                    />
                    if !settings.langfuse_public_key.trim().is_empty() {
                        <LangfuseSend
                            card={card.clone()}
                            host={settings.langfuse_host.clone()}
                            public_key={settings.langfuse_public_key.clone()}
                        />
                    }
                </div>
            </>
        }
    } else {
        html! { <p class="muted" role="status" data-testid="scoring">{ "Scoring…" }</p> }
    };
    html! { <section class="results" aria-label="Scores">{ content }</section> }
}
/// The profile's metrics first (with their weights), then the rest.
fn ordered_metrics(card: &Scorecard) -> Vec<(MetricName, Option<f64>)> {
    let weights = card
        .profile
        .as_ref()
        .map(|p| p.parts.clone())
        .unwrap_or_default();
    let mut names: Vec<(MetricName, Option<f64>)> = card
        .metrics
        .keys()
        .map(|name| (*name, weights.get(name.as_str()).map(|p| p.weight)))
        .collect();
    names.sort_by_key(|(name, weight)| {
        (weight.is_none(), *name != MetricName::TableAccuracy, *name)
    });
    names
}

/// What the LLM judge did for the pair on screen, in one line.
fn judge_status(status: &JudgeStatus, run: Option<&JudgeRun>, ask: Callback<MouseEvent>) -> Html {
    let text = match (status, run) {
        (JudgeStatus::Off, _) => return html! {},
        (JudgeStatus::Waiting, _) => {
            return html! {
                <p class="judge-status note" role="status" data-testid="judge-status">
                    { "LLM judge not asked yet: this page calls it only when you act (edit a query or ask). The structural judge scores meanwhile. " }
                    <button type="button" id="judge-ask" onclick={ask}>{ "Ask the LLM judge" }</button>
                </p>
            };
        }
        (JudgeStatus::Blocked(problem), _) => format!("LLM judge not asked: {problem}"),
        (_, Some(run)) if run.outcomes.is_empty() => {
            "LLM judge not needed: the queries are identical after normalization.".to_string()
        }
        (_, Some(run)) => format!(
            "LLM judge: {} ({} from cache, {}, {}) in {:.0} ms",
            counted(run.outcomes.len(), "verdict"),
            run.hits,
            counted(run.calls as usize, "call"),
            counted(run.errors as usize, "error"),
            run.millis
        ),
        (_, None) => "Asking the LLM judge…".to_string(),
    };
    html! { <p class="judge-status note" role="status" data-testid="judge-status">{ text }</p> }
}

/// A banner when judgings failed: which endpoint, what error, and what scored instead. The
/// scorecard says the same in its diagnostics, so a download carries it too.
fn judge_failure(run: Option<&JudgeRun>, endpoint: &str) -> Html {
    let Some(run) = run else { return html! {} };
    let failed: Vec<(&String, String)> = run
        .outcomes
        .iter()
        .filter_map(|(metric, outcome)| outcome.as_ref().err().map(|e| (metric, e.to_string())))
        .collect();
    let Some((_, first)) = failed.first() else {
        return html! {};
    };
    let metrics: Vec<String> = failed
        .iter()
        .map(|(m, _)| super::metric_card::title(m).to_lowercase())
        .collect();
    html! {
        <div class="banner error" role="alert" data-testid="judge-failure">
            <strong>{ format!("The LLM judge at {endpoint} failed: {first}.") }</strong>
            { format!(
                " Not judged by the LLM: {}. The structural judge's score stands where it has one; anything else is not scored and the total leaves it out. Fix the endpoint or turn the LLM judge off in the settings.",
                metrics.join(", ")
            ) }
        </div>
    }
}
