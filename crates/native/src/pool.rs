//! Running independent jobs on a few threads, keeping results in input order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of each worker thread.
const STACK_BYTES: usize = 8 * 1024 * 1024;

/// Applies `work` to every item on `workers` threads. `on_done` is called (from any thread) with
/// the number of items finished so far.
pub fn run<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T) -> R + Sync,
    on_done: impl Fn(usize) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let worker = || {
        loop {
            let index = next.fetch_add(1, Ordering::SeqCst);
            let Some(item) = items.get(index) else { break };
            let result = work(item);
            if let Ok(mut results) = results.lock() {
                results[index] = Some(result);
            }
            on_done(finished.fetch_add(1, Ordering::SeqCst) + 1);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            // The main thread's stack, not a spawned thread's default 2 MB: syntax trees as deep
            // as the parser admits are walked recursively.
            let spawned = std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                scope.spawn(worker);
            }
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// `run` on every core, with a progress line on standard error labelled `label`.
pub fn with_progress<T: Sync, R: Send>(
    label: &'static str,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
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
