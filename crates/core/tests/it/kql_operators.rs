//! KQL operators in `where` predicates: every string, set, comparison and arithmetic operator of
//! the Kusto query language parses, and a misspelled one is a syntax error at its position. (That
//! the structural judge tells an operator from its negation is in `fixtures/judge/`.)

use qeval_core::{parse_kql, tokenize_kql};

const MAX_BYTES: usize = 1 << 20;

/// Queries that must parse, one per operator (and a few combinations).
const VALID: &[&str] = &[
    // Comparison and equality.
    r#"Traces | where State == "a""#,
    r#"Traces | where State != "a""#,
    r#"Traces | where State =~ "a""#,
    r#"Traces | where State !~ "a""#,
    "Traces | where Count < 5",
    "Traces | where Count <= 5",
    "Traces | where Count > 5",
    "Traces | where Count >= 5",
    "Traces | where Count <> 5",
    // Arithmetic.
    "Traces | where Count + 1 > 5",
    "Traces | where Count - 1 > 5",
    "Traces | where Count * 2 > 5",
    "Traces | where Count / 2 > 5",
    "Traces | where Count % 2 == 0",
    "Traces | where -Count < 5",
    // String operators, plain, case-sensitive and negated.
    r#"Traces | where State has "a""#,
    r#"Traces | where State !has "a""#,
    r#"Traces | where State has_cs "a""#,
    r#"Traces | where State !has_cs "a""#,
    r#"Traces | where State hasprefix "a""#,
    r#"Traces | where State !hasprefix "a""#,
    r#"Traces | where State hasprefix_cs "a""#,
    r#"Traces | where State !hasprefix_cs "a""#,
    r#"Traces | where State hassuffix "a""#,
    r#"Traces | where State !hassuffix "a""#,
    r#"Traces | where State hassuffix_cs "a""#,
    r#"Traces | where State !hassuffix_cs "a""#,
    r#"Traces | where State contains "a""#,
    r#"Traces | where State !contains "a""#,
    r#"Traces | where State contains_cs "a""#,
    r#"Traces | where State !contains_cs "a""#,
    r#"Traces | where State startswith "a""#,
    r#"Traces | where State !startswith "a""#,
    r#"Traces | where State startswith_cs "a""#,
    r#"Traces | where State !startswith_cs "a""#,
    r#"Traces | where State endswith "a""#,
    r#"Traces | where State !endswith "a""#,
    r#"Traces | where State endswith_cs "a""#,
    r#"Traces | where State !endswith_cs "a""#,
    r#"Traces | where State matches regex "^a.*""#,
    r#"Traces | where State matches regex @"\d+""#,
    // Set and range operators.
    r#"Traces | where State in ("a", "b")"#,
    r#"Traces | where State !in ("a", "b")"#,
    r#"Traces | where State in~ ("a", "b")"#,
    r#"Traces | where State !in~ ("a", "b")"#,
    r#"Traces | where State has_any ("a", "b")"#,
    r#"Traces | where State has_all ("a", "b")"#,
    "Traces | where Count between (1 .. 10)",
    "Traces | where Count !between (1 .. 10)",
    "Traces | where Timestamp between (ago(1d) .. now())",
    "Traces | where Id in ((Other | project Id))",
    "Traces | where Id !in ((Other | where Kind !has 'x' | project Id))",
    // Combinations, groupings, functions and literals.
    r#"Traces | where State !in~ ("a") and Name !contains "b" or Count !between (1 .. 2)"#,
    r#"Traces | where (State !has "a") and not(Name startswith "b")"#,
    r#"Traces | where * has "error""#,
    r#"Traces | where ['my col'] !startswith "x""#,
    "Traces | where Value > 1e5 and Size < 5l",
    "Traces | where isnotempty(State) and strlen(State) > 2",
    "Traces | where Tags has_any (dynamic(['a', 'b']))",
    "Traces | filter State !has 'a' | take 5",
    "let recent = Traces | where State !in~ ('a'); recent | where Count > 1",
];

/// Misspelled operators: the query, the word the error must name, and its line and column.
const MISSPELLED: &[(&str, &str, u64, u64)] = &[
    (r#"Traces | where State hazz "a""#, "hazz", 1, 22),
    (r#"Traces | where State contians "a""#, "contians", 1, 22),
    (
        "Traces\n| where Count > 1\n    and State startwith 'a'",
        "startwith",
        3,
        15,
    ),
    (r#"Traces | where State !hazz "a""#, "!hazz", 1, 22),
    (r#"Traces | where State !contians "a""#, "!contians", 1, 22),
    (r#"Traces | where (State hazz "a")"#, "hazz", 1, 23),
    (r#"Traces | where not(State hazz "a")"#, "hazz", 1, 26),
    (r#"Traces | where State == "a" AND Count > 1"#, "AND", 1, 29),
    (
        r#"Traces | where Id in ((Other | where Kind hazz "a" | project Id))"#,
        "hazz",
        1,
        43,
    ),
    (
        r#"let r = Traces | where State contians "a"; r | take 1"#,
        "contians",
        1,
        30,
    ),
];

#[test]
fn every_kql_operator_parses() {
    for query in VALID {
        if let Err(err) = parse_kql(query, MAX_BYTES) {
            panic!("{query}: {err}");
        }
    }
}

#[test]
fn misspelled_operators_are_syntax_errors_at_their_position() {
    for &(query, word, line, column) in MISSPELLED {
        let err = parse_kql(query, MAX_BYTES).expect_err(query);
        assert!(
            err.message.contains(word),
            "{query}: the error names {word}: {err}"
        );
        assert_eq!(
            (err.line, err.column),
            (Some(line), Some(column)),
            "{query}: {err}"
        );
    }
}

#[test]
fn negated_operators_keep_their_text_in_the_canonical_form() {
    let query = parse_kql(r#"Traces | where State !in~ ("a")"#, MAX_BYTES).expect("parses");
    assert_eq!(query.normalized, r#"Traces | where State !in~ ( "a" )"#);
    let tokens = tokenize_kql("State in~ ('a')").expect("lexes");
    assert_eq!(tokens[1].kind.to_string(), "in~");
    assert_eq!((tokens[1].line, tokens[1].column), (1, 7));
}
