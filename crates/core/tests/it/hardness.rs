//! Spider's hardness levels, case by case: each fixture line gives a query, the three counts
//! worked out by hand from Spider's rules (components, nested queries, others) and the level.

use qeval_core::{Hardness, ParseLimits, SqlDialect, hardness, hardness_counts, parse_sql};
use serde_json::Value;

#[test]
fn fixture_cases_have_their_hand_worked_counts_and_level() {
    let text = include_str!("../fixtures/hardness.jsonl");
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("fixture line is JSON");
        let sql = case["sql"].as_str().unwrap();
        let dialect: SqlDialect = case
            .get("dialect")
            .and_then(Value::as_str)
            .map_or(SqlDialect::Generic, |d| d.parse().unwrap());
        let why = case["why"].as_str().unwrap_or_default();
        let level: Option<Hardness> = serde_json::from_value(case["level"].clone()).unwrap();
        assert_eq!(
            hardness(sql, dialect),
            level,
            "line {}: {sql} ({why})",
            number + 1
        );
        if let Some(counts) = case.get("counts").and_then(Value::as_array) {
            let statements = parse_sql(sql, dialect, ParseLimits::default()).unwrap();
            let found = hardness_counts(&statements).unwrap();
            let expected: Vec<u64> = counts.iter().map(|c| c.as_u64().unwrap()).collect();
            assert_eq!(
                [found.components, found.nested, found.others].map(|c| c as u64),
                expected[..],
                "line {}: {sql} ({why})",
                number + 1
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} cases read");
}

#[test]
fn thresholds_follow_spider() {
    use qeval_core::HardnessCounts as C;
    let level = |components, nested, others| {
        Hardness::of_counts(C {
            components,
            nested,
            others,
        })
    };
    assert_eq!(level(1, 0, 0), Hardness::Easy);
    assert_eq!(level(0, 0, 2), Hardness::Medium);
    assert_eq!(level(2, 0, 1), Hardness::Medium);
    assert_eq!(level(2, 0, 3), Hardness::Hard);
    // Two components and two others fit no rule below extra.
    assert_eq!(level(2, 0, 2), Hardness::Extra);
    assert_eq!(level(3, 0, 2), Hardness::Hard);
    assert_eq!(level(1, 1, 0), Hardness::Hard);
    assert_eq!(level(1, 1, 1), Hardness::Extra);
    assert_eq!(level(4, 0, 0), Hardness::Extra);
    assert_eq!(level(0, 2, 0), Hardness::Extra);
}
