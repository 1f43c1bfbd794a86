use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub on_change: Callback<String>,
    /// `text`, `password`, `number`, `url`.
    #[prop_or(AttrValue::Static("text"))]
    pub kind: AttrValue,
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    #[prop_or_default]
    pub title: Option<AttrValue>,
}

/// A labelled `<input>` that reports every edit.
#[component]
pub fn TextField(props: &Props) -> Html {
    let on_input = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            on_change.emit(input.value());
        })
    };
    html! {
        <label class="field" title={props.title.clone()}>
            <span>{ props.label.clone() }</span>
            <input
                id={props.id.clone()}
                type={props.kind.clone()}
                value={props.value.clone()}
                placeholder={props.placeholder.clone()}
                oninput={on_input}
                autocomplete="off"
                spellcheck="false"
            />
        </label>
    }
}
