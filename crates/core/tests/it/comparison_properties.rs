//! Properties every comparison mode keeps, on result sets proptest makes up: what users rely on
//! when they trust a verdict without reading the rows.

use proptest::prelude::*;
use qeval_core::{CompareOptions, Mode, ResultSet, Value, compare_results};

/// A cell of any kind, with few distinct values so that duplicates and near-misses are common.
fn cell() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(Value::Int),
        (-3i64..4).prop_map(|n| Value::Float(n as f64 / 2.0)),
        prop::sample::select(vec!["a", "b", "A", "1", ""]).prop_map(|t| Value::Text(t.into())),
    ]
}

/// Rows of one width (1 to 3 columns), 0 to 12 of them.
fn rows() -> impl Strategy<Value = Vec<Vec<Value>>> {
    (1usize..4)
        .prop_flat_map(|width| prop::collection::vec(prop::collection::vec(cell(), width), 0..12))
}

fn verdict(mode: Mode, expected: &[Vec<Value>], generated: &[Vec<Value>]) -> bool {
    let options = CompareOptions {
        mode,
        ..CompareOptions::default()
    };
    let (expected, generated) = (
        ResultSet::unnamed(expected.to_vec()),
        ResultSet::unnamed(generated.to_vec()),
    );
    compare_results(&expected, &generated, &options).equal
}

const MODES: [Mode; 6] = [
    Mode::Bag,
    Mode::Set,
    Mode::Seed,
    Mode::Subset,
    Mode::F1,
    Mode::SoftF1,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_result_equals_itself_in_every_mode(rows in rows()) {
        for mode in MODES {
            prop_assert!(verdict(mode, &rows, &rows), "{mode:?} on {rows:?}");
        }
    }

    #[test]
    fn row_order_does_not_count_when_order_is_not_asked_for(
        rows in rows(),
        shuffle in any::<prop::sample::Index>(),
    ) {
        let mut moved = rows.clone();
        if !moved.is_empty() {
            let by = shuffle.index(moved.len());
            moved.rotate_left(by);
        }
        // Not soft-f1: BIRD's Soft-F1 pairs the i-th distinct rows of each side, so it is
        // order-sensitive by design, and qeval reproduces it.
        for mode in MODES.into_iter().filter(|m| *m != Mode::SoftF1) {
            prop_assert!(verdict(mode, &rows, &moved), "{mode:?}: {rows:?} vs {moved:?}");
        }
    }

    #[test]
    fn bag_and_set_verdicts_are_symmetric(a in rows(), b in rows()) {
        for mode in [Mode::Bag, Mode::Set] {
            prop_assert_eq!(verdict(mode, &a, &b), verdict(mode, &b, &a), "{:?}", mode);
        }
    }

    #[test]
    fn set_ignores_duplicates_and_bag_counts_them(rows in rows().prop_filter("a row to repeat", |r| !r.is_empty())) {
        let mut doubled = rows.clone();
        doubled.push(rows[0].clone());
        prop_assert!(verdict(Mode::Set, &rows, &doubled));
        prop_assert!(!verdict(Mode::Bag, &rows, &doubled));
    }

    #[test]
    fn a_missing_row_fails_bag_and_a_row_of_a_new_value_fails_set(
        rows in rows().prop_filter("a row to drop", |r| !r.is_empty()),
    ) {
        let fewer = rows[1..].to_vec();
        prop_assert!(!verdict(Mode::Bag, &rows, &fewer));
        // A value no generated cell can take (cells are small numbers, short text, NULL).
        let mut other = rows.clone();
        other[0][0] = Value::Text("a value never generated".into());
        prop_assert!(!verdict(Mode::Set, &rows, &other));
    }
}
