//! Reading results stays linear in the input, whatever its shape.

use qeval_core::results::read_result_text;

#[test]
fn rows_that_each_bring_their_own_key_are_refused_at_the_limit_not_read_quadratically() {
    // 100,000 rows, each with a key no other row has: read as a table this would be 100,000 x
    // 100,000 cells.
    let text = format!(
        "[{}]",
        (0..100_000)
            .map(|i| format!("{{\"k{i}\": {i}}}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let err = read_result_text(&text).expect_err("too many columns");
    assert_eq!(err.path, "$[4096]");
    assert!(
        err.message.contains("more than 4096 different keys"),
        "{}",
        err.message
    );
}

#[test]
fn many_rows_with_the_same_keys_read_in_full() {
    let text = format!(
        "[{}]",
        (0..100_000)
            .map(|i| format!(
                "{{\"id\": {i}, \"name\": \"n{i}\", \"score\": {}.5}}",
                i % 7
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let table = read_result_text(&text).expect("reads");
    assert_eq!(table.rows.len(), 100_000);
    assert_eq!(table.columns.len(), 3);
}
