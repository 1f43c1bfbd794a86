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

/// The profiles a page offers, as `(name, label)`: each label says what the total is made of,
/// then the preset's name, which the CLI's `--profile` and the docs use.
pub fn profile_options() -> Vec<(AttrValue, AttrValue)> {
    use qeval_core::ProfileName;
    [
        (
            ProfileName::Qas,
            "Similarity 40% + execution 40% + column types 20%",
        ),
        (ProfileName::KqlBatch, "Similarity 50% + results 50%"),
        (ProfileName::SqlMetrics, "Query correctness, and safe"),
    ]
    .into_iter()
    .map(|(profile, what)| {
        let name = profile.name();
        (name.into(), format!("{what} ({name})").into())
    })
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
