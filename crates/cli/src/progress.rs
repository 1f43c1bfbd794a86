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

    /// Redraws as `done` of `total`, at most ten times a second.
    pub fn tick_of(&mut self, done: usize, total: usize) {
        if !self.enabled || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if self
            .last_drawn
            .is_some_and(|at| at.elapsed() < Duration::from_millis(100))
            && done < total
        {
            return;
        }
        self.last_drawn = Some(Instant::now());
        let width = 30;
        let filled = (done * width).checked_div(total).unwrap_or(width);
        eprint!(
            "\r{} [{}{}] {done}/{total}",
            self.label,
            "#".repeat(filled),
            "-".repeat(width - filled)
        );
        let _ = std::io::stderr().flush();
    }

    pub fn finish(&mut self) {
        if self.last_drawn.is_some() {
            eprint!("\r\x1b[2K");
        }
    }
}
