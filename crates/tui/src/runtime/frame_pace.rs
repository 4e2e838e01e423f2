//! Paces the frames drawn for pages alone (`L`, a page every few milliseconds): a frame drawn
//! for a page is followed by the next such one no sooner than [`PAGE_FRAME_GAP`], the frame held
//! back drawn by then whatever comes, so the last state always reaches the screen. Anything else
//! (a key, a resize, any other answer) is drawn at once.

use tokio::time::{Duration, Instant};

/// The least time between two frames drawn for pages alone. Under `L` over 100,000 rows (pages
/// of 500) a frame a page is about 200 frames; drawing none at all while `L` loaded took it from
/// 620 to 550 ms (`benches/tui_load_all.sh`, two pairs side by side). Paced, the UI thread's
/// CPU during that `L` went from 215 to 200 ms (`/proc/PID/task/PID/stat`, median of 4 side by
/// side, load 9).
pub(crate) const PAGE_FRAME_GAP: Duration = Duration::from_millis(50);

#[derive(Debug, Default)]
pub(crate) struct FramePace {
    /// When the last frame drawn for pages alone was drawn (`None` after any other frame).
    last_page_frame: Option<Instant>,
    /// When the frame held back is due.
    due: Option<Instant>,
}

impl FramePace {
    /// Whether a step that changed state draws now (`pages_only`: it took pages and nothing
    /// else); when not, [`Self::due`] says when.
    pub(crate) fn draw_now(&mut self, now: Instant, pages_only: bool) -> bool {
        let next = self.last_page_frame.map(|at| at + PAGE_FRAME_GAP);
        match next {
            Some(next) if pages_only && now < next => {
                self.due = Some(next);
                false
            }
            _ => true,
        }
    }

    /// A frame was drawn at `now`, for pages alone or not.
    pub(crate) fn drawn(&mut self, now: Instant, pages_only: bool) {
        self.last_page_frame = pages_only.then_some(now);
        self.due = None;
    }

    /// When the frame held back is to be drawn, if one is.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_draw_once_a_gap_and_anything_else_at_once() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut pace = FramePace::default();
        // The first page after a key's frame is drawn at once.
        assert!(pace.draw_now(at(0), true));
        pace.drawn(at(0), true);
        // The next pages within the gap wait for it to pass.
        assert!(!pace.draw_now(at(5), true));
        assert_eq!(pace.due(), Some(at(0) + PAGE_FRAME_GAP));
        assert!(!pace.draw_now(at(30), true));
        assert_eq!(pace.due(), Some(at(0) + PAGE_FRAME_GAP));
        // A key meanwhile is drawn at once, and the pages after it start a gap again.
        assert!(pace.draw_now(at(31), false));
        pace.drawn(at(31), false);
        assert_eq!(pace.due(), None);
        assert!(pace.draw_now(at(32), true));
        pace.drawn(at(32), true);
        // Once due, the frame held back is drawn.
        assert!(!pace.draw_now(at(40), true));
        let due = pace.due().expect("a frame held back");
        assert!(pace.draw_now(due, true));
        pace.drawn(due, true);
        assert_eq!(pace.due(), None);
    }
}
