//! The worker's jobs, natively, through their messages' JSON: what the page sends and gets.

use qeval_core::{Fill, Job, PartAnswer, QuerySettings};
use qeval_worker::jobs::Jobs;
use qeval_worker::protocol::{Answer, DatabaseForm, PairRequest, Request, Response, Task};

/// A task as the page sends it, and the answer as the page reads it: through JSON both ways.
fn run(jobs: &mut Jobs, task: Task) -> Answer {
    let text = serde_json::to_string(&Request { job: 7, task }).expect("a request is JSON");
    let request: Request = serde_json::from_str(&text).expect("the worker reads it");
    let response = Response {
        job: request.job,
        answer: jobs.run(request.task, None),
    };
    let text = serde_json::to_string(&response).expect("a response is JSON");
    let back: Response = serde_json::from_str(&text).expect("the page reads it");
    assert_eq!(back.job, 7);
    back.answer
}

fn check(expected: &str, generated: &str) -> PairRequest {
    PairRequest {
        expected: expected.into(),
        generated: generated.into(),
        language: qeval_core::Language::Sql,
        dialect: qeval_core::SqlDialect::Sqlite,
        mode: None,
        schema: String::new(),
        checks: 40,
        suite: 5,
        seed: 1,
        time_limit_s: 10.0,
    }
}

/// The equivalence check's answer for two queries.
fn equivalence(
    jobs: &mut Jobs,
    expected: &str,
    generated: &str,
) -> qeval_worker::protocol::Checked {
    match run(jobs, Task::Equivalence(check(expected, generated))) {
        Answer::Checked(Some(checked)) => checked,
        other => panic!("no check: {other:?}"),
    }
}

/// Opens a database built from `script`.
fn open_script(jobs: &mut Jobs, script: &str) -> Answer {
    run(
        jobs,
        Task::Open {
            name: "built".into(),
            source: DatabaseForm::Script(script.into()),
        },
    )
}

#[test]
fn a_built_database_answers_queries_and_a_bad_one_keeps_it() {
    let mut jobs = Jobs::default();
    let script = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b');";
    let Answer::Opened(Ok(tables)) = open_script(&mut jobs, script) else {
        panic!("the script builds a database");
    };
    assert_eq!(tables[0].name, "t");
    assert_eq!(tables[0].rows, 2);
    let Answer::Opened(Err(message)) = run(
        &mut jobs,
        Task::Open {
            name: "broken.sqlite".into(),
            source: DatabaseForm::File,
        },
    ) else {
        panic!("no bytes is no database");
    };
    assert!(message.starts_with("broken.sqlite: "), "{message}");
    let Answer::Executed(executed) = run(
        &mut jobs,
        Task::Execute {
            expected: "SELECT name FROM t ORDER BY id".into(),
            generated: "SELECT nme FROM t".into(),
            time_limit_s: 5.0,
        },
    ) else {
        panic!("executed");
    };
    let expected = executed.expected.unwrap().unwrap();
    assert_eq!(
        expected.rows,
        vec![vec![serde_json::json!("a")], vec![serde_json::json!("b")]]
    );
    assert!(executed.generated.unwrap().is_err(), "no such column");
}

#[test]
fn the_checks_give_verdicts_with_and_without_a_database() {
    let mut jobs = Jobs::default();
    let checked = equivalence(
        &mut jobs,
        "SELECT name FROM singer WHERE age > 30",
        "SELECT name FROM singer WHERE age >= 30",
    );
    assert_eq!(
        checked.report.verdict,
        qeval_sqlite::EquivalenceVerdict::Different
    );
    assert!(checked.report.counterexample.is_some());
    // Test-suite checking needs an open database.
    let pair = check("SELECT id FROM t", "SELECT id FROM t WHERE id > 0");
    assert_eq!(
        run(&mut jobs, Task::Suite(pair.clone())),
        Answer::Suite(None)
    );
    open_script(
        &mut jobs,
        "CREATE TABLE t(id INTEGER); INSERT INTO t VALUES (1);",
    );
    let Answer::Suite(Some(metric)) = run(&mut jobs, Task::Suite(pair)) else {
        panic!("a suite metric");
    };
    assert_eq!(metric.passed, Some(false), "{}", metric.explanation);
}

#[test]
fn a_test_without_results_gets_them_and_a_failing_query_its_error() {
    let mut jobs = Jobs::default();
    open_script(
        &mut jobs,
        "CREATE TABLE t(id INTEGER); INSERT INTO t VALUES (1), (2);",
    );
    let job = Job {
        database: 0,
        parts: vec![qeval_core::JobPart::Fill(Fill {
            item: 7,
            expected: Some("SELECT count(*) AS n FROM t".into()),
            alternatives: Vec::new(),
            generated: Some("SELECT count(*) FROM nowhere".into()),
            settings: QuerySettings::default(),
        })],
    };
    let Answer::JobDone(answer) = run(&mut jobs, Task::RunJob(job)) else {
        panic!("the job's answer");
    };
    let [PartAnswer::Fill(filled)] = answer.answers.as_slice() else {
        panic!("one fill");
    };
    assert_eq!(filled.item, 7);
    let expected = filled.expected.as_ref().unwrap().as_ref().unwrap();
    assert_eq!(
        expected.result,
        serde_json::json!({"columns": ["n"], "rows": [[2]]})
    );
    let generated = filled.generated.as_ref().unwrap().as_ref().unwrap_err();
    assert!(generated.to_string().contains("nowhere"));
}

#[test]
fn a_check_reports_its_progress_database_by_database() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    static LAST: AtomicUsize = AtomicUsize::new(0);
    fn progress(done: usize, total: usize) {
        assert_eq!(total, 40);
        CALLS.fetch_add(1, Ordering::SeqCst);
        LAST.store(done, Ordering::SeqCst);
    }
    let mut jobs = Jobs::with_progress(progress);
    let checked = equivalence(
        &mut jobs,
        "SELECT name FROM singer WHERE age > 30",
        "SELECT name FROM singer WHERE 30 < age",
    );
    assert_eq!(checked.report.agreed, 40, "{:?}", checked.report.verdict);
    assert_eq!(
        CALLS.load(Ordering::SeqCst),
        40,
        "once per generated database"
    );
    assert_eq!(LAST.load(Ordering::SeqCst), 40);
}
