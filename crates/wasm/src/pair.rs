//! A pair to score, from a JavaScript object. The API spells its fields in camelCase
//! (`generatedSql`); a line of a pairs file, snake_case (`generated_sql`), is read as it is, so
//! `scorePair(JSON.parse(line))` works too.

use qeval_core::pairs::{self, PairInput};
use qeval_core::words::json_kind;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::error;

/// The pair's declaration in the package's `.d.ts`. The pairs-file reader in qeval-core takes
/// these fields by their snake_case names, parsing each by hand (several have aliases), so there
/// is no struct to derive this from; a test checks that each field listed here is read.
// Read by the section below, which the compiler does not count as a use.
#[allow(dead_code)]
const PAIR_TYPESCRIPT: &str = r#"
/** One pair to score: the generated query and what it is scored against. Field names are
 * camelCase; a pairs-file line's snake_case names are accepted too. */
export interface Pair {
    /** Echoed in the scorecard. */
    id?: unknown;
    /** The generated SQL or KQL query. */
    generatedSql: string;
    /** The expected query, or several acceptable ones. */
    expectedSql?: string | string[];
    /** Expected table names, when there is no expected query. */
    expectedTables?: string[];
    /** Results in any shape qeval reads: rows as arrays or objects, `{columns, rows}`... */
    expectedResult?: unknown;
    generatedResult?: unknown;
    /** The error the generated query gave when it was run. */
    generatedError?: string;
    /** More acceptable answers, each with its query, its result or both. */
    expectedAlternatives?: { expectedSql?: string; expectedResult?: unknown }[];
    dialect?: SqlDialect;
    language?: Language;
    profile?: ProfileName;
    mode?: Mode;
    /** Relative tolerance for numbers in the results. */
    tolerance?: number;
    ignoreOrder?: boolean;
    /** Only these columns of the results are compared. */
    conditionCols?: (string | number)[];
    /** The question asked, for the LLM judge and the `defog` mode (order, sort, arrange). */
    question?: string;
    /** defog sql-eval's `query_category`: `order_by` keeps the rows' order in the `defog` mode. */
    queryCategory?: string;
    /** `CREATE TABLE` statements, for schema validity and the equivalence check. */
    schema?: string;
    /** An agent's final answer, and what it should say. */
    answer?: string;
    expectedAnswerType?: string;
    expectedAnswerCriteria?: string;
    sources?: string | string[];
    /** A person's verdict, compared with the judges'. */
    humanLabel?: unknown;
    expectedVmSteps?: number;
    generatedVmSteps?: number;
    traceId?: string;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const PAIR_SECTION: &str = PAIR_TYPESCRIPT;

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
    pairs::pair_from_object(&object).map_err(|mut err| {
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

    /// The field names `PAIR_TYPESCRIPT` declares.
    fn declared_fields() -> Vec<&'static str> {
        let body = PAIR_TYPESCRIPT
            .split_once("export interface Pair {")
            .and_then(|(_, rest)| rest.rsplit_once('}'))
            .map_or("", |(body, _)| body);
        body.lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("/*") && !line.starts_with('*'))
            .filter_map(|line| line.split_once(':'))
            .map(|(name, _)| name.trim_end_matches('?'))
            .filter(|name| !name.is_empty())
            .collect()
    }

    #[test]
    fn camel_case_names_become_the_pairs_file_names() {
        assert_eq!(snake_case("generatedSql"), "generated_sql");
        assert_eq!(snake_case("expectedVmSteps"), "expected_vm_steps");
        assert_eq!(snake_case("generated_sql"), "generated_sql");
        assert_eq!(snake_case("id"), "id");
    }

    #[test]
    fn every_declared_field_is_read_by_the_pairs_reader() {
        let fields = declared_fields();
        assert!(fields.len() > 20, "{fields:?}");
        for field in fields {
            // A value of a kind no field takes: the reader refuses it by name, so it reads it.
            let snake = snake_case(field);
            let mut object = Map::new();
            object.insert("generated_sql".into(), Value::from("SELECT 1"));
            object.insert("expected_sql".into(), Value::from("SELECT 1"));
            object.insert(snake.clone(), Value::Object(Map::new()));
            let read = pairs::pair_from_object(&object);
            let said = read
                .as_ref()
                .err()
                .map(ToString::to_string)
                .unwrap_or_default();
            // These take any JSON value, so none is refused.
            let read_any = [
                "id",
                "expected_result",
                "generated_result",
                "generated_error",
                "human_label",
            ];
            assert!(
                read_any.contains(&snake.as_str()) || said.contains(&snake),
                "{field}: {said:?}"
            );
        }
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
