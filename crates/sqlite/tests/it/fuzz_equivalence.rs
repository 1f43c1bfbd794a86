//! Feeds mutated queries from the labelled pairs to the equivalence check (schema inference, the
//! generator, SQLite, shrinking), mutated schemas to the written-schema path, and random bytes
//! and CSV to the database loaders, and checks that nothing panics and a query is never found
//! different from itself.
//!
//! Runs for `QEVAL_FUZZ_SECONDS` (default 2) so the normal test run stays quick; `cargo xtask
//! fuzz` gives it its share of the fuzzing time in release mode.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use qeval_sqlite::{
    Database, EquivalenceOptions, EquivalenceVerdict, SchemaChoice, check_equivalence,
};

/// A small deterministic generator (xorshift), so a failure is reproduced by its seed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

struct FuzzPair {
    expected: String,
    generated: String,
    schema: Option<String>,
}

fn pairs() -> Vec<FuzzPair> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/equivalence/pairs.jsonl"
    ))
    .expect("the labelled pairs");
    text.lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("json");
            FuzzPair {
                expected: value["expected_sql"].as_str().unwrap_or_default().into(),
                generated: value["generated_sql"].as_str().unwrap_or_default().into(),
                schema: value["schema"].as_str().map(str::to_string),
            }
        })
        .collect()
}

const SPLICES: &[&str] = &[
    " NULL",
    " 0",
    " -1",
    " 1e308",
    " ''",
    " 'x'",
    " (",
    " )",
    " ,",
    " *",
    " AND",
    " OR NOT",
    " GROUP BY 1",
    " ORDER BY 1 DESC",
    " LIMIT 0",
    " DISTINCT",
    " UNION SELECT 1",
    " IS NULL",
    " LIKE '%'",
    " BETWEEN 1 AND 0",
    " CAST(1 AS TEXT)",
    " COUNT(*)",
    " JOIN t ON 1",
    " WITH c AS (SELECT 1)",
    " CASE WHEN 1 THEN 2 END",
    " EXISTS (SELECT 1)",
    ";",
];

/// A query changed at the token level: a word dropped, doubled or swapped, or a fragment spliced in.
fn mutate(rng: &mut XorShift, sql: &str) -> String {
    let mut words: Vec<String> = sql.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(words.len());
        match rng.below(4) {
            0 if words.len() > 1 => {
                words.remove(at);
            }
            1 => {
                let word = words[at].clone();
                words.insert(at, word);
            }
            2 => {
                let other = rng.below(words.len());
                words.swap(at, other);
            }
            _ => words.insert(at, SPLICES[rng.below(SPLICES.len())].trim().to_string()),
        }
    }
    words.join(" ")
}

fn options(seed: u64) -> EquivalenceOptions {
    EquivalenceOptions {
        databases: 12,
        seed,
        ..EquivalenceOptions::default()
    }
}

/// Checks a mutated pair; true when the generated query, checked against itself, ran (so the
/// run exercised the generator and SQLite, not only the parser).
fn check_pair(rng: &mut XorShift, pair: &FuzzPair) -> bool {
    let expected = if rng.below(3) == 0 {
        mutate(rng, &pair.expected)
    } else {
        pair.expected.clone()
    };
    // Half the time the generated query is left whole, so the generator and SQLite get queries
    // that run as often as broken ones.
    let generated = if rng.below(2) == 0 {
        mutate(rng, &pair.generated)
    } else {
        pair.generated.clone()
    };
    let seed = rng.next() % 1000;
    let _ = check_equivalence(&expected, &generated, SchemaChoice::Infer, &options(seed));
    // A query against itself: never a counterexample.
    let same = check_equivalence(&generated, &generated, SchemaChoice::Infer, &options(seed));
    assert_ne!(
        same.verdict,
        EquivalenceVerdict::Different,
        "{generated:?} differs from itself"
    );
    if let Some(schema) = &pair.schema {
        let schema = if rng.below(2) == 0 {
            mutate(rng, schema)
        } else {
            schema.clone()
        };
        let _ = check_equivalence(
            &expected,
            &generated,
            SchemaChoice::Written(&schema),
            &options(seed),
        );
    }
    same.verdict == EquivalenceVerdict::Equivalent
}

fn check_loaders(rng: &mut XorShift) {
    let bytes: Vec<u8> = (0..rng.below(2048)).map(|_| rng.next() as u8).collect();
    let _ = Database::open_bytes(&bytes);
    let alphabet = b"ab,;\t\"\r\n1.-x ";
    let csv: String = (0..rng.below(400))
        .map(|_| alphabet[rng.below(alphabet.len())] as char)
        .collect();
    let _ = Database::from_csv(&[("data.csv".to_string(), format!("a,b\n{csv}"))]);
}

#[test]
fn the_equivalence_check_never_panics() {
    let seconds: u64 = std::env::var("QEVAL_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let seed = std::env::var("QEVAL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_2026);
    let pairs = pairs();
    let mut rng = XorShift(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut inputs, mut ran) = (0u64, 0u64);
    while Instant::now() < deadline {
        let pair = &pairs[rng.below(pairs.len())];
        let mut state = XorShift(rng.next() | 1);
        let start = state.0;
        match catch_unwind(AssertUnwindSafe(|| check_pair(&mut state, pair))) {
            Ok(equivalent) => ran += u64::from(equivalent),
            Err(_) => {
                panic!("input #{inputs} broke the equivalence check (seed {seed}, state {start})")
            }
        }
        let mut state = XorShift(rng.next() | 1);
        let start = state.0;
        if catch_unwind(AssertUnwindSafe(|| check_loaders(&mut state))).is_err() {
            panic!("input #{inputs} broke a database loader (seed {seed}, state {start})");
        }
        inputs += 1;
    }
    println!(
        "fuzz: {inputs} equivalence checks and loads in {seconds} s (seed {seed}), {ran} of them \
         ran on generated databases, no failure"
    );
    // Mutations break many queries; if almost none ran, databases stopped being built.
    assert!(
        ran * 10 >= inputs,
        "only {ran} of {inputs} mutated queries ran"
    );
}
