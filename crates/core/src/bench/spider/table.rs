//! The table `evaluation.print_scores` prints for `--etype exec`, from the examples' verdicts:
//! counts and execution accuracy by hardness level and overall, and, when the files hold
//! several interactions, `joint_all` (interactions whose every turn passed) and the same by
//! turn.

use serde::Serialize;

use super::exact::{ExactScores, exact_table, turn_exact_table};
use crate::bench::python_format::{left, left_fixed};
use crate::sql::Hardness;

/// The columns of the table, in order.
pub(crate) const LEVELS: [&str; 5] = ["easy", "medium", "hard", "extra", "all"];
/// The turn columns (the fifth holds every turn after the fourth).
pub(crate) const TURNS: [&str; 5] = ["turn 1", "turn 2", "turn 3", "turn 4", "turn > 4"];

/// One example as the table counts it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpiderLevel {
    /// The gold query's level; `None` when it could not be read (such an example counts in
    /// `all` only: Spider's script stops on it).
    pub hardness: Option<Hardness>,
    /// Its place in its interaction, from 0.
    pub turn: usize,
    pub passed: bool,
}

/// One column of the printed table (a hardness level or a turn): its count and accuracy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LevelScore {
    pub count: usize,
    pub exec: f64,
}

/// The numbers of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpiderScores {
    /// `easy`, `medium`, `hard`, `extra`, `all`, then `joint_all`.
    pub levels: Vec<(String, LevelScore)>,
    /// `turn 1` ... `turn > 4`.
    pub turns: Vec<(String, LevelScore)>,
    /// Whether the table shows `joint_all` and the turns (more than one interaction).
    pub with_turns: bool,
}

impl SpiderScores {
    /// The scores of the examples, interaction by interaction.
    pub fn of(interactions: &[Vec<SpiderLevel>], with_turns: bool) -> SpiderScores {
        let mut levels: Vec<(String, LevelScore)> = LEVELS
            .iter()
            .chain(&["joint_all"])
            .map(|name| (name.to_string(), LevelScore::default()))
            .collect();
        let mut turns: Vec<(String, LevelScore)> = TURNS
            .iter()
            .map(|name| (name.to_string(), LevelScore::default()))
            .collect();
        let passed = |column: &mut LevelScore, ok: bool| {
            column.count += 1;
            column.exec += f64::from(u8::from(ok));
        };
        for interaction in interactions {
            // `all(...)` over no turns is true: an empty interaction counts as passed.
            let joint = interaction.iter().all(|e| e.passed);
            passed(&mut levels[5].1, joint);
            for example in interaction {
                if let Some(level) = example.hardness {
                    let index = Hardness::ALL.iter().position(|h| *h == level).unwrap_or(0);
                    passed(&mut levels[index].1, example.passed);
                }
                passed(&mut levels[4].1, example.passed);
                passed(&mut turns[example.turn.min(4)].1, example.passed);
            }
        }
        for (_, column) in levels.iter_mut().chain(turns.iter_mut()) {
            if column.count > 0 {
                column.exec /= column.count as f64;
            }
        }
        SpiderScores {
            levels,
            turns,
            with_turns,
        }
    }

    /// Execution accuracy over all examples.
    pub fn all(&self) -> LevelScore {
        self.levels[4].1
    }
}

/// `print_formated_s`: the row's name in 20 columns, then each value in 20, one space apart.
pub(crate) fn row(name: &str, cells: impl IntoIterator<Item = String>) -> String {
    let mut line = left(name, 20);
    for cell in cells {
        line.push(' ');
        line.push_str(&cell);
    }
    line.push('\n');
    line
}

/// The table as `print_scores` prints it, line for line: the execution rows when `exec` is
/// given (`--etype exec` or `all`), the exact-match rows when `exact` is (`match` or `all`).
pub(crate) fn spider_table(exec: Option<&SpiderScores>, exact: Option<&ExactScores>) -> String {
    let with_turns = exec.map_or_else(|| exact.is_some_and(|e| e.with_turns), |e| e.with_turns);
    let shown = if with_turns { 6 } else { 5 };
    let names = LEVELS.iter().copied().chain(["joint_all"]).take(shown);
    let counts: Vec<usize> = match (exec, exact) {
        (Some(exec), _) => exec.levels.iter().map(|(_, c)| c.count).collect(),
        (None, Some(exact)) => exact.levels.iter().map(|(_, c)| c.count).collect(),
        (None, None) => vec![0; 6],
    };
    let mut text = row("", names.map(|name| left(name, 20)));
    text += &row(
        "count",
        counts.iter().take(shown).map(|c| left(&c.to_string(), 20)),
    );
    if let Some(exec) = exec {
        text += "=====================   EXECUTION ACCURACY     =====================\n";
        text += &row(
            "execution",
            exec.levels
                .iter()
                .take(shown)
                .map(|(_, c)| left_fixed(c.exec, 3, 20)),
        );
    }
    if let Some(exact) = exact {
        text += &exact_table(exact);
    }
    if with_turns {
        let turn_counts: Vec<usize> = match (exec, exact) {
            (Some(exec), _) => exec.turns.iter().map(|(_, c)| c.count).collect(),
            (None, Some(exact)) => exact.turns.iter().map(|(_, c)| c.count).collect(),
            (None, None) => vec![0; 5],
        };
        text += "\n\n";
        text += &row("", TURNS.iter().map(|name| left(name, 20)));
        text += &row(
            "count",
            turn_counts.iter().map(|c| left(&c.to_string(), 20)),
        );
        if let Some(exec) = exec {
            text += "=====================   TURN EXECUTION ACCURACY     =====================\n";
            text += &row(
                "execution",
                exec.turns.iter().map(|(_, c)| left_fixed(c.exec, 3, 20)),
            );
        }
        if let Some(exact) = exact {
            text += &turn_exact_table(exact);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_like_spiders() {
        let example = |hardness, turn, passed| SpiderLevel {
            hardness: Some(hardness),
            turn,
            passed,
        };
        let scores = SpiderScores::of(
            &[vec![
                example(Hardness::Easy, 0, true),
                example(Hardness::Easy, 1, false),
                example(Hardness::Hard, 2, true),
            ]],
            false,
        );
        let table = spider_table(Some(&scores), None);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            "count                2                    0                    1                    0                    3                   "
        );
        assert!(lines[3].starts_with("execution            0.500                0.000                1.000                0.000                0.667"));
    }

    #[test]
    fn empty_interactions_pass_jointly() {
        let scores = SpiderScores::of(&[vec![], vec![]], true);
        assert_eq!(
            scores.levels[5].1,
            LevelScore {
                count: 2,
                exec: 1.0
            }
        );
        assert!(spider_table(Some(&scores), None).contains("TURN EXECUTION ACCURACY"));
    }
}
