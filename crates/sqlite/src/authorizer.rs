//! What a query may do: read tables and call pure functions. Everything else is denied while
//! the statement is prepared, before it runs.

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};

/// Functions a read-only query may call: SQLite's core, date, aggregate, window, math and JSON
/// functions. Not `load_extension`, not anything that reads files or changes state.
const ALLOWED_FUNCTIONS: &[&str] = &[
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "avg",
    "ceil",
    "ceiling",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "cos",
    "cosh",
    "count",
    "cume_dist",
    "date",
    "datetime",
    "degrees",
    "dense_rank",
    "exp",
    "first_value",
    "floor",
    "format",
    "glob",
    "group_concat",
    "hex",
    "ifnull",
    "iif",
    "instr",
    "json",
    "json_array",
    "json_array_length",
    "json_each",
    "json_extract",
    "json_group_array",
    "json_group_object",
    "json_object",
    "json_quote",
    "json_tree",
    "json_type",
    "json_valid",
    "julianday",
    "lag",
    "last_value",
    "lead",
    "length",
    "like",
    "likelihood",
    "likely",
    "ln",
    "log",
    "log10",
    "log2",
    "lower",
    "ltrim",
    "max",
    "min",
    "mod",
    "nth_value",
    "ntile",
    "nullif",
    "octet_length",
    "percent_rank",
    "pi",
    "pow",
    "power",
    "printf",
    "quote",
    "radians",
    "random",
    "rank",
    "replace",
    "round",
    "row_number",
    "rtrim",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "strftime",
    "string_agg",
    "substr",
    "substring",
    "sum",
    "tan",
    "tanh",
    "time",
    "timediff",
    "total",
    "trim",
    "trunc",
    "typeof",
    "unhex",
    "unicode",
    "unixepoch",
    "unlikely",
    "upper",
];

use std::sync::{Arc, Mutex};

/// What the authorizer last denied, so the error can name it.
pub type Denied = Arc<Mutex<Option<String>>>;

/// Allows an action, or denies it and records why.
fn decide(denied: &Denied, refusal: Option<String>) -> Authorization {
    match refusal {
        None => Authorization::Allow,
        Some(reason) => {
            if let Ok(mut slot) = denied.lock() {
                *slot = Some(reason);
            }
            Authorization::Deny
        }
    }
}

/// The authorizer: allows reading and allowed functions, denies the rest and records what.
pub fn read_only(
    denied: Denied,
) -> impl for<'r> FnMut(AuthContext<'r>) -> Authorization + Send + 'static {
    move |context| {
        let refusal = match context.action {
            AuthAction::Select | AuthAction::Read { .. } | AuthAction::Recursive => None,
            // Only the order of unordered results changes: test-suite checking flips it to see
            // whether a query's row order is determined at all.
            AuthAction::Pragma {
                pragma_name,
                pragma_value,
            } if pragma_name.eq_ignore_ascii_case("reverse_unordered_selects")
                && pragma_value.is_some() =>
            {
                None
            }
            AuthAction::Function { function_name } => {
                let name = function_name.to_ascii_lowercase();
                (!ALLOWED_FUNCTIONS.contains(&name.as_str()))
                    .then(|| format!("the function {name}() is not on the read-only allow-list"))
            }
            other => Some(format!("{} is not a read", described(&other))),
        };
        decide(&denied, refusal)
    }
}

/// An action in words, for a refusal the user reads ("PRAGMA writable_schema", "a DELETE on
/// users"), not the authorizer's debug text.
fn described(action: &AuthAction<'_>) -> String {
    use AuthAction as A;
    match action {
        A::Pragma { pragma_name, .. } => format!("PRAGMA {pragma_name}"),
        A::Insert { table_name } => format!("an INSERT into {table_name}"),
        A::Update { table_name, .. } => format!("an UPDATE of {table_name}"),
        A::Delete { table_name } => format!("a DELETE from {table_name}"),
        A::Attach { .. } => "ATTACH".into(),
        A::Detach { .. } => "DETACH".into(),
        A::Transaction { operation } => format!("a transaction ({operation:?})").to_uppercase(),
        A::Savepoint { .. } => "a SAVEPOINT".into(),
        A::CreateTable { table_name } | A::CreateTempTable { table_name } => {
            format!("CREATE TABLE {table_name}")
        }
        A::DropTable { table_name } | A::DropTempTable { table_name } => {
            format!("DROP TABLE {table_name}")
        }
        A::AlterTable { table_name, .. } => format!("ALTER TABLE {table_name}"),
        A::CreateIndex { index_name, .. } | A::CreateTempIndex { index_name, .. } => {
            format!("CREATE INDEX {index_name}")
        }
        A::DropIndex { index_name, .. } | A::DropTempIndex { index_name, .. } => {
            format!("DROP INDEX {index_name}")
        }
        A::CreateView { view_name } | A::CreateTempView { view_name } => {
            format!("CREATE VIEW {view_name}")
        }
        A::DropView { view_name } | A::DropTempView { view_name } => {
            format!("DROP VIEW {view_name}")
        }
        A::CreateTrigger { trigger_name, .. } | A::CreateTempTrigger { trigger_name, .. } => {
            format!("CREATE TRIGGER {trigger_name}")
        }
        A::DropTrigger { trigger_name, .. } | A::DropTempTrigger { trigger_name, .. } => {
            format!("DROP TRIGGER {trigger_name}")
        }
        A::CreateVtable { table_name, .. } => format!("CREATE VIRTUAL TABLE {table_name}"),
        A::DropVtable { table_name, .. } => format!("DROP TABLE {table_name}"),
        A::Reindex { index_name } => format!("REINDEX {index_name}"),
        A::Analyze { table_name } => format!("ANALYZE {table_name}"),
        _ => "this statement".into(),
    }
}

/// The authorizer while a generated database is built: tables, indexes and views in the main
/// database, rows inserted into them, `PRAGMA foreign_keys` and allowed functions. No
/// `ATTACH`, no other pragma, no trigger or virtual table, nothing in another schema.
pub fn building(
    denied: Denied,
) -> impl for<'r> FnMut(AuthContext<'r>) -> Authorization + Send + 'static {
    move |context| {
        let in_main = context.database_name.is_none_or(|d| d == "main");
        let refusal = match context.action {
            AuthAction::CreateTable { .. }
            | AuthAction::CreateIndex { .. }
            | AuthAction::Reindex { .. }
            | AuthAction::CreateView { .. }
            | AuthAction::Insert { .. }
            | AuthAction::Select
            | AuthAction::Read { .. }
            | AuthAction::Transaction { .. }
                if in_main =>
            {
                None
            }
            // SQLite records a new table by updating its own schema table; a statement cannot
            // (that needs `PRAGMA writable_schema`, which is refused).
            AuthAction::Update { table_name, .. } if in_main && table_name == "sqlite_master" => {
                None
            }
            AuthAction::Pragma { pragma_name, .. }
                if pragma_name.eq_ignore_ascii_case("foreign_keys") =>
            {
                None
            }
            AuthAction::Function { function_name } => {
                let name = function_name.to_ascii_lowercase();
                (!ALLOWED_FUNCTIONS.contains(&name.as_str()))
                    .then(|| format!("the function {name}() is not on the allow-list"))
            }
            other => Some(format!(
                "{} is not part of building a database",
                described(&other)
            )),
        };
        decide(&denied, refusal)
    }
}
