//! `cargo xtask serve`: builds the page, serves it on 127.0.0.1, and rebuilds when a source
//! changes. The server is small on purpose: static files, GET and HEAD, this machine only.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::root;
use crate::steps::Steps;
use crate::web::{self, WebBuild};

/// Folders whose files the page is built from; a change in any of them means a rebuild.
const WATCHED: [&str; 3] = ["crates", "www", "static"];
/// Folders inside those that hold no sources.
const SKIPPED: [&str; 4] = ["node_modules", "target", "__pycache__", ".pytest_cache"];

pub fn serve(steps: &mut Steps, port: u64, build: WebBuild) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", u16::try_from(port).unwrap_or(0)))
        .map_err(|err| format!("cannot listen on 127.0.0.1:{port}: {err} (try --port)"))?;
    web::build(steps, build)?;
    steps.summary();
    let url = format!("http://127.0.0.1:{port}/");
    println!("\nqeval is served at {url}");
    println!(
        "Edits under crates/, www/ and static/ rebuild the page; reload it then. Ctrl+C stops.\n"
    );
    std::thread::spawn(move || rebuild_on_change(build));
    let served = web::out_dir(build);
    for stream in listener.incoming().flatten() {
        let served = served.clone();
        std::thread::spawn(move || {
            // A client that goes away mid-answer is no concern of the server's.
            let _ = answer(stream, &served);
        });
    }
    Ok(())
}

/// Polls the sources once a second and rebuilds after a change. A failed build is reported and
/// the last good page stays served.
fn rebuild_on_change(build: WebBuild) {
    let mut seen = sources_stamp();
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let now = sources_stamp();
        if now == seen {
            continue;
        }
        // Editors save in several writes; let them finish.
        std::thread::sleep(Duration::from_millis(300));
        seen = sources_stamp();
        println!("\nA source changed: rebuilding.");
        let mut steps = Steps::new();
        match web::build(&mut steps, build) {
            Ok(()) => println!("\nRebuilt: reload the page."),
            Err(message) => {
                println!("\nThe rebuild failed ({message}); the last good page is still served.")
            }
        }
    }
}

/// Every watched file's path, size and modification time, folded into one number.
fn sources_stamp() -> u64 {
    let mut stamp = 0u64;
    let mut pending: Vec<PathBuf> = WATCHED.iter().map(|dir| root().join(dir)).collect();
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_dir() {
                let skipped = SKIPPED.iter().any(|name| entry.file_name() == *name);
                if !skipped {
                    pending.push(path);
                }
                continue;
            }
            let modified = meta
                .modified()
                .ok()
                .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |since| since.as_nanos());
            let mut hash = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&(path, meta.len(), modified), &mut hash);
            // Order-free, so the walk's order does not matter.
            stamp = stamp.wrapping_add(std::hash::Hasher::finish(&hash));
        }
    }
    stamp
}

/// Answers one request: a file of `dist` for GET or HEAD, or an error status.
fn answer(stream: TcpStream, dist: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // The headers are read and dropped: nothing in them changes the answer.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let head = method == "HEAD";
    if method != "GET" && !head {
        return respond(
            stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET or HEAD only\n",
            head,
        );
    }
    let Some(file) = file_for(dist, target) else {
        return respond(stream, "404 Not Found", "text/plain", b"not found\n", head);
    };
    match std::fs::read(&file) {
        Ok(body) => respond(stream, "200 OK", content_type(&file), &body, head),
        Err(_) => respond(stream, "404 Not Found", "text/plain", b"not found\n", head),
    }
}

/// The file a request path names inside `dist`, or `None` for a path that would leave it.
fn file_for(dist: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = percent_decode(path.trim_start_matches('/'))?;
    let relative = Path::new(&path);
    if relative
        .components()
        .any(|part| !matches!(part, Component::Normal(_)))
    {
        return None;
    }
    let file = dist.join(relative);
    Some(if file.is_dir() {
        file.join("index.html")
    } else {
        file
    })
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|ext| ext.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("jsonl" | "txt" | "sql" | "csv" | "kql") => "text/plain; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

fn respond(
    mut stream: TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    head: bool,
) -> std::io::Result<()> {
    // no-cache: a rebuilt page is seen on the next reload.
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if !head {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_stay_inside_dist() {
        let dist = Path::new("/srv/dist");
        assert_eq!(
            file_for(dist, "/example-run/a%20b.json?x=1"),
            Some(PathBuf::from("/srv/dist/example-run/a b.json"))
        );
        assert_eq!(file_for(dist, "/../etc/passwd"), None);
        assert_eq!(file_for(dist, "/%2e%2e/secret"), None);
        assert_eq!(file_for(dist, "/bad%zz"), None);
    }
}
