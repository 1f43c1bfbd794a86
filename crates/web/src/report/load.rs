//! Reading a run's files: from a drop (folders included), a file picker, or a URL. Large files
//! are read in slices, line by line, with progress, so the page never freezes; a bad line is
//! listed with its number and the rest is kept.

use std::collections::BTreeMap;
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Promise, Uint8Array};
use qeval_core::{
    EvaluationRecord, FileKind, LABEL_FIELD, Lines, TestLine, apply_labels, file_kind_by_content,
    file_kind_of, labels_by_test, read_labels, read_questions, run_files, test_key,
};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, File};

use super::{LoadedRun, RawRun, Shared};

/// Bytes read per slice: large enough to be quick, small enough to report progress and let the
/// page breathe between slices.
const SLICE: f64 = 2.0 * 1024.0 * 1024.0;

/// A file to read: its path within the dropped folder (or its name) and its contents.
#[derive(Clone)]
pub struct DroppedFile {
    pub path: String,
    pub blob: Blob,
}

/// Progress as (bytes read, bytes in all files).
pub type LoadProgress = Rc<dyn Fn(f64, f64)>;

/// Reads the sources into a run: the files the core's run-folder rules pick (`run_files`), so a
/// folder is read as `qeval run` reads it. Scored records win over raw results when both are
/// present, as `qeval report` shows a folder's scores.
pub async fn read_run(
    name: String,
    sources: Vec<DroppedFile>,
    progress: LoadProgress,
) -> Result<LoadedRun, String> {
    let used: Vec<(FileKind, DroppedFile)> = run_files(sources.iter().map(|s| s.path.as_str()))?
        .into_iter()
        .filter_map(|(kind, path)| {
            let source = sources.iter().find(|s| s.path == path)?;
            Some((kind, source.clone()))
        })
        .collect();
    if used.is_empty() {
        return Err("No .jsonl or .json file here: drop a run folder (evaluation-results.jsonl, or test-results.jsonl with its questions file).".into());
    }
    let total: f64 = used.iter().map(|(_, s)| s.blob.size()).sum();
    let mut done = 0.0;
    let mut run = LoadedRun {
        name,
        files: used.iter().map(|(_, s)| s.path.clone()).collect(),
        ..LoadedRun::default()
    };
    let mut evaluations: Vec<EvaluationRecord> = Vec::new();
    let mut tests: Vec<TestLine> = Vec::new();
    let mut questions = BTreeMap::new();
    let mut labels = Vec::new();
    // Lines read and rejected, and the folder, of each kind: only the kind used is reported.
    let mut of_tests = (0, Vec::new(), None);
    let mut of_evaluations = (0, Vec::new(), None);
    for (kind, source) in used {
        let kind = if kind == FileKind::Other {
            sniff(&source.blob).await
        } else {
            kind
        };
        let offset = done;
        let report = {
            let progress = progress.clone();
            move |bytes: f64| progress(offset + bytes, total)
        };
        match kind {
            FileKind::Questions => {
                let text = text_of(&source.blob).await?;
                let lines: Lines<TestLine> = read_questions(&text);
                keep_rejected(&mut run, &source.path, &lines);
                questions.extend(
                    lines
                        .records
                        .into_iter()
                        .map(|(_, q)| (test_key(&q.test_id), q)),
                );
            }
            FileKind::Labels => {
                let text = text_of(&source.blob).await?;
                let lines = read_labels(&text);
                keep_rejected(&mut run, &source.path, &lines);
                labels.extend(lines.records.into_iter().map(|(_, l)| l));
            }
            FileKind::TestResults => {
                let mut lines: Lines<TestLine> = read_lines(&source.blob, &report).await?;
                lines.reject_repeated(|t| test_key(&t.test_id), "test_id");
                tally(&mut of_tests, &source.path, &lines);
                tests.extend(lines.records.into_iter().map(|(_, t)| t));
            }
            _ => {
                let lines: Lines<EvaluationRecord> = read_lines(&source.blob, &report).await?;
                tally(&mut of_evaluations, &source.path, &lines);
                evaluations.extend(lines.records.into_iter().map(|(_, r)| r));
            }
        }
        done += source.blob.size();
        progress(done, total);
    }
    // Labels go into the records (and into raw tests, whose records keep them when scored).
    apply_labels(&mut evaluations, &labels);
    let by_test = labels_by_test(&labels);
    for test in &mut tests {
        if let Some(label) = by_test.get(&test_key(&test.test_id)) {
            test.extra.insert(LABEL_FIELD.to_string(), (*label).clone());
        }
    }
    let (lines_read, rejected, folder) = if evaluations.is_empty() && !tests.is_empty() {
        run.raw = Some(Shared(Rc::new(RawRun { tests, questions })));
        of_tests
    } else {
        of_evaluations
    };
    run.lines_read = lines_read;
    run.rejected.extend(rejected);
    if let Some(folder) = folder {
        run.name = folder;
    }
    run.records = Shared(Rc::new(evaluations));
    Ok(run)
}

/// Lines read, rejected lines and the folder of one kind of file.
type ReadTally = (usize, Vec<(String, qeval_core::Rejected)>, Option<String>);

fn tally<T>(tally: &mut ReadTally, path: &str, lines: &Lines<T>) {
    tally.0 += lines.lines_read;
    tally
        .1
        .extend(lines.rejected.iter().map(|r| (path.to_string(), r.clone())));
    let mut parts = path.rsplit('/');
    parts.next();
    if let Some(folder) = parts.next() {
        tally.2 = Some(folder.to_string());
    }
}

fn keep_rejected<T>(run: &mut LoadedRun, path: &str, lines: &Lines<T>) {
    run.rejected
        .extend(lines.rejected.iter().map(|r| (path.to_string(), r.clone())));
}

/// What a file whose name does not say holds, by its first 64 KB (the core's rule).
async fn sniff(blob: &Blob) -> FileKind {
    let head = blob.slice_with_f64_and_f64(0.0, 64.0 * 1024.0).ok();
    let text = match head {
        Some(head) => text_of(&head).await.unwrap_or_default(),
        None => String::new(),
    };
    file_kind_by_content(&text)
}

async fn text_of(blob: &Blob) -> Result<String, String> {
    JsFuture::from(blob.text())
        .await
        .map_err(|e| format!("cannot read the file: {e:?}"))?
        .as_string()
        .ok_or_else(|| "the file is not text".into())
}

/// Reads JSONL (or a JSON array) slice by slice. Lines are split on bytes, so a slice boundary
/// inside a multi-byte character does no harm.
async fn read_lines<T: DeserializeOwned>(
    blob: &Blob,
    progress: &dyn Fn(f64),
) -> Result<Lines<T>, String> {
    let size = blob.size();
    let first = blob
        .slice_with_f64_and_f64(0.0, 4096.0)
        .map_err(|e| format!("{e:?}"))?;
    if text_of(&first)
        .await?
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[')
    {
        // A JSON array is one value: read whole (still reported as one step).
        let lines = qeval_core::read_records(&text_of(blob).await?);
        progress(size);
        return Ok(lines);
    }
    let mut lines = Lines::default();
    let mut pending: Vec<u8> = Vec::new();
    let mut number = 0usize;
    let mut at = 0.0;
    while at < size {
        let end = (at + SLICE).min(size);
        let slice = blob
            .slice_with_f64_and_f64(at, end)
            .map_err(|e| format!("{e:?}"))?;
        let buffer = JsFuture::from(slice.array_buffer())
            .await
            .map_err(|e| format!("cannot read the file: {e:?}"))?;
        pending.extend(Uint8Array::new(&buffer).to_vec());
        let mut start = 0;
        for (i, byte) in pending.iter().enumerate() {
            if *byte == b'\n' {
                number += 1;
                lines.push_line(number, &String::from_utf8_lossy(&pending[start..i]));
                start = i + 1;
            }
        }
        pending.drain(..start);
        at = end;
        progress(at);
        // Let the page paint the progress and answer input.
        TimeoutFuture::new(0).await;
    }
    if !pending.is_empty() {
        lines.push_line(number + 1, &String::from_utf8_lossy(&pending));
    }
    Ok(lines)
}

/// The files of a drop: folders are walked (all their files, at any depth).
pub async fn dropped(data: web_sys::DataTransfer) -> Vec<DroppedFile> {
    let items = data.items();
    let mut entries = Vec::new();
    let mut loose = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        match item.webkit_get_as_entry() {
            Ok(Some(entry)) => entries.push(entry),
            _ => {
                if let Ok(Some(file)) = item.get_as_file() {
                    loose.push(file);
                }
            }
        }
    }
    let mut sources: Vec<DroppedFile> = loose.into_iter().map(source_of_file).collect();
    for entry in entries {
        walk(entry, &mut sources).await;
    }
    sources
}

pub fn source_of_file(file: File) -> DroppedFile {
    let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty());
    DroppedFile {
        path: relative.unwrap_or_else(|| file.name()),
        blob: file.into(),
    }
}

async fn walk(entry: web_sys::FileSystemEntry, sources: &mut Vec<DroppedFile>) {
    let mut stack = vec![entry];
    while let Some(entry) = stack.pop() {
        if entry.is_file() {
            let entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let path = entry.full_path().trim_start_matches('/').to_string();
            let promise = Promise::new(&mut |resolve, reject| {
                let ok = Closure::once_into_js(move |file: JsValue| {
                    let _ = resolve.call1(&JsValue::NULL, &file);
                });
                let fail = Closure::once_into_js(move |err: JsValue| {
                    let _ = reject.call1(&JsValue::NULL, &err);
                });
                entry.file_with_callback_and_callback(ok.unchecked_ref(), fail.unchecked_ref());
            });
            if let Ok(file) = JsFuture::from(promise).await {
                sources.push(DroppedFile {
                    path,
                    blob: file.unchecked_into(),
                });
            }
        } else if entry.is_directory() {
            let directory: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            let reader = directory.create_reader();
            // readEntries returns a batch at a time; an empty batch means done.
            loop {
                let promise = Promise::new(&mut |resolve, reject| {
                    let ok = Closure::once_into_js(move |batch: JsValue| {
                        let _ = resolve.call1(&JsValue::NULL, &batch);
                    });
                    let fail = Closure::once_into_js(move |err: JsValue| {
                        let _ = reject.call1(&JsValue::NULL, &err);
                    });
                    let _ = reader.read_entries_with_callback_and_callback(
                        ok.unchecked_ref(),
                        fail.unchecked_ref(),
                    );
                });
                let Ok(batch) = JsFuture::from(promise).await else {
                    break;
                };
                let batch: Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                stack.extend(
                    batch
                        .iter()
                        .map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()),
                );
            }
        }
    }
}

/// Largest run a link may load: the page holds the whole file in memory.
pub const MAX_FETCHED_BYTES: f64 = 200.0 * 1024.0 * 1024.0;

/// Fetches a hosted records file (`?run=URL`), streamed, reporting `(bytes so far, total)`
/// (total 0 when the server does not say), and refused past [`MAX_FETCHED_BYTES`].
pub async fn fetched(
    url: &str,
    progress: Rc<dyn Fn(f64, f64)>,
) -> Result<Vec<DroppedFile>, String> {
    if let Some(blocked) = crate::connect_policy::blocked(url) {
        return Err(blocked);
    }
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| {
            format!(
                "could not fetch {url}: {e} (the server must allow this page's origin through CORS)"
            )
        })?;
    if !response.ok() {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let too_large = |bytes: f64| {
        format!(
            "{url} is {:.0} MB; a link can load at most {:.0} MB. Download the file and drop it here instead.",
            bytes / 1e6,
            MAX_FETCHED_BYTES / 1e6
        )
    };
    let total = response
        .headers()
        .get("content-length")
        .and_then(|n| n.trim().parse::<f64>().ok())
        .unwrap_or(0.0);
    if total > MAX_FETCHED_BYTES {
        return Err(too_large(total));
    }
    let body = response
        .body()
        .ok_or_else(|| format!("{url} sent no body"))?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("could not read {url}: {e:?}"))?;
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            bytes.extend(Uint8Array::new(&value).to_vec());
        }
        if bytes.len() as f64 > MAX_FETCHED_BYTES {
            let _ = reader.cancel();
            return Err(too_large(bytes.len() as f64));
        }
        progress(bytes.len() as f64, total);
    }
    if is_web_page(&bytes) {
        return Err(format!(
            "{url} returned a web page, not JSON Lines. Link to the run's file itself \
             (evaluation-results.jsonl or test-results.jsonl), not to a folder or a page."
        ));
    }
    let parts = Array::of1(&Uint8Array::from(bytes.as_slice()));
    let blob = Blob::new_with_u8_array_sequence(&parts).map_err(|e| format!("{e:?}"))?;
    let name = url
        .split('?')
        .next()
        .unwrap_or(url)
        .rsplit('/')
        .next()
        .unwrap_or("run.jsonl");
    let name = if file_kind_of(name).is_some() {
        name.to_string()
    } else {
        "evaluation-results.jsonl".into()
    };
    Ok(vec![DroppedFile { path: name, blob }])
}

/// An HTML page (a folder's listing, a login page, a site's index) where a run's JSON Lines were
/// expected: its first character, `<`, starts no JSON line. (Its content type is not trusted:
/// servers label `.jsonl` files every way.)
fn is_web_page(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    text.trim_ascii_start().starts_with(b"<")
}
