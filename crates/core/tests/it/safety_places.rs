//! Each safety finding says where in the query it is, so the playground's editor can mark the
//! very words: a statement by its keyword, a function by its name, an always-true condition and
//! a trailing comment by their own text.

use qeval_core::{ParseLimits, Place, SqlDialect, check_sql_read_only};

/// The text each finding of `sql` covers, violations first, then warnings.
fn marked(dialect: SqlDialect, sql: &str) -> Vec<String> {
    let report = check_sql_read_only(sql, dialect, ParseLimits::default());
    report
        .violations
        .iter()
        .chain(&report.warnings)
        .map(|finding| {
            let place = finding
                .place
                .unwrap_or_else(|| panic!("{sql}: {} has no place", finding.reason));
            text_at(sql, place)
        })
        .collect()
}

fn text_at(sql: &str, place: Place) -> String {
    let lines: Vec<&str> = sql.lines().collect();
    let mut text = String::new();
    for line in place.line..=place.end_line {
        let chars: Vec<char> = lines[line as usize - 1].chars().collect();
        let from = if line == place.line {
            place.column - 1
        } else {
            0
        } as usize;
        let to = if line == place.end_line {
            (place.end_column - 1) as usize
        } else {
            chars.len()
        };
        if line > place.line {
            text.push('\n');
        }
        text.extend(&chars[from.min(chars.len())..to.min(chars.len())]);
    }
    text
}

#[test]
fn statements_are_marked_at_their_keyword() {
    assert_eq!(marked(SqlDialect::Generic, "DROP TABLE users"), ["DROP"]);
    assert_eq!(
        marked(SqlDialect::Generic, "SELECT 1;\n  DELETE FROM users"),
        ["DELETE", "DELETE"],
        "the second statement is both the extra statement and the write"
    );
    assert_eq!(
        marked(SqlDialect::Postgres, "  -- why\n  GRANT SELECT ON t TO bob"),
        ["GRANT"]
    );
}

#[test]
fn functions_and_injection_shapes_are_marked_where_they_are() {
    assert_eq!(
        marked(
            SqlDialect::Postgres,
            "SELECT id,\n       pg_sleep(5) FROM t"
        ),
        ["pg_sleep"]
    );
    assert_eq!(
        marked(
            SqlDialect::Generic,
            "SELECT * FROM u WHERE name = 'x' OR 1 = 1"
        ),
        ["1 = 1"]
    );
    let commented = marked(
        SqlDialect::Generic,
        "SELECT * FROM u WHERE name = 'admin' --' AND password = 'x'",
    );
    assert_eq!(commented.len(), 1);
    assert!(
        commented[0].starts_with("--' AND password"),
        "{commented:?}"
    );
}

#[test]
fn unparseable_text_is_marked_at_the_parse_error() {
    let sql = "SELECT a\n  FROM t WHERE ) AND b";
    let report = check_sql_read_only(sql, SqlDialect::Generic, ParseLimits::default());
    assert!(!report.safe);
    let place = report.violations[0].place.expect("a place");
    assert_eq!(text_at(sql, place), ")", "{:?}", report.violations);
}

#[test]
fn kql_management_commands_are_marked_at_the_command() {
    let report = qeval_core::check_kql_read_only("\n  .drop table T", 1 << 20);
    let place = report.violations[0].place.expect("a place");
    assert_eq!(text_at("\n  .drop table T", place), ".drop");
}
