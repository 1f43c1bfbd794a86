//! Wrong answers get the right verdict and the right diagnostic, in every mode, whatever
//! shortcut found them: a near miss, a row or a column fewer, and columns too alike to tell
//! apart by their values.

use qeval_core::{Case, CompareOptions, Mode, ResultSet, Value, case_pair, compare_results};

fn run(mode: Mode, expected: &ResultSet, generated: &ResultSet) -> qeval_core::Comparison {
    compare_results(
        expected,
        generated,
        &CompareOptions {
            mode,
            ..CompareOptions::default()
        },
    )
}

#[test]
fn every_negative_case_is_unequal_in_every_mode() {
    for case in Case::ALL.into_iter().filter(|case| !case.is_equal()) {
        let (expected, generated) = case_pair(case, 3_000, 8, 11);
        for mode in Mode::ALL {
            let comparison = run(mode, &expected, &generated);
            if mode == Mode::Subset && case == Case::AlikeColumnsNearMiss {
                // `subset` compares whole columns, each on its own, and every column still
                // holds the same values.
                assert!(comparison.equal, "{}", comparison.explanation);
                continue;
            }
            assert!(!comparison.equal, "{mode} called {case:?} equal");
            assert!(comparison.score < 1.0, "{mode} scored {case:?} 1");
        }
    }
}

#[test]
fn bag_counts_the_rows_a_near_miss_still_shares() {
    // Over 16,384 rows, so the count sorts its prints bucket by bucket.
    let (expected, generated) = case_pair(Case::NearMiss, 20_000, 8, 3);
    let comparison = run(Mode::Bag, &expected, &generated);
    assert!(!comparison.equal);
    assert_eq!(comparison.matched_rows, 19_999);

    let (expected, generated) = case_pair(Case::RowFewer, 20_000, 8, 3);
    let comparison = run(Mode::Bag, &expected, &generated);
    assert_eq!(comparison.matched_rows, 19_999);
    assert_eq!(
        comparison.explanation,
        "20000 rows expected, 19999 rows generated"
    );

    let (expected, generated) = case_pair(Case::AlikeColumnsNearMiss, 20_000, 8, 3);
    let comparison = run(Mode::Bag, &expected, &generated);
    assert_eq!(
        comparison.matched_rows, 19_998,
        "two rows had a cell swapped"
    );
}

#[test]
fn bag_finds_the_column_order_of_alike_columns() {
    let (expected, generated) = case_pair(Case::AlikeColumns, 20_000, 8, 5);
    let comparison = run(Mode::Bag, &expected, &generated);
    assert!(comparison.equal, "{}", comparison.explanation);
    let order: Vec<&str> = comparison
        .alignment
        .iter()
        .map(|pair| pair.generated.as_str())
        .collect();
    assert_eq!(order, ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"]);
}

#[test]
fn bag_counts_shared_rows_with_pythons_equality_though_its_verdict_keeps_spiders_quirk() {
    // Spider sorts each row's values by `str(x) + str(type(x))`, so (1, 1.5) and (1.0, 1.5)
    // differ; the count of shared rows compares values as Python does, 1 == 1.0.
    let expected = ResultSet::unnamed(vec![vec![Value::Int(1), Value::Float(1.5)]]);
    let generated = ResultSet::unnamed(vec![vec![Value::Float(1.0), Value::Float(1.5)]]);
    let comparison = run(Mode::Bag, &expected, &generated);
    assert!(!comparison.equal);
    assert_eq!(comparison.matched_rows, 1);
}

#[test]
fn set_knows_tables_of_different_widths_differ_before_reading_their_rows() {
    let (expected, generated) = case_pair(Case::ColumnFewer, 1_000, 8, 1);
    let comparison = run(Mode::Set, &expected, &generated);
    assert!(!comparison.equal);
    assert_eq!(comparison.matched_rows, 0);
    assert_eq!(
        comparison.explanation,
        "Different sets of rows: expected rows have 8 columns, generated rows 7 columns"
    );
    // Both empty stay equal, whatever their column names say.
    let empty = |columns: usize| {
        ResultSet::named(
            (0..columns).map(|c| format!("c{c}")).collect(),
            Vec::<Vec<Value>>::new(),
        )
    };
    assert!(run(Mode::Set, &empty(8), &empty(7)).equal);
    // Rows of uneven width go the long way, and a row of the right width still counts.
    let expected = ResultSet::unnamed(vec![
        vec![Value::Int(1)],
        vec![Value::Int(2), Value::Int(3)],
    ]);
    let generated = ResultSet::unnamed(vec![vec![Value::Int(1)]]);
    let comparison = run(Mode::Set, &expected, &generated);
    assert!(!comparison.equal);
    assert_eq!(comparison.matched_rows, 1);
}
