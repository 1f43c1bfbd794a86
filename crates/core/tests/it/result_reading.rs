//! Reading results stays linear in the input, whatever its shape.

use qeval_core::read_result_text;

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

#[test]
fn rows_as_objects_keep_the_files_column_order() {
    use qeval_core::{CompareOptions, Mode, compare_results};
    let records =
        read_result_text(r#"[{"name": "a", "id": 1}, {"name": "b", "id": 2}]"#).expect("records");
    assert_eq!(records.columns, ["name", "id"]);
    let rows = read_result_text(r#"{"columns": ["name", "id"], "rows": [["a", 1], ["b", 2]]}"#)
        .expect("rows");
    for mode in Mode::ALL {
        let comparison = compare_results(
            &records,
            &rows,
            &CompareOptions {
                mode,
                ..CompareOptions::default()
            },
        );
        assert!(comparison.equal, "{mode}: {comparison:?}");
    }
    // The same through a parsed tree (a result inside a pairs line).
    let tree: serde_json::Value =
        serde_json::from_str(r#"[{"name": "a", "id": 1}]"#).expect("json");
    assert_eq!(
        qeval_core::read_result(&tree).expect("tree").columns,
        ["name", "id"]
    );
}

/// Every shape, read straight from the text and through a JSON tree, gives the same table (or
/// the same error): the fast reader is an optimisation, never a second opinion.
#[test]
fn reading_from_text_and_from_a_tree_agree_on_every_shape() {
    let cells = [
        "null",
        "true",
        "false",
        "0",
        "-0",
        "1",
        "-7",
        "1.0",
        "1e3",
        "0.1",
        "-2.5e-3",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551616",
        "\"\"",
        "\"a\"",
        "\"caf\\u00e9\"",
        "\"1\"",
        "[1, 2]",
        "{\"x\": 1}",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for case in 0..3_000 {
        let rows = next(4);
        let width = 1 + next(3);
        let row = |next: &mut dyn FnMut(usize) -> usize, width: usize| {
            (0..width)
                .map(|_| cells[next(cells.len())])
                .collect::<Vec<_>>()
        };
        let keys = ["id", "name", "b", "a", "id"];
        let text = match next(7) {
            0 => format!(
                "[{}]",
                (0..rows)
                    .map(|_| format!("[{}]", row(&mut next, width).join(", ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            1 => format!(
                "[{}]",
                (0..rows)
                    .map(|_| {
                        let n = next(4);
                        let fields: Vec<String> = (0..n)
                            .map(|_| {
                                format!(
                                    "\"{}\": {}",
                                    keys[next(keys.len())],
                                    cells[next(cells.len())]
                                )
                            })
                            .collect();
                        format!("{{{}}}", fields.join(", "))
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            2 => format!("[{}]", row(&mut next, rows).join(", ")),
            3 => format!(
                "{{\"rows\": [{}], \"columns\": [{}]}}",
                (0..rows)
                    .map(|_| format!("[{}]", row(&mut next, width).join(", ")))
                    .collect::<Vec<_>>()
                    .join(", "),
                (0..width + next(2))
                    .map(|i| format!("\"c{i}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            4 => format!(
                "{{\"columns\": [{}], \"index\": [0], \"data\": [{}]}}",
                (0..width)
                    .map(|i| format!("\"c{i}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                (0..rows)
                    .map(|_| {
                        let w = width + next(2);
                        format!("[{}]", row(&mut next, w).join(", "))
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            5 => format!("[[1, 2], {}]", cells[next(cells.len())]),
            _ => cells[next(cells.len())].to_string(),
        };
        let from_text = read_result_text(&text);
        let tree: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let from_tree = qeval_core::read_result(&tree);
        assert_eq!(from_text, from_tree, "case {case}: {text}");
    }
}

#[test]
fn json_lines_results_are_read_line_by_line_and_errors_name_the_line() {
    let records =
        read_result_text("{\"name\": \"a\", \"id\": 1}\n\n{\"name\": \"b\", \"id\": 2}\n")
            .expect("records");
    assert_eq!(records.columns, ["name", "id"]);
    assert_eq!(records.rows.len(), 2);
    let rows = read_result_text("[1, \"a\"]\n[2, \"b\"]\n[3, null]").expect("rows");
    assert_eq!((rows.rows.len(), rows.width()), (3, 2));
    // The same table as the array of the same lines.
    assert_eq!(
        rows,
        read_result_text("[[1, \"a\"], [2, \"b\"], [3, null]]").expect("array")
    );
    let err = read_result_text("[1, 2]\n[3]\n").expect_err("ragged");
    assert_eq!(err.path, "line 2");
    assert!(
        err.message
            .contains("the row has 1 values; the row on line 1 has 2"),
        "{}",
        err.message
    );
    let err = read_result_text("{\"a\": 1}\n[1]\n").expect_err("mixed");
    assert_eq!(err.path, "line 2");
    assert!(
        err.message
            .contains("expected a record (an object) like line 1"),
        "{}",
        err.message
    );
    let err = read_result_text("{\"a\": 1}\n{\"a\": \n").expect_err("broken line");
    assert_eq!(err.path, "line 2");
    assert!(err.message.starts_with("invalid JSON"), "{}", err.message);
}
