//! The scoring worker's entry point: `cargo xtask` builds this binary (without SQLite) as one of the
//! page's workers, and the page starts it at once: every scorecard the page shows is
//! made here.

#[cfg(target_arch = "wasm32")]
fn main() {
    use qeval_worker::protocol::Answer;
    use qeval_worker::scoring;
    use qeval_worker::serve::serve;

    serve(
        |task, _bytes| scoring::run(task),
        Answer::Ready {
            sqlite_version: None,
        },
    );
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "qeval-scorer runs in the browser, started by the qeval page; natively there is nothing to do."
    );
    std::process::exit(2);
}
