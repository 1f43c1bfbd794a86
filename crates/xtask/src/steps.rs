//! Named steps: each prints what it does, then how long it took or that it failed. A step can
//! also run in the background, beside the others, and be waited for later.

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
        self.record(name, "", started.elapsed(), result)
    }

    /// Records a finished step (its name followed by `label` in the summary) and says how it
    /// went. A failure comes back naming the step.
    fn record(
        &mut self,
        name: &str,
        label: &str,
        took: Duration,
        result: Result<(), String>,
    ) -> Result<(), String> {
        self.done
            .push((format!("{name}{label}"), took, result.is_ok()));
        match result {
            Ok(()) => {
                println!("<== {name}: ok ({}){label}", seconds(took));
                Ok(())
            }
            Err(message) => {
                println!("<== {name}: FAILED after {}", seconds(took));
                Err(format!("step `{name}` failed: {message}"))
            }
        }
    }

    /// Starts a step in the background: `work` runs on its own thread, beside the steps that
    /// follow, with its programs' output written to `log` (emptied first; [`Steps::join`]
    /// shows it).
    pub fn background(
        &mut self,
        name: &str,
        what: &str,
        log: PathBuf,
        work: impl FnOnce(&Path) -> Result<(), String> + Send + 'static,
    ) -> Result<Background, String> {
        println!(
            "\n==> {name} (in the background, output in {}): {what}",
            log.display()
        );
        if let Some(folder) = log.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|err| format!("cannot create {}: {err}", folder.display()))?;
        }
        std::fs::write(&log, "").map_err(|err| format!("cannot write {}: {err}", log.display()))?;
        let started = Instant::now();
        let thread_log = log.clone();
        let thread = std::thread::spawn(move || {
            let result = work(&thread_log);
            (result, started.elapsed())
        });
        Ok(Background {
            name: name.to_string(),
            log,
            thread,
        })
    }

    /// Waits for a background step, shows its output and records it like any other step.
    pub fn join(&mut self, background: Background) -> Result<(), String> {
        let Background { name, log, thread } = background;
        println!("\n==> {name}: waiting for it to finish");
        let (result, took) = thread
            .join()
            .unwrap_or_else(|_| (Err("its thread panicked".to_string()), Duration::ZERO));
        match std::fs::read_to_string(&log) {
            Ok(output) => print!("{output}"),
            Err(err) => println!("    (no output: {}: {err})", log.display()),
        }
        self.record(&name, " (background)", took, result)
    }

    /// A table of every step run, with times, when there was more than one.
    pub fn summary(&self) {
        if self.done.len() < 2 {
            return;
        }
        let width = self
            .done
            .iter()
            .map(|(name, ..)| name.len())
            .max()
            .unwrap_or(0);
        println!("\nsteps:");
        for (name, took, ok) in &self.done {
            let mark = if *ok { "ok" } else { "FAILED" };
            println!("  {name:<width$} {mark:<7} {:>9}", seconds(*took));
        }
        println!(
            "  {:<width$} {:<7} {:>9}",
            "total",
            "",
            seconds(self.started.elapsed())
        );
    }
}

fn seconds(duration: Duration) -> String {
    format!("{:.1} s", duration.as_secs_f64())
}

/// A step running in the background ([`Steps::background`]).
pub struct Background {
    name: String,
    log: PathBuf,
    thread: JoinHandle<(Result<(), String>, Duration)>,
}
