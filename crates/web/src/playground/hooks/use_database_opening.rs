//! Opening a database in the database worker: dropped or picked files read here in slices (with
//! progress), a script built there, and a shared link's SQL built once when the page opens.

use gloo_timers::future::TimeoutFuture;
use js_sys::Uint8Array;
use qeval_worker::protocol::{Answer, DatabaseForm};
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::File;
use yew::prelude::*;

use crate::database::{BUILT_FROM_SQL, LoadedDb};
use crate::workers::{Reply, Workers};

/// Bytes read per slice of a dropped database, so a large file shows progress.
const SLICE: f64 = 8.0 * 1024.0 * 1024.0;
/// Larger files are refused with a message rather than risking the tab.
const MAX_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// A database to open: its name, its form, and a file's bytes.
pub type Opening = (String, DatabaseForm, Option<Uint8Array>);

/// What the panel shows and calls.
pub struct DatabaseOpening {
    /// What is happening (`true`) or went wrong (`false`), until the worker answers.
    pub status: Option<(bool, String)>,
    /// Opens a database in the worker; `on_load` hears of it once open.
    pub open: Callback<Opening>,
    /// Reads files and opens them: CSV files as one table each, else the first as SQLite.
    pub load_files: Callback<Vec<File>>,
}

/// `sql`: a shared link's script, built once when the page opens unless `db` was built from it.
#[hook]
pub fn use_database_opening(
    on_load: Callback<LoadedDb>,
    sql: String,
    db: &LoadedDb,
) -> DatabaseOpening {
    let worker = use_context::<Workers>().unwrap_or_default().database;
    let status = use_state(|| None::<(bool, String)>);
    let open = {
        let status = status.clone();
        Callback::from(move |(name, source, bytes): Opening| {
            status.set(Some((true, format!("Opening {name}…"))));
            let sql = match &source {
                DatabaseForm::Script(sql) => sql.clone(),
                _ => String::new(),
            };
            let (status, on_load, shown) = (status.clone(), on_load.clone(), name.clone());
            worker.open(name, source, bytes, move |reply| match reply {
                Reply::Answer(Answer::Opened(Ok(tables))) => {
                    status.set(None);
                    on_load.emit(LoadedDb::new(shown, tables, sql));
                }
                Reply::Answer(Answer::Opened(Err(err))) => status.set(Some((false, err))),
                _ => status.set(Some((false, format!("{shown} was not opened")))),
            });
        })
    };
    let load_files = {
        let (status, open) = (status.clone(), open.clone());
        Callback::from(move |files: Vec<File>| {
            let (status, open) = (status.clone(), open.clone());
            spawn_local(async move {
                match read_files(&files, &status).await {
                    Ok(opened) => open.emit(opened),
                    Err(err) => status.set(Some((false, err))),
                }
            });
        })
    };
    // A link's SQL is built once, when the page opens it; what the user builds later is theirs.
    {
        let open = open.clone();
        let unbuilt = (!sql.is_empty() && sql != db.sql).then_some(sql);
        use_effect_with((), move |()| {
            if let Some(sql) = unbuilt {
                open.emit((BUILT_FROM_SQL.into(), DatabaseForm::Script(sql), None));
            }
        });
    }
    DatabaseOpening {
        status: (*status).clone(),
        open,
        load_files,
    }
}

/// CSV files become one table each; otherwise the first file is opened as a SQLite database.
/// Reads them here (with progress); the worker opens them.
async fn read_files(
    files: &[File],
    status: &UseStateHandle<Option<(bool, String)>>,
) -> Result<Opening, String> {
    let first = files.first().ok_or("no file")?;
    if files
        .iter()
        .any(|f| f.name().to_ascii_lowercase().ends_with(".csv"))
    {
        let mut texts = Vec::new();
        for file in files {
            let bytes = read_file(file, status).await?;
            texts.push((file.name(), String::from_utf8_lossy(&bytes).into_owned()));
        }
        let name = if texts.len() == 1 {
            texts[0].0.clone()
        } else {
            format!("{} CSV files", texts.len())
        };
        return Ok((name, DatabaseForm::Csv(texts), None));
    }
    let bytes = read_file(first, status).await?;
    Ok((
        first.name(),
        DatabaseForm::File,
        Some(Uint8Array::from(bytes.as_slice())),
    ))
}

/// The file's bytes, read in slices with the progress shown in `status`.
async fn read_file(
    file: &File,
    status: &UseStateHandle<Option<(bool, String)>>,
) -> Result<Vec<u8>, String> {
    let size = file.size();
    if size > MAX_BYTES {
        return Err(format!(
            "{} is {:.0} MB; databases up to 1 GB can be opened here",
            file.name(),
            size / 1e6
        ));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    let mut at = 0.0;
    while at < size {
        let end = (at + SLICE).min(size);
        let slice = file
            .slice_with_f64_and_f64(at, end)
            .map_err(|e| format!("{e:?}"))?;
        let buffer = JsFuture::from(slice.array_buffer())
            .await
            .map_err(|_| format!("{} could not be read", file.name()))?;
        bytes.extend(Uint8Array::new(&buffer).to_vec());
        at = end;
        status.set(Some((
            true,
            format!(
                "Reading {}: {:.0} of {:.0} MB",
                file.name(),
                at / 1e6,
                size / 1e6
            ),
        )));
        TimeoutFuture::new(0).await;
    }
    Ok(bytes)
}
