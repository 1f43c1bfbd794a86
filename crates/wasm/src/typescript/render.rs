//! JSON Schema to TypeScript, for the schemas schemars derives from serde declarations: the
//! subset they use (`$ref`, `type`, `enum`, `const`, `anyOf`, `oneOf`, `allOf`, `items`,
//! `prefixItems`, `properties`, `required`, `additionalProperties`, `propertyNames`).

use serde_json::{Map, Value};

/// Which way a type crosses the boundary, which decides how its fields are declared.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Direction {
    /// Returned to JavaScript: fields as serde writes them; a field serde leaves out when it is
    /// empty is optional and never `null`.
    Written,
    /// Taken from JavaScript: fields in camelCase (the API reads `generatedSql` and gives the
    /// core `generated_sql`); a field left out or `null` is not given.
    Read,
}

/// `export interface Name { ... }` for an object with fields, `export type Name = ...;` for the
/// rest, with the schema's description as the doc comment.
pub(super) fn declaration(name: &str, schema: &Value, direction: Direction) -> String {
    let mut out = doc_comment(schema, "");
    let object = schema
        .as_object()
        .filter(|object| object.get("type") == Some(&Value::from("object")));
    match object.and_then(|object| Some((object, object.get("properties")?.as_object()?))) {
        Some((object, properties)) => {
            out.push_str(&format!("export interface {name} {{\n"));
            for (name, field_schema) in properties {
                let required = is_required(object, name);
                out.push_str(&doc_comment(field_schema, "    "));
                out.push_str(&format!(
                    "    {};\n",
                    field(name, field_schema, required, direction)
                ));
            }
            out.push_str("}\n");
        }
        _ => out.push_str(&format!(
            "export type {name} = {};\n",
            type_of(schema, direction)
        )),
    }
    out
}

fn is_required(object: &Map<String, Value>, field: &str) -> bool {
    object
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|required| required.iter().any(|name| name == field))
}

/// `name: T`, or `name?: T` for a field that may be left out.
fn field(name: &str, schema: &Value, required: bool, direction: Direction) -> String {
    let ty = type_of(schema, direction);
    let ty = match ty.strip_suffix(" | null") {
        Some(never_null) if !required && direction == Direction::Written => never_null.to_string(),
        _ => ty,
    };
    let optional = if required { "" } else { "?" };
    format!("{}{optional}: {ty}", named(name, direction))
}

/// The TypeScript type a schema describes.
pub(super) fn type_of(schema: &Value, direction: Direction) -> String {
    let Value::Object(schema) = schema else {
        // `true`: anything.
        return "unknown".into();
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference
            .rsplit('/')
            .next()
            .unwrap_or(reference)
            .to_string();
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return union(values.iter().map(Value::to_string).collect());
    }
    for (key, joiner) in [("anyOf", " | "), ("oneOf", " | "), ("allOf", " & ")] {
        if let Some(Value::Array(parts)) = schema.get(key) {
            let parts = parts.iter().map(|part| type_of(part, direction)).collect();
            return if joiner == " | " {
                union(parts)
            } else {
                parts.join(joiner)
            };
        }
    }
    match schema.get("type") {
        Some(Value::String(kind)) => of_kind(kind, schema, direction),
        Some(Value::Array(kinds)) => union(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|kind| of_kind(kind, schema, direction))
                .collect(),
        ),
        _ => "unknown".into(),
    }
}

fn of_kind(kind: &str, schema: &Map<String, Value>, direction: Direction) -> String {
    match kind {
        "string" => "string".into(),
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "null" => "null".into(),
        "array" => array(schema, direction),
        "object" => object(schema, direction),
        _ => "unknown".into(),
    }
}

/// Longer fixed-length arrays (a histogram's bins) are declared as lists.
const MAX_TUPLE: u64 = 4;

fn array(schema: &Map<String, Value>, direction: Direction) -> String {
    if let Some(Value::Array(items)) = schema.get("prefixItems") {
        let items: Vec<String> = items.iter().map(|item| type_of(item, direction)).collect();
        return format!("[{}]", items.join(", "));
    }
    let item = schema
        .get("items")
        .map_or("unknown".into(), |item| type_of(item, direction));
    // A short array of a fixed length (`[f64; 2]`, an interval) is a tuple.
    let length = |key: &str| schema.get(key).and_then(Value::as_u64);
    if let (Some(min), Some(max)) = (length("minItems"), length("maxItems"))
        && min == max
        && (1..=MAX_TUPLE).contains(&min)
    {
        return format!("[{}]", vec![item; min as usize].join(", "));
    }
    if (item.contains(" | ") || item.contains(" & ")) && !item.starts_with('{') {
        format!("({item})[]")
    } else {
        format!("{item}[]")
    }
}

/// An object inline: its fields, or a record for a map.
fn object(schema: &Map<String, Value>, direction: Direction) -> String {
    if let Some(Value::Object(properties)) = schema.get("properties") {
        let fields: Vec<String> = properties
            .iter()
            .map(|(name, field_schema)| {
                field(name, field_schema, is_required(schema, name), direction)
            })
            .collect();
        return format!("{{ {} }}", fields.join("; "));
    }
    let value = match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => return "Record<string, never>".into(),
        Some(value) => type_of(value, direction),
        None => "unknown".into(),
    };
    match schema.get("propertyNames") {
        // Keyed by an enumeration, and holding only some of its names.
        Some(key) => format!("Partial<Record<{}, {value}>>", type_of(key, direction)),
        None => format!("Record<string, {value}>"),
    }
}

/// The parts once each, in order, with `null` last.
fn union(parts: Vec<String>) -> String {
    let mut kept: Vec<String> = Vec::new();
    for part in parts {
        if !kept.contains(&part) {
            kept.push(part);
        }
    }
    if let Some(at) = kept.iter().position(|part| part == "null") {
        let null = kept.remove(at);
        kept.push(null);
    }
    kept.join(" | ")
}

fn named(field: &str, direction: Direction) -> String {
    match direction {
        Direction::Written => field.to_string(),
        Direction::Read => {
            let mut out = String::with_capacity(field.len());
            let mut upper = false;
            for c in field.chars() {
                if c == '_' {
                    upper = true;
                } else if upper {
                    out.extend(c.to_uppercase());
                    upper = false;
                } else {
                    out.push(c);
                }
            }
            out
        }
    }
}

fn doc_comment(schema: &Value, indent: &str) -> String {
    let Some(text) = schema.get("description").and_then(Value::as_str) else {
        return String::new();
    };
    let mut out = format!("{indent}/**\n");
    for line in text.lines() {
        let line = line.replace("*/", "*\\/");
        out.push_str(format!("{indent} * {line}").trim_end());
        out.push('\n');
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ts(schema: Value) -> String {
        type_of(&schema, Direction::Written)
    }

    #[test]
    fn a_field_left_out_when_empty_is_optional_and_never_null() {
        let written = json!({
            "type": "object",
            "properties": { "at": { "type": ["string", "null"] }, "line": { "type": ["integer", "null"] } },
            "required": ["line"]
        });
        assert_eq!(
            type_of(&written, Direction::Written),
            "{ at?: string; line: number | null }"
        );
        assert_eq!(
            type_of(&written, Direction::Read),
            "{ at?: string | null; line: number | null }"
        );
    }

    #[test]
    fn optional_values_are_null_and_null_comes_last() {
        assert_eq!(ts(json!({ "type": ["string", "null"] })), "string | null");
        assert_eq!(
            ts(json!({ "anyOf": [{ "type": "null" }, { "$ref": "#/$defs/Mode" }] })),
            "Mode | null"
        );
    }

    #[test]
    fn unions_inside_lists_are_bracketed() {
        let one_or_more = json!({ "anyOf": [{ "type": "string" }, { "type": "integer" }] });
        assert_eq!(
            ts(json!({ "type": "array", "items": one_or_more })),
            "(string | number)[]"
        );
        assert_eq!(
            ts(json!({ "type": "array", "prefixItems": [{ "type": "integer" }, true] })),
            "[number, unknown]"
        );
        let fixed = |n: usize| json!({ "type": "array", "items": { "type": "number" }, "minItems": n, "maxItems": n });
        assert_eq!(ts(fixed(2)), "[number, number]");
        assert_eq!(ts(fixed(10)), "number[]");
    }

    #[test]
    fn maps_keyed_by_an_enumeration_hold_some_of_its_names() {
        let map = json!({
            "type": "object",
            "propertyNames": { "$ref": "#/$defs/MetricName" },
            "additionalProperties": { "$ref": "#/$defs/Metric" }
        });
        assert_eq!(ts(map), "Partial<Record<MetricName, Metric>>");
        let plain = json!({ "type": "object", "additionalProperties": { "type": "number" } });
        assert_eq!(ts(plain), "Record<string, number>");
    }

    #[test]
    fn tagged_variants_are_inline_objects() {
        let tagged = json!({ "oneOf": [
            { "type": "object", "properties": { "kind": { "const": "a" }, "n": { "type": "integer" } },
              "required": ["kind"] },
            { "type": "string", "enum": ["b", "c"] }
        ] });
        assert_eq!(ts(tagged), r#"{ kind: "a"; n?: number } | "b" | "c""#);
    }

    #[test]
    fn an_object_with_fields_is_an_interface_with_its_docs() {
        let schema = json!({
            "description": "A pair.\nTwo lines.",
            "type": "object",
            "properties": {
                "generated_sql": { "description": "The query.", "type": "string" },
                "id": true
            },
            "required": ["generated_sql"]
        });
        assert_eq!(
            declaration("Pair", &schema, Direction::Read),
            "/**\n * A pair.\n * Two lines.\n */\nexport interface Pair {\n    /**\n     * The \
             query.\n     */\n    generatedSql: string;\n    id?: unknown;\n}\n"
        );
        assert_eq!(
            declaration("Name", &json!({ "enum": ["a", "b"] }), Direction::Written),
            "export type Name = \"a\" | \"b\";\n"
        );
    }
}
