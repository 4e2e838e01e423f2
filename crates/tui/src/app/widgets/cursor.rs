//! A cursor over a list shown in a viewport: the selected line and the first visible line.
//! The offset lives in state (not in the renderer) so scrolling is smooth and `render` stays pure.

use crate::app::Action;
use crate::app::Toward;
use crate::app::action::Move;

/// Lines the mouse wheel moves.
const WHEEL_LINES: isize = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListCursor {
    pub selected: usize,
    pub offset: usize,
}

impl ListCursor {
    /// Moves by `delta` lines, clamped to the list, scrolling just enough to keep it visible.
    pub(crate) fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        let target = self.selected.saturating_add_signed(delta).min(len - 1);
        self.select(target, len, height);
    }

    pub(crate) fn select(&mut self, index: usize, len: usize, height: usize) {
        self.selected = index.min(len.saturating_sub(1));
        self.keep_visible(len, height);
    }

    /// Re-establishes the invariants after the list or the viewport changed.
    pub(crate) fn keep_visible(&mut self, len: usize, height: usize) {
        let height = height.max(1);
        self.selected = self.selected.min(len.saturating_sub(1));
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        // Never leave blank space below the last line when the list could fill the viewport.
        self.offset = self.offset.min(len.saturating_sub(height));
    }

    /// Scrolls the view without moving the cursor off-screen (mouse wheel).
    pub(crate) fn scroll(&mut self, delta: isize, len: usize, height: usize) {
        let max_offset = len.saturating_sub(height.max(1));
        self.offset = self.offset.saturating_add_signed(delta).min(max_offset);
        let height = height.max(1);
        self.selected = self.selected.clamp(
            self.offset,
            (self.offset + height - 1).min(len.saturating_sub(1)),
        );
    }
}

#[cfg(test)]
impl ListCursor {
    /// For tests: panics unless `line` is selected and among the `height` lines shown.
    pub(crate) fn assert_shows(&self, line: usize, height: usize) {
        assert!(
            self.selected == line && self.offset <= line && line < self.offset + height,
            "line {line} (selected {}) is off the {height} lines shown from {}",
            self.selected,
            self.offset
        );
    }
}

/// Whether an action moves a cursor (keys or the wheel).
pub(crate) fn is_movement(action: &Action) -> bool {
    matches!(action, Action::Move(_) | Action::Scroll(_))
}

impl ListCursor {
    /// Applies a movement key (or the wheel) to a list of `len` lines shown `height` at a time;
    /// other actions change nothing.
    pub(crate) fn apply(&mut self, action: &Action, len: usize, height: usize) {
        let page = height.max(1) as isize;
        match action {
            Action::Move(Move::Up) => self.move_by(-1, len, height),
            Action::Move(Move::Down) => self.move_by(1, len, height),
            Action::Move(Move::PageUp) => self.move_by(-page, len, height),
            Action::Move(Move::PageDown) => self.move_by(page, len, height),
            Action::Move(Move::Top) => self.select(0, len, height),
            Action::Move(Move::Bottom) => self.select(len.saturating_sub(1), len, height),
            Action::Scroll(Toward::Previous) => self.scroll(-WHEEL_LINES, len, height),
            Action::Scroll(Toward::Next) => self.scroll(WHEEL_LINES, len, height),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolls_just_enough() {
        let mut c = ListCursor::default();
        c.move_by(5, 100, 4);
        assert_eq!((c.selected, c.offset), (5, 2));
        c.move_by(-1, 100, 4);
        assert_eq!((c.selected, c.offset), (4, 2));
        c.move_by(-4, 100, 4);
        assert_eq!((c.selected, c.offset), (0, 0));
        c.move_by(1000, 100, 4);
        assert_eq!((c.selected, c.offset), (99, 96));
    }

    #[test]
    fn empty_and_shrinking_lists() {
        let mut c = ListCursor {
            selected: 50,
            offset: 48,
        };
        c.keep_visible(10, 4);
        assert_eq!((c.selected, c.offset), (9, 6));
        c.move_by(1, 0, 4);
        assert_eq!(c, ListCursor::default());
    }

    #[test]
    fn wheel_keeps_cursor_on_screen() {
        let mut c = ListCursor::default();
        c.scroll(3, 100, 10);
        assert_eq!((c.selected, c.offset), (3, 3));
        c.scroll(-10, 100, 10);
        assert_eq!((c.selected, c.offset), (3, 0));
    }
}
