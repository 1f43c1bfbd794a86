//! The exact-match part of `print_scores` (`--etype match` and `all`): exact match by level
//! and by turn, and the partial matching tables (accuracy, recall, F1 of each component).
//!
//! `evaluate`'s arithmetic, kept: a component's accuracy averages the examples whose
//! prediction has that component (`pred_total > 0`), its recall those whose gold has it; its F1
//! is then computed from the two, and is 1 when both are 0. A level with no example keeps 0
//! everywhere; `joint_all` has no partial scores, so it prints accuracy 0, recall 0, F1 1.

use serde::Serialize;

use super::matching::{COMPONENTS, ComponentScore};
use crate::bench::python_format::left_fixed;
use crate::bench::spider::table::{LEVELS, TURNS, row};
use crate::sql::Hardness;

/// One example as the exact-match table counts it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactLevel {
    pub hardness: Option<Hardness>,
    pub turn: usize,
    pub exact: bool,
    pub components: [ComponentScore; 10],
}

impl ExactLevel {
    /// The components of an example no exact match could be given for: nothing counted.
    pub fn unscored() -> [ComponentScore; 10] {
        [ComponentScore {
            acc: 0.0,
            rec: 0.0,
            f1: 0.0,
            label_total: 0,
            pred_total: 0,
        }; 10]
    }
}

/// A component's accuracy, recall and F1 in one column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PartialScore {
    pub acc: f64,
    pub rec: f64,
    pub f1: f64,
}

/// One column: its exact match and its ten components.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ExactColumn {
    pub count: usize,
    pub exact: f64,
    pub partial: [PartialScore; 10],
    #[serde(skip)]
    acc_count: [usize; 10],
    #[serde(skip)]
    rec_count: [usize; 10],
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactScores {
    /// `easy`, `medium`, `hard`, `extra`, `all`, then `joint_all`.
    pub levels: Vec<(String, ExactColumn)>,
    pub turns: Vec<(String, ExactColumn)>,
    pub with_turns: bool,
}

impl ExactColumn {
    fn add(&mut self, example: &ExactLevel) {
        self.count += 1;
        self.exact += f64::from(u8::from(example.exact));
        for (at, component) in example.components.iter().enumerate() {
            if component.pred_total > 0 {
                self.partial[at].acc += component.acc;
                self.acc_count[at] += 1;
            }
            if component.label_total > 0 {
                self.partial[at].rec += component.rec;
                self.rec_count[at] += 1;
            }
        }
    }

    fn finish(&mut self, with_partial: bool) {
        if self.count == 0 {
            return;
        }
        self.exact /= self.count as f64;
        if !with_partial {
            return;
        }
        for at in 0..COMPONENTS.len() {
            let score = &mut self.partial[at];
            score.acc = if self.acc_count[at] == 0 {
                0.0
            } else {
                score.acc / self.acc_count[at] as f64
            };
            score.rec = if self.rec_count[at] == 0 {
                0.0
            } else {
                score.rec / self.rec_count[at] as f64
            };
            score.f1 = if score.acc == 0.0 && score.rec == 0.0 {
                1.0
            } else {
                2.0 * score.acc * score.rec / (score.rec + score.acc)
            };
        }
    }
}

impl ExactScores {
    pub fn of(interactions: &[Vec<ExactLevel>], with_turns: bool) -> ExactScores {
        let column = |name: &&str| (name.to_string(), ExactColumn::default());
        let mut levels: Vec<(String, ExactColumn)> =
            LEVELS.iter().chain(&["joint_all"]).map(column).collect();
        let mut turns: Vec<(String, ExactColumn)> = TURNS.iter().map(column).collect();
        for interaction in interactions {
            let joint = &mut levels[5].1;
            joint.count += 1;
            joint.exact += f64::from(u8::from(interaction.iter().all(|e| e.exact)));
            for example in interaction {
                if let Some(level) = example.hardness {
                    let index = Hardness::ALL.iter().position(|h| *h == level).unwrap_or(0);
                    levels[index].1.add(example);
                }
                levels[4].1.add(example);
                let turn = &mut turns[example.turn.min(4)].1;
                turn.count += 1;
                turn.exact += f64::from(u8::from(example.exact));
            }
        }
        for (name, column) in &mut levels {
            column.finish(name != "joint_all");
        }
        if let Some((_, joint)) = levels.get_mut(5)
            && joint.count > 0
        {
            for score in &mut joint.partial {
                *score = PartialScore {
                    acc: 0.0,
                    rec: 0.0,
                    f1: 1.0,
                };
            }
        }
        for (_, column) in &mut turns {
            column.finish(false);
        }
        ExactScores {
            levels,
            turns,
            with_turns,
        }
    }

    /// Exact match over all examples.
    pub fn all(&self) -> &ExactColumn {
        &self.levels[4].1
    }
}

/// Which of a component's three numbers a section shows.
type Pick = fn(&PartialScore) -> f64;

/// The exact-match rows of the level table.
pub(crate) fn exact_table(scores: &ExactScores) -> String {
    let shown: Vec<&(String, ExactColumn)> = if scores.with_turns {
        scores.levels.iter().collect()
    } else {
        scores.levels.iter().take(5).collect()
    };
    let mut text =
        String::from("\n====================== EXACT MATCHING ACCURACY =====================\n");
    text += &row(
        "exact match",
        shown.iter().map(|(_, c)| left_fixed(c.exact, 3, 20)),
    );
    let sections: [(&str, Pick); 3] = [
        (
            "\n---------------------PARTIAL MATCHING ACCURACY----------------------\n",
            |s| s.acc,
        ),
        (
            "---------------------- PARTIAL MATCHING RECALL ----------------------\n",
            |s| s.rec,
        ),
        (
            "---------------------- PARTIAL MATCHING F1 --------------------------\n",
            |s| s.f1,
        ),
    ];
    for (title, value) in sections {
        text += title;
        for (at, name) in COMPONENTS.iter().enumerate() {
            text += &row(
                name,
                shown
                    .iter()
                    .map(|(_, c)| left_fixed(value(&c.partial[at]), 3, 20)),
            );
        }
    }
    text
}

/// The exact-match rows of the turn table.
pub(crate) fn turn_exact_table(scores: &ExactScores) -> String {
    let mut text = String::from(
        "\n====================== TURN EXACT MATCHING ACCURACY =====================\n",
    );
    text += &row(
        "exact match",
        scores.turns.iter().map(|(_, c)| left_fixed(c.exact, 3, 20)),
    );
    text
}
