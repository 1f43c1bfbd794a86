use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub id: AttrValue,
    pub label: AttrValue,
    pub checked: bool,
    pub on_change: Callback<bool>,
}

/// A labelled checkbox.
#[component]
pub fn CheckBox(props: &Props) -> Html {
    let on_change = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            on_change.emit(input.checked());
        })
    };
    html! {
        <label class="check">
            <input id={props.id.clone()} type="checkbox" checked={props.checked} onchange={on_change} />
            <span>{ props.label.clone() }</span>
        </label>
    }
}
