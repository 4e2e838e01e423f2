//! The progress bar of `report --each` on stderr, only when stderr is a terminal: by bytes of a
//! file (its size is known), else a count. Whatever else is printed while it shows goes through
//! [`Progress::print`], which takes the bar off the screen for the moment.

use console::Term;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

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
                ProgressBar::with_draw_target(Some(size), stderr()),
                "{bar:30} {percent:>3}%  {msg}  {elapsed}",
            ),
            None => (
                ProgressBar::with_draw_target(None, stderr()),
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

    /// Takes the bar off for good after a ctrl-c and prints `warning` on its line. On ctrl-c the
    /// kernel throws away the terminal output not yet read (unless `noflsh` is set), and that can
    /// be the bar's clearing: the warning then landed after the bar, which stayed on the screen.
    /// So the warning clears the line again itself, in the same write.
    pub fn finish_with_warning(&mut self, warning: &str) {
        let shown = self.bar.is_some();
        self.finish();
        let clear = if shown { "\r\x1b[2K" } else { "" };
        let line = format!("{clear}{}", crate::cli::warning_line(warning));
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
    }
}

/// Stderr, redrawn at most 20 times a second and hidden when it is not a terminal or `TERM` is
/// `dumb`, as [`ProgressDrawTarget::stderr`], but two columns short of the terminal's width.
/// indicatif pads the bar's line to the width and leaves the cursor at its end: the `^C` the
/// terminal echoes on ctrl-c then wrapped onto a line of its own, the bar's clearing cleared that
/// one, and the bar stayed on the screen above the summary.
fn stderr() -> ProgressDrawTarget {
    let term = Term::buffered_stderr();
    if !term.is_term() || console::is_dumb() {
        return ProgressDrawTarget::hidden();
    }
    ProgressDrawTarget::term_like_with_hz(Box::new(Narrower(term)), 20)
}

/// A terminal two columns narrower than it is: room for an echoed `^C` on the bar's line.
#[derive(Debug)]
struct Narrower(Term);

impl TermLike for Narrower {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(2).max(1)
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}
