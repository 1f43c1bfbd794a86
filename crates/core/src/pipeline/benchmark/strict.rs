//! qeval's strict verdicts, beside the official ones (`--strict`): the same example judged
//! with the official evaluators' documented errors fixed, and the rule that changed the
//! verdict named. The official number stays the headline.

use serde::Serialize;

/// A documented error of an official evaluator that the strict verdict fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrictRule {
    /// Spider 2.0 matches each gold column on its own, so a prediction whose rows are
    /// scrambled across columns passes (xlang-ai/Spider2 issues 200 and 226). Strict: the gold
    /// columns matched one to one with predicted columns, rows whole.
    RowScramble,
    /// BIRD's EX compares sets, so a prediction with duplicated rows, or missing a gold's
    /// duplicates, passes. Strict: rows compared as a multiset.
    Duplicates,
    /// BIRD's Soft-F1 pairs rows by position, so the right rows in another order score low
    /// when the gold has no `ORDER BY`. Strict: rows paired by content first.
    PositionPairing,
    /// Spider removes every `DISTINCT`, inside `COUNT(DISTINCT x)` too, which changes what is
    /// counted. Strict: a `DISTINCT` inside an aggregate stays.
    DistinctInAggregate,
    /// Spider takes the gold's rows under `ORDER BY ... LIMIT n` as the only answer, though
    /// rows tied on the sort key at the cut are as right. Strict: any of the tied answers
    /// passes.
    TiedRows,
}

impl StrictRule {
    pub const ALL: [StrictRule; 5] = [
        StrictRule::RowScramble,
        StrictRule::Duplicates,
        StrictRule::PositionPairing,
        StrictRule::DistinctInAggregate,
        StrictRule::TiedRows,
    ];

    /// The rule's name, as records and summaries give it.
    pub fn name(self) -> &'static str {
        match self {
            StrictRule::RowScramble => "row_scramble",
            StrictRule::Duplicates => "duplicates",
            StrictRule::PositionPairing => "position_pairing",
            StrictRule::DistinctInAggregate => "distinct_in_aggregate",
            StrictRule::TiedRows => "tied_rows",
        }
    }

    /// What the rule fixes, in words.
    pub fn describe(self) -> &'static str {
        match self {
            StrictRule::RowScramble => {
                "rows scrambled across columns, or one predicted column standing for several (Spider 2.0 matches each gold column on its own)"
            }
            StrictRule::Duplicates => "duplicate rows (BIRD's EX compares sets)",
            StrictRule::PositionPairing => {
                "rows paired by position without ORDER BY (BIRD's Soft-F1)"
            }
            StrictRule::DistinctInAggregate => {
                "DISTINCT inside an aggregate (Spider removes every DISTINCT)"
            }
            StrictRule::TiedRows => {
                "rows tied at ORDER BY ... LIMIT (Spider takes the gold's as the only answer)"
            }
        }
    }
}

/// An example's strict verdict for one prediction file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrictVerdict {
    pub passed: bool,
    /// The headline score by the strict rules (1 or 0, or BIRD's Soft-F1 when that is the
    /// headline).
    pub score: f64,
    /// The rules that made the strict verdict differ from the official one.
    pub changed_by: Vec<StrictRule>,
}
