//! The structural judge on fixture pairs. Each line of `fixtures/judge/*.jsonl` is one case: a
//! generated and an expected query (SQL, or KQL with `"language": "kql"`), whether the judge
//! must find them equivalent, and words its reasoning must name. Adding a case is adding a line.
//!
//! - `sql_blocks.jsonl`: the judge compares every query block (CTE bodies, derived tables and
//!   subqueries in expressions, not only the top-level query). A difference inside any block
//!   keeps a pair from being equivalent, while the names given to CTEs and derived tables do not
//!   count.
//! - `kql_operators.jsonl`: the KQL judge tells an operator from its negation and from its
//!   case-insensitive form.
//!
//! Every case's score and reasoning are also kept as a snapshot (`snapshots/`), so a change in
//! what the judge tells users shows up in review.

use std::path::{Path, PathBuf};

use qeval_core::{
    Language, Metric, MetricName, PairInput, Profile, ProfileName, ScoreOptions, score_pair,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeCase {
    case: String,
    #[serde(default)]
    language: Option<Language>,
    generated: String,
    expected: String,
    equivalent: bool,
    /// Words the reasoning must contain (for a pair that is not equivalent: where it differs).
    #[serde(default)]
    reasoning_names: Vec<String>,
}

/// What the judge said about one case, for the snapshot.
#[derive(Debug, Serialize)]
struct Said {
    case: String,
    score: Option<f64>,
    reasoning: String,
}

/// The query correctness metric of the case's generated query against its expected one.
fn correctness(case: &JudgeCase) -> Metric {
    let pair = PairInput {
        language: case.language,
        generated_sql: case.generated.clone(),
        expected_sql: Some(case.expected.clone()),
        ..PairInput::default()
    };
    let options = ScoreOptions {
        profile: Profile::preset(ProfileName::SqlMetrics),
        ..ScoreOptions::default()
    };
    let card = score_pair(&pair, &options);
    card.metrics
        .get(&MetricName::QueryCorrectness)
        .cloned()
        .unwrap_or_else(|| panic!("no query_correctness in {card:#?}"))
}

fn fixture_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judge");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_fixture_case_gets_its_verdict() {
    let files = fixture_files();
    assert!(!files.is_empty(), "no fixture files");
    for file in files {
        let name = file
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file).expect("fixture readable");
        let mut failures = Vec::new();
        let mut said = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let case: JudgeCase = serde_json::from_str(line)
                .unwrap_or_else(|err| panic!("{}:{}: {err}", file.display(), number + 1));
            let metric = correctness(&case);
            let reasoning = metric.explanation.clone();
            let equivalent = metric.score == Some(1.0);
            let missing: Vec<&String> = case
                .reasoning_names
                .iter()
                .filter(|word| !reasoning.contains(word.as_str()))
                .collect();
            if equivalent != case.equivalent || !missing.is_empty() {
                failures.push(format!(
                    "{name}:{} {}: score {:?} (equivalent expected: {}), {missing:?} not named in: {reasoning}",
                    number + 1,
                    case.case,
                    metric.score,
                    case.equivalent
                ));
            }
            said.push(Said {
                case: case.case,
                score: metric.score,
                reasoning,
            });
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        insta::assert_json_snapshot!(name, said);
    }
}
