//! Checks two queries for equivalence on generated databases and prints the report as JSON:
//! `cargo run -p qeval-sqlite --example equivalence -- "SELECT ..." "SELECT ..." ["CREATE TABLE ..."]`.

use qeval_sqlite::{EquivalenceOptions, SchemaChoice, check_equivalence};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (expected, generated, schema) = match args.as_slice() {
        [e, g] => (e, g, SchemaChoice::Infer),
        [e, g, s] => (e, g, SchemaChoice::Written(s)),
        _ => {
            eprintln!("usage: equivalence EXPECTED GENERATED [SCHEMA]");
            std::process::exit(2);
        }
    };
    let started = std::time::Instant::now();
    let report = check_equivalence(expected, generated, schema, &EquivalenceOptions::default());
    let elapsed = started.elapsed();
    println!(
        "{}",
        serde_json::to_string_pretty(&report).unwrap_or_default()
    );
    eprintln!(
        "{} ({:.1} ms)",
        report.explanation(),
        elapsed.as_secs_f64() * 1000.0
    );
}
