use qeval_core::sql::ParseError;
use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;
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
        let source = props.source.clone();
        let position = error.line.zip(error.column);
        Callback::from(move |_| {
            if let Some((line, column)) = position {
                focus_at(&editor_id, &source, line, column);
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

/// Focuses the editor and puts the cursor at a 1-based line and column.
fn focus_at(editor_id: &str, source: &str, line: u64, column: u64) {
    let Some(area) = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id(editor_id))
        .and_then(|element| element.dyn_into::<HtmlTextAreaElement>().ok())
    else {
        return;
    };
    // Textarea offsets count UTF-16 code units.
    let mut offset = 0u32;
    for (index, text) in source.split('\n').enumerate() {
        if index as u64 + 1 == line {
            let within: u32 = text
                .chars()
                .take(usize::try_from(column.saturating_sub(1)).unwrap_or(0))
                .map(|c| c.len_utf16() as u32)
                .sum();
            offset += within;
            break;
        }
        offset += text.encode_utf16().count() as u32 + 1;
    }
    let _ = area.focus();
    let _ = area.set_selection_range(offset, offset);
}
