//! Hostile input through the command line: what an attacker or a careless file tried and what
//! each must now get. One test per finding, named for what a user would notice.

use std::process::{Command, Output};

fn qeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(args)
        .output()
        .expect("qeval runs")
}

fn safety(language: &str, dialect: &str, query: &str) -> (String, Option<i32>) {
    let output = qeval(&[
        "safety",
        "--language",
        language,
        "--dialect",
        dialect,
        query,
    ]);
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code(),
    )
}

fn assert_unsafe(language: &str, dialect: &str, query: &str, why: &str) {
    let (printed, code) = safety(language, dialect, query);
    assert!(
        printed.starts_with("unsafe:") && printed.contains(why),
        "{dialect}: {query}\n{printed}"
    );
    assert_eq!(code, Some(1), "{query}");
}

#[test]
fn unicode_escaped_names_are_read_as_the_database_reads_them() {
    for dialect in ["postgres", "generic"] {
        assert_unsafe(
            "sql",
            dialect,
            r#"SELECT U&"pg\005fread\005ffile"('/etc/passwd')"#,
            "pg_read_file",
        );
    }
}

#[test]
fn files_and_urls_named_in_place_of_a_table_are_refused() {
    for query in [
        "SELECT * FROM 'https://example.test/x.csv'",
        "SELECT * FROM 'x.parquet'",
        r#"SELECT * FROM "data/orders.parquet""#,
        "SELECT * FROM st_read('roads.shp')",
    ] {
        assert_unsafe("sql", "duckdb", query, "");
    }
    assert_unsafe(
        "sql",
        "snowflake",
        "SELECT $1 FROM @my_stage/data.csv",
        "stage",
    );
    // An ordinary table stays a table.
    let (printed, code) = safety("sql", "duckdb", "SELECT * FROM orders");
    assert_eq!((printed.trim(), code), ("safe: read-only query", Some(0)));
}

#[test]
fn kql_plugins_that_reach_outside_externaldata_and_hidden_commands_are_refused() {
    for query in [
        "evaluate sql_request('Server=tcp:x', 'SELECT 1')",
        "T | evaluate mysql_request('x', 'SELECT 1')",
        "T | evaluate postgresql_request('x', 'SELECT 1')",
        "T | evaluate http_request_post('https://x', '', '{}')",
        "range x from 1 to 1 step 1 | evaluate python(typeof(*), 'result = df')",
        "range x from 1 to 1 step 1 | evaluate r(typeof(*), 'result <- df')",
        "externaldata (a: string) [h@'https://x/a.csv'] with (format='csv')",
        "// just a comment\n.drop table Traces",
    ] {
        assert_unsafe("kql", "generic", query, "");
    }
}

#[test]
fn executable_comments_lock_hints_and_session_writes_are_refused() {
    for (dialect, query, why) in [
        // MySQL's own hints are read as the code they hold; MariaDB's are refused whole.
        ("mysql", "SELECT 1 /*! , SLEEP(5) */", "sleep()"),
        ("mysql", "SELECT 1 /*M! , SLEEP(5) */", "executable comment"),
        ("mysql", "SELECT 1 /*M! FROM t */", "executable comment"),
        ("mssql", "SELECT * FROM t WITH (UPDLOCK)", "UPDLOCK"),
        ("mssql", "SELECT * FROM t WITH (XLOCK)", "XLOCK"),
        ("mssql", "SELECT * FROM t WITH (HOLDLOCK)", "HOLDLOCK"),
        ("mssql", "SELECT * FROM t WITH (TABLOCKX)", "TABLOCKX"),
        (
            "mysql",
            "SELECT WAIT_FOR_EXECUTED_GTID_SET('3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5', 60)",
            "stalls",
        ),
        ("mysql", "SELECT @a := 1", "session variable"),
        (
            "postgres",
            "SELECT pg_logical_emit_message(true, 'p', 'x')",
            "writes",
        ),
        ("duckdb", "SELECT * FROM duckdb_secrets()", "credentials"),
    ] {
        assert_unsafe("sql", dialect, query, why);
    }
}

#[test]
fn read_only_sql_the_parser_cannot_read_is_a_parse_error_not_unsafe() {
    for (dialect, query) in [
        ("postgres", "TABLE t"),
        ("mssql", "SELECT * FROM t OPTION (MAXRECURSION 0)"),
        ("duckdb", "SUMMARIZE t"),
    ] {
        let (printed, code) = safety("sql", dialect, query);
        if printed.starts_with("safe") {
            continue; // the parser reads it: nothing to say
        }
        assert!(printed.starts_with("not known:"), "{query}: {printed}");
        assert_eq!(code, Some(1));
    }
    // Scored, such a query has no safety verdict and is not marked UNSAFE.
    let pairs =
        std::env::temp_dir().join(format!("qeval-unparseable-{}.jsonl", std::process::id()));
    std::fs::write(
        &pairs,
        r#"{"generated_sql": "SUMMARIZE t", "expected_sql": "SELECT * FROM t", "dialect": "duckdb"}"#,
    )
    .unwrap();
    let output = qeval(&[
        "score",
        "--pairs",
        pairs.to_str().unwrap(),
        "--no-equivalence",
    ]);
    let _ = std::fs::remove_file(&pairs);
    let card: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a scorecard");
    assert_eq!(card["unsafe"], false);
    assert!(
        card["metrics"]["safety"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not parse")
    );
}

#[test]
fn limits_and_tolerances_that_are_not_numbers_are_refused_by_name() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["score", "--pairs", "-", "--time-limit", "NaN"],
            "--time-limit",
        ),
        (
            &["score", "--pairs", "-", "--time-limit", "inf"],
            "--time-limit",
        ),
        (
            &["score", "--pairs", "-", "--time-limit", "0"],
            "--time-limit",
        ),
        (
            &["score", "--pairs", "-", "--tolerance", "NaN"],
            "--tolerance",
        ),
        (
            &["score", "--pairs", "-", "--numeric-tolerance=-1"],
            "--numeric-tolerance",
        ),
        (
            &["compare", "--tolerance", "nan", "[[1]]", "[[1]]"],
            "--tolerance",
        ),
        (&["run", ".", "--fail-under", "NaN"], "--fail-under"),
        (
            &[
                "bench",
                "spider",
                "--gold",
                "g",
                "--pred",
                "p",
                "--db",
                "d",
                "--time-limit",
                "inf",
            ],
            "--time-limit",
        ),
    ];
    for (args, flag) in cases {
        let output = qeval(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("not `"),
            "{args:?}: {stderr}"
        );
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qeval-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn wide_row(columns: usize) -> String {
    let cells: Vec<String> = (0..columns).map(|i| i.to_string()).collect();
    format!("[[{}]]", cells.join(","))
}

#[test]
fn a_row_of_thousands_of_unnamed_columns_is_an_error_on_its_line_and_the_rest_is_scored() {
    let dir = temp_dir("wide");
    let wide = dir.join("wide.json");
    std::fs::write(&wide, wide_row(30_000)).expect("write");
    let output = qeval(&["compare", "--mode", "f1", path(&wide), path(&wide)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("30000 values; a result table has at most 4096 columns"),
        "{stderr}"
    );

    // In a pairs file: that line's result metrics carry the error; the good lines are scored.
    let good = r#"{"id": "good", "generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "expected_result": [[1]], "generated_result": [[1]]}"#;
    let bad = format!(
        r#"{{"id": "wide", "generated_sql": "SELECT 1", "expected_sql": "SELECT 1", "expected_result": {w}, "generated_result": {w}}}"#,
        w = wide_row(30_000)
    );
    let pairs = dir.join("pairs.jsonl");
    std::fs::write(&pairs, format!("{good}\n{bad}\n{good}\n")).expect("write");
    let output = qeval(&["score", "--no-equivalence", "--pairs", path(&pairs)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    assert_eq!(records.len(), 3, "{stdout}");
    assert_eq!(records[0]["id"], "good");
    assert_eq!(records[2]["id"], "good");
    assert_eq!(records[1]["line"], 2, "{}", records[1]);
    let error = &records[1]["metrics"]["results_match"]["error"]["message"];
    assert!(
        error
            .as_str()
            .is_some_and(|m| m.contains("at most 4096 columns")),
        "{}",
        records[1]
    );
    assert_eq!(records[0]["metrics"]["results_match"]["score"], 1.0);

    // 4,096 unnamed columns (the most a table has) compare in bounded memory and time.
    let cells: Vec<String> = (0..4096).map(|i| (i % 7).to_string()).collect();
    let rows = vec![format!("[{}]", cells.join(",")); 50];
    let most = dir.join("most.json");
    std::fs::write(&most, format!("[{}]", rows.join(","))).expect("write");
    let output = qeval(&["compare", "--mode", "f1", path(&most), path(&most)]);
    let card: serde_json::Value = serde_json::from_slice(&output.stdout).expect("comparison");
    assert_eq!(card["score"], 1.0, "{}", card["explanation"]);
    let _ = std::fs::remove_dir_all(&dir);
}

fn path(path: &std::path::Path) -> &str {
    path.to_str().unwrap_or_default()
}

#[test]
fn f1_aligns_unnamed_columns_by_value_within_the_tolerance() {
    let dir = temp_dir("tolerance");
    let (expected, generated) = (dir.join("e.json"), dir.join("g.json"));
    std::fs::write(&expected, "[[3.3333333333333335, 1], [2.0, 2]]").expect("write");
    std::fs::write(
        &generated,
        "[[1, 3.333333333333333], [2.0000000000000004, 2]]",
    )
    .expect("write");
    let output = qeval(&["compare", "--mode", "f1", path(&expected), path(&generated)]);
    let card: serde_json::Value = serde_json::from_slice(&output.stdout).expect("comparison");
    assert_eq!(card["score"], 1.0, "{card}");
    assert_eq!(card["alignment"][0]["generated"], "col2", "{card}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn score_writes_each_record_as_its_line_is_scored_and_caps_a_line() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    let good = r#"{"id": "first", "generated_sql": "SELECT 1", "expected_sql": "SELECT 1"}"#;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(["score", "--no-equivalence", "--pairs", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("qeval starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(stdin, "{good}").expect("write a line");
    stdin.flush().expect("flush");
    // The first record comes while the input is still open.
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a record");
    let card: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    assert_eq!(card["id"], "first");
    // Then 100,000 junk lines: each gets its rejection, in order, after the good one.
    // Written from another thread: the records come back while the junk goes in.
    let writer = std::thread::spawn(move || {
        let junk = "not json\n".repeat(100_000);
        stdin.write_all(junk.as_bytes()).expect("write junk");
    });
    let rest: Vec<String> = stdout.lines().map_while(Result::ok).collect();
    writer.join().expect("the junk was written");
    assert_eq!(rest.len(), 100_000);
    assert!(rest[0].starts_with(r#"{"line":2,"#), "{}", rest[0]);
    assert!(rest[99_999].starts_with(r#"{"line":100001,"#));
    assert_eq!(child.wait().expect("exits").code(), Some(1));

    // A line with no end is cut at 128 MB, named, and reading stops.
    let output = qeval(&["score", "--pairs", "/dev/zero"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(r#"{"line":1,"error":{"message":"the line is longer than 128 MB"#),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
}

/// The shop database (tests/fixtures/shop.sql) as a file in `dir`.
fn shop(dir: &std::path::Path) -> std::path::PathBuf {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/shop.sql"
    ))
    .expect("shop.sql");
    let bytes = qeval_sqlite::Database::from_script(&script)
        .and_then(|mut db| db.to_bytes())
        .expect("a database");
    let path = dir.join("shop.sqlite");
    std::fs::write(&path, bytes).expect("write db");
    path
}

/// Runs `qeval` with `args` and the pairs on standard input: the scorecards, standard error and
/// the exit status.
pub(crate) fn score_lines(
    args: &[&str],
    pairs: &str,
) -> (Vec<serde_json::Value>, String, Option<i32>) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qeval"))
        .args(args)
        .args(["--pairs", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("qeval starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pairs.as_bytes())
        .expect("write pairs");
    let output = child.wait_with_output().expect("qeval ends");
    let records = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect();
    (
        records,
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

#[test]
fn a_result_cut_at_the_row_limit_gets_no_verdict_saying_which_side_and_where() {
    let dir = temp_dir("cut");
    let db = shop(&dir);
    // 25 rows against 125: both cut at 10 rows, the kept rows alike.
    let pairs = r#"{"generated_sql": "SELECT a.id FROM users a, users b", "expected_sql": "SELECT a.id FROM users a, users b, users c"}
{"generated_sql": "SELECT a.id FROM users a, users b", "expected_sql": "SELECT id FROM users"}
"#;
    let (records, stderr, _) =
        score_lines(&["score", "--db", path(&db), "--max-rows", "10"], pairs);
    let both = &records[0]["metrics"]["results_match"];
    assert!(both["score"].is_null(), "{both}");
    let why = both["error"]["message"].as_str().unwrap_or_default();
    assert!(
        why.contains("the expected result was cut after 10 rows")
            && why.contains("the generated one cut after 10 rows"),
        "{why}"
    );
    assert!(records[0]["metrics"]["execution"]["score"].is_null());
    assert!(records[0]["profile"]["passed"].is_null(), "no PASS");
    let one = records[1]["metrics"]["results_match"]["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        one.contains("the generated result was cut after 10 rows") && !one.contains("expected"),
        "{one}"
    );
    assert!(stderr.contains("cut at --max-rows 10"), "{stderr}");

    // The test-suite check says the same, naming the generated database.
    let (records, _, _) = score_lines(
        &[
            "score",
            "--db",
            path(&db),
            "--max-rows",
            "10",
            "--suite",
            "3",
        ],
        pairs.lines().next().unwrap_or_default(),
    );
    let suite = records[0]["metrics"]["test_suite"]["explanation"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        suite.starts_with("No verdict: the expected query's result was cut after 10 rows")
            && suite.contains("generated database 1 of 3"),
        "{suite}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_expected_query_that_fails_on_the_database_says_so_in_the_result_metrics() {
    let dir = temp_dir("expected-fails");
    let db = shop(&dir);
    let (records, _, _) = score_lines(
        &["score", "--db", path(&db)],
        r#"{"generated_sql": "SELECT name FROM users", "expected_sql": "SELECT nme FROM users"}"#,
    );
    for metric in ["execution", "results_match"] {
        let message = &records[0]["metrics"][metric]["error"]["message"];
        assert!(
            message
                .as_str()
                .is_some_and(|m| m
                    .contains("the expected query failed on the database (no such column: nme)")),
            "{metric}: {}",
            records[0]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_equivalence_check_of_one_pair_ends_at_its_budget_and_says_so() {
    // Alike but heavy: each run well under its own 2 s, forty databases far past the budget.
    let cte = |step: &str| {
        format!(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT {step} FROM c WHERE x < 300000) SELECT count(*) FROM c, t WHERE t.a = 1"
        )
    };
    let pair = serde_json::json!({"generated_sql": cte("x + 1"), "expected_sql": cte("1 + x")});
    let (records, _, _) = score_lines(&["score", "--check-budget", "1"], &pair.to_string());
    let equivalence = &records[0]["metrics"]["equivalence"];
    assert!(equivalence["score"].is_null(), "{equivalence}");
    assert!(
        equivalence["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("ran out of its 1 s for this pair")),
        "{equivalence}"
    );
}

fn run_folder(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let run = dir.join("run-1");
    std::fs::create_dir_all(&run).expect("run dir");
    std::fs::write(
        run.join("test-results.jsonl"),
        r#"{"test_id": "q1", "generated_sql": "SELECT name FROM users", "actual_results": [{"name": "ann"}]}
{"test_id": "q2", "generated_sql": "SELECT id FROM users", "actual_results": [{"id": 1}]}
"#,
    )
    .expect("write tests");
    run
}

#[test]
fn a_run_without_expected_queries_is_not_scored_and_says_why_and_a_rejected_questions_file_exits_1()
{
    let run = run_folder("no-questions");
    // No questions file anywhere: nothing to compare with, said on standard error, exit 1.
    let output = qeval(&["run", path(&run)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("2 tests have nothing to compare with and are not scored, not failed: no questions file was found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("0 passed, 0 failed, 2 not scored"),
        "{stderr}"
    );
    let records = std::fs::read_to_string(run.join("evaluation-results.jsonl")).expect("records");
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert!(record["qas_evaluation"].is_null(), "{record}");
        assert!(
            record["not_scored"]
                .as_str()
                .is_some_and(|n| n.contains("nothing to compare with"))
        );
    }
    // `qeval score` says the same of a pair with nothing expected: the line is rejected.
    let (_, stderr, code) = score_lines(&["score"], r#"{"generated_sql": "SELECT 1"}"#);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("field `expected_sql`: is missing"),
        "{stderr}"
    );

    // A questions file whose lines are all rejected: named, and the run exits 1.
    let questions = run.join("questions.jsonl");
    std::fs::write(&questions, "{\"question\": \"no id\"}\n").expect("write questions");
    let output = qeval(&["run", path(&run), "--questions", path(&questions)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("questions.jsonl:1: field `test_id`: is missing (write test_id or id)"),
        "{stderr}"
    );
    // With a good questions file, the one test it covers is scored and the other named.
    std::fs::write(
        &questions,
        r#"{"id": "q1", "question": "names", "expected_sql": "SELECT name FROM users"}"#,
    )
    .expect("write questions");
    let output = qeval(&["run", path(&run), "--questions", path(&questions)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "1 test has nothing to compare with and is not scored, not failed: no question in"
        ) && stderr.contains("has its test_id"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(run.parent().unwrap_or(&run));
}

#[cfg(unix)]
#[test]
fn a_symlink_planted_in_the_run_folder_is_replaced_not_written_through() {
    let run = run_folder("symlink");
    let victim = run.parent().unwrap_or(&run).join("victim.txt");
    std::fs::write(&victim, "precious").expect("write victim");
    std::os::unix::fs::symlink(&victim, run.join("evaluation-results.jsonl")).expect("plant link");
    let _ = qeval(&["run", path(&run)]);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious",
        "nothing written through the link"
    );
    let written = run.join("evaluation-results.jsonl");
    assert!(
        !std::fs::symlink_metadata(&written)
            .expect("records")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&written)
            .expect("records")
            .lines()
            .count(),
        2
    );
    let _ = std::fs::remove_dir_all(run.parent().unwrap_or(&run));
}

#[test]
fn databases_in_wal_mode_open_and_a_file_that_is_not_one_is_refused_on_its_header() {
    let dir = temp_dir("wal");
    let db = shop(&dir);
    // WAL mode is two bytes of the header (file format versions 2): what `PRAGMA
    // journal_mode=WAL` leaves once its log is checkpointed.
    let mut bytes = std::fs::read(&db).expect("db");
    bytes[18] = 2;
    bytes[19] = 2;
    std::fs::write(&db, &bytes).expect("write");
    let pair = r#"{"generated_sql": "SELECT name FROM users ORDER BY id", "expected_sql": "SELECT name FROM users ORDER BY id"}"#;
    let (records, stderr, code) = score_lines(&["score", "--db", path(&db)], pair);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(records[0]["metrics"]["results_match"]["score"], 1.0);
    assert_eq!(
        std::fs::read(&db).expect("db"),
        bytes,
        "the file is untouched"
    );
    // A log still holding changes: refused, saying what to do.
    std::fs::write(dir.join("shop.sqlite-wal"), [1u8; 64]).expect("wal");
    let (_, stderr, code) = score_lines(&["score", "--db", path(&db)], pair);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("is in WAL mode") && stderr.contains("wal_checkpoint"),
        "{stderr}"
    );

    // A big file that is not a database: refused on its first bytes.
    let big = dir.join("big.sqlite");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(3 << 30).expect("a 3 GB sparse file");
    let (_, stderr, code) = score_lines(&["score", "--db", path(&big)], pair);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("not a SQLite database"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeated_ids_are_rejected_on_their_second_line_and_huge_numeric_ids_are_refused() {
    let run = run_folder("repeated");
    std::fs::write(
        run.join("test-results.jsonl"),
        r#"{"test_id": "q1", "generated_sql": "SELECT name FROM users"}
{"test_id": "q1", "generated_sql": "SELECT id FROM users"}
{"test_id": 1000000000000000000000000000000, "generated_sql": "SELECT id FROM users"}
"#,
    )
    .expect("write tests");
    let questions = run.join("questions.jsonl");
    std::fs::write(
        &questions,
        r#"{"id": "q1", "question": "names", "expected_sql": "SELECT name FROM users"}
{"id": "q1", "question": "ids", "expected_sql": "SELECT id FROM users"}
"#,
    )
    .expect("write questions");
    let output = qeval(&["run", path(&run)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("test-results.jsonl:2: test_id \"q1\" is already on line 1"),
        "{stderr}"
    );
    assert!(
        stderr.contains("questions.jsonl:2: id \"q1\" is already on line 1"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "test-results.jsonl:3: field `test_id`: the id is a number too large to keep exactly"
        ),
        "{stderr}"
    );
    let records = std::fs::read_to_string(run.join("evaluation-results.jsonl")).expect("records");
    assert_eq!(records.lines().count(), 1, "{records}");
    assert!(
        records.contains(r#""expected_sql":"SELECT name FROM users""#),
        "the first question"
    );

    let (_, stderr, code) = score_lines(
        &["score"],
        r#"{"id": 1000000000000000000000000000000, "generated_sql": "SELECT 1", "expected_sql": "SELECT 1"}"#,
    );
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("field `id`: the id is a number too large"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(run.parent().unwrap_or(&run));
}

#[test]
fn a_schema_file_that_is_no_schema_is_refused_before_anything_is_scored() {
    let dir = temp_dir("schema");
    let cases = [
        (
            "prose.sql",
            "hello, this is not SQL",
            "expected an SQL statement",
        ),
        ("select.sql", "SELECT 1;", "is not CREATE TABLE"),
        (
            "numbers.json",
            r#"{"orders": 5}"#,
            "expected a list of column names",
        ),
        ("empty.json", "{}", "names no table"),
    ];
    let pair =
        r#"{"generated_sql": "SELECT id FROM orders", "expected_sql": "SELECT id FROM orders"}"#;
    for (name, text, why) in cases {
        let schema = dir.join(name);
        std::fs::write(&schema, text).expect("write schema");
        for command in ["score", "run"] {
            let output = if command == "score" {
                let (records, stderr, code) =
                    score_lines(&["score", "--schema", path(&schema)], pair);
                assert!(records.is_empty(), "{name}");
                (stderr, code)
            } else {
                let run = run_folder(&format!("schema-{name}"));
                let output = qeval(&["run", path(&run), "--schema", path(&schema)]);
                let _ = std::fs::remove_dir_all(run.parent().unwrap_or(&run));
                (
                    String::from_utf8_lossy(&output.stderr).into_owned(),
                    output.status.code(),
                )
            };
            assert_eq!(output.1, Some(2), "{command} {name}: {}", output.0);
            assert!(
                output
                    .0
                    .contains(&format!("--schema {} is not a schema", schema.display()))
                    && output.0.contains(why),
                "{command} {name}: {}",
                output.0
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_query_is_echoed_as_a_capped_prefix() {
    let columns: Vec<String> = (0..200_000).map(|i| format!("c{i}")).collect();
    let query = format!("SELECT {} FROM t", columns.join(" + "));
    let pair = serde_json::json!({"generated_sql": query, "expected_sql": "SELECT 1 FROM t"});
    let (records, _, _) = score_lines(&["score", "--no-equivalence"], &pair.to_string());
    let line = records[0].to_string();
    assert!(query.len() > 1_500_000);
    assert!(line.len() < 600_000, "{} bytes", line.len());
    let normalized = records[0]["generated"]["normalized"]
        .as_str()
        .unwrap_or_default();
    assert!(
        normalized.ends_with(&format!("… [cut here: {} bytes in all]", query.len())),
        "{}",
        &normalized[normalized.len().saturating_sub(80)..]
    );
}
