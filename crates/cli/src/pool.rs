//! Work on every core with a progress line: the shared pool, and the command line's progress.

use std::sync::Mutex;

pub use qeval_native::pool::run;

/// `run` on every core, with a progress line on standard error labelled `label`.
pub fn with_progress<T: Sync, R: Send>(
    label: &'static str,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = qeval_native::pool::cores();
    let mut progress = crate::progress::Progress::new(label);
    let progress_lock = Mutex::new(&mut progress);
    let results = run(items, workers, work, |done| {
        if let Ok(mut progress) = progress_lock.lock() {
            progress.tick_of(done, items.len());
        }
    });
    progress.finish();
    results
}
