use yew::prelude::*;

use crate::database::LoadedDb;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub db: LoadedDb,
}

/// The loaded database's tables: their columns (with declared types) and row counts.
#[component]
pub fn DatabaseSchema(props: &Props) -> Html {
    html! {
        <table class="result" data-testid="db-schema">
            <tr><th>{ "Table" }</th><th>{ "Columns" }</th><th>{ "Rows" }</th></tr>
            { for props.db.tables.iter().map(|t| html! {
                <tr>
                    <td>{ t.name.clone() }</td>
                    <td>{ t.columns.iter().map(|c| if c.kind.is_empty() { c.name.clone() } else { format!("{} {}", c.name, c.kind) }).collect::<Vec<_>>().join(", ") }</td>
                    <td>{ t.rows.to_string() }</td>
                </tr>
            }) }
        </table>
    }
}
