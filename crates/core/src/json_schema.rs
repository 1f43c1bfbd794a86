//! The JSON Schema of the types front ends exchange, where the serde declarations alone do not
//! say it: a field read by a hand-written `deserialize_with`, a name written by a hand-written
//! `Serialize`. Everything else is derived (`derive(schemars::JsonSchema)` under the
//! `json-schema` feature), so the schema follows the declarations. qeval-wasm generates the
//! JavaScript package's TypeScript declarations from it.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::borrow::Cow;

use crate::MetricName;

/// `id`: echoed as given, a string or a number.
pub(crate) fn text_or_number(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": ["string", "number"] })
}

/// `expected_sql`, `sources`: one text, or a list of them.
pub(crate) fn one_or_more_texts(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
    })
}

/// `human_label`: a person's verdict, `true`/`false`, `1`/`0` or a word (`correct`, `wrong`...).
pub(crate) fn verdict_label(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": ["boolean", "number", "string"] })
}

/// A scorecard's metrics: an object keyed by metric name, holding only the metrics that ran.
pub(crate) fn metrics(generator: &mut SchemaGenerator) -> Schema {
    let name = generator.subschema_for::<MetricName>();
    let metric = generator.subschema_for::<crate::Metric>();
    json_schema!({ "type": "object", "propertyNames": name, "additionalProperties": metric })
}

/// Metric names are written by a hand-written `Serialize` (`MetricName::as_str`), so the schema
/// lists them from the same place, in `MetricName::ALL`'s order.
impl JsonSchema for MetricName {
    fn schema_name() -> Cow<'static, str> {
        "MetricName".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = MetricName::ALL.iter().map(|m| m.as_str()).collect();
        json_schema!({ "description": "A metric's name.", "type": "string", "enum": names })
    }
}
