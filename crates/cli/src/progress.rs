//! A progress bar on stderr for long runs (matches, tuning): redrawn in place
//! on a terminal, silent otherwise (logs get the per-game lines instead).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the bar is redrawn at most.
const REDRAW: Duration = Duration::from_millis(100);
const WIDTH: usize = 30;

pub struct Progress {
    label: String,
    total: usize,
    done: usize,
    started: Instant,
    last_draw: Option<Instant>,
    tty: bool,
    note: String,
}

impl Progress {
    pub fn new(label: impl Into<String>, total: usize) -> Progress {
        Progress {
            label: label.into(),
            total,
            done: 0,
            started: Instant::now(),
            last_draw: None,
            tty: std::io::stderr().is_terminal(),
            note: String::new(),
        }
    }

    /// Starts a new stage with its own count, keeping the bar's place.
    pub fn restart(&mut self, label: impl Into<String>, total: usize) {
        self.label = label.into();
        self.total = total;
        self.done = 0;
        self.started = Instant::now();
        self.note.clear();
        self.draw(true);
    }

    /// [`Progress::restart`], unless the stage is already `label`.
    pub fn restart_if(&mut self, label: &str, total: usize) {
        if self.label != label {
            self.restart(label, total);
        }
    }

    /// `done` of `total` finished; `note` is shown after the counts.
    pub fn update(&mut self, done: usize, note: impl Into<String>) {
        self.done = done;
        self.note = note.into();
        self.draw(done >= self.total);
    }

    /// Prints a line above the bar.
    pub fn println(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[2K");
        }
        let _ = writeln!(err, "{line}");
        drop(err);
        self.draw(true);
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if self.tty {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }

    fn draw(&mut self, force: bool) {
        if !self.tty {
            return;
        }
        let now = Instant::now();
        if !force && self.last_draw.is_some_and(|t| now - t < REDRAW) {
            return;
        }
        self.last_draw = Some(now);
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{}", self.line());
        let _ = std::io::stderr().flush();
    }

    /// `generation 3/30 [#######-------] 12/56 21% 3s eta 11s  note`.
    fn line(&self) -> String {
        let fraction = if self.total == 0 {
            1.0
        } else {
            (self.done as f64 / self.total as f64).min(1.0)
        };
        let filled = (fraction * WIDTH as f64).round() as usize;
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = if self.done > 0 && self.done < self.total {
            format!(
                " eta {}",
                clock(elapsed / self.done as f64 * (self.total - self.done) as f64)
            )
        } else {
            String::new()
        };
        format!(
            "{} [{}{}] {}/{} {:.0}% {}{eta}  {}",
            self.label,
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            self.done,
            self.total,
            100.0 * fraction,
            clock(elapsed),
            self.note
        )
    }
}

/// `42s`, `3m05s`, `1h02m`.
pub fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    }
}
