//! The progress bar of `report --each` on stderr, only when stderr is a terminal: by bytes of a
//! file (its size is known), else a count. Whatever else is printed while it shows goes through
//! [`Progress::print`], which takes the bar off the screen for the moment.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar when `shown`; with `size`, by bytes of the file.
    pub fn new(shown: bool, size: Option<u64>) -> Progress {
        if !shown {
            return Progress { bar: None };
        }
        let (bar, template) = match size {
            Some(size) => (
                ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr()),
                "{bar:30} {percent:>3}%  {msg}  {elapsed}",
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                "{spinner} {msg}  {elapsed}",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    /// Moves the bar to `bytes` read and says how many results are in.
    pub fn update(&self, bytes: u64, sent: u64, failed: u64, skipped: u64, per_second: f64) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes);
            bar.set_message(format!(
                "{sent} sent, {failed} failed, {skipped} skipped  {per_second:.0}/s"
            ));
        }
    }

    /// Runs `print` with the bar off the screen, so that what it prints is not drawn over.
    pub fn print<T>(&self, print: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Takes the bar off the screen for good; what follows prints as if there had been none.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
