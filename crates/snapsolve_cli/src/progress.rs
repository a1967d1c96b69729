//! A progress bar for long work done in named stages (reading, rendering,
//! training): one bar per stage on a terminal, and a line every tenth of a
//! stage on stderr when there is no terminal to draw it on (CI logs, pipes).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// The bar of the stage under way.
pub struct StageBar {
    bar: ProgressBar,
    stage: &'static str,
    to_terminal: bool,
}

impl StageBar {
    /// A bar with no stage yet.
    pub fn new() -> StageBar {
        StageBar {
            bar: ProgressBar::new(0),
            stage: "",
            to_terminal: std::io::stderr().is_terminal(),
        }
    }

    /// `done` of `total` in stage `name`, with a short `message` (a loss).
    pub fn update(&mut self, name: &'static str, done: usize, total: usize, message: &str) {
        if name != self.stage {
            self.stage = name;
            self.bar.reset();
            self.bar.set_length(total as u64);
            self.bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{name:>16} [{{bar:30}}] {{pos}}/{{len}} {{msg}} ({{elapsed}}, eta {{eta}})"
                ))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
        if done.is_multiple_of(10) || done == total {
            self.bar.set_position(done as u64);
            self.bar.set_message(message.to_string());
        }
        if !self.to_terminal && total >= 10 && done.is_multiple_of(total / 10) {
            eprintln!(
                "{name}: {done}/{total} {message} ({:.0} s)",
                self.bar.elapsed().as_secs_f64()
            );
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
