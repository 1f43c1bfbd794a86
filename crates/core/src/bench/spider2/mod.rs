//! Spider 2.0-lite and -snow as `xlang-ai/Spider2`'s `evaluation_suite/evaluate.py` scores
//! them: the gold configuration (`spider2lite_eval.jsonl`), the instances' databases
//! (`spider2-lite.jsonl`), which gold CSVs an instance has (`resolve_gold_paths`), the SQL a
//! prediction file holds (`extract_sql_query`), one instance's score with the official error
//! kind (`evaluate_single_exec_result_instance`), and the lines the script prints. Reading a
//! CSV as pandas does is `read_csv`; the comparison is `compare`; the CSV `sql` mode writes from
//! a result is `write_csv`.

pub(crate) mod compare;
pub(crate) mod read_csv;
pub(crate) mod write_csv;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::BenchError;
pub(crate) use compare::RowRule;
use compare::{compare_multi, compare_table};
use read_csv::{CsvFrame, read_csv};

/// The size of Spider 2.0-lite, which the official script divides by for its "Real score"
/// (the -snow script too).
pub(crate) const REAL_TOTAL: usize = 547;

/// Which evaluator: `spider2-lite` or `spider2-snow`'s `evaluate.py`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    #[default]
    Lite,
    Snow,
}

impl Variant {
    pub fn parse(text: &str) -> Option<Variant> {
        match text {
            "lite" => Some(Variant::Lite),
            "snow" => Some(Variant::Snow),
            _ => None,
        }
    }

    /// The gold configuration's name in the gold folder.
    pub fn eval_file(self) -> &'static str {
        match self {
            Variant::Lite => "spider2lite_eval.jsonl",
            Variant::Snow => "spider2snow_eval.jsonl",
        }
    }

    /// The instance file's name (`spider2-lite.jsonl`) and its key for the database.
    pub fn instances_file(self) -> &'static str {
        match self {
            Variant::Lite => "spider2-lite.jsonl",
            Variant::Snow => "spider2-snow.jsonl",
        }
    }

    fn database_key(self) -> &'static str {
        match self {
            Variant::Lite => "db",
            Variant::Snow => "db_id",
        }
    }
}

/// `--mode`: predicted CSVs compared directly, or predicted SQL run first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PredictionForm {
    #[default]
    ExecResult,
    Sql,
}

impl PredictionForm {
    pub fn parse(text: &str) -> Option<PredictionForm> {
        match text {
            "exec_result" | "exec-result" => Some(PredictionForm::ExecResult),
            "sql" => Some(PredictionForm::Sql),
            _ => None,
        }
    }

    /// The extension of a prediction file.
    pub fn extension(self) -> &'static str {
        match self {
            PredictionForm::ExecResult => "csv",
            PredictionForm::Sql => "sql",
        }
    }
}

/// An instance's line of the gold configuration: its keys as the script reads them
/// (`standard.get("condition_cols")`, `standard.get("ignore_order", False)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Standard {
    pub condition_cols: Option<Json>,
    pub ignore_order: Option<Json>,
}

impl Standard {
    /// Python's truthiness of `ignore_order` (absent: `False`).
    pub fn ignores_order(&self) -> bool {
        self.ignore_order.as_ref().is_some_and(compare::truthy)
    }
}

type JsonObject = serde_json::Map<String, Json>;

/// `load_jsonl_to_dict`: one JSON object per line keyed by `instance_id`, a later line
/// replacing an earlier one. The official script stops on a blank or unreadable line; here
/// the error names it.
fn read_jsonl(text: &str, file: &str) -> Result<Vec<(String, JsonObject)>, BenchError> {
    let mut entries = Vec::new();
    for (index, line) in super::lines(text).enumerate() {
        let line_number = index + 1;
        let object: JsonObject = serde_json::from_str(line.trim())
            .map_err(|err| {
                BenchError::at_line(
                    line_number,
                    format!("{file}: {err} (each line is one JSON object with an instance_id; the official script stops here)"),
                )
            })?;
        let Some(Json::String(id)) = object.get("instance_id") else {
            return Err(BenchError::at_line(
                line_number,
                format!("{file}: no instance_id text"),
            ));
        };
        entries.push((id.clone(), object));
    }
    Ok(entries)
}

/// The gold configuration (`spider2lite_eval.jsonl` or `spider2snow_eval.jsonl`).
pub fn read_standards(
    text: &str,
    variant: Variant,
) -> Result<BTreeMap<String, Standard>, BenchError> {
    Ok(read_jsonl(text, variant.eval_file())?
        .into_iter()
        .map(|(id, object)| {
            let standard = Standard {
                condition_cols: object.get("condition_cols").cloned(),
                ignore_order: object.get("ignore_order").cloned(),
            };
            (id, standard)
        })
        .collect())
}

/// The instance file (`spider2-lite.jsonl`): each instance's database name, when it has one.
pub fn read_instances(
    text: &str,
    variant: Variant,
) -> Result<BTreeMap<String, Option<String>>, BenchError> {
    Ok(read_jsonl(text, variant.instances_file())?
        .into_iter()
        .map(|(id, object)| {
            let db = match object.get(variant.database_key()) {
                Some(Json::String(db)) => Some(db.clone()),
                _ => None,
            };
            (id, db)
        })
        .collect())
}

/// An instance's gold CSVs (`resolve_gold_paths`): `<id>.csv` when it exists (`single`), else
/// every `<id>_x.csv` with `x` one lowercase ASCII letter, in name order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoldFiles {
    pub names: Vec<String>,
    pub single: bool,
}

pub fn gold_files(id: &str, listing: &[String]) -> GoldFiles {
    let base = format!("{id}.csv");
    if listing.contains(&base) {
        return GoldFiles {
            names: vec![base],
            single: true,
        };
    }
    let mut names: Vec<String> = listing
        .iter()
        .filter(|name| {
            name.strip_prefix(id)
                .and_then(|rest| rest.strip_suffix(".csv"))
                .is_some_and(|middle| {
                    middle.len() == 2
                        && middle.starts_with('_')
                        && middle.as_bytes()[1].is_ascii_lowercase()
                })
        })
        .cloned()
        .collect();
    names.sort();
    GoldFiles {
        names,
        single: false,
    }
}

/// `extract_sql_query`: the first ```` ```sql ```` block's text, stripped, or the whole text.
pub(crate) fn extract_sql(text: &str) -> &str {
    let Some(start) = text.find("```sql\n") else {
        return text;
    };
    let body = &text[start + "```sql\n".len()..];
    match body.find("\n```") {
        Some(end) => body[..end].trim(),
        None => text,
    }
}

/// Where `sql` mode runs an instance's query, by its id's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Destination {
    /// `local…`: the local SQLite database (Lite only).
    Sqlite,
    /// `bq…`, `ga…`: Google BigQuery (Lite).
    BigQuery,
    /// `sf…`: Snowflake (Snow).
    Snowflake,
    /// Any other prefix: Lite scores it 0 ("Unsupported instance id prefix"); Snow stops with
    /// an error.
    Unsupported,
}

impl Destination {
    pub(crate) fn of(id: &str, variant: Variant) -> Destination {
        match variant {
            Variant::Lite if id.starts_with("bq") || id.starts_with("ga") => Destination::BigQuery,
            Variant::Lite if id.starts_with("local") => Destination::Sqlite,
            Variant::Snow if id.starts_with("sf") => Destination::Snowflake,
            _ => Destination::Unsupported,
        }
    }
}

/// The official `error_info` of a score, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The comparison gave 0.
    ResultError,
    NoGold,
    /// Reading a gold CSV or comparing raised.
    PythonScriptError,
    /// Reading the predicted CSV raised.
    EvaluationError,
    /// `sql` mode: the query failed (the database's message).
    ExecutionError,
    /// `sql` mode: a local instance without a database in the instance file.
    MissingDatabaseMapping,
    /// `sql` mode, Lite: an id that is not `bq`, `ga` or `local`.
    UnsupportedPrefix,
}

impl ErrorKind {
    /// The kind as the official `error_info` begins (records and summaries name it so).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::ResultError => "Result Error",
            ErrorKind::NoGold => "No matching gold file found",
            ErrorKind::PythonScriptError => "Python Script Error",
            ErrorKind::EvaluationError => "Evaluation Error",
            ErrorKind::ExecutionError => "Execution Error",
            ErrorKind::MissingDatabaseMapping => "Missing database mapping",
            ErrorKind::UnsupportedPrefix => "Unsupported instance id prefix",
        }
    }
}

impl Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// An instance's official score and, when 0, its `error_info` as the script builds it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InstanceScore {
    pub score: u8,
    pub error_kind: Option<ErrorKind>,
    pub error_info: Option<String>,
}

impl InstanceScore {
    pub fn pass() -> InstanceScore {
        InstanceScore {
            score: 1,
            error_kind: None,
            error_info: None,
        }
    }

    pub fn fail(kind: ErrorKind, info: impl Into<String>) -> InstanceScore {
        InstanceScore {
            score: 0,
            error_kind: Some(kind),
            error_info: Some(info.into()),
        }
    }
}

/// A gold CSV's bytes, or why it could not be read.
pub(crate) type FileBytes = Result<Vec<u8>, String>;

/// `evaluate_single_exec_result_instance` (and the comparison half of
/// `evaluate_single_sql_instance`): the predicted CSV read, the gold CSVs read, compared.
/// `rows` is the official `RowRule::ByColumn`, or qeval's strict `RowRule::Whole`.
pub(crate) fn score_csv(
    predicted: &FileBytes,
    golds: &[FileBytes],
    single: bool,
    standard: &Standard,
    variant: Variant,
    rows: RowRule,
) -> InstanceScore {
    let pred = match predicted {
        Ok(bytes) => match read_csv(bytes) {
            Ok(frame) => frame,
            Err(err) => {
                return InstanceScore::fail(
                    ErrorKind::EvaluationError,
                    format!("Evaluation Error: {err}"),
                );
            }
        },
        Err(err) => {
            return InstanceScore::fail(
                ErrorKind::EvaluationError,
                format!("Evaluation Error: {err}"),
            );
        }
    };
    if golds.is_empty() {
        return InstanceScore::fail(ErrorKind::NoGold, "No matching gold file found");
    }
    let script_error = |message: String| {
        InstanceScore::fail(
            ErrorKind::PythonScriptError,
            format!("Python Script Error:{message}"),
        )
    };
    let mut frames: Vec<CsvFrame> = Vec::with_capacity(golds.len());
    for gold in golds {
        match gold
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|b| read_csv(b).map_err(|e| e.0))
        {
            Ok(frame) => frames.push(frame),
            Err(message) => return script_error(message),
        }
    }
    // -snow reads `eval_standard_dict.get(id)['condition_cols']` (then `['ignore_order']`)
    // inside the comparison's `try`: a missing key is a KeyError there.
    if variant == Variant::Snow {
        if standard.condition_cols.is_none() {
            return script_error("'condition_cols'".into());
        }
        if standard.ignore_order.is_none() {
            return script_error("'ignore_order'".into());
        }
    }
    let condition_cols = standard.condition_cols.clone().unwrap_or(Json::Null);
    let ignore_order = standard.ignores_order();
    let compared = if single {
        compare_table(
            &pred,
            &frames[0],
            &condition_cols,
            ignore_order,
            variant,
            rows,
        )
    } else {
        compare_multi(&pred, &frames, &condition_cols, ignore_order, variant, rows)
    };
    match compared {
        Ok(true) => InstanceScore::pass(),
        Ok(false) => InstanceScore::fail(ErrorKind::ResultError, "Result Error"),
        Err(raised) => script_error(raised.0),
    }
}

/// What the script prints after scoring (`evaluate_spider2sql`): the scores as a Python dict,
/// "Final score" over the instances scored, "Real score" over all 547.
pub(crate) fn score_lines(scores: &[(String, u8)]) -> String {
    if scores.is_empty() {
        return "No overlapping prediction IDs with gold set. Nothing to evaluate.\n".into();
    }
    let items: Vec<String> = scores
        .iter()
        .map(|(id, score)| format!("{}: {score}", python_str_repr(id)))
        .collect();
    let correct: usize = scores.iter().map(|(_, s)| usize::from(*s)).sum();
    let total = scores.len();
    let ratio = |n: usize, d: usize| crate::results::python::float_repr(n as f64 / d as f64);
    format!(
        "{{{}}}\nFinal score: {}, Correct examples: {correct}, Total examples: {total}\nReal score: {}, Correct examples: {correct}, Total examples: {REAL_TOTAL}\n",
        items.join(", "),
        ratio(correct, total),
        ratio(correct, REAL_TOTAL),
    )
}

/// `save_correct_ids_to_csv`: the ids scored 1, `bq`, `ga` and `local` ids written `sf_<id>`.
pub fn correct_ids_csv(scores: &[(String, u8)]) -> String {
    let mut text = String::from("instance_id\n");
    for (id, _) in scores.iter().filter(|(_, s)| *s == 1) {
        if ["bq", "ga", "local"].iter().any(|p| id.starts_with(p)) {
            text.push_str("sf_");
        }
        text.push_str(id);
        text.push('\n');
    }
    text
}

/// Python's `repr` of a text (quotes chosen as Python chooses them).
fn python_str_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_files_are_the_base_or_lettered_ones() {
        let listing: Vec<String> = [
            "bq005_a.csv",
            "bq005_aa.csv",
            "bq005_1.csv",
            "bq005-b.csv",
            "bq005_b.csv",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            gold_files("bq005", &listing).names,
            ["bq005_a.csv", "bq005_b.csv"]
        );
        let with_base = [listing, vec!["bq005.csv".to_string()]].concat();
        assert!(gold_files("bq005", &with_base).single);
    }

    #[test]
    fn sql_is_taken_from_a_fenced_block() {
        assert_eq!(extract_sql("x\n```sql\n SELECT 1 \n```\n"), "SELECT 1");
        assert_eq!(extract_sql("SELECT 2;\n"), "SELECT 2;\n");
    }

    #[test]
    fn printed_lines_are_the_scripts() {
        let scores = vec![("bq001".to_string(), 1), ("local002".to_string(), 0)];
        assert_eq!(
            score_lines(&scores),
            "{'bq001': 1, 'local002': 0}\nFinal score: 0.5, Correct examples: 1, Total examples: 2\nReal score: 0.0018281535648994515, Correct examples: 1, Total examples: 547\n"
        );
        assert_eq!(correct_ids_csv(&scores), "instance_id\nsf_bq001\n");
    }
}
