//! The read-only policy on side-effecting functions, per dialect, and on ordinary analytics: every
//! class of side effect is refused in the dialects that have it, and not one read-only query of
//! the labelled corpora is refused or warned about.

use qeval_core::{ParseLimits, SafetyReport, SqlDialect, ViolationKind, check_sql_read_only};

fn check(dialect: SqlDialect, sql: &str) -> SafetyReport {
    check_sql_read_only(sql, dialect, ParseLimits::default())
}

fn refused(dialect: SqlDialect, sql: &str, because: &str) {
    let report = check(dialect, sql);
    assert!(!report.safe, "{dialect:?}: {sql} passed");
    let reasons: Vec<&str> = report
        .violations
        .iter()
        .map(|v| v.reason.as_str())
        .collect();
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.kind == ViolationKind::DangerousFunction && v.reason.contains(because)),
        "{dialect:?}: {sql}: {reasons:?}"
    );
}

#[test]
fn side_effecting_functions_are_refused_in_each_dialect() {
    use SqlDialect::*;
    let cases: &[(SqlDialect, &str, &str)] = &[
        // PostgreSQL: administration, session, files, writes, SQL as text, other servers.
        (
            Postgres,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity",
            "administers",
        ),
        (Postgres, "SELECT pg_reload_conf()", "administers"),
        (
            Postgres,
            "SELECT set_config('search_path', 'evil', false)",
            "changes the session",
        ),
        (
            Postgres,
            "SELECT pg_advisory_lock(1)",
            "changes the session",
        ),
        (Postgres, "SELECT nextval('orders_id_seq')", "writes data"),
        (Postgres, "SELECT lo_unlink(16400)", "writes data"),
        (Postgres, "SELECT pg_notify('channel', 'x')", "writes data"),
        (Postgres, "SELECT pg_ls_dir('.')", "files"),
        (
            Postgres,
            "SELECT query_to_xml('DELETE FROM users RETURNING 1', true, false, '')",
            "SQL text",
        ),
        (
            Postgres,
            "SELECT * FROM dblink('host=x', 'SELECT 1') AS t(a INT)",
            "another server",
        ),
        (
            Postgres,
            "SELECT id FROM users WHERE pg_sleep(5) IS NOT NULL",
            "stalls",
        ),
        // MySQL: stalls, files, locks, programs.
        (Mysql, "SELECT SLEEP(5)", "stalls"),
        (
            Mysql,
            "SELECT name FROM users WHERE id = 1 AND BENCHMARK(10000000, MD5('a'))",
            "stalls",
        ),
        (Mysql, "SELECT LOAD_FILE('/etc/passwd')", "files"),
        (Mysql, "SELECT GET_LOCK('x', 10)", "changes the session"),
        (Mysql, "SELECT sys_exec('id')", "programs"),
        // SQL Server: programs, files, other servers, the registry.
        (Mssql, "SELECT xp_cmdshell('dir')", "programs"),
        (
            Mssql,
            "SELECT * FROM OPENROWSET('Microsoft.ACE.OLEDB.12.0', 'Excel 12.0;Database=C:\\data.xlsx', 'SELECT 1') AS t",
            "files",
        ),
        (
            Mssql,
            "SELECT * FROM OPENQUERY(remote, 'SELECT 1')",
            "another server",
        ),
        (
            Mssql,
            "SELECT * FROM sys.fn_xe_file_target_read_file('*.xel', NULL, NULL, NULL)",
            "files",
        ),
        (
            Mssql,
            "SELECT master.dbo.xp_regread('HKEY_LOCAL_MACHINE', 'x', 'y')",
            "changes the session",
        ),
        // SQLite: files and native code.
        (Sqlite, "SELECT writefile('/tmp/x', 'data')", "files"),
        (Sqlite, "SELECT name FROM fsdir('/etc')", "files"),
        (Sqlite, "SELECT load_extension('evil.so')", "programs"),
        // Snowflake: system functions and stage files.
        (
            Snowflake,
            "SELECT SYSTEM$CANCEL_ALL_QUERIES(1)",
            "administers",
        ),
        (Snowflake, "SELECT SYSTEM$WAIT(10)", "stalls"),
        (
            Snowflake,
            "SELECT GET_PRESIGNED_URL(@stage, 'secret.csv')",
            "files",
        ),
        // BigQuery: other servers.
        (
            Bigquery,
            "SELECT * FROM EXTERNAL_QUERY('conn', 'SELECT 1')",
            "another server",
        ),
        // DuckDB: files, the environment, other databases, SQL as text, the session.
        (Duckdb, "SELECT * FROM read_csv('/etc/passwd')", "files"),
        (Duckdb, "SELECT * FROM glob('/home/*')", "files"),
        (Duckdb, "SELECT getenv('AWS_SECRET_ACCESS_KEY')", "files"),
        (
            Duckdb,
            "SELECT * FROM postgres_scan('host=x', 'public', 'users')",
            "another server",
        ),
        (
            Duckdb,
            "SELECT * FROM query('DROP TABLE users')",
            "SQL text",
        ),
        (Duckdb, "SELECT setseed(0.5)", "changes the session"),
    ];
    for (dialect, sql, because) in cases {
        refused(*dialect, sql, because);
        // Not knowing the database, the generic dialect refuses every class too.
        refused(SqlDialect::Generic, sql, because);
    }
}

#[test]
fn a_function_is_only_refused_where_it_exists() {
    use SqlDialect::*;
    // SQLite's GLOB is a comparison; DuckDB's glob lists files only as a table.
    assert!(check(Sqlite, "SELECT name FROM files WHERE glob('*.txt', name)").safe);
    assert!(check(Duckdb, "SELECT glob('*.txt', name) FROM files").safe);
    // A column named like a function is a column.
    assert!(check(Postgres, "SELECT nextval, setseed FROM settings").safe);
    assert!(
        check(Postgres, "SELECT sleep(1)").safe,
        "no sleep() in PostgreSQL"
    );
}

#[test]
fn injection_shapes_are_warnings_on_a_read_only_query() {
    use SqlDialect::*;
    let warned = |dialect: SqlDialect, sql: &str, kind: ViolationKind| {
        let report = check(dialect, sql);
        assert!(report.safe, "{sql}: it writes nothing");
        assert!(
            report.warnings.iter().any(|w| w.kind == kind),
            "{sql}: {:?}",
            report.warnings
        );
    };
    warned(
        Generic,
        "SELECT * FROM users WHERE name = 'x' OR '1'='1'",
        ViolationKind::Tautology,
    );
    warned(
        Mysql,
        "SELECT * FROM users WHERE id = 5 OR 1=1",
        ViolationKind::Tautology,
    );
    warned(
        Mysql,
        "SELECT * FROM users WHERE id = 5 OR 1",
        ViolationKind::Tautology,
    );
    warned(
        Postgres,
        "SELECT * FROM users WHERE id = 5 OR TRUE",
        ViolationKind::Tautology,
    );
    warned(
        Generic,
        "SELECT * FROM users WHERE name = 'admin' --' AND password = 'x'",
        ViolationKind::CommentedOutCode,
    );
    warned(
        Generic,
        "SELECT * FROM users WHERE name = 'admin' -- AND active = 1",
        ViolationKind::CommentedOutCode,
    );
    warned(
        Mysql,
        "SELECT * FROM users WHERE name = 'admin' # AND password = 'x'",
        ViolationKind::CommentedOutCode,
    );
    // Notes in comments and query builders' `WHERE 1=1 AND ...` are not injections.
    for sql in [
        "SELECT * FROM users -- the active ones",
        "SELECT * FROM users WHERE 1=1 AND active = 1",
        "-- count per country\nSELECT country, COUNT(*) FROM users GROUP BY country",
        "SELECT * FROM users WHERE a = 1 OR b = 2 /* two flags */",
    ] {
        let report = check(Generic, sql);
        assert!(
            report.safe && report.warnings.is_empty(),
            "{sql}: {:?}",
            report.warnings
        );
    }
}

/// Every query of the labelled corpora (real analytics in SQLite, and the generated benchmark
/// corpus in every dialect) is read-only: not one may be refused for a function or warned about.
#[test]
fn ordinary_analytics_is_never_refused_or_warned_about() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests");
    let mut queries: Vec<(SqlDialect, String)> = Vec::new();
    for file in ["equivalence/pairs.jsonl", "equivalence/heldout.jsonl"] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).expect("corpus");
        for line in text.lines() {
            let pair: serde_json::Value = serde_json::from_str(line).expect("json");
            for field in ["expected_sql", "generated_sql"] {
                queries.push((
                    SqlDialect::Sqlite,
                    pair[field].as_str().expect(field).into(),
                ));
            }
        }
    }
    let corpus = std::fs::read_to_string(format!("{root}/fixtures/corpus.jsonl")).expect("corpus");
    for line in corpus.lines() {
        let entry: serde_json::Value = serde_json::from_str(line).expect("json");
        queries.push((
            SqlDialect::Generic,
            entry["sql"].as_str().expect("sql").into(),
        ));
    }
    // Functions every analyst uses, in each dialect that has them.
    let idioms = [
        "SELECT date_trunc('month', created_at) AS m, SUM(total), AVG(total), COUNT(DISTINCT user_id) FROM orders GROUP BY 1",
        "SELECT COALESCE(name, 'n/a'), LOWER(email), UPPER(city), LENGTH(name), ROUND(score, 2) FROM users",
        "SELECT id, ROW_NUMBER() OVER (PARTITION BY country ORDER BY score DESC), LAG(score) OVER (ORDER BY id) FROM users",
        "SELECT CAST(price AS DECIMAL(10, 2)), ABS(delta), NULLIF(a, 0), GREATEST(a, b), LEAST(a, b) FROM items",
        "SELECT SUBSTRING(name, 1, 3), REPLACE(name, 'a', 'b'), TRIM(name), CONCAT(first, ' ', last) FROM people",
        "SELECT EXTRACT(YEAR FROM created_at), CURRENT_DATE, MIN(ts), MAX(ts) FROM events GROUP BY 1",
        "SELECT CASE WHEN score > 90 THEN 'A' ELSE 'B' END, STDDEV(score), VARIANCE(score) FROM grades",
    ];
    let dialects = [
        SqlDialect::Generic,
        SqlDialect::Postgres,
        SqlDialect::Mysql,
        SqlDialect::Mssql,
        SqlDialect::Sqlite,
        SqlDialect::Snowflake,
        SqlDialect::Bigquery,
        SqlDialect::Duckdb,
    ];
    for idiom in idioms {
        for dialect in dialects {
            queries.push((dialect, idiom.to_string()));
        }
    }
    let mut checked = 0;
    for (dialect, sql) in &queries {
        let report = check(*dialect, sql);
        if report
            .violations
            .iter()
            .any(|v| v.kind == ViolationKind::Unparseable)
        {
            continue;
        }
        checked += 1;
        assert!(report.safe, "{dialect:?}: {sql}: {:?}", report.violations);
        assert!(
            report.warnings.is_empty(),
            "{dialect:?}: {sql}: {:?}",
            report.warnings
        );
    }
    assert!(checked > 2_000, "only {checked} queries parsed");
}
