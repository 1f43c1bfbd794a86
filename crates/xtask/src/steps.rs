//! Named steps: each prints what it does, then how long it took or that it failed.

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A step running on its own thread (see [`Steps::spawn`]).
pub struct Background {
    name: String,
    started: Instant,
    thread: JoinHandle<Result<(), String>>,
    log: PathBuf,
}

pub struct Steps {
    done: Vec<(String, Duration, bool)>,
    started: Instant,
}

impl Steps {
    pub fn new() -> Steps {
        Steps {
            done: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Runs one step. A failure comes back naming the step.
    pub fn run(
        &mut self,
        name: &str,
        what: &str,
        work: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        println!("\n==> {name}: {what}");
        let started = Instant::now();
        let result = work();
        self.record(name, started.elapsed(), result)
    }

    /// Keeps a step's time and outcome for the summary, and says them.
    fn record(
        &mut self,
        name: &str,
        took: Duration,
        result: Result<(), String>,
    ) -> Result<(), String> {
        self.done.push((name.to_string(), took, result.is_ok()));
        match result {
            Ok(()) => {
                println!("<== {name}: ok ({})", seconds(took));
                Ok(())
            }
            Err(message) => {
                println!("<== {name}: FAILED after {}", seconds(took));
                Err(format!("step `{name}` failed: {message}"))
            }
        }
    }

    /// Starts a step on a thread of its own, beside the steps that follow (`work` writes its
    /// output to `log`, not to the terminal); [`Steps::join`] waits for it and shows the log.
    pub fn spawn(
        &mut self,
        name: &str,
        what: &str,
        log: PathBuf,
        work: impl FnOnce(&Path) -> Result<(), String> + Send + 'static,
    ) -> Background {
        println!(
            "\n==> {name} (beside the next steps, into {}): {what}",
            log.display()
        );
        let at = log.clone();
        Background {
            name: name.to_string(),
            started: Instant::now(),
            thread: std::thread::spawn(move || work(&at)),
            log,
        }
    }

    /// Waits for a step started with [`Steps::spawn`], shows its output and records it.
    pub fn join(&mut self, step: Background) -> Result<(), String> {
        let result = step
            .thread
            .join()
            .unwrap_or_else(|_| Err("its thread panicked".to_string()));
        let took = step.started.elapsed();
        println!(
            "\n--- {}: its output ({}) ---",
            step.name,
            step.log.display()
        );
        match std::fs::read_to_string(&step.log) {
            Ok(text) => print!("{text}"),
            Err(err) => println!("(cannot read it: {err})"),
        }
        self.record(&format!("{} (beside)", step.name), took, result)
    }

    /// A table of every step run, with times, when there was more than one.
    pub fn summary(&self) {
        if self.done.len() < 2 {
            return;
        }
        println!("\nsteps:");
        for (name, took, ok) in &self.done {
            let mark = if *ok { "ok" } else { "FAILED" };
            println!("  {name:<28} {mark:<7} {:>9}", seconds(*took));
        }
        println!(
            "  {:<28} {:<7} {:>9}",
            "total",
            "",
            seconds(self.started.elapsed())
        );
    }
}

fn seconds(duration: Duration) -> String {
    format!("{:.1} s", duration.as_secs_f64())
}
