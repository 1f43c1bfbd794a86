//! The table BIRD's scripts print (`evaluation_utils.print_data`) and the lines they append to
//! the log file, for each metric.

use serde::Serialize;

use super::DIFFICULTIES;
use crate::bench::python_format::{left, left_fixed};

/// A metric BIRD's scripts compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BirdMetric {
    /// `evaluation_ex.py`: `set(predicted) == set(gold)`.
    Ex,
    /// `evaluation_f1.py`: cell matches of rows paired by position.
    SoftF1,
    /// `evaluation_ves.py`: the timed reward of correct predictions.
    Ves,
}

impl BirdMetric {
    /// The name the table and the log print.
    pub fn title(self) -> &'static str {
        match self {
            BirdMetric::Ex => "EX",
            BirdMetric::SoftF1 => "Soft-F1",
            BirdMetric::Ves => "R-VES",
        }
    }

    /// The name in the records' `benchmark` object and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            BirdMetric::Ex => "ex",
            BirdMetric::SoftF1 => "soft_f1",
            BirdMetric::Ves => "ves",
        }
    }

    /// What the script prints before the table (`evaluation_f1.py` says "Soft F1").
    fn start_line(self) -> &'static str {
        match self {
            BirdMetric::Ex => "start calculate EX",
            BirdMetric::SoftF1 => "start calculate Soft F1",
            BirdMetric::Ves => "start calculate R-VES",
        }
    }

    /// What the script prints after the table (`evaluation_f1.py` says "EX", as written).
    fn finished(self) -> &'static str {
        match self {
            BirdMetric::Ex | BirdMetric::SoftF1 => "EX",
            BirdMetric::Ves => "R-VES",
        }
    }
}

impl std::str::FromStr for BirdMetric {
    type Err = String;

    fn from_str(s: &str) -> Result<BirdMetric, String> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "ex" => Ok(BirdMetric::Ex),
            "soft-f1" | "f1" => Ok(BirdMetric::SoftF1),
            "ves" | "r-ves" => Ok(BirdMetric::Ves),
            _ => Err(format!(
                "unknown BIRD metric \"{s}\" (expected ex, soft-f1 or ves)"
            )),
        }
    }
}

/// The numbers of one metric's table: count and score of simple, moderate, challenging and
/// total.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BirdLevels {
    pub metric: BirdMetric,
    /// `simple`, `moderate`, `challenging`, `total`.
    pub counts: [usize; 4],
    /// In percent, as printed; `None` for a level without questions (BIRD's script divides by
    /// zero there and stops; the table prints 0.00).
    pub scores: [Option<f64>; 4],
}

impl BirdLevels {
    /// The table of one metric from each question's difficulty and result (`res` for EX and
    /// Soft-F1, the reward for R-VES), as `compute_acc_by_diff`, `compute_f1_by_diff` and
    /// `compute_ves_by_diff` compute it.
    pub fn of(metric: BirdMetric, questions: &[(Option<&str>, f64)]) -> BirdLevels {
        let mut counts = [0usize; 4];
        let mut sums = [0f64; 4];
        let value = |result: f64| match metric {
            // `compute_ves`: the mean of sqrt(reward) * 100.
            BirdMetric::Ves => result.max(0.0).sqrt() * 100.0,
            BirdMetric::Ex | BirdMetric::SoftF1 => result,
        };
        for (difficulty, result) in questions {
            if let Some(level) = difficulty.and_then(|d| DIFFICULTIES.iter().position(|l| *l == d))
            {
                counts[level] += 1;
                sums[level] += value(*result);
            }
            counts[3] += 1;
            sums[3] += value(*result);
        }
        let scale = match metric {
            BirdMetric::Ves => 1.0,
            BirdMetric::Ex | BirdMetric::SoftF1 => 100.0,
        };
        let mut scores = [None; 4];
        for level in 0..4 {
            if counts[level] > 0 {
                scores[level] = Some(sums[level] / counts[level] as f64 * scale);
            }
        }
        BirdLevels {
            metric,
            counts,
            scores,
        }
    }

    fn header(&self) -> String {
        let mut line = left("", 20);
        for level in DIFFICULTIES.iter().chain(&["total"]) {
            line.push(' ');
            line.push_str(&left(level, 20));
        }
        line
    }

    fn count_line(&self) -> String {
        let mut line = left("count", 20);
        for count in self.counts {
            line.push(' ');
            line.push_str(&left(&count.to_string(), 20));
        }
        line
    }

    fn score_line(&self) -> String {
        let mut line = left(self.metric.title(), 20);
        for score in self.scores {
            line.push(' ');
            line.push_str(&left_fixed(score.unwrap_or(0.0), 2, 20));
        }
        line
    }
}

/// What a BIRD script prints for one metric, from "start calculate" to the blank lines after
/// "Finished ... evaluation", for the dialect given (`--sql_dialect`).
pub(crate) fn bird_table(levels: &BirdLevels, dialect: &str) -> String {
    let title = levels.metric.title();
    format!(
        "{start}\n{header}\n{counts}\n======================================    {title}    =====================================\n{scores}\n{rule}\nFinished {finished} evaluation for {dialect} on Mini Dev set\n\n\n\n",
        start = levels.metric.start_line(),
        header = levels.header(),
        counts = levels.count_line(),
        scores = levels.score_line(),
        rule = "=".repeat(91),
        finished = levels.metric.finished(),
    )
}

/// What `print_data` appends to `--output_log_path` for one metric.
pub(crate) fn bird_log(levels: &BirdLevels) -> String {
    let title = levels.metric.title();
    format!(
        "start calculate {title}\n{header}\n{counts}\n======================================    {title}   =====================================\n{scores}\n{rule}\nFinished {title} evaluation for mini dev set\n\n",
        header = levels.header(),
        counts = levels.count_line(),
        scores = levels.score_line(),
        rule = "=".repeat(91),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_like_birds() {
        let levels = BirdLevels::of(
            BirdMetric::Ex,
            &[
                (Some("simple"), 1.0),
                (Some("simple"), 0.0),
                (Some("challenging"), 1.0),
            ],
        );
        assert_eq!(levels.counts, [2, 0, 1, 3]);
        assert_eq!(levels.scores[1], None);
        let table = bird_table(&levels, "SQLite");
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "start calculate EX");
        assert_eq!(
            lines[4],
            "EX                   50.00                0.00                 100.00               66.67               "
        );
        assert_eq!(
            lines[6],
            "Finished EX evaluation for SQLite on Mini Dev set"
        );
        assert!(bird_log(&levels).contains("    EX   ===="));
    }

    #[test]
    fn ves_averages_square_roots_of_rewards() {
        let levels = BirdLevels::of(BirdMetric::Ves, &[(None, 1.25), (None, 0.25)]);
        let expected = (1.25f64.sqrt() * 100.0 + 0.5 * 100.0) / 2.0;
        assert_eq!(levels.scores[3], Some(expected));
    }
}
