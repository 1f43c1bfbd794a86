//! Pass rates of a run's tests grouped by a field of their records: difficulty, agent, Spider's
//! hardness of the expected query, database, dialect, tags, or any other field a record
//! carries (`metadata.db_id` reaches into an object). A field holding a list puts the test in
//! one group per element, so a test tagged `["join", "nested"]` counts in both.

use serde::Serialize;
use serde_json::Value;

use super::record::EvaluationRecord;
use crate::sql::{SqlDialect, hardness};

/// Tests and passes within one group (a difficulty, an agent).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Group {
    pub tests: usize,
    pub passed: usize,
}

impl Group {
    pub fn pass_rate(&self) -> f64 {
        if self.tests == 0 {
            0.0
        } else {
            self.passed as f64 / self.tests as f64
        }
    }
}

/// The fields a summary groups by when the records carry them, in the order they are shown.
pub(crate) const DEFAULT_FIELDS: [&str; 6] = [
    "difficulty",
    "agent_used",
    "sql_hardness",
    "db_id",
    "dialect",
    "tags",
];

/// The group of records that have no value for the field.
pub(crate) const NONE: &str = "(none)";

/// The tests of a run grouped by one field, groups in reading order (levels such as
/// easy < medium < hard < extra by rank, other values alphabetically, records without a value
/// last).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Grouping {
    pub field: String,
    pub groups: Vec<(String, Group)>,
}

impl Grouping {
    /// The field as a person reads it: `agent` for `agent_used`, `SQL hardness` for
    /// `sql_hardness`.
    pub fn label(&self) -> String {
        match self.field.as_str() {
            "agent_used" => "agent".into(),
            "sql_hardness" => "SQL hardness".into(),
            "db_id" => "database".into(),
            other => other.replace('_', " "),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|(n, _)| n == name).map(|(_, g)| g)
    }
}

/// Groups the scored records by `field`; unscored records are not counted.
pub(crate) fn group_by<'a>(
    records: impl IntoIterator<Item = &'a EvaluationRecord>,
    field: &str,
) -> Grouping {
    let mut groups: Vec<(String, Group)> = Vec::new();
    for record in records {
        let Some(passed) = record.passed() else {
            continue;
        };
        for value in field_values(record, field) {
            let index = match groups.iter().position(|(name, _)| *name == value) {
                Some(index) => index,
                None => {
                    groups.push((value, Group::default()));
                    groups.len() - 1
                }
            };
            let group = &mut groups[index].1;
            group.tests += 1;
            group.passed += usize::from(passed);
        }
    }
    groups.sort_by(|(a, _), (b, _)| reading_order(a, b));
    Grouping {
        field: field.to_string(),
        groups,
    }
}

/// The groupings of `DEFAULT_FIELDS` that at least one scored record has a value for, then
/// those of `extra_fields` (which are shown even when no record has them, so a misspelt field
/// shows as one `(none)` group rather than nothing).
pub(crate) fn groupings<'a, I>(records: I, extra_fields: &[String]) -> Vec<Grouping>
where
    I: IntoIterator<Item = &'a EvaluationRecord> + Clone,
{
    let mut out: Vec<Grouping> = DEFAULT_FIELDS
        .iter()
        .map(|field| group_by(records.clone(), field))
        .filter(|g| g.groups.iter().any(|(name, _)| name != NONE))
        .collect();
    for field in extra_fields {
        let field = canonical_field(field);
        if !out.iter().any(|g| g.field == field) {
            out.push(group_by(records.clone(), field));
        }
    }
    out
}

/// The record's field names for the words users type: `agent` is `agent_used`, `hardness` is
/// `sql_hardness`, `database` is `db_id`.
pub(crate) fn canonical_field(field: &str) -> &str {
    match field.trim() {
        "agent" => "agent_used",
        "hardness" => "sql_hardness",
        "database" => "db_id",
        other => other,
    }
}

/// The values of `field` in a record, as group names: one for a scalar, one per element for a
/// list, `(none)` when absent, null, blank or an empty list.
pub(crate) fn field_values(record: &EvaluationRecord, field: &str) -> Vec<String> {
    let field = canonical_field(field);
    let text = |value: Option<&str>| {
        value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let values: Vec<String> = match field {
        "difficulty" => text(record.difficulty.as_deref()).into_iter().collect(),
        "agent_used" => text(record.agent_used.as_deref()).into_iter().collect(),
        "sql_hardness" => text(record.sql_hardness.as_deref()).into_iter().collect(),
        "question" => text(Some(&record.question)).into_iter().collect(),
        _ => lookup(record, field).map(values_of).unwrap_or_default(),
    };
    if values.is_empty() {
        vec![NONE.to_string()]
    } else {
        values
    }
}

/// A field among the record's other fields; `a.b` reads field `b` of object `a`.
fn lookup<'a>(record: &'a EvaluationRecord, field: &str) -> Option<&'a Value> {
    if let Some(value) = record.extra.get(field) {
        return Some(value);
    }
    let mut parts = field.split('.');
    let mut value = record.extra.get(parts.next()?)?;
    for part in parts {
        value = value.get(part)?;
    }
    Some(value)
}

fn values_of(value: &Value) -> Vec<String> {
    let one = |value: &Value| match value {
        Value::Null => None,
        Value::String(text) => Some(text.trim().to_string()).filter(|t| !t.is_empty()),
        other => Some(other.to_string()),
    };
    match value {
        Value::Array(items) => {
            let mut out: Vec<String> = items.iter().filter_map(one).collect();
            out.sort();
            out.dedup();
            out
        }
        other => one(other).into_iter().collect(),
    }
}

/// Levels by rank (Spider's easy, medium, hard, extra; BIRD's simple, moderate, challenging),
/// then numbers by value, then other values alphabetically, then `(none)`.
fn reading_order(a: &str, b: &str) -> std::cmp::Ordering {
    let rank = |name: &str| match name.to_ascii_lowercase().as_str() {
        "easy" | "simple" => 0,
        "medium" | "moderate" => 1,
        "hard" | "challenging" => 2,
        "extra" | "extra hard" | "extra-hard" => 3,
        NONE => 6,
        other if other.parse::<f64>().is_ok() => 4,
        _ => 5,
    };
    rank(a)
        .cmp(&rank(b))
        .then_with(|| match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y),
            _ => a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()),
        })
}

/// Gives every SQL record without `sql_hardness` the level of its expected query (records
/// written by other tools, or before the field existed). Records whose expected query does not
/// parse keep none.
pub fn fill_hardness(records: &mut [EvaluationRecord], dialect: SqlDialect) {
    for record in records.iter_mut() {
        if record.sql_hardness.is_none()
            && let Some(sql) = &record.expected_sql
        {
            record.sql_hardness = hardness(sql, dialect).map(|h| h.name().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read::records_of as records;

    const PASS: &str = r#""qas_evaluation": {"semantic_score": 1, "execution_score": 1, "datatype_score": 1, "final_score": 1.0, "passed": true}"#;
    const FAIL: &str = r#""qas_evaluation": {"semantic_score": 0, "execution_score": 0, "datatype_score": 0, "final_score": 0.0, "passed": false}"#;

    #[test]
    fn difficulty_reads_easy_medium_hard_extra_and_none_last() {
        let text = [
            format!(r#"{{"test_id": 1, "difficulty": "extra", {PASS}}}"#),
            format!(r#"{{"test_id": 2, "difficulty": "easy", {FAIL}}}"#),
            format!(r#"{{"test_id": 3, "difficulty": "hard", {PASS}}}"#),
            format!(r#"{{"test_id": 4, "difficulty": "medium", {PASS}}}"#),
            format!(r#"{{"test_id": 5, {PASS}}}"#),
            format!(r#"{{"test_id": 6, "difficulty": "easy", {PASS}}}"#),
            r#"{"test_id": 7, "difficulty": "easy"}"#.to_string(),
        ]
        .join("\n");
        let grouping = group_by(&records(&text), "difficulty");
        let names: Vec<&str> = grouping.groups.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["easy", "medium", "hard", "extra", "(none)"]);
        assert_eq!(
            grouping.get("easy"),
            Some(&Group {
                tests: 2,
                passed: 1
            }),
            "the unscored test 7 is not counted"
        );
    }

    #[test]
    fn any_field_nested_fields_and_lists() {
        let text = [
            format!(r#"{{"test_id": 1, "tags": ["join", "nested"], "meta": {{"db_id": "shop"}}, {PASS}}}"#),
            format!(r#"{{"test_id": 2, "tags": ["join"], "meta": {{"db_id": "hr"}}, {FAIL}}}"#),
            format!(r#"{{"test_id": 3, "tags": [], {FAIL}}}"#),
        ]
        .join("\n");
        let records = records(&text);
        let tags = group_by(&records, "tags");
        assert_eq!(
            tags.get("join"),
            Some(&Group {
                tests: 2,
                passed: 1
            })
        );
        assert_eq!(
            tags.get("nested"),
            Some(&Group {
                tests: 1,
                passed: 1
            })
        );
        assert_eq!(
            tags.get(NONE),
            Some(&Group {
                tests: 1,
                passed: 0
            })
        );
        let db = group_by(&records, "meta.db_id");
        let names: Vec<&str> = db.groups.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["hr", "shop", "(none)"]);
    }

    #[test]
    fn default_groupings_skip_fields_no_record_has() {
        let text = format!(
            r#"{{"test_id": 1, "agent_used": "sql", "expected_sql": "SELECT a FROM t WHERE b = 1", {PASS}}}"#
        );
        let mut records = records(&text);
        fill_hardness(&mut records, SqlDialect::Generic);
        let fields: Vec<String> = groupings(&records, &["dialect".into()])
            .into_iter()
            .map(|g| g.field)
            .collect();
        assert_eq!(fields, ["agent_used", "sql_hardness", "dialect"]);
        assert_eq!(records[0].sql_hardness.as_deref(), Some("easy"));
    }
}
