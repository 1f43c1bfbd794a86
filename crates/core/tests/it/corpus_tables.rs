//! Table extraction on every query of the generated corpus (`cargo xtask corpus`), which records
//! the tables each query was built from.

use std::path::PathBuf;

use qeval_core::{ParseLimits, SqlDialect, TableName, extract_tables, parse_sql};

#[test]
fn every_corpus_query_yields_the_tables_it_was_built_from() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corpus.jsonl");
    let text = std::fs::read_to_string(&path).expect("the corpus exists");
    let mut checked = 0;
    for (index, line) in text.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let sql = case["sql"].as_str().expect("sql");
        let dialect: SqlDialect = case["dialect"]
            .as_str()
            .expect("dialect")
            .parse()
            .expect("known");
        let statements = parse_sql(sql, dialect, ParseLimits::default())
            .unwrap_or_else(|err| panic!("line {}: {dialect}: {err}\n{sql}", index + 1));
        let mut found: Vec<String> = extract_tables(&statements)
            .iter()
            .map(TableName::qualified)
            .collect();
        found.sort();
        let expected: Vec<String> = case["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .map(|t| t.as_str().unwrap_or_default().to_string())
            .collect();
        assert_eq!(found, expected, "line {}: {dialect}: {sql}", index + 1);
        checked += 1;
    }
    assert!(checked >= 1000, "only {checked} queries");
}
