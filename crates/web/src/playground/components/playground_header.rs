use qeval_core::{Language, Mode, ProfileName, SqlDialect};
use yew::prelude::*;

use super::CopyLink;
use crate::components::{ChoiceSelect, profile_options};
use crate::playground::share::ShareError;
use crate::playground::state::{Playground, PlaygroundAction};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub state: Playground,
    pub dispatch: Callback<PlaygroundAction>,
    /// Why the state cannot go into a link, if it cannot.
    pub share_problem: Option<ShareError>,
}

/// The playground's title and the choices that apply to the whole pair: language, dialect,
/// profile, how results compare; and the link to it all.
#[component]
pub fn PlaygroundHeader(props: &Props) -> Html {
    let (state, dispatch) = (&props.state, &props.dispatch);
    html! {
        <header class="top">
            <h1>{ "qeval" }<span class="subtitle">{ " playground" }</span></h1>
            <ChoiceSelect
                id="language"
                label="Language"
                options={vec![("sql".into(), "SQL".into()), ("kql".into(), "KQL".into())]}
                value={if state.language == Language::Kql { "kql" } else { "sql" }}
                on_change={dispatch.reform(|v: String| PlaygroundAction::SetLanguage(v.parse().unwrap_or_default()))}
            />
            if state.language == Language::Sql {
                <ChoiceSelect
                    id="dialect"
                    label="Dialect"
                    options={SqlDialect::ALL.iter().map(|d| (d.name().into(), d.label().into())).collect::<Vec<_>>()}
                    value={state.dialect.name()}
                    on_change={dispatch.reform(|v: String| PlaygroundAction::SetDialect(v.parse().unwrap_or_default()))}
                />
            }
            <ChoiceSelect
                id="profile"
                label="Profile"
                title="How the metrics add up to a total and a pass"
                options={profile_options()}
                value={state.profile.name()}
                on_change={dispatch.reform(|v: String| PlaygroundAction::SetProfile(v.parse().unwrap_or(ProfileName::Qas)))}
            />
            <ChoiceSelect
                id="mode"
                label="Results"
                title="How result tables are compared"
                options={mode_options()}
                value={state.mode.map_or("auto", |m| m.name())}
                on_change={dispatch.reform(|v: String| PlaygroundAction::SetMode(v.parse().ok()))}
            />
            <CopyLink state={state.clone()} problem={props.share_problem.clone()} />
        </header>
    }
}

fn mode_options() -> Vec<(AttrValue, AttrValue)> {
    std::iter::once(("auto".into(), "profile default".into()))
        .chain(Mode::ALL.into_iter().map(|m| {
            (
                m.name().into(),
                format!("{} — {}", m.name(), m.description()).into(),
            )
        }))
        .collect()
}
