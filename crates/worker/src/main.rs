//! The database worker's entry point: `cargo xtask` builds this binary as one of the page's
//! workers, and the page starts it on its first database action.

#[cfg(target_arch = "wasm32")]
fn main() {
    use qeval_worker::jobs::Jobs;
    use qeval_worker::serve::{progress, serve};

    let mut jobs = Jobs::with_progress(progress);
    serve(move |task, bytes| jobs.run(task, bytes), Jobs::ready());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "qeval-worker runs in the browser, started by the qeval page; natively there is nothing to do."
    );
    std::process::exit(2);
}
