//! Functions with side effects, by class and dialect. A plain `SELECT` can still stall the
//! server, read its files, reach other servers, change the session or administer the database
//! through a function call; these are the calls the read-only policy refuses.
//!
//! Names are matched whole (case-insensitively, quoting removed), by their last part or their
//! full dotted name, only in the dialects that define them, so an ordinary column or a user
//! function of the same name elsewhere is not flagged. The generic dialect applies every rule:
//! not knowing the database, it assumes the strictest.

use crate::sql::SqlDialect;
use SqlDialect::{Bigquery, Duckdb, Mssql, Mysql, Postgres, Snowflake, Sqlite};

/// What a side-effecting function does, as the violation says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Stalls the server: a timing attack or a denial of service.
    Stall,
    /// Reads or writes files on the server, or lists its directories.
    Files,
    /// Runs programs or native code on the server.
    Programs,
    /// Queries another server or database.
    Network,
    /// Changes the session: settings, random seeds, locks held past the statement.
    Session,
    /// Administers the server: ends other sessions, reloads configuration, changes replication.
    Administration,
    /// Writes data although called from a query: sequences, large objects, notifications.
    Writes,
    /// Runs SQL text given as a string, which the policy cannot see.
    DynamicSql,
    /// Reads stored credentials.
    Secrets,
}

impl Class {
    pub(super) fn why(self) -> &'static str {
        match self {
            Class::Stall => "stalls the server (a timing attack)",
            Class::Files => "reads or writes files on the server",
            Class::Programs => "runs programs or native code on the server",
            Class::Network => "queries another server",
            Class::Session => "changes the session (settings, seeds or locks)",
            Class::Administration => "administers the server",
            Class::Writes => "writes data although called from a query",
            Class::DynamicSql => "runs SQL text that cannot be checked",
            Class::Secrets => "reads stored credentials",
        }
    }
}

/// Where a call is flagged: anywhere, or only as a table (DuckDB's `glob` lists files in `FROM`,
/// while `glob(pattern, text)` in SQLite is a harmless comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Position {
    Anywhere,
    Table,
}

pub(super) struct FunctionRule {
    pub class: Class,
    pub names: &'static [&'static str],
    /// Every function whose last name part starts with this.
    pub prefix: Option<&'static str>,
    /// Where the functions exist; empty means every dialect.
    pub dialects: &'static [SqlDialect],
    pub position: Position,
}

const fn rule(
    class: Class,
    dialects: &'static [SqlDialect],
    names: &'static [&'static str],
) -> FunctionRule {
    FunctionRule {
        class,
        names,
        prefix: None,
        dialects,
        position: Position::Anywhere,
    }
}

/// The function `name` (lowercase, unquoted, as written: `pg_sleep`, `dbo.xp_cmdshell`) called
/// at `position` in `dialect`: the class of side effect it has, if any.
pub(super) fn side_effect(name: &str, dialect: SqlDialect, position: Position) -> Option<Class> {
    let last = name.rsplit('.').next().unwrap_or(name);
    RULES
        .iter()
        .find(|rule| {
            let dialect_applies = rule.dialects.is_empty()
                || dialect == SqlDialect::Generic
                || rule.dialects.contains(&dialect);
            let position_applies = rule.position == Position::Anywhere || position == rule.position;
            let named = rule.names.iter().any(|n| *n == last || *n == name)
                || rule.prefix.is_some_and(|p| last.starts_with(p));
            dialect_applies && position_applies && named
        })
        .map(|rule| rule.class)
}

const RULES: &[FunctionRule] = &[
    // Stalls.
    rule(
        Class::Stall,
        &[Mysql],
        &["sleep", "benchmark", "master_pos_wait", "source_pos_wait"],
    ),
    rule(
        Class::Stall,
        &[Postgres],
        &["pg_sleep", "pg_sleep_for", "pg_sleep_until"],
    ),
    rule(
        Class::Stall,
        &[],
        &["dbms_lock.sleep", "dbms_session.sleep"],
    ),
    rule(Class::Stall, &[Snowflake], &["system$wait"]),
    rule(
        Class::Stall,
        &[Mysql],
        &[
            "wait_for_executed_gtid_set",
            "wait_until_sql_thread_after_gtids",
        ],
    ),
    // Files.
    rule(Class::Files, &[Mysql], &["load_file"]),
    rule(
        Class::Files,
        &[Postgres],
        &[
            "pg_read_file",
            "pg_read_binary_file",
            "pg_ls_dir",
            "pg_stat_file",
            "pg_ls_logdir",
            "pg_ls_waldir",
            "pg_ls_tmpdir",
            "pg_ls_archive_statusdir",
            "pg_file_write",
            "pg_file_rename",
            "pg_file_unlink",
            "pg_file_sync",
            "pg_logdir_ls",
            "lo_import",
            "lo_export",
        ],
    ),
    rule(
        Class::Files,
        &[Sqlite],
        &["readfile", "writefile", "fsdir", "edit", "zipfile"],
    ),
    rule(
        Class::Files,
        &[Duckdb],
        &[
            "read_csv",
            "read_csv_auto",
            "read_parquet",
            "read_json",
            "read_json_auto",
            "read_json_objects",
            "read_ndjson",
            "read_ndjson_objects",
            "read_text",
            "read_blob",
            "read_xlsx",
            "parquet_scan",
            "parquet_metadata",
            "parquet_schema",
            "sniff_csv",
            "iceberg_scan",
            "delta_scan",
            "getenv",
            "st_read",
            "st_read_meta",
            "read_json_objects_auto",
            "read_ndjson_auto",
            "read_xlsx",
        ],
    ),
    rule(
        Class::Secrets,
        &[Duckdb],
        &["duckdb_secrets", "which_secret"],
    ),
    FunctionRule {
        class: Class::Files,
        names: &["glob"],
        prefix: None,
        dialects: &[Duckdb],
        position: Position::Table,
    },
    rule(
        Class::Files,
        &[Mssql],
        &[
            "xp_dirtree",
            "xp_subdirs",
            "xp_fileexist",
            "xp_availablemedia",
            "fn_xe_file_target_read_file",
            "fn_get_audit_file",
            "fn_trace_gettable",
            "openrowset",
        ],
    ),
    rule(
        Class::Files,
        &[Snowflake],
        &[
            "get_presigned_url",
            "build_scoped_file_url",
            "build_stage_file_url",
            "infer_schema",
        ],
    ),
    // Programs and native code.
    rule(Class::Programs, &[Sqlite], &["load_extension"]),
    rule(
        Class::Programs,
        &[Mssql],
        &[
            "xp_cmdshell",
            "sp_oacreate",
            "sp_oamethod",
            "sp_execute_external_script",
        ],
    ),
    rule(Class::Programs, &[Mysql], &["sys_exec", "sys_eval"]),
    // Other servers.
    rule(
        Class::Network,
        &[Postgres],
        &[
            "dblink",
            "dblink_exec",
            "dblink_connect",
            "dblink_connect_u",
            "dblink_send_query",
        ],
    ),
    rule(Class::Network, &[Mssql], &["opendatasource", "openquery"]),
    rule(Class::Network, &[Bigquery], &["external_query"]),
    rule(
        Class::Network,
        &[Duckdb],
        &[
            "sqlite_scan",
            "postgres_scan",
            "postgres_query",
            "mysql_scan",
            "mysql_query",
        ],
    ),
    // The session.
    rule(
        Class::Session,
        &[Postgres],
        &[
            "set_config",
            "setseed",
            "pg_advisory_lock",
            "pg_advisory_lock_shared",
            "pg_advisory_xact_lock",
            "pg_advisory_xact_lock_shared",
            "pg_try_advisory_lock",
            "pg_try_advisory_lock_shared",
            "pg_try_advisory_xact_lock",
            "pg_try_advisory_xact_lock_shared",
            "pg_advisory_unlock",
            "pg_advisory_unlock_all",
        ],
    ),
    rule(
        Class::Session,
        &[Mysql],
        &["get_lock", "release_lock", "release_all_locks"],
    ),
    rule(Class::Session, &[Duckdb], &["setseed"]),
    rule(Class::Session, &[Mssql], &["xp_regread", "xp_regwrite"]),
    // Administration.
    rule(
        Class::Administration,
        &[Postgres],
        &[
            "pg_terminate_backend",
            "pg_cancel_backend",
            "pg_reload_conf",
            "pg_rotate_logfile",
            "pg_switch_wal",
            "pg_create_restore_point",
            "pg_promote",
            "pg_backup_start",
            "pg_backup_stop",
            "pg_start_backup",
            "pg_stop_backup",
            "pg_wal_replay_pause",
            "pg_wal_replay_resume",
            "pg_create_physical_replication_slot",
            "pg_create_logical_replication_slot",
            "pg_drop_replication_slot",
            "pg_replication_origin_create",
            "pg_replication_origin_drop",
            "pg_log_backend_memory_contexts",
            "pg_stat_reset",
            "pg_stat_reset_shared",
        ],
    ),
    FunctionRule {
        class: Class::Administration,
        names: &[],
        prefix: Some("system$"),
        dialects: &[Snowflake],
        position: Position::Anywhere,
    },
    // Writes from a query.
    rule(
        Class::Writes,
        &[Postgres],
        &[
            "nextval",
            "setval",
            "lo_create",
            "lo_creat",
            "lo_unlink",
            "lo_put",
            "lo_from_bytea",
            "pg_notify",
            "pg_logical_emit_message",
        ],
    ),
    rule(Class::Writes, &[Duckdb], &["nextval"]),
    // SQL the policy cannot see.
    rule(
        Class::DynamicSql,
        &[Postgres],
        &[
            "query_to_xml",
            "query_to_xml_and_xmlschema",
            "query_to_xmlschema",
            "cursor_to_xml",
        ],
    ),
    rule(
        Class::DynamicSql,
        &[Duckdb],
        &["query", "query_table", "json_execute_serialized_sql"],
    ),
    rule(Class::DynamicSql, &[Mssql], &["sp_executesql"]),
];
