use qeval_core::sql::SqlDialect;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub value: SqlDialect,
    pub on_change: Callback<SqlDialect>,
}

/// The SQL dialect both queries are parsed in.
#[component]
pub fn DialectSelect(props: &Props) -> Html {
    let on_change = {
        let on_change = props.on_change.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(dialect) = select.value().parse() {
                on_change.emit(dialect);
            }
        })
    };
    html! {
        <label class="dialect">
            <span>{ "Dialect" }</span>
            <select id="dialect" onchange={on_change}>
                { for SqlDialect::ALL.iter().map(|dialect| html! {
                    <option value={dialect.name()} selected={*dialect == props.value}>
                        { dialect.label() }
                    </option>
                }) }
            </select>
        </label>
    }
}
