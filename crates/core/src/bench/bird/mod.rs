//! BIRD (dev and mini-dev) as `bird-bench/mini_dev`'s evaluation scripts score it: the files
//! (here), the printed table and log (`table`), and the timed reward of R-VES (`ves`).
//!
//! Reproduced from `evaluation_utils.package_sqls`:
//! - a prediction is a string `SQL\t----- bird -----\tdb_id`; the SQL is what comes before the
//!   separator (not stripped). A string without the separator is the whole string, stripped;
//!   anything that is not a string is the query `" "`, which returns no rows (Python's
//!   `sqlite3` runs an empty statement as an empty result);
//! - a gold line is stripped and split at tabs into exactly `SQL` and `db_id`; the database is
//!   `<db_root><db_id>/<db_id>.sqlite`;
//! - the difficulty file is read by position (`compute_acc_by_diff`): its `i`-th entry's
//!   `difficulty` (`simple`, `moderate`, `challenging`) is the `i`-th question's.
//!
//! Not reproduced, on purpose: BIRD pairs predictions with golds by their place in the file
//! (`zip`, which also drops the longer side's extra lines silently). Here a prediction's key is
//! its question's index: a file written with sorted keys (`"0", "1", "10", "100", ...`) is
//! scored right, and [`BirdPredictions::misplaced`] says how many predictions the official
//! script would have paired with another question's gold. Different counts are an error.

pub(crate) mod table;
pub(crate) mod ves;

pub(crate) use table::{BirdLevels, BirdMetric, bird_log, bird_table};

use serde_json::Value;

use super::BenchError;

/// `meta_time_out`'s default: the seconds BIRD gives a prediction and its gold together.
pub const TIMEOUT_SECONDS: f64 = 30.0;

/// The separator between a prediction's SQL and its `db_id`.
pub(crate) const SEPARATOR: &str = "\t----- bird -----\t";

/// One prediction of the predictions file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BirdPrediction {
    /// The question it answers: its key as a number.
    pub index: usize,
    /// Its key as written.
    pub key: String,
    /// The query that runs.
    pub sql: String,
    /// The `db_id` written after the separator, when there is one.
    pub db_id: Option<String>,
}

/// A predictions file, by question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BirdPredictions {
    /// In question order (`by_question[i].index == i`).
    pub by_question: Vec<BirdPrediction>,
    /// For each place in the file, the question whose prediction stands there.
    pub file_order: Vec<usize>,
}

impl BirdPredictions {
    /// Predictions whose place in the file is not their key: the official script would have
    /// scored each of them against the gold at its place, another question's.
    pub fn misplaced(&self) -> usize {
        self.file_order
            .iter()
            .enumerate()
            .filter(|(place, question)| place != *question)
            .count()
    }
}

/// One line of the gold file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BirdGold {
    pub sql: String,
    pub db_id: String,
}

/// The SQL of one prediction value, as `package_sqls` takes it.
pub(crate) fn prediction_sql(value: &Value) -> (String, Option<String>) {
    match value {
        Value::String(text) => match text.split_once(SEPARATOR) {
            // `sql, db_name = sql_str.split(...)` unpacks exactly two parts.
            Some((sql, db_id)) if !db_id.contains(SEPARATOR) => {
                (sql.to_string(), Some(db_id.to_string()))
            }
            _ => (strip(text).to_string(), None),
        },
        _ => (" ".to_string(), None),
    }
}

/// Python's `str.strip()`.
fn strip(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// The predictions file (a JSON object from question index to prediction), checked against
/// the number of golds.
pub fn read_predictions(text: &str, golds: usize) -> Result<BirdPredictions, BenchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text).map_err(|err| {
        BenchError::at_line(
            err.line(),
            format!("not JSON: {err} (a BIRD predictions file is one object: {{\"0\": \"SQL\\t----- bird -----\\tdb_id\", ...}})"),
        )
    })?;
    let Value::Object(map) = value else {
        return Err(BenchError::new(format!(
            "a BIRD predictions file is one JSON object from question index to prediction, not {}",
            crate::words::json_kind(&value)
        )));
    };
    if map.len() != golds {
        return Err(BenchError::new(format!(
            "{} in the predictions file for {} in the gold file: they must be as many (BIRD's script would pair the first {} by position and say nothing of the rest)",
            crate::words::counted(map.len(), "prediction"),
            crate::words::counted(golds, "gold line"),
            map.len().min(golds)
        )));
    }
    let mut slots: Vec<Option<BirdPrediction>> = vec![None; golds];
    let mut file_order = Vec::with_capacity(map.len());
    for (key, value) in &map {
        let index = key
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|i| *i < golds)
            .ok_or_else(|| {
                BenchError::new(format!(
                    "prediction key {key:?} is not a question index from 0 to {}",
                    golds.saturating_sub(1)
                ))
            })?;
        if slots[index].is_some() {
            return Err(BenchError::new(format!(
                "prediction keys {key:?} and another both name question {index}"
            )));
        }
        let (sql, db_id) = prediction_sql(value);
        slots[index] = Some(BirdPrediction {
            index,
            key: key.clone(),
            sql,
            db_id,
        });
        file_order.push(index);
    }
    // As many keys as golds, each a distinct index below their number: every slot is filled.
    let by_question = slots.into_iter().flatten().collect();
    Ok(BirdPredictions {
        by_question,
        file_order,
    })
}

/// The gold file: `SQL<TAB>db_id` per line. Blank lines at the end are let be (BIRD's script
/// stops on them); a blank line before a gold would shift every question after it, and is an
/// error.
pub fn read_gold(text: &str) -> Result<Vec<BirdGold>, BenchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<&str> = super::lines(text).collect();
    while lines.last().is_some_and(|line| strip(line).is_empty()) {
        lines.pop();
    }
    lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let fields: Vec<&str> = strip(line).split('\t').collect();
            match fields.as_slice() {
                [sql, db_id] => Ok(BirdGold {
                    sql: (*sql).to_string(),
                    db_id: (*db_id).to_string(),
                }),
                _ => Err(BenchError::at_line(
                    index + 1,
                    format!(
                        "a gold line is `SQL<TAB>db_id`; this one has {} tab-separated field{} (BIRD's script stops here)",
                        fields.len(),
                        crate::words::plural(fields.len())
                    ),
                )),
            }
        })
        .collect()
}

/// BIRD's three levels.
pub(crate) const DIFFICULTIES: [&str; 3] = ["simple", "moderate", "challenging"];

/// One entry of the difficulty file: the question's level and, when the entry carries them,
/// its `db_id` (checked against the gold's) and its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuestionEntry {
    pub difficulty: Option<String>,
    pub db_id: Option<String>,
    pub question: Option<String>,
}

/// The difficulty file's entries in order. A JSON array (BIRD dev's `dev.json`) or JSON Lines
/// (mini-dev's `mini_dev_sqlite.jsonl`).
pub fn read_difficulties(text: &str) -> Result<Vec<QuestionEntry>, BenchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let entry = |value: &Value| {
        let field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_string);
        QuestionEntry {
            difficulty: field("difficulty"),
            db_id: field("db_id"),
            question: field("question"),
        }
    };
    if text.trim_start().starts_with('[') {
        let value: Value = serde_json::from_str(text)
            .map_err(|err| BenchError::at_line(err.line(), format!("not JSON: {err}")))?;
        return match value {
            Value::Array(items) => Ok(items.iter().map(entry).collect()),
            _ => Err(BenchError::new(
                "the difficulty file is neither a JSON array nor JSON Lines",
            )),
        };
    }
    super::lines(text)
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str::<Value>(line)
                .map(|value| entry(&value))
                .map_err(|err| BenchError::at_line(index + 1, format!("not JSON: {err}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predictions_are_matched_by_key_not_place() {
        let text = r#"{"0": "SELECT 0\t----- bird -----\tdb", "2": "SELECT 2\t----- bird -----\tdb", "1": " SELECT 1 "}"#;
        let read = read_predictions(text, 3).unwrap();
        let sqls: Vec<&str> = read.by_question.iter().map(|p| p.sql.as_str()).collect();
        assert_eq!(sqls, ["SELECT 0", "SELECT 1", "SELECT 2"]);
        assert_eq!(read.by_question[1].db_id, None);
        assert_eq!(read.misplaced(), 2);
    }

    #[test]
    fn wrong_counts_and_keys_are_errors() {
        let err = read_predictions(r#"{"0": "a"}"#, 2).unwrap_err();
        assert!(
            err.message
                .contains("1 prediction in the predictions file for 2 gold lines")
        );
        let err = read_predictions(r#"{"0": "a", "x": "b"}"#, 2).unwrap_err();
        assert!(err.message.contains("\"x\""));
        assert_eq!(prediction_sql(&Value::Null).0, " ");
    }

    #[test]
    fn gold_lines_and_difficulties() {
        let gold = read_gold("SELECT 1\tdb1\nSELECT 2\tdb2").unwrap();
        assert_eq!(gold[1].db_id, "db2");
        assert_eq!(read_gold("SELECT 1\tdb1\n\n").unwrap().len(), 1);
        assert_eq!(
            read_gold("SELECT 1\tdb1\n\nSELECT 2\tdb2")
                .unwrap_err()
                .line,
            Some(2)
        );
        let levels = read_difficulties(
            "{\"difficulty\": \"simple\"}\n{\"difficulty\": \"challenging\", \"db_id\": \"x\"}\n",
        )
        .unwrap();
        assert_eq!(levels[1].difficulty.as_deref(), Some("challenging"));
        assert_eq!(levels[1].db_id.as_deref(), Some("x"));
        let levels = read_difficulties("[{\"difficulty\": \"moderate\"}]").unwrap();
        assert_eq!(levels[0].difficulty.as_deref(), Some("moderate"));
    }
}
