//! Table accuracy: the Jaccard similarity of the tables a generated query reads and the tables
//! expected.

use serde::Serialize;

use crate::sql::TableName;

/// How two table names are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum TableMatch {
    /// On the table's own name: `sales.orders` matches `orders`.
    #[default]
    Name,
    /// On the full name as written: `sales.orders` matches only `sales.orders`.
    Qualified,
}

impl TableMatch {
    fn key(self, table: &TableName) -> String {
        match self {
            TableMatch::Name => table.name().to_string(),
            TableMatch::Qualified => table.qualified(),
        }
    }
}

/// The score and the sets it was computed from, as match keys (see [`TableMatch`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct TableAccuracy {
    pub score: f64,
    pub generated: Vec<String>,
    pub expected: Vec<String>,
    pub intersection: Vec<String>,
    pub union: Vec<String>,
}

impl TableAccuracy {
    /// One sentence saying how the score came about.
    pub fn explanation(&self) -> String {
        if self.union.is_empty() {
            return "Neither query reads a table".to_string();
        }
        let missing: Vec<&str> = self
            .expected
            .iter()
            .filter(|t| !self.generated.contains(t))
            .map(String::as_str)
            .collect();
        let extra: Vec<&str> = self
            .generated
            .iter()
            .filter(|t| !self.expected.contains(t))
            .map(String::as_str)
            .collect();
        let mut text = format!(
            "Intersection {} of union {}",
            self.intersection.len(),
            self.union.len()
        );
        if !missing.is_empty() {
            text.push_str(&format!("; missing: {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            text.push_str(&format!("; not expected: {}", extra.join(", ")));
        }
        text
    }
}

/// Computes |generated ∩ expected| / |generated ∪ expected|. When both sets are empty the queries
/// agree (neither reads a table) and the score is 1.0.
pub(crate) fn table_accuracy(
    generated: &[TableName],
    expected: &[TableName],
    matching: TableMatch,
) -> TableAccuracy {
    let generated = keys(generated, matching);
    let expected = keys(expected, matching);
    let intersection: Vec<String> = generated
        .iter()
        .filter(|t| expected.contains(t))
        .cloned()
        .collect();
    let mut union = generated.clone();
    union.extend(expected.iter().filter(|t| !generated.contains(t)).cloned());
    let score = if union.is_empty() {
        1.0
    } else {
        intersection.len() as f64 / union.len() as f64
    };
    TableAccuracy {
        score,
        generated,
        expected,
        intersection,
        union,
    }
}

fn keys(tables: &[TableName], matching: TableMatch) -> Vec<String> {
    let mut keys: Vec<String> = Vec::with_capacity(tables.len());
    for table in tables {
        let key = matching.key(table);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}
