use qeval_core::ParseError;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub error: ParseError,
    /// The text that failed to parse, to show the offending line.
    pub source: AttrValue,
    pub editor_id: AttrValue,
}

/// A parse error with its position, the offending line with a caret under the spot, and a button
/// that puts the cursor there.
#[component]
pub fn ParseErrorView(props: &Props) -> Html {
    let error = &props.error;
    let place = match (error.line, error.column) {
        (Some(line), Some(column)) => format!("Line {line}, column {column}: "),
        _ => String::new(),
    };
    let snippet = error.line.and_then(|line| {
        let text = props
            .source
            .lines()
            .nth(usize::try_from(line).ok()?.checked_sub(1)?)?;
        let caret_at = usize::try_from(error.column?).ok()?.saturating_sub(1);
        let caret = format!("{}^", " ".repeat(text.chars().take(caret_at).count()));
        Some(format!("{text}\n{caret}"))
    });
    let go_to = {
        let editor_id = props.editor_id.clone();
        let position = error.line.zip(error.column);
        Callback::from(move |_| {
            if let Some((line, column)) = position {
                crate::playground::editor::focus_at(&editor_id, line as f64, column as f64);
            }
        })
    };
    html! {
        <div class="parse-error" role="alert" data-testid={format!("{}-error", props.editor_id)}>
            <p>
                <strong>{ "Does not parse. " }</strong>
                <span class="place">{ place }</span>
                { error.message.clone() }
            </p>
            if let Some(snippet) = snippet {
                <pre class="snippet">{ snippet }</pre>
                <button type="button" class="link" onclick={go_to}>{ "Show in editor" }</button>
            }
        </div>
    }
}
