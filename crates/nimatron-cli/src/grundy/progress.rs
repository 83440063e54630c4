//! The one-line progress bar of a long run, on standard error.

use std::io::{self, Write};
use std::time::{Duration, Instant};

/// A one-line progress bar on standard error.
pub(super) struct Progress {
    enabled: bool,
    last: Option<Instant>,
}

impl Progress {
    pub(super) fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            last: None,
        }
    }

    pub(super) fn show(&mut self, done_now: u64, known: u64, total: u64, started: Instant) {
        if !self.enabled
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(Instant::now());
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let rate = done_now as f64 / secs;
        let left = total.saturating_sub(known) as f64;
        let eta = if rate > 0.0 {
            left / rate
        } else {
            f64::INFINITY
        };
        let width = 30;
        let filled = ((known as f64 / total as f64) * width as f64) as usize;
        let bar: String = (0..width)
            .map(|i| {
                if i < filled {
                    '='
                } else if i == filled {
                    '>'
                } else {
                    ' '
                }
            })
            .collect();
        eprint!(
            "\r[{bar}] n = {known}/{total}  {}/s  ETA {}   ",
            si(rate),
            duration_text(eta)
        );
        let _ = io::stderr().flush();
    }

    pub(super) fn clear(&mut self) {
        if self.enabled && self.last.is_some() {
            eprint!("\r{:80}\r", "");
            let _ = io::stderr().flush();
        }
    }
}

/// `12.3M` style.
pub(super) fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn duration_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
