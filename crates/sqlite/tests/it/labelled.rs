//! The equivalence check against the labelled pairs in `tests/equivalence/pairs.jsonl`: rewrites
//! that are equivalent, near misses that are not, and pairs that differ only through NULLs or
//! duplicates in a key. Holds the check to at least 97% agreement with the labels, at most 1% of
//! different pairs called equivalent and at most 5% without a verdict; re-runs every
//! counterexample to see that it really separates the two queries, and checks it is small.

use std::collections::BTreeMap;

use qeval_core::{
    CompareOptions, Mode, ParseLimits, ProofKind, SqlDialect, compare_results, order_matters_for,
    read_result, to_sqlite,
};
use qeval_sqlite::{
    Database, EquivalenceOptions, EquivalenceReport, EquivalenceVerdict, Limits, SchemaChoice,
    check_equivalence,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct LabelledPair {
    id: String,
    dialect: SqlDialect,
    category: String,
    label: String,
    expected_sql: String,
    generated_sql: String,
    #[serde(default)]
    schema: Option<String>,
    /// In `classes.jsonl`: which class of the constraint issue the pair belongs to.
    #[serde(default)]
    class: Option<String>,
}

fn pairs(file: &str) -> Vec<LabelledPair> {
    let path = format!(
        "{}/../../tests/equivalence/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{file} line {}: {e}", i + 1))
        })
        .collect()
}

fn check(pair: &LabelledPair) -> EquivalenceReport {
    let defaults = EquivalenceOptions::default();
    check_with(pair, defaults.seed, defaults.search)
}

/// The check at another seed, with `search` boundary-search candidates (0: none).
fn check_with(pair: &LabelledPair, seed: u64, search: usize) -> EquivalenceReport {
    let schema = match &pair.schema {
        Some(text) => SchemaChoice::Written(text),
        None => SchemaChoice::Infer,
    };
    let options = EquivalenceOptions {
        dialect: pair.dialect,
        seed,
        search,
        ..EquivalenceOptions::default()
    };
    check_equivalence(&pair.expected_sql, &pair.generated_sql, schema, &options)
}

/// Whether the check's report says what the label says. An `equivalent_if` pair agrees when the
/// check states the assumption: as its verdict, or, when part of it is that a plain column (no
/// key, joined to no other table) is never NULL, which the check does not assume, beside the
/// verdict *different*.
fn agrees(label: &str, report: &EquivalenceReport) -> bool {
    match label {
        "equivalent" => report.verdict == EquivalenceVerdict::Equivalent,
        "equivalent_if" => {
            report.verdict == EquivalenceVerdict::EquivalentUnderAssumption
                || (report.verdict == EquivalenceVerdict::Different && report.assumption.is_some())
        }
        "different" => report.verdict == EquivalenceVerdict::Different,
        other => panic!("unknown label {other}"),
    }
}

/// Whether the two queries give different results on the counterexample's database.
fn separates(pair: &LabelledPair, report: &EquivalenceReport) -> bool {
    let Some(counterexample) = &report.counterexample else {
        return false;
    };
    let mut db = Database::from_script(&counterexample.script).expect("the script builds");
    let run = |db: &mut Database, sql: &str| {
        let sql = to_sqlite(sql, pair.dialect, ParseLimits::default()).expect("translates");
        db.query(&sql, &Limits::default())
            .map(|out| out.to_json())
            .map_err(|e| e.to_string())
    };
    let (expected, generated) = (
        run(&mut db, &pair.expected_sql),
        run(&mut db, &pair.generated_sql),
    );
    match (expected, generated) {
        (Ok(e), Ok(g)) => {
            let options = CompareOptions {
                mode: Mode::Bag,
                order_matters: order_matters_for(Some(&pair.expected_sql)),
                ..CompareOptions::default()
            };
            let (e, g) = (
                read_result(&e).expect("reads"),
                read_result(&g).expect("reads"),
            );
            !compare_results(&e, &g, &options).equal
        }
        (Ok(_), Err(_)) => true,
        _ => false,
    }
}

#[test]
fn the_check_agrees_with_the_labels() {
    holds_to_the_labels(&pairs("pairs.jsonl"), 300);
}

/// A second set, written apart from the first and never used to tune the generator: harder
/// queries (window functions, self-joins, nested and correlated subqueries, set operations,
/// dates, empty aggregates) over other schemas.
#[test]
fn the_check_agrees_with_the_held_out_labels() {
    holds_to_the_labels(&pairs("heldout.jsonl"), 200);
}

/// The classes of pair the constraint work named, written after the check was (not used to
/// tune it): constructs of other dialects translated for SQLite, `SELECT *` over an inferred
/// table, select-project-join rewrites, differences only a constraint removes, and
/// differences at a boundary. Each class is held to its own floor at seeds 1, 2 and 3, with
/// its agreement, wrong verdicts and no-verdicts printed, and the pairs missed at seed 1: the
/// constraint class is labelled with every constraint that removes the difference, while the
/// check offers uniqueness and foreign keys only toward a table's own key and whole numbers only
/// for a column cast to an integer (offered everywhere, they turn real differences into
/// qualified agreements: see `assumption.rs`). What the boundary search adds to the boundary class is held below.
#[test]
fn the_check_agrees_with_the_labels_of_each_class() {
    let pairs = pairs("classes.jsonl");
    assert!(pairs.len() >= 120, "{} pairs", pairs.len());
    let floors = [
        ("construct", 1.0),
        ("star", 1.0),
        ("provable", 1.0),
        ("constraint", 0.5),
        ("boundary", 1.0),
    ];
    let mut failures = Vec::new();
    for seed in 1..=3 {
        for (class, floor) in floors {
            let members: Vec<&LabelledPair> = pairs
                .iter()
                .filter(|p| p.class.as_deref() == Some(class))
                .collect();
            let (mut misses, mut no_verdict, mut wrongly_equivalent) = (Vec::new(), 0, 0);
            for pair in &members {
                let report = check_with(pair, seed, EquivalenceOptions::default().search);
                if !agrees(&pair.label, &report) {
                    no_verdict += usize::from(report.verdict == EquivalenceVerdict::NoVerdict);
                    wrongly_equivalent += usize::from(
                        pair.label == "different"
                            && report.verdict != EquivalenceVerdict::Different
                            && report.verdict != EquivalenceVerdict::NoVerdict,
                    );
                    misses.push(format!(
                        "{} [{}] labelled {}, got {:?}: {}",
                        pair.id,
                        pair.category,
                        pair.label,
                        report.verdict,
                        report.explanation()
                    ));
                }
                if report.counterexample.is_some() && !separates(pair, &report) {
                    failures.push(format!(
                        "{} at seed {seed}: the counterexample does not separate",
                        pair.id
                    ));
                }
            }
            let agree = members.len() - misses.len();
            println!(
                "seed {seed} {class}: {agree}/{} agree, {} wrong ({wrongly_equivalent} different called equivalent), {no_verdict} without a verdict",
                members.len(),
                misses.len() - no_verdict
            );
            if seed == 1 {
                for miss in &misses {
                    println!("  miss: {miss}");
                }
            }
            if (agree as f64) < floor * members.len() as f64 {
                failures.push(format!(
                    "{class} at seed {seed}: {agree}/{} agree, under {floor}:\n{}",
                    members.len(),
                    misses.join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The boundary class at several seeds, with the boundary search and without it: the search
/// finds what the generated databases miss (a group of exactly five rows through a join, a
/// `SUM` on its threshold while a `MAX` stays under another, `b.year = a.year + 4`), at every
/// seed, and never calls a pair labelled different equivalent that the databases alone did not.
#[test]
fn the_boundary_search_finds_the_boundary_class_at_every_seed() {
    let pairs = pairs("classes.jsonl");
    let boundary: Vec<&LabelledPair> = pairs
        .iter()
        .filter(|p| p.class.as_deref() == Some("boundary"))
        .collect();
    assert!(boundary.len() >= 12, "{} boundary pairs", boundary.len());
    let search = EquivalenceOptions::default().search;
    let agreeing = |seed: u64, search: usize| -> Vec<&str> {
        boundary
            .iter()
            .filter(|p| agrees(&p.label, &check_with(p, seed, search)))
            .map(|p| p.id.as_str())
            .collect()
    };
    for seed in 1..=3 {
        let (without, with) = (agreeing(seed, 0), agreeing(seed, search));
        println!(
            "seed {seed}: {}/{n} agree without the search, {}/{n} with it",
            without.len(),
            with.len(),
            n = boundary.len()
        );
        assert!(
            without.iter().all(|id| with.contains(id)),
            "seed {seed}: the search lost {without:?} -> {with:?}"
        );
        let missed: Vec<&str> = boundary
            .iter()
            .map(|p| p.id.as_str())
            .filter(|id| !with.contains(id))
            .collect();
        assert!(
            missed.is_empty() && with.len() > without.len() + 3,
            "seed {seed}: {} of {} with the search (missed {missed:?}), {} without",
            with.len(),
            boundary.len(),
            without.len()
        );
    }
}

fn holds_to_the_labels(pairs: &[LabelledPair], at_least: usize) {
    assert!(pairs.len() >= at_least, "{} pairs", pairs.len());
    let (mut agree, mut no_verdict, mut false_equivalent, mut different) = (0, 0, 0, 0);
    // `equivalent_if` pairs whose assumption is stated beside the verdict different.
    let mut stated = 0;
    let (mut counterexamples, mut small, mut not_separating) = (0, 0, Vec::new());
    let mut misses = Vec::new();
    let mut by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for pair in pairs {
        let report = check(pair);
        let entry = by_category.entry(pair.category.as_str()).or_default();
        entry.1 += 1;
        if agrees(&pair.label, &report) {
            agree += 1;
            entry.0 += 1;
            stated += usize::from(
                pair.label == "equivalent_if" && report.verdict == EquivalenceVerdict::Different,
            );
        } else {
            misses.push(format!(
                "{} [{} / {}] labelled {}, got {:?}: {}",
                pair.id,
                pair.category,
                pair.dialect.name(),
                pair.label,
                report.verdict,
                report.explanation()
            ));
        }
        if report.verdict == EquivalenceVerdict::NoVerdict {
            no_verdict += 1;
        }
        if pair.label == "different" {
            different += 1;
            if matches!(
                report.verdict,
                EquivalenceVerdict::Equivalent | EquivalenceVerdict::EquivalentUnderAssumption
            ) {
                false_equivalent += 1;
            }
        }
        if let Some(counterexample) = &report.counterexample {
            counterexamples += 1;
            if counterexample.tables.iter().all(|t| t.rows.len() <= 5) {
                small += 1;
            }
            if !separates(pair, &report) {
                not_separating.push(pair.id.clone());
            }
        }
    }
    let total = pairs.len();
    let percent = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    println!("| category | agree | pairs |\n|---|---|---|");
    for (category, (a, n)) in &by_category {
        println!("| {category} | {a} | {n} |");
    }
    println!(
        "\nagreement {agree}/{total} ({:.1}%), {stated} of them an assumption stated beside a difference; different called equivalent {false_equivalent}/{different} ({:.1}%); no verdict {no_verdict} ({:.1}%); counterexamples {counterexamples}, at most 5 rows per table in {small} ({:.1}%)",
        percent(agree, total),
        percent(false_equivalent, different),
        percent(no_verdict, total),
        percent(small, counterexamples)
    );
    for miss in &misses {
        println!("miss: {miss}");
    }
    assert!(
        not_separating.is_empty(),
        "counterexamples that do not separate the queries: {not_separating:?}"
    );
    assert!(
        percent(agree, total) >= 97.0,
        "agreement {agree}/{total}:\n{}",
        misses.join("\n")
    );
    assert!(
        percent(false_equivalent, different) <= 1.0,
        "{false_equivalent} of {different} different pairs called equivalent"
    );
    assert!(
        percent(no_verdict, total) <= 5.0,
        "{no_verdict} of {total} without a verdict"
    );
    assert!(
        percent(small, counterexamples) >= 90.0,
        "{small} of {counterexamples} counterexamples are at most 5 rows per table"
    );
}

/// A proof is claimed only where the labels (checked on SQLite by `verify_labels.py`) say
/// equivalent, in every labelled set; the provable class's plain rewrites (join order, aliases,
/// commuted comparisons, a cross join filtered in `WHERE`) are proved, and so are its redundant
/// self-joins under `DISTINCT` (containment both ways), while its pairs that need transitivity,
/// a redundant condition, a self-join without `DISTINCT`, or another column order keep the
/// evidence.
#[test]
fn proofs_are_claimed_only_for_pairs_labelled_equivalent() {
    let (mut claimed, mut contained) = (Vec::new(), Vec::new());
    for file in ["pairs.jsonl", "heldout.jsonl", "classes.jsonl"] {
        for pair in pairs(file) {
            let proof =
                qeval_core::spj_proof(&pair.expected_sql, &pair.generated_sql, pair.dialect);
            if proof.is_some() {
                assert_eq!(pair.label, "equivalent", "{} is proved: {proof:?}", pair.id);
                claimed.push((pair.class.clone(), pair.category.clone()));
                if proof.is_some_and(|p| p.kind == ProofKind::MutuallyContained) {
                    contained.push(pair.id.clone());
                }
            }
        }
    }
    let provable: Vec<&String> = claimed
        .iter()
        .filter(|(class, _)| class.as_deref() == Some("provable"))
        .map(|(_, category)| category)
        .collect();
    println!(
        "proofs: {} in all, {} in the provable class: {provable:?}; by containment: {contained:?}",
        claimed.len(),
        provable.len()
    );
    assert!(provable.len() >= 5, "{provable:?}");
    for id in ["cls-0115", "cls-0117", "cls-0127", "cls-0129"] {
        assert!(
            contained.iter().any(|c| c == id),
            "{id} not proved: {contained:?}"
        );
    }
}
