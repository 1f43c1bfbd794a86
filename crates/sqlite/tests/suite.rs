//! Test-suite checking: agreement on many generated databases, not just the given one.

use qeval_sqlite::{Database, Limits, SuiteOptions, test_suite};

fn shop() -> Database {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/shop.sql"
    ))
    .expect("the fixture script");
    Database::from_script(&script).expect("a database")
}

#[test]
fn equivalent_queries_agree_on_every_generated_database() {
    let mut db = shop();
    let report = test_suite(
        &mut db,
        "SELECT DISTINCT name FROM orders JOIN users ON users.id = orders.user_id WHERE active = 1",
        "SELECT u.name FROM users u WHERE u.active = 1 AND EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id)",
        &SuiteOptions::default(),
        &Limits::default(),
    )
    .expect("runs");
    assert_eq!((report.agreed, report.databases), (20, 20), "{report:?}");
    assert!(report.first_difference.is_none());
    assert_eq!(
        report.explanation(),
        "Equivalent on 20 of 20 generated databases (seed 1)"
    );
}

#[test]
fn a_pair_that_agrees_only_by_accident_is_caught() {
    let mut db = shop();
    let (expected, generated) = (
        "SELECT name FROM users WHERE country = 'DE'",
        "SELECT name FROM users WHERE id IN (1, 3)",
    );
    let on_the_file =
        |db: &mut Database, sql: &str| db.query(sql, &Limits::default()).expect("runs").rows;
    assert_eq!(
        on_the_file(&mut db, expected),
        on_the_file(&mut db, generated),
        "they agree on the given data"
    );
    let report = test_suite(
        &mut db,
        expected,
        generated,
        &SuiteOptions::default(),
        &Limits::default(),
    )
    .expect("runs");
    assert!(report.agreed < report.databases, "{report:?}");
    let difference = report.first_difference.clone().expect("a difference");
    assert_ne!(difference.expected, difference.generated);
    // Seeded: the same seed finds the same first difference.
    let again = test_suite(
        &mut db,
        expected,
        generated,
        &SuiteOptions::default(),
        &Limits::default(),
    )
    .expect("runs");
    assert_eq!(again, report);
    assert_eq!(report.metric().score, Some(0.0));
}
