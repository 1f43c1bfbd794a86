use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub id: AttrValue,
    pub label: AttrValue,
    /// `(value, label)` pairs, in menu order.
    pub options: Vec<(AttrValue, AttrValue)>,
    pub value: AttrValue,
    pub on_change: Callback<String>,
    #[prop_or_default]
    pub title: Option<AttrValue>,
}

/// The profiles a page offers, as `(name, label)`: short labels, as the profile's summary under
/// the scores spells out its weights.
pub fn profile_options() -> Vec<(AttrValue, AttrValue)> {
    use qeval_core::profiles::ProfileName;
    [
        (ProfileName::Qas, "QAS"),
        (ProfileName::KqlBatch, "KQL batch"),
        (ProfileName::SqlMetrics, "SQL metrics"),
    ]
    .into_iter()
    .map(|(profile, label)| (profile.name().into(), label.into()))
    .collect()
}

/// A labelled `<select>`.
#[component]
pub fn ChoiceSelect(props: &Props) -> Html {
    let on_change = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            on_change.emit(select.value());
        })
    };
    html! {
        <label class="choice" title={props.title.clone()}>
            <span>{ props.label.clone() }</span>
            <select id={props.id.clone()} onchange={on_change}>
                { for props.options.iter().map(|(value, label)| html! {
                    <option value={value.clone()} selected={*value == props.value}>{ label.clone() }</option>
                }) }
            </select>
        </label>
    }
}
