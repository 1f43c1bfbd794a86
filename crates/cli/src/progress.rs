//! A progress line on standard error, shown only when it is a terminal and the work is long.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    label: &'static str,
    enabled: bool,
    started: Instant,
    last_drawn: Option<Instant>,
}

impl Progress {
    pub fn new(label: &'static str) -> Progress {
        Progress {
            label,
            enabled: std::io::stderr().is_terminal(),
            started: Instant::now(),
            last_drawn: None,
        }
    }

    /// Redraws at most ten times a second, and only after the first half second.
    pub fn tick(&mut self, done: usize) {
        if !self.enabled || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if self
            .last_drawn
            .is_some_and(|at| at.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last_drawn = Some(Instant::now());
        let rate = done as f64 / self.started.elapsed().as_secs_f64();
        eprint!("\r{} … {done} lines ({rate:.0}/s)", self.label);
        let _ = std::io::stderr().flush();
    }

    pub fn finish(&mut self) {
        if self.last_drawn.is_some() {
            eprint!("\r\x1b[2K");
        }
    }
}
