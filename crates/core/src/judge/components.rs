//! What the structural judges compare, and how the parts add up to a verdict.

use serde::Serialize;

use super::Judgement;

/// One aspect of a query, compared between the two.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Component {
    pub name: &'static str,
    pub weight: f64,
    /// Agreement in 0..=1.
    pub agreement: f64,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

/// The features of both queries, component by component.
#[derive(Debug, Default)]
pub(crate) struct Components {
    parts: Vec<Component>,
}

/// Weights: which table is read matters most, then the filters, the output, the grouping, and
/// last the ordering and limits.
pub(crate) const TABLES: f64 = 0.30;
pub(crate) const OUTPUT: f64 = 0.20;
pub(crate) const FILTERS: f64 = 0.25;
pub(crate) const GROUPING: f64 = 0.15;
pub(crate) const ORDERING: f64 = 0.10;

impl Components {
    /// Compares two sets of features by Jaccard similarity (both empty agree fully).
    pub(crate) fn set(
        &mut self,
        name: &'static str,
        weight: f64,
        expected: &[String],
        generated: &[String],
    ) {
        let missing: Vec<String> = expected
            .iter()
            .filter(|e| !generated.contains(e))
            .cloned()
            .collect();
        let extra: Vec<String> = generated
            .iter()
            .filter(|g| !expected.contains(g))
            .cloned()
            .collect();
        let shared = expected.iter().filter(|e| generated.contains(e)).count();
        let union = shared + missing.len() + extra.len();
        let agreement = if union == 0 {
            1.0
        } else {
            shared as f64 / union as f64
        };
        self.parts.push(Component {
            name,
            weight,
            agreement,
            missing,
            extra,
        });
    }

    /// Compares two sequences: equal agrees fully, the same items in another order half.
    pub(crate) fn sequence(
        &mut self,
        name: &'static str,
        weight: f64,
        expected: &[String],
        generated: &[String],
    ) {
        if expected == generated {
            self.parts.push(Component {
                name,
                weight,
                agreement: 1.0,
                missing: Vec::new(),
                extra: Vec::new(),
            });
            return;
        }
        self.set(name, weight, expected, generated);
        if let Some(last) = self.parts.last_mut()
            && last.agreement == 1.0
        {
            last.agreement = 0.5;
            last.missing
                .push(format!("the order {}", expected.join(", ")));
        }
    }

    pub(crate) fn agreement(&self, name: &str) -> f64 {
        self.parts
            .iter()
            .find(|p| p.name == name)
            .map_or(1.0, |p| p.agreement)
    }

    /// Adds the parts up: similarity is the weighted mean agreement; no shared table is wrong
    /// (0.0), full agreement is equivalent (1.0), anything else partially correct (0.5), or
    /// wrong when under a third.
    pub(crate) fn judge(self, tables: &str) -> Judgement {
        let total: f64 = self.parts.iter().map(|p| p.weight).sum();
        let similarity = if total == 0.0 {
            1.0
        } else {
            self.parts
                .iter()
                .map(|p| p.weight * p.agreement)
                .sum::<f64>()
                / total
        };
        let mut differences = Vec::new();
        for part in &self.parts {
            for item in &part.missing {
                differences.push(format!("missing {}: {item}", singular(part.name)));
            }
            for item in &part.extra {
                differences.push(format!("extra {}: {item}", singular(part.name)));
            }
        }
        let wrong_table = self.agreement(tables) == 0.0;
        let (verdict, similarity, reasoning) = if wrong_table {
            (0.0, 0.0, "Query accesses wrong table".to_string())
        } else if similarity >= 1.0 - 1e-12 {
            (
                1.0,
                1.0,
                "Semantically equivalent despite different syntax".to_string(),
            )
        } else if similarity < 1.0 / 3.0 {
            (
                0.0,
                similarity,
                format!("Largely different query: {}", summary(&differences)),
            )
        } else {
            let what = if self.agreement(tables) == 1.0 {
                "Correct table"
            } else {
                "Partly correct tables"
            };
            (
                0.5,
                similarity,
                format!("{what}, but {}", summary(&differences)),
            )
        };
        Judgement {
            similarity,
            verdict,
            reasoning,
            differences,
            components: self.parts,
        }
    }
}

fn singular(name: &str) -> &str {
    name.strip_suffix('s').unwrap_or(name)
}

fn summary(differences: &[String]) -> String {
    match differences {
        [] => "differs".to_string(),
        [only] => only.clone(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}
