//! Spider, SParC and CoSQL as `taoyds/test-suite-sql-eval`'s `evaluation.py --etype exec`
//! scores them: the gold and prediction files (`files`), the text rules applied to each query
//! before it runs (here), the values `--plug_value` plugs in (`plug`), sqlparse's tokens those
//! rules read (`tokens`) and the printed table (`table`).

pub(crate) mod exact;
pub(crate) mod files;
pub(crate) mod plug;
pub(crate) mod table;
pub(crate) mod ties;
pub(crate) mod tokens;

pub(crate) use files::SpiderFiles;
pub(crate) use table::{SpiderLevel, SpiderScores, spider_table};

/// `--etype`: what `evaluation.py` scores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Etype {
    /// Execution accuracy (one database per `db_id`) or test-suite accuracy (several).
    #[default]
    Exec,
    /// Exact set match, from `tables.json`.
    Match,
    /// Both.
    All,
}

impl Etype {
    pub fn parse(text: &str) -> Option<Etype> {
        match text {
            "exec" => Some(Etype::Exec),
            "match" => Some(Etype::Match),
            "all" => Some(Etype::All),
            _ => None,
        }
    }

    pub fn executes(self) -> bool {
        self != Etype::Match
    }

    pub fn matches(self) -> bool {
        self != Etype::Exec
    }
}

/// `build_foreign_key_map_from_json`: each `db_id`'s foreign-key map, from `tables.json`.
pub fn read_tables_json(
    text: &str,
) -> Result<std::collections::BTreeMap<String, exact::ForeignKeyMap>, super::BenchError> {
    let entries: Vec<exact::TablesEntry> = serde_json::from_str(text).map_err(|err| {
        super::BenchError::at_line(
            err.line(),
            format!("tables.json: {err} (a list of databases, each with db_id, table_names_original, column_names_original and foreign_keys)"),
        )
    })?;
    Ok(entries
        .iter()
        .map(|entry| (entry.db_id.clone(), exact::foreign_key_map(entry)))
        .collect())
}

/// `exec_eval.TIMEOUT`: the seconds Spider's evaluator gives a query. Its `asyncio.wait_for`
/// around a blocking SQLite call never interrupts the query; here the limit is real.
pub const TIMEOUT_SECONDS: f64 = 60.0;

/// `evaluate`: `p_str.replace("value", "1")`, every occurrence, case-sensitive, words such as
/// `values` included (for models that write the word `value` where a value goes).
pub(crate) fn prediction_text(line: &str) -> String {
    line.replace("value", "1")
}

/// `exec_eval.postprocess` (and `parse.postprocess`): `> =`, `< =` and `! =` closed up.
pub(crate) fn postprocess(query: &str) -> String {
    query
        .replace("> =", ">=")
        .replace("< =", "<=")
        .replace("! =", "!=")
}

/// `exec_eval.eval_exec_match`'s rules before anything runs: both queries post-processed, and,
/// unless `keep_distinct`, every `DISTINCT` removed from both (`parse.remove_distinct`, which
/// also keeps only the first statement). Returns (gold, prediction).
pub(crate) fn prepared(gold: &str, prediction: &str, keep_distinct: bool) -> (String, String) {
    let (gold, prediction) = (postprocess(gold), postprocess(prediction));
    if keep_distinct {
        (gold, prediction)
    } else {
        (
            tokens::remove_distinct(&gold),
            tokens::remove_distinct(&prediction),
        )
    }
}

/// `eval_exec_match`: row order counts when the (prepared) gold query, lowercased, contains
/// `order by` anywhere, with exactly one space, inside a string too.
pub(crate) fn order_matters(prepared_gold: &str) -> bool {
    prepared_gold.to_lowercase().contains("order by")
}

/// `exec_eval.replace_cur_year`, applied to every query as it runs:
/// `YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*` (any case) becomes `2020`.
pub(crate) fn replace_cur_year(query: &str) -> String {
    let mut out = String::with_capacity(query.len());
    let mut rest = query;
    'scan: while !rest.is_empty() {
        let mut at = 0;
        for part in ["YEAR", "(", "CURDATE", "(", ")", ")"] {
            let head = rest.get(at..at + part.len());
            if !head.is_some_and(|h| h.eq_ignore_ascii_case(part)) {
                let c = rest.chars().next().unwrap_or_default();
                out.push(c);
                rest = &rest[c.len_utf8()..];
                continue 'scan;
            }
            at += part.len();
            at += spaces(&rest[at..]);
        }
        out.push_str("2020");
        rest = &rest[at..];
    }
    out
}

/// The length of the whitespace at the start of `text` (Python's `\s`).
fn spaces(text: &str) -> usize {
    text.char_indices()
        .find(|(_, c)| !(c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(c)))
        .map_or(text.len(), |(i, _)| i)
}

/// Whether a file in a `db_id` folder is one of its databases: `eval_exec_match` runs on every
/// file whose name contains `.sqlite` (`x.sqlite`, and also `x.sqlite-journal` or
/// `x.sqlite.bak`).
pub fn is_database_name(name: &str) -> bool {
    name.contains(".sqlite")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_rules_are_spiders() {
        assert_eq!(
            prediction_text("SELECT value FROM values"),
            "SELECT 1 FROM 1s"
        );
        assert_eq!(postprocess("a > = 1 AND b ! = 2"), "a >= 1 AND b != 2");
        assert_eq!(
            replace_cur_year("SELECT year ( curdate ( ) ) - age"),
            "SELECT 2020- age"
        );
        assert_eq!(replace_cur_year("SELECT YEAR(x)"), "SELECT YEAR(x)");
        assert!(order_matters("select a from t order by a"));
        assert!(!order_matters("select a from t order  by a"));
        let (gold, prediction) = prepared("SELECT DISTINCT a FROM t", "SELECT a FROM t", false);
        assert_eq!(gold, "SELECT  a FROM t");
        assert_eq!(prediction, "SELECT a FROM t");
        assert!(is_database_name("concert_singer.sqlite"));
        assert!(!is_database_name("schema.sql"));
    }
}
