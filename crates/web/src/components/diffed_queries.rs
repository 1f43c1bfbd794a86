//! Two queries side by side with the words that differ marked: the expected query's missing
//! words in one color, the generated query's extra words in another. Used by a test's detail and
//! by the playground's normalized forms.

use yew::prelude::*;

use qeval_report::diff::{Piece, diff};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub expected: AttrValue,
    pub generated: AttrValue,
    pub expected_label: AttrValue,
    pub generated_label: AttrValue,
}

fn code(pieces: &[Piece], mark: &'static str) -> Html {
    html! {
        <pre class="query">{ for pieces.iter().map(|p| if p.changed {
            html! { <mark class={mark}>{ p.text.clone() }</mark> }
        } else {
            html! { { p.text.clone() } }
        }) }</pre>
    }
}

#[component]
pub fn DiffedQueries(props: &Props) -> Html {
    let (left, right) = diff(&props.expected, &props.generated);
    html! {
        <div class="side">
            <div><h3>{ props.expected_label.clone() }</h3>{ code(&left, "del") }</div>
            <div><h3>{ props.generated_label.clone() }</h3>{ code(&right, "ins") }</div>
        </div>
    }
}
