//! The metric calculators against their speed budgets (table accuracy 50 ms, safety and
//! validation classification 5 ms, calibration over a suite 100 ms) divided by 100: table
//! accuracy 0.5 ms, safety and validation classification 50 µs, calibration over a suite 1 ms.
//! Also the read-only validator and the structural judge per query. Mean time per call.

use std::hint::black_box;
use std::time::Instant;

use qeval_core::{
    Confidence, ParseLimits, ScoreOptions, SqlDialect, TableName, analyse, calibration,
    check_sql_read_only, classify_safety, table_accuracy_of_sql, validation_accuracy,
};

fn mean_micros(runs: u32, mut work: impl FnMut()) -> f64 {
    work();
    let started = Instant::now();
    for _ in 0..runs {
        work();
    }
    started.elapsed().as_secs_f64() * 1e6 / f64::from(runs)
}

fn main() {
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let sql = "SELECT u.name, COUNT(o.id) AS n FROM users u JOIN orders o ON o.user_id = u.id \
               WHERE u.active = 1 AND o.created_at > '2024-01-01' GROUP BY u.name HAVING COUNT(o.id) > 2 ORDER BY n DESC LIMIT 10";
    let expected_sql = "SELECT name, COUNT(*) FROM users JOIN orders ON orders.user_id = users.id WHERE users.active = true GROUP BY name";
    let tables = vec![TableName::single("users"), TableName::single("orders")];
    let options = ScoreOptions::default();
    let limits = ParseLimits::default();
    let outcomes: Vec<(Confidence, bool)> = (0..10_000)
        .map(|i| {
            (
                [Confidence::High, Confidence::Medium, Confidence::Low][i % 3],
                i % 5 != 0,
            )
        })
        .collect();
    let errors = vec!["Table 'nonexistent' does not exist".to_string()];
    let rows = [
        (
            "table accuracy (one query)",
            500.0,
            mean_micros(2_000, || {
                black_box(table_accuracy_of_sql(black_box(sql), &tables, &options).ok());
            }),
        ),
        (
            "safety classification",
            50.0,
            mean_micros(1_000_000, || {
                black_box(classify_safety(black_box(true), black_box(false)));
            }),
        ),
        (
            "validation accuracy",
            50.0,
            mean_micros(100_000, || {
                black_box(validation_accuracy(
                    black_box(false),
                    black_box(false),
                    &errors,
                ));
            }),
        ),
        (
            "calibration (10,000 cases)",
            1_000.0,
            mean_micros(200, || {
                black_box(calibration(black_box(&outcomes)));
            }),
        ),
        (
            "read-only validator (one query)",
            f64::NAN,
            mean_micros(2_000, || {
                black_box(check_sql_read_only(
                    black_box(sql),
                    SqlDialect::Generic,
                    limits,
                ));
            }),
        ),
        (
            "structural judge (one pair)",
            f64::NAN,
            mean_micros(1_000, || {
                let (a, b) = (
                    analyse(sql, SqlDialect::Generic, limits),
                    analyse(expected_sql, SqlDialect::Generic, limits),
                );
                black_box(qeval_core::judge_sql(&a, &b));
            }),
        ),
    ];
    println!("{:<34} {:>12} {:>14}", "calculator", "mean µs", "budget µs");
    let mut figures = Vec::new();
    for (name, budget, took) in rows {
        let budget_text = if budget.is_nan() {
            "-".to_string()
        } else {
            format!("{budget:.0}")
        };
        println!("{name:<34} {took:>12.3} {budget_text:>14}");
        figures.push(serde_json::json!({"calculator": name, "mean_us": took, "budget_us": if budget.is_nan() { None } else { Some(budget) }}));
    }
    if let Ok(out) = std::env::var("QEVAL_BENCH_OUT") {
        std::fs::write(&out, serde_json::Value::from(figures).to_string())
            .unwrap_or_else(|err| panic!("cannot write {out}: {err}"));
    }
}
