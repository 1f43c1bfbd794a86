//! A pair to score, from a JavaScript object. The API spells its fields in camelCase
//! (`generatedSql`); a line of a pairs file, snake_case (`generated_sql`), is read as it is, so
//! `scorePair(JSON.parse(line))` works too. The package's `Pair` type is derived from
//! `qeval_core::PairLine`, which declares the fields once for every front end.

use qeval_core::{PairInput, json_kind, pair_from_object};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::error;

/// Reads a pair from a JavaScript object, with camelCase field names made snake_case. Errors name
/// the field as the caller spelt it.
pub(crate) fn read_pair(value: JsValue) -> Result<PairInput, JsError> {
    let value: Value =
        serde_wasm_bindgen::from_value(value).map_err(|err| error(format!("pair: {err}")))?;
    let spelt: Vec<String> = match &value {
        Value::Object(object) => object.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let object = pair_object(value).map_err(error)?;
    pair_from_object(&object).map_err(|mut err| {
        err.field = err.field.map(|field| as_spelt(&field, &spelt));
        error(format!("pair: {err}"))
    })
}

/// The reader's name for a field (`expected_sql[1]`) as the caller spelt its key
/// (`expectedSql[1]`).
fn as_spelt(field: &str, spelt: &[String]) -> String {
    let end = field.find(['[', '.']).unwrap_or(field.len());
    let (key, rest) = field.split_at(end);
    match spelt.iter().find(|name| snake_case(name) == key) {
        Some(name) => format!("{name}{rest}"),
        None => field.to_string(),
    }
}

fn pair_object(value: Value) -> Result<Map<String, Value>, String> {
    let Value::Object(object) = value else {
        return Err(format!(
            "pair: expected an object, found {}",
            json_kind(&value)
        ));
    };
    let mut object = snake_case_keys(object, "pair")?;
    // The alternatives are objects with field names of their own; their results are data, and
    // keep their keys (column names) as they are.
    if let Some(Value::Array(items)) = object.get_mut("expected_alternatives") {
        for (i, item) in items.iter_mut().enumerate() {
            if let Value::Object(fields) = item {
                *fields = snake_case_keys(
                    std::mem::take(fields),
                    &format!("pair.expectedAlternatives[{i}]"),
                )?;
            }
        }
    }
    Ok(object)
}

/// The object with each camelCase key made snake_case; a field given both ways is an error.
fn snake_case_keys(object: Map<String, Value>, place: &str) -> Result<Map<String, Value>, String> {
    let mut renamed = Map::new();
    for (key, value) in object {
        let snake = snake_case(&key);
        if renamed.contains_key(&snake) {
            return Err(format!(
                "{place}: {key} is given twice (as {key} and as {snake}); keep one"
            ));
        }
        renamed.insert(snake, value);
    }
    Ok(renamed)
}

/// `generatedSql` -> `generated_sql`; a snake_case name is unchanged.
fn snake_case(name: &str) -> String {
    let mut snake = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            snake.push('_');
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    snake
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_names_become_the_pairs_file_names() {
        assert_eq!(snake_case("generatedSql"), "generated_sql");
        assert_eq!(snake_case("expectedVmSteps"), "expected_vm_steps");
        assert_eq!(snake_case("generated_sql"), "generated_sql");
        assert_eq!(snake_case("id"), "id");
    }

    #[test]
    fn errors_name_the_field_as_it_was_spelt() {
        let spelt = ["generatedSql".to_string(), "expected_sql".to_string()];
        assert_eq!(as_spelt("generated_sql", &spelt), "generatedSql");
        assert_eq!(as_spelt("expected_sql[1]", &spelt), "expected_sql[1]");
        let spelt = ["expectedSql".to_string()];
        assert_eq!(as_spelt("expected_sql[1]", &spelt), "expectedSql[1]");
        assert_eq!(as_spelt("schema", &spelt), "schema");
    }

    #[test]
    fn a_field_given_both_ways_is_refused() {
        let mut object = Map::new();
        object.insert("generatedSql".into(), Value::from("SELECT 1"));
        object.insert("generated_sql".into(), Value::from("SELECT 2"));
        assert!(snake_case_keys(object, "pair").is_err());
    }
}
