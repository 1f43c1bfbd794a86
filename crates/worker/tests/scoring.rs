//! The scoring worker's tasks, natively, through their messages' JSON: the page must get the
//! same scorecards and records as the CLI makes, with nothing lost on the way.

use std::collections::BTreeMap;

use qeval_core::{
    Metric, MetricName, PairInput, ProfileName, Scorecard, TestLine, evaluate_test, pair_of_test,
    parse_pair_line, read_records, score_pair_judged,
};
use qeval_worker::protocol::{Answer, Request, Response, ScorePair, Scoring, Task, TestToScore};
use qeval_worker::scoring;

/// A task as the page sends it, and the answer as the page reads it: through JSON both ways.
fn run(task: Task) -> Answer {
    let text = serde_json::to_string(&Request { job: 3, task }).expect("a request is JSON");
    let request: Request = serde_json::from_str(&text).expect("the worker reads it");
    let answer = scoring::run(request.task);
    let text = serde_json::to_string(&Response { job: 3, answer }).expect("a response is JSON");
    let back: Response = serde_json::from_str(&text).expect("the page reads it");
    back.answer
}

fn scoring() -> Scoring {
    Scoring {
        profile: ProfileName::Qas,
        mode: None,
        evaluated_at: Some("2026-01-01T00:00:00Z".into()),
        judge_prompt: Default::default(),
        schema: None,
    }
}

fn scored(pair: &PairInput, checks: Vec<(MetricName, Metric)>) -> Scorecard {
    let answer = run(Task::Score(ScorePair {
        pair: pair.clone(),
        scoring: scoring(),
        judged: BTreeMap::new(),
        checks,
    }));
    match answer {
        Answer::Scored(card) => card,
        other => panic!("expected a scorecard, got {other:?}"),
    }
}

#[test]
fn every_fixture_scorecard_reaches_the_page_as_the_cli_makes_it() {
    let text = include_str!("../../core/tests/fixtures/scorecards.jsonl");
    let options = scoring().options();
    for line in text.lines() {
        let pair = parse_pair_line(line).expect("fixture lines are valid");
        let direct = score_pair_judged(&pair, &options, &BTreeMap::new());
        let card = scored(&pair, Vec::new());
        assert_eq!(card, direct, "pair {line}");
        assert_eq!(
            serde_json::to_string(&card).expect("JSON"),
            serde_json::to_string(&direct).expect("JSON"),
            "pair {line}"
        );
    }
}

#[test]
fn an_equivalence_verdict_decides_query_correctness_in_the_workers_scorecard() {
    let pair = PairInput {
        generated_sql: "SELECT name FROM users WHERE id IN (SELECT user_id FROM orders)".into(),
        expected_sql: Some(
            "SELECT DISTINCT u.name FROM users u JOIN orders o ON o.user_id = u.id".into(),
        ),
        ..PairInput::default()
    };
    let equivalent = Metric {
        score: Some(1.0),
        passed: Some(true),
        explanation: "same results on 40 generated databases".into(),
        details: serde_json::Value::Null,
        error: None,
    };
    let card = scored(&pair, vec![(MetricName::Equivalence, equivalent)]);
    let correctness = &card.metrics["query_correctness"];
    assert_eq!(correctness.score, Some(1.0));
    assert!(
        correctness.explanation.starts_with("same results on 40"),
        "{}",
        correctness.explanation
    );
    assert!(card.metrics.contains_key("equivalence"));
}

#[test]
fn the_judge_tasks_name_the_metric_they_fill_and_identical_queries_need_none() {
    let pair = |generated: &str| PairInput {
        generated_sql: generated.into(),
        expected_sql: Some("SELECT id FROM users".into()),
        ..PairInput::default()
    };
    let tasks = |pair| match run(Task::JudgeTasks {
        pair,
        scoring: scoring(),
    }) {
        Answer::JudgeTasks(tasks) => tasks,
        other => panic!("expected judge tasks, got {other:?}"),
    };
    let differing = tasks(pair("SELECT name FROM users"));
    let metrics: Vec<&str> = differing.iter().map(|t| t.metric.as_str()).collect();
    assert!(metrics.contains(&"semantic_similarity"), "{metrics:?}");
    assert!(tasks(pair("select  ID from USERS")).is_empty());
}

#[test]
fn tests_of_the_example_run_score_into_the_records_qeval_run_writes() {
    let text =
        include_str!("../../../static/example-run/run-2026-11-20T14-30-00/test-results.jsonl");
    let tests: Vec<TestLine> = read_records(text)
        .records
        .into_iter()
        .map(|(_, test)| test)
        .collect();
    assert!(tests.len() >= 3, "the example run has tests");
    let to_score: Vec<TestToScore> = tests
        .iter()
        .map(|test| TestToScore {
            test: test.clone(),
            question: None,
            pair: pair_of_test(test, None),
            judged: BTreeMap::new(),
            suite: None,
        })
        .collect();
    let records = match run(Task::ScoreTests {
        tests: to_score,
        scoring: scoring(),
    }) {
        Answer::Records(records) => records,
        other => panic!("expected records, got {other:?}"),
    };
    let options = scoring().options();
    let direct: Vec<_> = tests
        .iter()
        .map(|test| {
            let pair = pair_of_test(test, None);
            let card = score_pair_judged(&pair, &options, &BTreeMap::new());
            evaluate_test(test, None, &pair, &card, &options.profile)
        })
        .collect();
    assert_eq!(records, direct);
}

#[test]
fn a_database_task_sent_to_the_scoring_worker_is_refused_with_a_reason() {
    let answer = run(Task::Execute {
        expected: "SELECT 1".into(),
        generated: "SELECT 1".into(),
        time_limit_s: 1.0,
    });
    match answer {
        Answer::Refused(reason) => assert!(reason.contains("database"), "{reason}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn every_kind_of_judge_failure_reaches_the_worker_and_is_named_in_the_scorecard() {
    use qeval_judge::ReplyError;
    let pair = PairInput {
        generated_sql: "SELECT name FROM users".into(),
        expected_sql: Some("SELECT id FROM users".into()),
        ..PairInput::default()
    };
    let failures = [
        ReplyError::Http {
            status: 500,
            message: "busy".into(),
        },
        ReplyError::Malformed("no choices".into()),
        ReplyError::Invalid {
            message: "score 7 outside 0..1".into(),
            raw: "{}".into(),
        },
        ReplyError::Truncated,
        ReplyError::Refusal("I cannot".into()),
        ReplyError::Timeout { seconds: 2.0 },
        ReplyError::Transport("connection refused".into()),
    ];
    for failure in failures {
        let judged = BTreeMap::from([("semantic_similarity".to_string(), Err(failure.clone()))]);
        let card = match run(Task::Score(ScorePair {
            pair: pair.clone(),
            scoring: scoring(),
            judged,
            checks: Vec::new(),
        })) {
            Answer::Scored(card) => card,
            other => panic!("{failure:?}: expected a scorecard, got {other:?}"),
        };
        let explanation = &card.metrics["semantic_similarity"].explanation;
        assert!(
            explanation.starts_with("LLM judge failed")
                && explanation.contains(&failure.to_string()),
            "{failure:?}: {explanation}"
        );
    }
}
