//! A one-line text input (the list's filter, the detail's search, the command line, the help's
//! filter), on ratatui-textarea so that the usual editing keys work (arrows, Home/End, Ctrl-W,
//! Ctrl-U clears to the start, undo). [`LineInput::handle`] is the one place that turns actions into edits.

use ratatui_textarea::{CursorMove, Input, TextArea};

use crate::app::Action;

/// What an action did to a one-line input.
#[derive(Debug)]
pub(crate) enum LineEvent {
    /// The text changed (a key, a paste).
    Changed,
    /// An editing key that left the text as it was (a cursor move).
    Unchanged,
    /// `Enter`.
    Submitted,
    /// `Esc`.
    Cancelled,
    /// Not for the input (a movement key, `Tab`): the owner decides.
    Other(Action),
}

/// The text area does the editing, but inserting one character costs it a walk over the line
/// (to find the byte of the cursor's column): keys typed one by one into a long line (a paste
/// without bracketed paste) would take quadratic time. So characters typed at the end of the line
/// are gathered here, in constant time each, and handed to the text area at once when another
/// key needs it.
#[derive(Clone, Debug, Default)]
pub struct LineInput {
    area: TextArea<'static>,
    /// The whole line: the area's, then `typed`.
    text: String,
    /// Where in `text` the characters typed at its end and not yet in `area` begin.
    typed_from: usize,
    /// How many characters those are.
    typed_chars: usize,
    /// The characters of the area's line (its cursor is at the end when its column is this).
    area_chars: usize,
}

impl LineInput {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Applies an action while the input has the keyboard.
    pub(crate) fn handle(&mut self, action: Action) -> LineEvent {
        let changed = match action {
            Action::Edit(input) => self.edit(input),
            Action::InsertText(text) => self.insert(&text),
            Action::Submit => return LineEvent::Submitted,
            Action::Back => return LineEvent::Cancelled,
            other => return LineEvent::Other(other),
        };
        if changed {
            LineEvent::Changed
        } else {
            LineEvent::Unchanged
        }
    }

    /// Applies an editing key; says whether the text changed.
    pub(crate) fn edit(&mut self, input: Input) -> bool {
        if let Some(c) = self.typed_at_end(&input) {
            if self.typed_chars == 0 {
                self.typed_from = self.text.len();
            }
            self.text.push(c);
            self.typed_chars += 1;
            return true;
        }
        self.hand_over_typed();
        // Ctrl-U clears to the start of the line, as in a shell (the text area would undo).
        let changed = if input.ctrl && !input.alt && input.key == ratatui_textarea::Key::Char('u') {
            self.area.delete_line_by_head()
        } else {
            self.area.input(input)
        };
        // Enter never reaches here (it submits), but Ctrl-M/Ctrl-J would split the line.
        if self.area.lines().len() > 1 {
            let joined = self.area.lines().join(" ");
            self.set(&joined);
        } else if changed {
            self.sync_from_area();
        }
        changed
    }

    /// The character `input` types, when it goes at the end of the line with nothing selected:
    /// what can be gathered.
    fn typed_at_end(&self, input: &Input) -> Option<char> {
        let ratatui_textarea::Key::Char(c) = input.key else {
            return None;
        };
        let cursor = self.area.cursor();
        let at_end = self.typed_chars > 0 || (cursor.0 == 0 && cursor.1 == self.area_chars);
        (!input.ctrl && !input.alt && !c.is_control() && at_end && !self.area.is_selecting())
            .then_some(c)
    }

    /// Gives the area the characters gathered, as one insertion.
    fn hand_over_typed(&mut self) {
        if self.typed_chars == 0 {
            return;
        }
        self.area.insert_str(&self.text[self.typed_from..]);
        self.area_chars += self.typed_chars;
        self.typed_chars = 0;
    }

    /// The text as the area has it, after an edit there.
    fn sync_from_area(&mut self) {
        self.text.clear();
        self.text
            .push_str(self.area.lines().first().map_or("", String::as_str));
        self.area_chars = self.text.chars().count();
    }

    /// Inserts pasted text at the cursor (control characters dropped); says whether it changed.
    pub(crate) fn insert(&mut self, text: &str) -> bool {
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        if clean.is_empty() {
            return false;
        }
        self.hand_over_typed();
        let changed = self.area.insert_str(clean);
        self.sync_from_area();
        changed
    }

    /// The text left of the cursor, for placing the terminal cursor by display width.
    pub(crate) fn before_cursor(&self) -> &str {
        let text = self.text();
        let end = text
            .char_indices()
            .nth(self.cursor_column())
            .map_or(text.len(), |(i, _)| i);
        &text[..end]
    }

    /// Replaces the text and puts the cursor at its end.
    pub(crate) fn set(&mut self, text: &str) {
        self.area = TextArea::new(vec![text.replace(['\n', '\r'], " ")]);
        self.area.move_cursor(CursorMove::End);
        self.typed_chars = 0;
        self.sync_from_area();
    }

    /// The cursor's position in characters, for drawing it.
    pub(crate) fn cursor_column(&self) -> usize {
        self.area.cursor().1 + self.typed_chars
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::action::Move;
    use ratatui_textarea::Key;

    fn key(c: char) -> Input {
        Input {
            key: Key::Char(c),
            ..Input::default()
        }
    }

    #[test]
    fn typing_and_editing() {
        let mut input = LineInput::new();
        assert!(input.edit(key('a')));
        assert!(input.edit(key('b')));
        assert_eq!(input.text(), "ab");
        assert!(input.edit(Input {
            key: Key::Backspace,
            ..Input::default()
        }));
        assert_eq!(input.text(), "a");
        assert!(!input.edit(Input {
            key: Key::Left,
            ..Input::default()
        }));
        input.set("type repo");
        assert_eq!(input.cursor_column(), 9);
    }

    /// Ctrl-M would split the line in the text area underneath; the input joins it back.
    /// (`text()` shows only the first line, so the area's own line count is what is checked.)
    #[test]
    fn stays_on_one_line() {
        let mut input = LineInput::new();
        input.set("ab");
        input.edit(Input {
            key: Key::Left,
            ..Input::default()
        });
        input.edit(Input {
            key: Key::Char('m'),
            ctrl: true,
            ..Input::default()
        });
        assert_eq!(input.area.lines().len(), 1);
        assert_eq!(input.text(), "a b", "nothing after the split is lost");
    }

    #[test]
    fn ctrl_u_clears_to_the_start_of_the_line() {
        let mut input = LineInput::new();
        input.set("type repo");
        for _ in 0..4 {
            input.edit(Input {
                key: Key::Left,
                ..Input::default()
            });
        }
        assert!(input.edit(Input {
            key: Key::Char('u'),
            ctrl: true,
            ..Input::default()
        }));
        assert_eq!(input.text(), "repo");
        assert_eq!(input.cursor_column(), 0);
    }

    /// Characters gathered at the end of the line and edits the text area makes take turns
    /// without losing or reordering a character: typing, moving into the line, typing there,
    /// deleting, pasting, Ctrl-U.
    #[test]
    fn typed_characters_and_other_edits_take_turns() {
        let plain = |key| Input {
            key,
            ..Input::default()
        };
        let mut input = LineInput::new();
        for c in "héllo".chars() {
            assert!(input.edit(key(c)));
        }
        assert_eq!((input.text(), input.cursor_column()), ("héllo", 5));
        assert_eq!(input.before_cursor(), "héllo");
        assert!(!input.edit(plain(Key::Left)));
        assert!(input.edit(key('X')));
        assert_eq!((input.text(), input.cursor_column()), ("héllXo", 5));
        assert_eq!(input.before_cursor(), "héllX");
        assert!(!input.edit(plain(Key::End)));
        assert!(input.edit(key('!')));
        assert!(input.edit(plain(Key::Backspace)));
        assert!(input.edit(plain(Key::Backspace)));
        assert_eq!(input.text(), "héllX");
        assert!(input.edit(key('y')));
        assert!(input.insert("\u{7}z"));
        assert_eq!((input.text(), input.cursor_column()), ("héllXyz", 7));
        assert!(input.edit(Input {
            key: Key::Char('u'),
            ctrl: true,
            ..Input::default()
        }));
        assert_eq!((input.text(), input.cursor_column()), ("", 0));
        input.set("ab");
        assert!(input.edit(key('c')));
        assert_eq!(input.text(), "abc");
    }

    #[test]
    fn handle_routes_actions() {
        let mut input = LineInput::new();
        assert!(matches!(
            input.handle(Action::Edit(key('x'))),
            LineEvent::Changed
        ));
        assert!(matches!(
            input.handle(Action::InsertText("\u{7}".into())),
            LineEvent::Unchanged
        ));
        assert!(matches!(input.handle(Action::Submit), LineEvent::Submitted));
        assert!(matches!(input.handle(Action::Back), LineEvent::Cancelled));
        assert!(matches!(
            input.handle(Action::Move(Move::Down)),
            LineEvent::Other(Action::Move(Move::Down))
        ));
        assert_eq!(input.text(), "x");
    }
}
