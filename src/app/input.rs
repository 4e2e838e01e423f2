//! A one-line text input (filter, search, command line), on ratatui-textarea so that the usual
//! editing keys work (arrows, Home/End, Ctrl-W, Ctrl-U, undo).

use ratatui_textarea::{CursorMove, Input, TextArea};

#[derive(Clone, Debug, Default)]
pub struct LineInput {
    area: TextArea<'static>,
}

impl LineInput {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn text(&self) -> &str {
        self.area
            .lines()
            .first()
            .map(String::as_str)
            .unwrap_or_default()
    }

    /// Applies an editing key; says whether the text changed.
    pub fn edit(&mut self, input: Input) -> bool {
        let before = self.text().to_owned();
        self.area.input(input);
        // Enter never reaches here (it submits), but Ctrl-M/Ctrl-J would split the line.
        if self.area.lines().len() > 1 {
            let joined = self.area.lines().join(" ");
            self.set(&joined);
        }
        before != self.text()
    }

    /// Inserts pasted text at the cursor (control characters dropped); says whether it changed.
    pub fn insert(&mut self, text: &str) -> bool {
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        !clean.is_empty() && self.area.insert_str(clean)
    }

    /// The text left of the cursor, for placing the terminal cursor by display width.
    pub fn before_cursor(&self) -> &str {
        let text = self.text();
        let end = text
            .char_indices()
            .nth(self.cursor_column())
            .map_or(text.len(), |(i, _)| i);
        &text[..end]
    }

    /// Replaces the text and puts the cursor at its end.
    pub fn set(&mut self, text: &str) {
        self.area = TextArea::new(vec![text.replace(['\n', '\r'], " ")]);
        self.area.move_cursor(CursorMove::End);
    }

    /// The cursor's position in characters, for drawing it.
    pub fn cursor_column(&self) -> usize {
        self.area.cursor().1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn stays_on_one_line() {
        let mut input = LineInput::new();
        input.set("a");
        input.edit(Input {
            key: Key::Char('m'),
            ctrl: true,
            ..Input::default()
        });
        assert_eq!(input.text().lines().count(), 1);
    }
}
