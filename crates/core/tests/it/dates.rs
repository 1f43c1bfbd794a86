//! The `date` answer type: real calendar dates, and real clock times after them.

use qeval_core::{AnswerType, datatype_validity};
use serde_json::json;

fn is_date(text: &str) -> bool {
    datatype_validity(AnswerType::Date, &json!(text)).valid
}

#[test]
fn valid_dates() {
    for text in [
        "2024-01-31",
        "2024-12-31",
        "1999-06-15",
        "0001-01-01",
        "9999-12-31",
        " 2024-01-31 ",
    ] {
        assert!(is_date(text), "{text:?} should be a date");
    }
}

#[test]
fn leap_days() {
    assert!(is_date("2024-02-29"), "2024 is a leap year");
    assert!(is_date("2000-02-29"), "2000 is a leap year");
    assert!(!is_date("2023-02-29"), "2023 is not a leap year");
    assert!(!is_date("1900-02-29"), "1900 is not a leap year");
}

#[test]
fn days_that_do_not_exist() {
    for text in [
        "2024-02-31",
        "2024-02-30",
        "2024-04-31",
        "2024-13-01",
        "2024-00-10",
        "2024-01-00",
        "2024-01-32",
    ] {
        assert!(!is_date(text), "{text:?} is no date");
    }
}

#[test]
fn malformed_dates() {
    for text in [
        "",
        "2024",
        "2024-1-01",
        "2024-01-1",
        "24-01-01",
        "2024/01/01",
        "2024-01-01x",
        "2024-é1-01",
        "2024-01-011",
        "+2024-01-01",
        "x2024-01-01",
    ] {
        assert!(!is_date(text), "{text:?} is no date");
    }
}

#[test]
fn valid_times() {
    for text in [
        "2024-01-01T10:00",
        "2024-01-01 10:00",
        "2024-01-01T00:00:00",
        "2024-01-01T23:59:59",
        "2024-01-01 23:59:59.5",
        "2024-01-01T10:00:00.123456",
        "2024-01-01T10:00:00.1234567891",
        "2024-01-01T10:00:00Z",
        "2024-01-01T10:00Z",
        "2024-01-01T10:00:00+02:00",
        "2024-01-01T10:00:00-05:30",
        "2024-01-01T10:00:00.250+14:00",
        "2024-02-29T12:00:00Z",
    ] {
        assert!(is_date(text), "{text:?} should be a date and time");
    }
}

#[test]
fn invalid_times() {
    for text in [
        "2024-01-01Tgarbage",
        "2024-01-01T",
        "2024-01-01T10",
        "2024-01-01 25:00",
        "2024-01-01T24:00",
        "2024-01-01T10:60",
        "2024-01-01T10:00:60",
        "2024-01-01T1:00",
        "2024-01-01T10:00:00.",
        "2024-01-01T10:00.5",
        "2024-01-01T10:00:00.5x",
        "2024-01-01T10:00:00ZZ",
        "2024-01-01T10:00:00+2",
        "2024-01-01T10:00:00+0200",
        "2024-01-01T10:00:00+24:00",
        "2024-01-01T10:00:00+02:60",
        "2024-01-01T10:00:00 +02:00",
        "2024-01-01T10:00:00:00",
        "2024-01-01X10:00",
        "2024-02-31T10:00:00Z",
    ] {
        assert!(!is_date(text), "{text:?} is no date and time");
    }
}

#[test]
fn tables_and_other_values() {
    let valid = |value: serde_json::Value| datatype_validity(AnswerType::Date, &value).valid;
    assert!(valid(json!([{"d": "2024-02-29T10:00:00Z"}])));
    assert!(valid(json!({"columns": ["d"], "rows": [["2024-02-29"]]})));
    assert!(!valid(json!([{"d": "2024-02-31"}])));
    assert!(!valid(json!([{"d": "2024-01-01Tgarbage"}])));
    assert!(!valid(json!(20240101)));
    assert!(!valid(json!(null)));
    let verdict = datatype_validity(AnswerType::Date, &json!("2024-02-31"));
    assert_eq!(verdict.score, 0.0);
    assert_eq!(
        verdict.explanation,
        "Expected a date (YYYY-MM-DD), got the string \"2024-02-31\""
    );
    assert_eq!(
        datatype_validity(AnswerType::Date, &json!("2024-02-29")).explanation,
        "Valid date value"
    );
}
