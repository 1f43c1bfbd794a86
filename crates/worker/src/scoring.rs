//! The scoring tasks: parsing and comparing queries and results, which is most of the page's
//! work. Both workers do them; the scoring worker does nothing else, so the page's own bundle
//! holds no SQL parser.

use qeval_core::{SqlDialect, add_equivalence, hardness, judge_tasks, score_pair_judged};

use crate::protocol::{Answer, ScorePair, Scoring, Task, TestToScore};

/// Does a scoring task; refuses a database task (the scoring worker has no SQLite, and the
/// database worker answers those itself).
pub fn run(task: Task) -> Answer {
    match task {
        Task::Score(job) => Answer::Scored(score(job)),
        Task::JudgeTasks { pair, scoring } => {
            Answer::JudgeTasks(judge_tasks(&pair, &scoring.options()))
        }
        Task::ScoreTests { tests, scoring } => Answer::Records(score_tests(tests, &scoring)),
        Task::Hardness(queries) => Answer::Hardness(
            queries
                .iter()
                .map(|sql| {
                    let sql = sql.as_deref()?;
                    hardness(sql, SqlDialect::Generic).map(|h| h.name().to_string())
                })
                .collect(),
        ),
        Task::Open { .. }
        | Task::Execute { .. }
        | Task::Suite(_)
        | Task::Equivalence(_)
        | Task::RunJob(_) => Answer::Refused(
            "this worker has no database; the database worker does this task".into(),
        ),
    }
}

/// The playground's scorecard: the pair scored with the judge's verdicts, then each check that
/// reached a verdict applied, as the CLI's `--seed`/`--suite` do.
fn score(job: ScorePair) -> qeval_core::Scorecard {
    let options = job.scoring.options();
    let mut card = score_pair_judged(&job.pair, &options, &job.judged);
    for (name, metric) in job.checks {
        add_equivalence(&mut card, name, metric, &job.pair, &options);
    }
    card
}

fn score_tests(tests: Vec<TestToScore>, scoring: &Scoring) -> Vec<qeval_core::EvaluationRecord> {
    let options = scoring.options();
    tests.iter().map(|test| test.record(&options)).collect()
}
