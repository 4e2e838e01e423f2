//! The progress line of a long `list --all` whose rows go to a file or a pipe: rows, pages and
//! rate on stderr, redrawn in place, and cleared before anything else is said there. Only when
//! stderr is a terminal (a log file or a pipe gets nothing) and stdout is not (rows on the
//! screen are progress enough, and the line would be drawn over them).

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the line is redrawn while nothing arrives (a page slow to come, a retry's wait),
/// so that it visibly lives.
const TICK: Duration = Duration::from_millis(200);

/// Whether a listing shows progress: all its pages, rows not on the screen, stderr on it.
pub fn wanted(all: bool, stdout_terminal: bool, stderr_terminal: bool) -> bool {
    all && !stdout_terminal && stderr_terminal
}

/// The progress line, or nothing. Clones share the one line.
#[derive(Clone, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A line on stderr when `shown`, else nothing.
    pub fn new(shown: bool) -> Progress {
        if !shown {
            return Progress::default();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} appdeck list: {human_pos} rows · {msg} · {per_sec:0} · {elapsed}",
            )
            .expect("the template is valid"),
        );
        bar.set_message("0 pages");
        bar.enable_steady_tick(TICK);
        Progress { bar: Some(bar) }
    }

    /// Counts one page of `rows` rows; `pages` is how many have come so far.
    pub fn page(&self, rows: usize, pages: u32) {
        if let Some(bar) = &self.bar {
            bar.inc(rows as u64);
            bar.set_message(match pages {
                1 => "1 page".to_owned(),
                n => format!("{n} pages"),
            });
        }
    }

    /// Runs `say` (which writes to stderr) with the line out of the way, then draws it again.
    pub fn aside(&self, say: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(say),
            None => say(),
        }
    }

    /// Clears the line for good: the listing is over.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_listing_to_elsewhere_with_stderr_on_a_terminal() {
        assert!(wanted(true, false, true));
        assert!(!wanted(false, false, true), "one page is quick");
        assert!(!wanted(true, true, true), "the rows are on the screen");
        assert!(!wanted(true, false, false), "stderr is a file or a pipe");
    }
}
