//! A database to run queries on, and running them.

use std::fmt;

use qeval_core::{
    ONE_STATEMENT, ParseLimits, PythonStatement, QueryRows, QuerySettings, ResultSet, Rows,
    SqlDialect, ViolationKind, check_sql_read_only, python_statement,
};
use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use crate::authorizer;
use crate::output::{Column, DbError, QueryError, QueryOutput, Table};
use crate::value::{to_json, to_value};

/// How long a query may run and how many rows it may return.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub time_ms: f64,
    pub max_rows: usize,
    /// Milliseconds from any fixed point: the caller's clock (the browser's differs from the
    /// native one).
    pub now: fn() -> f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time_ms: 10_000.0,
            max_rows: 100_000,
            now: clock,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn clock() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
fn clock() -> f64 {
    js_sys::Date::now()
}

/// An in-memory SQLite database.
pub struct Database {
    connection: Connection,
    tables: Vec<Table>,
    /// The `CREATE TABLE` statements, for building databases of the same shape.
    schema_sql: Vec<String>,
    denied: authorizer::Denied,
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Database")
            .field("tables", &self.tables)
            .finish()
    }
}

/// How every connection is opened: no URI filenames, so no text can name a file with options
/// (`file:/x?mode=rwc`), and no mutex (one thread uses it).
fn flags() -> OpenFlags {
    OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
}

/// An empty database in the memdb VFS, which keeps it as one buffer `to_bytes` can copy out.
fn empty() -> Result<Connection, DbError> {
    limited(Connection::open_with_flags_and_vfs("qeval", flags(), c"memdb").map_err(failed)?)
}

/// An in-memory database for a copy or a generated database.
fn in_memory() -> Result<Connection, DbError> {
    limited(Connection::open_in_memory_with_flags(flags()).map_err(failed)?)
}

/// The limits every connection has from its opening: no database can be attached (`ATTACH`
/// fails with "too many attached databases", whatever the authorizer allows), and no text or
/// blob longer than [`MAX_VALUE_BYTES`] is built.
fn limited(connection: Connection) -> Result<Connection, DbError> {
    use rusqlite::limits::Limit;
    connection
        .set_limit(Limit::SQLITE_LIMIT_ATTACHED, 0)
        .and_then(|_| connection.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES))
        .map_err(failed)?;
    Ok(connection)
}

fn failed(err: rusqlite::Error) -> DbError {
    DbError(err.to_string())
}

/// The first 16 bytes of every SQLite database file.
const MAGIC: &[u8] = b"SQLite format 3\0";

/// A query with the safety validator's verdict on it, which depends on its text alone: checked
/// once, it runs on any number of databases.
///
/// SQL the validator cannot parse is not refused for that alone: SQLite parses it under the
/// read-only authorizer (which denies every write, attachment and pragma) on a copy of the
/// database, so a valid query the validator's parser does not know still runs.
#[derive(Debug, Clone)]
pub(crate) struct Validated<'a> {
    sql: &'a str,
    /// The validator's reasons, when it refuses the query.
    refusal: Option<String>,
}

impl<'a> Validated<'a> {
    pub(crate) fn check(sql: &'a str) -> Validated<'a> {
        let safety = check_sql_read_only(sql, SqlDialect::Sqlite, ParseLimits::default());
        let refusals: Vec<String> = safety
            .violations
            .iter()
            .filter(|v| v.kind != ViolationKind::Unparseable)
            .map(|v| v.reason.clone())
            .collect();
        Validated {
            sql,
            refusal: (!refusals.is_empty()).then(|| refusals.join("; ")),
        }
    }

    pub(crate) fn sql(&self) -> &'a str {
        self.sql
    }
}

impl Database {
    /// A copy of a database file's bytes, read-only. The bytes themselves are never written.
    /// The bytes of the database file at `path`, after its header says it is one: a large file
    /// that is not a database is refused on its first 16 bytes, not read whole first. A
    /// database in WAL mode whose log (`path-wal`) still holds changes is refused too: those
    /// changes are not in the file, and reading it alone would answer from an older state.
    /// Errors name the path.
    pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
        use std::io::Read as _;
        let fail = |err: std::io::Error| format!("cannot read {}: {err}", path.display());
        let mut file = std::fs::File::open(path).map_err(fail)?;
        let mut header = [0u8; 100];
        let mut read = 0;
        while read < header.len() {
            match file.read(&mut header[read..]).map_err(fail)? {
                0 => break,
                n => read += n,
            }
        }
        if !header[..read].starts_with(MAGIC) {
            return Err(format!(
                "{}: not a SQLite database (the file does not start with \"SQLite format 3\")",
                path.display()
            ));
        }
        if header[18..20] == [2, 2] {
            let mut log = path.as_os_str().to_owned();
            log.push("-wal");
            let log = std::path::PathBuf::from(log);
            if let Ok(meta) = std::fs::metadata(&log)
                && meta.len() > 0
            {
                return Err(format!(
                    "{} is in WAL mode and {} holds {} bytes of changes not yet in the file: checkpoint them first (sqlite3 {} \"PRAGMA wal_checkpoint(TRUNCATE)\"), or close what has it open",
                    path.display(),
                    log.display(),
                    meta.len(),
                    path.display()
                ));
            }
        }
        let mut bytes = header[..read].to_vec();
        file.read_to_end(&mut bytes).map_err(fail)?;
        Ok(bytes)
    }

    pub fn open_bytes(bytes: &[u8]) -> Result<Database, DbError> {
        if !bytes.starts_with(MAGIC) {
            return Err(DbError(
                "not a SQLite database (the file does not start with \"SQLite format 3\")".into(),
            ));
        }
        let mut connection = in_memory()?;
        // A database in WAL mode says so in its header (read and write versions 2); a copy in
        // memory has no write-ahead log, and SQLite refuses to open it as one. The copy is read
        // as the rollback-journal database it is once its log is checkpointed: the same pages.
        let rollback;
        let bytes = if bytes.get(18..20) == Some(&[2, 2][..]) {
            let mut copy = bytes.to_vec();
            copy[18] = 1;
            copy[19] = 1;
            rollback = copy;
            &rollback[..]
        } else {
            bytes
        };
        connection
            .deserialize_read_exact(rusqlite::MAIN_DB, bytes, bytes.len(), true)
            .map_err(failed)?;
        Database::ready(connection)
    }

    /// A database built from CSV files `(file name, text)`: one table per file (see `csv`).
    pub fn from_csv(files: &[(String, String)]) -> Result<Database, DbError> {
        let mut connection = empty()?;
        crate::csv::load(&mut connection, files).map_err(DbError)?;
        Database::ready(connection)
    }

    /// A database built by running `script` (DDL and INSERTs) on an empty one.
    pub fn from_script(script: &str) -> Result<Database, DbError> {
        let connection = empty()?;
        connection
            .execute_batch(script)
            .map_err(|err| DbError(format!("the script failed: {err}")))?;
        Database::ready(connection)
    }

    /// A database for test-suite checking, built from a generated script: like `from_script`,
    /// without reading the schema back (the generator knows it). The script comes from a schema
    /// that may have been read from an untrusted file, so it runs under the build authorizer
    /// (tables, indexes, views and rows in the main database, nothing else), with no attachments.
    pub fn scratch(script: &str) -> Result<Database, DbError> {
        let mut connection = in_memory()?;
        let denied = authorizer::Denied::default();
        connection
            .authorizer(Some(authorizer::building(denied.clone())))
            .map_err(failed)?;
        if let Err(err) = connection.execute_batch(script) {
            let why = denied.lock().ok().and_then(|d| d.clone());
            return Err(DbError(match why {
                Some(why) => format!("the script was refused: {why}"),
                None => format!("the script failed: {err}"),
            }));
        }
        Database::guarded(connection, Vec::new(), Vec::new())
    }

    /// Makes SQLite return the rows of unordered scans in reverse. A query whose output changes
    /// with it does not determine its row order (ties under `ORDER BY`, `LIMIT` without one).
    pub fn set_reverse_order(&mut self, reverse: bool) -> Result<(), DbError> {
        let value = if reverse { "ON" } else { "OFF" };
        self.connection
            .execute_batch(&format!("PRAGMA reverse_unordered_selects = {value}"))
            .map_err(failed)
    }

    /// Guards the connection and reads its schema.
    fn ready(connection: Connection) -> Result<Database, DbError> {
        let tables = read_schema(&connection).map_err(failed)?;
        let schema_sql = read_create_statements(&connection).map_err(failed)?;
        Database::guarded(connection, tables, schema_sql)
    }

    /// The connection under the read-only authorizer, from here on.
    fn guarded(
        mut connection: Connection,
        tables: Vec<Table>,
        schema_sql: Vec<String>,
    ) -> Result<Database, DbError> {
        let denied = authorizer::Denied::default();
        connection
            .authorizer(Some(authorizer::read_only(denied.clone())))
            .map_err(failed)?;
        Ok(Database {
            connection,
            tables,
            schema_sql,
            denied,
        })
    }

    pub fn tables(&self) -> &[Table] {
        &self.tables
    }

    pub fn schema_sql(&self) -> &[String] {
        &self.schema_sql
    }

    /// The database as a file's bytes (for saving a built database, or checking one is intact).
    pub fn to_bytes(&mut self) -> Result<Vec<u8>, DbError> {
        self.connection
            .serialize(rusqlite::MAIN_DB)
            .map(|data| data.to_vec())
            .map_err(failed)
    }

    /// Runs one read-only query; its result as JSON values.
    pub fn query(&mut self, sql: &str, limits: &Limits) -> Result<QueryOutput, QueryError> {
        self.query_validated(&Validated::check(sql), limits)
    }

    /// [`Database::query`] for a query the validator has already seen: a query run on many
    /// databases (the equivalence check's) is parsed and checked once, not once a database.
    pub(crate) fn query_validated(
        &mut self,
        query: &Validated<'_>,
        limits: &Limits,
    ) -> Result<QueryOutput, QueryError> {
        let max_rows = limits.max_rows;
        let (millis, (columns, rows, truncated, vm_steps)) =
            self.guarded_run(query, limits.time_ms, limits.now, |connection| {
                run(connection, query.sql, max_rows)
            })?;
        Ok(QueryOutput {
            columns,
            rows,
            truncated,
            millis,
            vm_steps,
        })
    }

    /// Runs one read-only query as a benchmark's script would (see [`QuerySettings`]); its
    /// result as the core's values, read straight from SQLite.
    pub fn query_rows(
        &mut self,
        sql: &str,
        settings: &QuerySettings,
        now: fn() -> f64,
    ) -> Result<QueryRows, QueryError> {
        let sql = if settings.python_statements {
            match python_statement(sql) {
                PythonStatement::Empty => {
                    return Ok(QueryRows {
                        result: ResultSet::named(Vec::new(), Rows::default()),
                        truncated: false,
                        millis: 0.0,
                        vm_steps: 0,
                    });
                }
                PythonStatement::TooMany => return Err(QueryError::Failed(ONE_STATEMENT.into())),
                PythonStatement::One(first) => first,
            }
        } else {
            sql
        };
        let (millis, (result, truncated, vm_steps)) = self.guarded_run(
            &Validated::check(sql),
            settings.time_limit_ms,
            now,
            |connection| run_rows(connection, sql, settings),
        )?;
        Ok(QueryRows {
            result,
            truncated,
            millis,
            vm_steps,
        })
    }

    /// Runs `work` on the connection for `query` unless the safety validator refused it, under
    /// a time limit, and names what went wrong: the validator's refusal, the authorizer's
    /// denial, the time limit or SQLite's own error. Returns the milliseconds it took and what
    /// `work` gave.
    fn guarded_run<T>(
        &mut self,
        query: &Validated<'_>,
        time_ms: f64,
        now: fn() -> f64,
        work: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<(f64, T), QueryError> {
        if let Some(refusal) = &query.refusal {
            return Err(QueryError::Refused(refusal.clone()));
        }
        let started = now();
        let deadline = started + time_ms;
        let _ = self
            .connection
            .progress_handler(10_000, Some(move || now() > deadline));
        if let Ok(mut slot) = self.denied.lock() {
            *slot = None;
        }
        let result = work(&self.connection);
        let denial = self.denied.lock().ok().and_then(|mut slot| slot.take());
        let _ = self
            .connection
            .progress_handler(10_000, None::<fn() -> bool>);
        let millis = now() - started;
        let value = result.map_err(|err| match (code_of(&err), denial) {
            (_, Some(reason)) => QueryError::Denied(reason),
            (Some(rusqlite::ErrorCode::OperationInterrupted), None) => {
                QueryError::TimedOut { ms: millis }
            }
            _ => QueryError::Failed(message_of(&err)),
        })?;
        Ok((millis, value))
    }
}

impl qeval_core::Runner for Database {
    fn query(&mut self, sql: &str, settings: &QuerySettings) -> Result<QueryRows, QueryError> {
        self.query_rows(sql, settings, Limits::default().now)
    }

    fn suite(&mut self, check: &qeval_core::SuiteCheck) -> qeval_core::Metric {
        let options = crate::EquivalenceOptions {
            databases: check.databases,
            seed: check.seed,
            search: check.search,
            mode: check.mode,
            dialect: check.dialect,
            limits: Limits {
                time_ms: check.settings.time_limit_ms,
                max_rows: check.settings.max_rows,
                ..Limits::default()
            },
            ..crate::EquivalenceOptions::default()
        };
        crate::check_equivalence(
            &check.expected,
            &check.generated,
            crate::SchemaChoice::Database(self),
            &options,
        )
        .metric()
    }
}

/// SQLite's error code, wherever rusqlite put it.
fn code_of(err: &rusqlite::Error) -> Option<rusqlite::ErrorCode> {
    match err {
        rusqlite::Error::SqliteFailure(e, _) | rusqlite::Error::SqlInputError { error: e, .. } => {
            Some(e.code)
        }
        _ => None,
    }
}

fn message_of(err: &rusqlite::Error) -> String {
    match err {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        rusqlite::Error::SqliteFailure(_, Some(msg)) => msg.clone(),
        other => other.to_string(),
    }
}

impl Database {
    /// Fills the results a pair lacks by running its queries: the expected query's result, and
    /// the generated query's result or its error. Returns how many results the row cap cut.
    pub fn fill_results(&mut self, pair: &mut qeval_core::PairInput, limits: &Limits) -> usize {
        let mut cut = 0;
        if pair.expected_result.is_none()
            && let Some(sql) = pair.expected_sql.clone()
        {
            match self.query(&sql, limits) {
                Ok(out) => {
                    cut += usize::from(out.truncated);
                    if out.truncated {
                        pair.expected_cut = Some(qeval_core::cut_note(out.rows.len()));
                    }
                    pair.expected_result = Some(out.to_json());
                    pair.expected_vm_steps = (!out.truncated).then_some(out.vm_steps);
                }
                Err(err) => pair.expected_error = Some(err.to_string()),
            }
        }
        // Each further acceptable query's result too, so the pair can match any of them.
        for alternative in &mut pair.alternatives {
            if alternative.expected_result.is_none()
                && let Some(sql) = alternative.expected_sql.clone()
                && let Ok(out) = self.query(&sql, limits)
            {
                cut += usize::from(out.truncated);
                alternative.expected_result = Some(out.to_json());
            }
        }
        if pair.generated_result.is_none()
            && pair.generated_error.is_none()
            && !pair.generated_sql.trim().is_empty()
        {
            match self.query(&pair.generated_sql, limits) {
                Ok(out) => {
                    cut += usize::from(out.truncated);
                    if out.truncated {
                        pair.generated_cut = Some(qeval_core::cut_note(out.rows.len()));
                    }
                    pair.generated_result = Some(out.to_json());
                    pair.generated_vm_steps = (!out.truncated).then_some(out.vm_steps);
                }
                Err(err) => pair.generated_error = Some(err.to_string()),
            }
        }
        cut
    }
}

/// Columns, rows, whether they were cut, and the virtual machine steps SQLite took.
type RawRows = (Vec<String>, Vec<Vec<Value>>, bool, u64);

/// The longest text or blob SQLite may build: `printf('%.*c', 2000000000, 'x')` or `zeroblob`
/// fail with "string or blob too big" instead of taking the memory.
const MAX_VALUE_BYTES: i32 = 16 * 1024 * 1024;
/// Most bytes of values one result keeps; the rest is cut and the cut is reported, like rows
/// past the row cap.
pub const MAX_RESULT_BYTES: usize = qeval_core::MAX_RESULT_BYTES;

fn run(connection: &Connection, sql: &str, max_rows: usize) -> rusqlite::Result<RawRows> {
    let mut statement = connection.prepare(sql)?;
    let columns: Vec<String> = statement.column_names().map(str::to_string).collect();
    let width = columns.len();
    let mut rows = Vec::new();
    let mut bytes = 0usize;
    let mut cursor = statement.query([])?;
    let mut truncated = false;
    while let Some(row) = cursor.next()? {
        if rows.len() == max_rows || bytes > MAX_RESULT_BYTES {
            truncated = true;
            break;
        }
        let mut values = Vec::with_capacity(width);
        for i in 0..width {
            let value = row.get_ref(i)?;
            bytes += match value {
                rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => t.len(),
                _ => 8,
            };
            values.push(to_json(value));
        }
        rows.push(values);
    }
    drop(cursor);
    // The steps of SQLite's virtual machine: the same for the same query, data and SQLite
    // version on any machine, unlike time (`efficiency` compares them).
    let vm_steps =
        u64::try_from(statement.get_status(rusqlite::StatementStatus::VmStep)).unwrap_or_default();
    Ok((columns, rows, truncated, vm_steps))
}

/// A result, whether it was cut, and SQLite's VM steps: the core's values, text decoded as
/// `settings.text` says.
fn run_rows(
    connection: &Connection,
    sql: &str,
    settings: &QuerySettings,
) -> rusqlite::Result<(ResultSet, bool, u64)> {
    let mut statement = connection.prepare(sql)?;
    let columns: Vec<String> = statement.column_names().map(str::to_string).collect();
    let width = columns.len();
    let mut rows = Rows::with_capacity(width, 16);
    let mut bytes = 0usize;
    let mut cursor = statement.query([])?;
    let mut truncated = false;
    let mut cells = Vec::with_capacity(width);
    while let Some(row) = cursor.next()? {
        if rows.len() == settings.max_rows || bytes > settings.max_bytes {
            truncated = true;
            break;
        }
        cells.clear();
        for (i, column) in columns.iter().enumerate() {
            let value = row.get_ref(i)?;
            bytes += match value {
                rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => t.len(),
                _ => 8,
            };
            cells.push(to_value(value, settings.text).map_err(|text| {
                rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                    Some(format!(
                        "Could not decode to UTF-8 column '{column}' with text '{text}'"
                    )),
                )
            })?);
        }
        rows.push(cells.drain(..));
    }
    drop(cursor);
    let vm_steps =
        u64::try_from(statement.get_status(rusqlite::StatementStatus::VmStep)).unwrap_or_default();
    Ok((ResultSet::named(columns, rows), truncated, vm_steps))
}

fn read_schema(connection: &Connection) -> rusqlite::Result<Vec<Table>> {
    let mut names = connection.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let names: Vec<String> = names
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut tables = Vec::new();
    for name in names {
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        let mut info = connection.prepare(&format!(
            "SELECT name, type, \"notnull\" FROM pragma_table_info({})",
            quote_literal(&name)
        ))?;
        let columns = info
            .query_map([], |row| {
                Ok(Column {
                    name: row.get(0)?,
                    kind: row.get(1)?,
                    not_null: row.get::<_, i64>(2)? != 0,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let rows: i64 =
            connection.query_row(&format!("SELECT COUNT(*) FROM {quoted}"), [], |row| {
                row.get(0)
            })?;
        tables.push(Table {
            name,
            columns,
            rows: u64::try_from(rows).unwrap_or(0),
        });
    }
    Ok(tables)
}

fn read_create_statements(connection: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut statement = connection.prepare(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY name",
    )?;
    statement
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()
}

fn quote_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}
