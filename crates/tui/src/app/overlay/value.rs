//! The value popup (`v`, or `Enter` on a leaf, in the detail view): one value in full, wrapped
//! to the popup's width and scrolled, for what a pane can only show cut. `y` copies it whole.

use crate::app::Toward;
use crate::app::action::Move;
use std::ops::Range;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use crate::app::Action;
use crate::app::keymap::{
    ANYWHERE, Binding, Key, KeyTable, MOVE_ENDS, MOVE_LINES, MOVE_PAGES, bind,
};
use crate::app::layout;
use crate::sanitize;

/// More than this is not laid out (wrapping megabytes on a keypress would freeze the screen);
/// the popup says where it stops, and `y` still copies the whole value.
pub(crate) const MAX_SHOWN_BYTES: usize = 1 << 20;
/// The popup is this wide at most, and at least this high (a short value still reads as a
/// popup).
const WIDTH: u16 = 110;
const MIN_HEIGHT: u16 = 5;

static OWN: [Binding; 2] = [
    bind(
        "copy",
        &[Key::Char('y')],
        "copy the whole value",
        || Action::Copy,
        "copy",
    ),
    bind(
        "back",
        &[
            Key::Code(KeyCode::Esc),
            Key::Char('q'),
            Key::Char('v'),
            Key::Code(KeyCode::Enter),
        ],
        "close",
        || Action::Back,
        "close",
    )
    .shown_as("Esc"),
];

/// The popup scrolls like a pane; `q` closes it rather than quitting.
pub(crate) static VALUE_KEYS: KeyTable = KeyTable {
    id: "value",
    name: "value",
    own: &OWN,
    shared: &[&MOVE_LINES, &MOVE_PAGES, &MOVE_ENDS, &ANYWHERE],
};

#[derive(Clone, Debug)]
pub struct ValuePopup {
    /// Where the value is (`properties/owner/name`, a field's label), sanitised.
    pub title: String,
    /// The value as it came, for `y`.
    pub text: String,
    /// The shown part, one sanitised line per line of the value.
    lines: Vec<String>,
    /// The screen rows: which line, and which bytes of it.
    rows: Vec<(usize, Range<usize>)>,
    /// The text width the rows were wrapped for.
    width: usize,
    /// The first row in view.
    pub scroll: usize,
}

impl ValuePopup {
    /// A popup showing `text`, laid out for a screen whose body is `body`.
    pub(crate) fn new(title: &str, text: String, body: Rect) -> Self {
        let mut shown = &text[..floor_char_boundary(&text, MAX_SHOWN_BYTES)];
        if shown.len() < text.len() {
            // Cut at a line's end when there is one, so the last line shown is whole.
            shown = shown.rfind('\n').map_or(shown, |at| &shown[..at]);
        }
        let mut lines: Vec<String> = shown
            .split('\n')
            .map(|l| sanitize::line(l).into_owned())
            .collect();
        if shown.len() < text.len() {
            lines.push(format!(
                "… {} more bytes not shown; y copies the whole value",
                text.len() - shown.len()
            ));
        }
        let mut popup = ValuePopup {
            title: sanitize::line(title).into_owned(),
            text,
            lines,
            rows: Vec::new(),
            width: 0,
            scroll: 0,
        };
        popup.resize(body);
        popup
    }

    /// Where the popup goes in `body`: nearly its whole width, as high as the value needs.
    pub(crate) fn area(&self, body: Rect) -> Rect {
        let width = WIDTH.min(body.width.saturating_sub(4)).max(20);
        let height = u16::try_from(self.rows.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2)
            .max(MIN_HEIGHT);
        layout::centered(body, width, height)
    }

    /// The text inside the popup's border.
    pub(crate) fn text_area(&self, body: Rect) -> Rect {
        layout::inset(self.area(body))
    }

    /// Wraps the lines again when the popup's width changed (the terminal was resized).
    pub(crate) fn resize(&mut self, body: Rect) {
        // The width does not depend on the rows: the height does.
        let width = usize::from(layout::inset(self.area(body)).width).max(1);
        if width != self.width {
            self.width = width;
            self.rows = self
                .lines
                .iter()
                .enumerate()
                .flat_map(|(i, line)| {
                    crate::text::wrap_ranges(line, width, usize::MAX)
                        .into_iter()
                        .map(move |r| (i, r))
                })
                .collect();
        }
        self.scroll = self.scroll.min(self.last_top(body));
    }

    /// How many screen rows the value takes.
    pub(crate) fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// The text of screen row `row`.
    pub(crate) fn row(&self, row: usize) -> Option<&str> {
        let (line, range) = self.rows.get(row)?;
        self.lines.get(*line)?.get(range.clone())
    }

    fn last_top(&self, body: Rect) -> usize {
        let height = usize::from(self.text_area(body).height);
        self.rows.len().saturating_sub(height)
    }

    /// A movement key scrolls the text.
    pub(crate) fn scroll(&mut self, action: &Action, body: Rect) {
        let page = usize::from(self.text_area(body).height).max(1);
        let last = self.last_top(body);
        self.scroll = match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => self.scroll + 1,
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => {
                self.scroll.saturating_sub(1)
            }
            Action::Move(Move::PageDown) => self.scroll + page,
            Action::Move(Move::PageUp) => self.scroll.saturating_sub(page),
            Action::Move(Move::Top) => 0,
            Action::Move(Move::Bottom) => last,
            _ => self.scroll,
        }
        .min(last);
    }
}

/// The largest char boundary of `text` at or below `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body() -> Rect {
        Rect::new(0, 1, 40, 10)
    }

    #[test]
    fn a_long_value_wraps_whole_and_scrolls_to_its_end() {
        let text = format!("start {} end", "x".repeat(1000));
        let mut popup = ValuePopup::new("properties/description", text.clone(), body());
        // 34 columns of text: every character is on some row, none is lost at a break.
        assert_eq!(popup.text_area(body()).width, 34);
        let rows: Vec<&str> = (0..popup.row_count())
            .filter_map(|r| popup.row(r))
            .collect();
        assert_eq!(rows.concat(), text);
        assert!(rows.iter().all(|r| r.chars().count() <= 34));
        popup.scroll(&Action::Move(Move::Bottom), body());
        let height = usize::from(popup.text_area(body()).height);
        assert_eq!(popup.scroll, popup.row_count() - height);
        assert!(popup.row(popup.row_count() - 1).unwrap().ends_with(" end"));
        popup.scroll(&Action::Move(Move::Down), body());
        assert_eq!(
            popup.scroll,
            popup.row_count() - height,
            "never past the end"
        );
        popup.scroll(&Action::Move(Move::PageUp), body());
        assert_eq!(popup.scroll, popup.row_count() - 2 * height);
        popup.scroll(&Action::Move(Move::Top), body());
        assert_eq!(popup.scroll, 0);
    }

    #[test]
    fn lines_of_the_value_stay_lines_and_server_text_is_neutralised() {
        let popup = ValuePopup::new("\u{1b}[2Jk", "a\n\u{1b}]0;x\u{7}\nb".into(), body());
        assert!(!popup.title.contains('\u{1b}'));
        let rows: Vec<&str> = (0..popup.row_count())
            .filter_map(|r| popup.row(r))
            .collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| !r.chars().any(char::is_control)));
        assert_eq!(
            popup.text, "a\n\u{1b}]0;x\u{7}\nb",
            "y copies it as it came"
        );
    }

    #[test]
    fn a_huge_value_is_shown_up_to_a_bound_and_says_so() {
        let line = "y".repeat(99);
        let text = vec![line.as_str(); 20_000].join("\n");
        let popup = ValuePopup::new("big", text.clone(), body());
        let last = popup.lines.last().unwrap();
        assert!(last.contains("more bytes not shown"), "{last}");
        assert!(popup.lines.iter().map(String::len).sum::<usize>() <= MAX_SHOWN_BYTES + 100);
        assert_eq!(popup.text.len(), text.len());
    }

    #[test]
    fn a_resize_rewraps() {
        let mut popup = ValuePopup::new("v", "z".repeat(100), body());
        let before = popup.row_count();
        popup.resize(Rect::new(0, 1, 80, 10));
        assert!(popup.row_count() < before);
    }

    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&VALUE_KEYS);
    }
}
