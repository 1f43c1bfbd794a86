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
    run_with(items, workers, || (), |_, item| work(item), on_done)
}

/// [`run`] with a state of each worker's own, made by `start` on its thread and handed to
/// `work` for every item the worker takes (an open database it keeps for the next item).
pub fn run_with<T: Sync, S, R: Send>(
    items: &[T],
    workers: usize,
    start: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
    on_done: impl Fn(usize) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let worker = || {
        let mut state = start();
        loop {
            let index = next.fetch_add(1, Ordering::SeqCst);
            let Some(item) = items.get(index) else { break };
            let result = work(&mut state, item);
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

/// The number of cores to use: the machine's (1 when it cannot say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Spreads a comparison's independent parts over every core (the core runs them in turn where
/// no threads are given, as in the browser).
pub struct EveryCore;

impl qeval_core::Spread for EveryCore {
    fn each<T: Sync, R: Send>(&self, items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
        run(items, cores(), work, |_| {})
    }
}
