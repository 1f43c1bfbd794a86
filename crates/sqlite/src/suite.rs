//! Test-suite checking (the method of Zhong et al.'s Spider test-suite evaluation): two queries
//! that agree on one database may still differ. Generate more databases with the same schema,
//! filled with values that tend to tell queries apart (the columns' own values, the literals of
//! both queries and their neighbours, NULLs, duplicates, empty tables), run both queries on each,
//! and call them equivalent only if they agree on all. Seeded: the same seed gives the same
//! databases.

use std::collections::BTreeSet;

use qeval_core::results::compare::{CompareOptions, Mode, compare, order_matters_for};
use qeval_core::results::read_result;
use qeval_core::scorecard::{Metric, MetricError};
use serde::Serialize;
use serde_json::{Value, json};

use crate::database::{Database, Limits};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuiteOptions {
    /// Databases to generate.
    pub databases: usize,
    pub seed: u64,
    /// Rows per table, at most.
    pub max_rows: usize,
}

impl Default for SuiteOptions {
    fn default() -> Self {
        SuiteOptions {
            databases: 20,
            seed: 1,
            max_rows: 8,
        }
    }
}

/// The first generated database on which the two queries disagree, with what each gave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// 1-based, in generation order.
    pub database: usize,
    pub expected: Value,
    pub generated: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuiteReport {
    pub databases: usize,
    pub agreed: usize,
    pub seed: u64,
    pub first_difference: Option<Difference>,
}

impl SuiteReport {
    pub fn equivalent(&self) -> bool {
        self.agreed == self.databases
    }

    pub fn explanation(&self) -> String {
        match &self.first_difference {
            None => format!(
                "Equivalent on {} of {} generated databases (seed {})",
                self.agreed, self.databases, self.seed
            ),
            Some(d) => format!(
                "Agree on {} of {} generated databases (seed {}); first difference on database {}",
                self.agreed, self.databases, self.seed, d.database
            ),
        }
    }

    /// As a scorecard metric: 1.0 when equivalent on every database, else 0.0 (Spider's
    /// test-suite accuracy is all or nothing).
    pub fn metric(&self) -> Metric {
        let equivalent = self.equivalent();
        Metric {
            score: Some(if equivalent { 1.0 } else { 0.0 }),
            passed: Some(equivalent),
            explanation: self.explanation(),
            details: serde_json::to_value(self).unwrap_or_default(),
            error: None,
        }
    }
}

/// A small, seeded generator (splitmix64): the same seed, the same databases, everywhere.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// Literals in a query: quoted strings and numbers, as SQL text.
fn literals(sql: &str) -> Vec<String> {
    let mut found = Vec::new();
    let chars: Vec<char> = sql.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut j = i + 1;
            let mut text = String::new();
            while j < chars.len() {
                if chars[j] == '\'' {
                    if chars.get(j + 1) == Some(&'\'') {
                        text.push('\'');
                        j += 2;
                        continue;
                    }
                    break;
                }
                text.push(chars[j]);
                j += 1;
            }
            found.push(format!("'{}'", text.replace('\'', "''")));
            i = j + 1;
        } else if c.is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let number: String = chars[i..j].iter().collect();
            if let Ok(x) = number.parse::<f64>() {
                found.push(number.clone());
                // Neighbours catch `<` against `<=` and off-by-one limits.
                found.push(format_number(x - 1.0));
                found.push(format_number(x + 1.0));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

fn format_number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn sql_literal(value: &Value) -> String {
    match value {
        Value::Null => "NULL".into(),
        Value::Bool(b) => u8::from(*b).to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("'{}'", s.replace('\'', "''")),
        other => format!("'{}'", other.to_string().replace('\'', "''")),
    }
}

fn numeric(kind: &str) -> bool {
    let kind = kind.to_ascii_uppercase();
    ["INT", "REAL", "FLOA", "DOUB", "NUM", "DEC"]
        .iter()
        .any(|k| kind.contains(k))
}

/// The `test_suite` metric of two queries: [`test_suite`]'s verdict, or 0.0 with the reason the
/// databases could not be built.
pub fn suite_metric(
    db: &mut Database,
    expected: &str,
    generated: &str,
    options: &SuiteOptions,
    limits: &Limits,
) -> Metric {
    match test_suite(db, expected, generated, options, limits) {
        Ok(report) => report.metric(),
        Err(err) => Metric::failed(MetricError {
            metric: "test_suite".into(),
            message: format!("the test-suite databases could not be built: {err}"),
            inputs: Default::default(),
            at: None,
        }),
    }
}

/// Runs both queries on `options.databases` generated databases shaped like `db`.
pub fn test_suite(
    db: &mut Database,
    expected: &str,
    generated: &str,
    options: &SuiteOptions,
    limits: &Limits,
) -> Result<SuiteReport, String> {
    let mut random = Random(options.seed);
    let query_literals: Vec<String> = literals(expected)
        .into_iter()
        .chain(literals(generated))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // Each column's pool: its own values, the queries' literals of a fitting kind, edge cases.
    let mut pools = Vec::new();
    for table in db.tables().to_vec() {
        let mut columns = Vec::new();
        for column in &table.columns {
            let sample = db
                .query(
                    &format!(
                        "SELECT DISTINCT \"{}\" FROM \"{}\" LIMIT 25",
                        column.name.replace('"', "\"\""),
                        table.name.replace('"', "\"\"")
                    ),
                    limits,
                )
                .map(|out| {
                    out.rows
                        .into_iter()
                        .filter_map(|r| r.into_iter().next())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            let mut pool: Vec<String> = sample.iter().map(sql_literal).collect();
            let is_number = numeric(&column.kind);
            pool.extend(
                query_literals
                    .iter()
                    .filter(|l| l.starts_with('\'') != is_number)
                    .cloned(),
            );
            if is_number {
                pool.extend(["0", "1", "2", "-1"].map(String::from));
            } else {
                pool.extend(["''".to_string(), "'x'".to_string()]);
            }
            if !column.not_null {
                pool.push("NULL".into());
            }
            columns.push(pool);
        }
        pools.push((table, columns));
    }
    let schema = db.schema_sql().to_vec();
    let compare_options = CompareOptions {
        mode: Mode::Bag,
        order_matters: order_matters_for(Some(expected)),
        ..CompareOptions::default()
    };
    let mut report = SuiteReport {
        databases: options.databases,
        agreed: 0,
        seed: options.seed,
        first_difference: None,
    };
    for index in 1..=options.databases {
        // Foreign keys are not enforced: values are drawn from the referenced columns' own
        // values, so joins still meet, and a dangling key is one more case that tells queries
        // apart.
        let mut script = String::from("PRAGMA foreign_keys = OFF;\n");
        script.push_str(&schema.join(";\n"));
        script.push_str(";\n");
        for (table, columns) in &pools {
            // Every fifth database leaves a table empty; the others get 1..=max_rows rows.
            let rows = if random.below(5) == 0 {
                0
            } else {
                1 + random.below(options.max_rows)
            };
            for _ in 0..rows {
                let values: Vec<String> = columns
                    .iter()
                    .map(|pool| random.pick(pool).cloned().unwrap_or_else(|| "NULL".into()))
                    .collect();
                script.push_str(&format!(
                    "INSERT OR IGNORE INTO \"{}\" VALUES ({});\n",
                    table.name.replace('"', "\"\""),
                    values.join(", ")
                ));
            }
        }
        let mut generated_db = Database::from_script(&script).map_err(|e| e.to_string())?;
        let run = |db: &mut Database, sql: &str| match db.query(sql, limits) {
            Ok(out) => Ok(out.to_json()),
            Err(err) => Err(err.to_string()),
        };
        let a = run(&mut generated_db, expected);
        let b = run(&mut generated_db, generated);
        let same = match (&a, &b) {
            (Ok(x), Ok(y)) => match (read_result(x), read_result(y)) {
                (Ok(x), Ok(y)) => compare(&x, &y, &compare_options).equal,
                _ => false,
            },
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if same {
            report.agreed += 1;
        } else if report.first_difference.is_none() {
            let shown = |r: Result<Value, String>| r.unwrap_or_else(|e| json!({ "error": e }));
            report.first_difference = Some(Difference {
                database: index,
                expected: shown(a),
                generated: shown(b),
            });
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_their_neighbours() {
        assert_eq!(
            literals("SELECT * FROM t WHERE a > 10 AND b = 'it''s' AND c2 = 3"),
            ["10", "9", "11", "'it''s'", "3", "2", "4"]
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let (mut a, mut b) = (Random(7), Random(7));
        assert_eq!((a.next(), a.next()), (b.next(), b.next()));
        assert_ne!(Random(7).next(), Random(8).next());
    }
}
