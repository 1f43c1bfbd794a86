//! Spider's gold and prediction files, read as `evaluation.evaluate` reads them.
//!
//! Each line is stripped (Python's `str.strip`) and split at tabs: a gold line is
//! `SQL<TAB>db_id`, a prediction line's first field is the query. A blank line ends an
//! interaction (SParC and CoSQL); several blank lines in a row make empty interactions, as they
//! do for Spider's script. A file without blank lines is one interaction, and its table has no
//! turn rows. Where Spider's script stops with an exception (a gold line without exactly one
//! tab, different numbers of interactions or of lines in one), here the error names the line
//! or the counts.

use crate::bench::BenchError;

/// One gold line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldLine {
    pub sql: String,
    pub db_id: String,
    /// Its line in the file, from 1.
    pub line: usize,
}

/// The lines of one interaction.
pub(crate) type Interaction<T> = Vec<T>;

/// A gold file and a prediction file read and matched line for line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpiderFiles {
    pub gold: Vec<Interaction<GoldLine>>,
    /// Each prediction with its line in the file.
    pub predictions: Vec<Interaction<(String, usize)>>,
}

impl SpiderFiles {
    /// Whether the files hold more than one interaction, so the table has turn rows and
    /// `joint_all` (`include_turn_acc = len(glist) > 1`).
    pub fn has_turns(&self) -> bool {
        self.gold.len() > 1
    }
}

/// Python's `str.strip()`.
fn strip(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// The file's lines as Python's `readlines` gives them in text mode (universal newlines: `\n`,
/// `\r\n` and `\r` each end a line), each stripped, with its number, grouped into
/// interactions at blank lines.
fn interactions(text: &str) -> Vec<Interaction<(&str, usize)>> {
    let mut all = Vec::new();
    let mut current = Vec::new();
    for (index, line) in crate::bench::lines(text).enumerate() {
        let stripped = strip(line);
        if stripped.is_empty() {
            all.push(std::mem::take(&mut current));
        } else {
            current.push((stripped, index + 1));
        }
    }
    if !current.is_empty() {
        all.push(current);
    }
    all
}

/// The gold file: `SQL<TAB>db_id` per line.
pub(crate) fn read_gold(text: &str) -> Result<Vec<Interaction<GoldLine>>, BenchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    interactions(text)
        .into_iter()
        .map(|interaction| {
            interaction
                .into_iter()
                .map(|(line, number)| {
                    let fields: Vec<&str> = line.split('\t').collect();
                    match fields.as_slice() {
                        [sql, db_id] if !db_id.is_empty() => Ok(GoldLine {
                            sql: (*sql).to_string(),
                            db_id: (*db_id).to_string(),
                            line: number,
                        }),
                        _ => Err(BenchError::at_line(
                            number,
                            format!(
                                "a gold line is `SQL<TAB>db_id`; this one has {} tab-separated field{}",
                                fields.len(),
                                crate::words::plural(fields.len())
                            ),
                        )),
                    }
                })
                .collect()
        })
        .collect()
}

/// The prediction file: the first tab-separated field of each line.
pub(crate) fn read_predictions(text: &str) -> Vec<Interaction<(String, usize)>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    interactions(text)
        .into_iter()
        .map(|interaction| {
            interaction
                .into_iter()
                .map(|(line, number)| {
                    let first = line.split('\t').next().unwrap_or_default();
                    (first.to_string(), number)
                })
                .collect()
        })
        .collect()
}

impl SpiderFiles {
    /// Both files, matched interaction by interaction and line by line. Spider's script asserts
    /// the numbers of interactions are equal and silently drops lines past the shorter side of
    /// an interaction; here both are errors naming the counts.
    pub fn read(gold: &str, predictions: &str) -> Result<SpiderFiles, BenchError> {
        let gold = read_gold(gold)?;
        let predictions = read_predictions(predictions);
        if gold.len() != predictions.len() {
            let lines = |n: usize| crate::words::counted(n, "line");
            return Err(BenchError::new(format!(
                "the gold file has {} ({}) and the prediction file {} ({}): they must match one for one (Spider's evaluator stops with `number of sessions must equal`)",
                crate::words::counted(gold.len(), "interaction"),
                lines(gold.iter().map(Vec::len).sum()),
                crate::words::counted(predictions.len(), "interaction"),
                lines(predictions.iter().map(Vec::len).sum()),
            )));
        }
        for (index, (g, p)) in gold.iter().zip(&predictions).enumerate() {
            if g.len() != p.len() {
                let first_line = g.first().map_or(0, |l| l.line);
                return Err(BenchError::new(format!(
                    "interaction {} (gold line {first_line}) has {} in the gold file and {} in the prediction file (Spider's evaluator would skip the extra ones without a word)",
                    index + 1,
                    crate::words::counted(g.len(), "line"),
                    crate::words::counted(p.len(), "line"),
                )));
            }
        }
        Ok(SpiderFiles { gold, predictions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_separate_interactions() {
        let gold = "SELECT 1\tdb\n\nSELECT 2\tdb\nSELECT 3\tdb\n\n\nSELECT 4\tdb\n";
        let read = read_gold(gold).unwrap();
        let sizes: Vec<usize> = read.iter().map(Vec::len).collect();
        assert_eq!(sizes, [1, 2, 0, 1]);
        assert_eq!(read[1][1].line, 4);
    }

    #[test]
    fn a_gold_line_needs_one_tab() {
        let err = read_gold("SELECT 1\tdb\nSELECT 2\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("1 tab-separated field"));
    }

    #[test]
    fn counts_that_differ_are_errors() {
        let err = SpiderFiles::read("SELECT 1\tdb\nSELECT 2\tdb\n", "SELECT 1\n").unwrap_err();
        assert!(
            err.message.contains("2 lines in the gold file"),
            "{}",
            err.message
        );
        let files = SpiderFiles::read("SELECT 1\tdb\n", " select 1 \tx\n").unwrap();
        assert_eq!(files.predictions[0][0].0, "select 1 ");
    }
}
