//! `qeval tables`: the base tables a query reads.

use qeval_core::{Language, ParseLimits, SqlDialect, TableName, analyse_as};

use super::{Completion, Failure, query_text};

pub fn run(
    query: Option<&str>,
    language: Language,
    dialect: SqlDialect,
    json: bool,
) -> Result<Completion, Failure> {
    let text = query_text(query)?;
    let analysis = analyse_as(language, &text, dialect, ParseLimits::default());
    if let Some(err) = analysis.parse_error {
        let what = if language == Language::Kql {
            "KQL".to_string()
        } else {
            format!("{dialect} SQL")
        };
        crate::output::say!("qeval: the query does not parse as {what}: {err}");
        return Ok(Completion::SomeInputRejected);
    }
    // KQL names are case-sensitive, so they are printed as written. The analysis folds them to
    // lower case only because the table-accuracy metric compares them that way.
    let tables: Vec<String> = match &analysis.kql {
        Some(query) => query.tables.clone(),
        None => analysis.tables.iter().map(TableName::qualified).collect(),
    };
    if json {
        println!("{}", serde_json::Value::from(tables));
    } else {
        for table in tables {
            println!("{}", crate::output::terminal(&table));
        }
    }
    Ok(Completion::Clean)
}
