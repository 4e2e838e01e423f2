//! The multi-line JSON editor both composers use (the report's resource, the connect payload): a
//! `ratatui-textarea` with line numbers and bounded undo, plus the few operations a composer
//! needs on it. Its findings are drawn beside the lines by `ui::widgets::json_editor`.

use ratatui::style::{Color, Style};
use ratatui_textarea::{CursorMove, TextArea};

/// `u` (`undo`) or `^r`: takes back (or redoes) the last change; `Err` says there was none to.
pub(crate) fn undo_or_redo(area: &mut TextArea<'_>, undo: bool) -> Result<(), &'static str> {
    match (undo, if undo { area.undo() } else { area.redo() }) {
        (_, true) => Ok(()),
        (true, false) => Err("nothing to undo"),
        (false, false) => Err("nothing to redo"),
    }
}

/// A new editor on `text`, cursor at the top.
pub(crate) fn new_editor(text: &str) -> TextArea<'static> {
    let mut area = TextArea::new(text.lines().map(str::to_owned).collect());
    area.set_tab_length(2);
    area.set_max_histories(200);
    area.set_line_number_style(Style::new().fg(Color::DarkGray));
    area.set_cursor_line_style(Style::default());
    area
}

/// The editor's text as typed.
pub(crate) fn text_of(area: &TextArea<'_>) -> String {
    area.lines().join("\n")
}

/// Its size in bytes (newlines counted), without building the text.
pub(crate) fn size_of(area: &TextArea<'_>) -> usize {
    area.lines().iter().map(|l| l.len() + 1).sum()
}

/// Replaces the whole text as one undoable step, cursor back at the top. Only the part that
/// differs is cut and inserted, and the two are one step (`edit_as_one_step`, a patch of the
/// text area): one `u` takes back what `f` added or `$EDITOR` changed, and an undo never shows a
/// text nobody wrote (the cut done, the insert not).
pub(crate) fn replace_text(area: &mut TextArea<'_>, text: &str) {
    let old = text_of(area);
    let (start, old_end, new_end) = differing_part(&old, text);
    area.edit_as_one_step(|area| {
        match (
            position_of_char(&old, start),
            position_of_char(&old, old_end),
        ) {
            (Some(from), Some(to)) => {
                area.move_cursor(CursorMove::Jump(from.0, from.1));
                if old_end > start {
                    area.start_selection();
                    area.move_cursor(CursorMove::Jump(to.0, to.1));
                    area.cut();
                }
                let inserted: String = text.chars().skip(start).take(new_end - start).collect();
                area.insert_str(inserted);
            }
            // Past what a cursor jump can reach (65,536 lines or columns): all of it.
            _ => {
                area.select_all();
                area.cut();
                area.insert_str(text);
            }
        }
    });
    area.move_cursor(CursorMove::Jump(0, 0));
}

/// In characters: where `old` and `new` start to differ, and where the differing part ends in
/// each (their common prefix and suffix, not overlapping, left out).
fn differing_part(old: &str, new: &str) -> (usize, usize, usize) {
    let (old_chars, new_chars): (Vec<char>, Vec<char>) =
        (old.chars().collect(), new.chars().collect());
    let prefix = old_chars
        .iter()
        .zip(&new_chars)
        .take_while(|(a, b)| a == b)
        .count();
    let room = old_chars.len().min(new_chars.len()) - prefix;
    let suffix = old_chars
        .iter()
        .rev()
        .zip(new_chars.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, old_chars.len() - suffix, new_chars.len() - suffix)
}

/// The line and column of the `index`th character of `text`, if a cursor jump reaches them.
fn position_of_char(text: &str, index: usize) -> Option<(u16, u16)> {
    let before: String = text.chars().take(index).collect();
    let line = before.matches('\n').count();
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count();
    Some((u16::try_from(line).ok()?, u16::try_from(column).ok()?))
}

/// Moves the cursor to a 0-based line and character column (clamped by the editor).
pub(crate) fn jump_to(area: &mut TextArea<'_>, line: usize, column: usize) {
    let clamp = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    area.move_cursor(CursorMove::Jump(clamp(line), clamp(column)));
}

/// Moves the cursor to a 0-based line and column and scrolls that line to the top of the editor
/// (as far as the text goes: its last `height` lines fill the editor), for a jump to something
/// that starts there, such as a type's definition. [`jump_to`] alone scrolls as little as it
/// can, which leaves a line from below on the editor's last row and what starts there out of
/// sight. `height`: the rows the editor is drawn with (the pane's layout says).
pub(crate) fn jump_to_top(area: &mut TextArea<'_>, line: usize, column: usize, height: usize) {
    let lines = area.lines().len();
    let line = line.min(lines.saturating_sub(1));
    let wanted = line.min(lines.saturating_sub(height.max(1)));
    // The editor's rows are u16 and it scrolls by i16 steps.
    let (top, _) = area.scroll_offset();
    let mut delta = wanted.min(usize::from(u16::MAX)) as i64 - i64::from(top);
    while delta != 0 {
        let step = delta.clamp(i64::from(i16::MIN), i64::from(i16::MAX));
        area.scroll((step as i16, 0));
        delta -= step;
    }
    // Scrolling keeps the cursor in view by moving it: put it where it is wanted.
    jump_to(area, line, column);
}

/// Pasted text for the editor: control characters other than newline and tab become `\u`
/// escapes (the same data inside a JSON string), so none reaches the terminal raw.
pub(crate) fn escape_controls(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => format!("\\u{:04x}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacing_the_text_changes_only_what_differs_and_one_undo_takes_an_insert_back() {
        let before = "{\n  \"a\": 1\n}";
        let mut area = new_editor(before);
        replace_text(&mut area, "{\n  \"a\": 1,\n  \"b\": \"é\"\n}");
        assert_eq!(text_of(&area), "{\n  \"a\": 1,\n  \"b\": \"é\"\n}");
        assert_eq!(area.cursor(), (0, 0));
        assert!(area.undo());
        assert_eq!(text_of(&area), before);
        assert!(!area.undo(), "one step");
        // A change inside a line: the differing part is cut, then the new one inserted.
        replace_text(&mut area, "{\n  \"a\": 22\n}");
        assert_eq!(text_of(&area), "{\n  \"a\": 22\n}");
        replace_text(&mut area, "x");
        assert_eq!(text_of(&area), "x");
        replace_text(&mut area, "");
        assert_eq!(text_of(&area), "");
    }

    /// A replacement is a cut and an insert, made one step: one undo gives the old text back,
    /// never the text cut and not yet inserted, and one redo the new text again.
    #[test]
    fn a_replacement_is_one_undo_step_and_one_redo_step() {
        let old = "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}";
        let mut area = new_editor(old);
        area.insert_str("x");
        let before = text_of(&area);
        for new in [
            "[]",
            "{\n  \"a\": 10,\n  \"c\": {\n  }\n}",
            "{\n  \"a\": 1\n}",
            "",
        ] {
            replace_text(&mut area, new);
            assert_eq!(text_of(&area), new);
            assert!(area.undo());
            assert_eq!(text_of(&area), before, "one undo takes {new:?} back");
            assert!(area.redo());
            assert_eq!(text_of(&area), new, "one redo makes it again");
            assert!(area.undo());
        }
        assert!(area.undo(), "the typing before is a step of its own");
        assert_eq!(text_of(&area), old);
        assert!(!area.undo());
        assert_eq!(size_of(&area), text_of(&area).len() + 1);
    }

    /// The editor's undo (a patch of the vendored crate) takes back a run of Delete up to the
    /// start of a word, and a redo deletes it again.
    #[test]
    fn a_run_of_delete_is_one_undo_step_per_word() {
        let mut area = new_editor("hello world");
        for _ in 0..8 {
            area.delete_next_char();
        }
        assert_eq!(text_of(&area), "rld");
        assert!(area.undo());
        assert_eq!(text_of(&area), "world");
        assert!(area.undo());
        assert_eq!(text_of(&area), "hello world");
        assert!(area.redo());
        assert_eq!(text_of(&area), "world");
    }

    /// The patch's other half: a cursor move ends a run of typing (or of Backspace), even a
    /// move that comes back to where the run ended; a move that goes nowhere does not.
    #[test]
    fn a_cursor_move_ends_a_run_of_typing_or_deleting() {
        let type_in =
            |area: &mut TextArea<'_>, text: &str| text.chars().for_each(|c| area.insert_char(c));
        let mut area = new_editor("");
        type_in(&mut area, "abc");
        area.move_cursor(CursorMove::Back);
        area.move_cursor(CursorMove::Forward);
        type_in(&mut area, "def");
        assert!(area.undo());
        assert_eq!(text_of(&area), "abc");
        assert!(area.undo());
        assert_eq!(text_of(&area), "");

        let mut area = new_editor("hello");
        area.move_cursor(CursorMove::End);
        area.delete_char();
        area.delete_char();
        area.move_cursor(CursorMove::Back);
        area.move_cursor(CursorMove::Forward);
        area.delete_char();
        assert_eq!(text_of(&area), "he");
        assert!(area.undo());
        assert_eq!(text_of(&area), "hel");

        // End where the cursor already is moves nothing: the run goes on.
        let mut area = new_editor("");
        type_in(&mut area, "ab");
        area.move_cursor(CursorMove::End);
        type_in(&mut area, "c");
        assert!(area.undo());
        assert_eq!(text_of(&area), "");
    }

    #[test]
    fn pasted_controls_become_escapes() {
        assert_eq!(escape_controls("a\r\nb\u{1b}[2J\t"), "a\nb\\u001b[2J\t");
    }
}
