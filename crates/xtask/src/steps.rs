//! Named steps: each prints what it does, then how long it took or that it failed.

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
        let took = started.elapsed();
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
