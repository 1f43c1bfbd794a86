//! `qeval tables`: the base tables a query reads.

use std::io::Read;

use qeval_core::sql::{ParseLimits, SqlDialect, TableName, extract_tables, parse};

use super::{Failure, Outcome};

pub fn run(sql: Option<&str>, dialect: SqlDialect, json: bool) -> Result<Outcome, Failure> {
    let text = match sql {
        Some(text) if text != "-" => text.to_string(),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|err| format!("cannot read the query from standard input: {err}"))?;
            text
        }
    };
    let statements = match parse(&text, dialect, ParseLimits::default()) {
        Ok(statements) => statements,
        Err(err) => {
            eprintln!("qeval: the query does not parse as {dialect} SQL: {err}");
            return Ok(Outcome::SomeInputRejected);
        }
    };
    let tables: Vec<String> = extract_tables(&statements)
        .iter()
        .map(TableName::qualified)
        .collect();
    if json {
        println!("{}", serde_json::Value::from(tables));
    } else {
        for table in tables {
            println!("{table}");
        }
    }
    Ok(Outcome::Clean)
}
