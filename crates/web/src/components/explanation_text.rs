use qeval_report::markdown::{Block, Span, Style, read};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: AttrValue,
}

/// A judge's explanation: as written when it is plain text, laid out when it uses the little
/// Markdown judges write (lists, code, strong and emphasis). Every piece is a text node.
#[component]
pub fn ExplanationText(props: &Props) -> Html {
    match read(&props.text) {
        None => html! { { props.text.clone() } },
        Some(blocks) => html! {
            <div class="markdown" data-testid="markdown">
                { for blocks.iter().map(block) }
            </div>
        },
    }
}

fn block(block: &Block) -> Html {
    match block {
        Block::Paragraph { spans: runs } => html! { <p>{ for runs.iter().map(span) }</p> },
        Block::List { ordered, items } => {
            let items = items
                .iter()
                .map(|runs| html! { <li>{ for runs.iter().map(span) }</li> });
            if *ordered {
                html! { <ol>{ for items }</ol> }
            } else {
                html! { <ul>{ for items }</ul> }
            }
        }
        Block::Code { text } => html! { <pre class="code">{ text.clone() }</pre> },
    }
}

fn span(run: &Span) -> Html {
    let text = run.text.clone();
    match run.style {
        Style::Plain => html! { { text } },
        Style::Strong => html! { <strong>{ text }</strong> },
        Style::Emphasis => html! { <em>{ text }</em> },
        Style::Code => html! { <code>{ text }</code> },
    }
}
