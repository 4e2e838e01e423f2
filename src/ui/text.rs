//! Marking search hits in a line, and placing the terminal cursor in a one-line input. (Fitting
//! text by width is in `crate::text`, shared with the CLI.)

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use crate::app::widgets::LineInput;

/// Splits `text` into spans with every case-insensitive occurrence of `needle` (lowercase)
/// styled as a hit. Text whose lowercase form changes length is shown without highlights.
pub fn highlight(text: &str, needle: &str, base: Style, hit: Style) -> Vec<Span<'static>> {
    let lower = text.to_lowercase();
    if needle.is_empty() || lower.len() != text.len() {
        return vec![Span::styled(text.to_owned(), base)];
    }
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(pos) = lower[from..].find(needle).map(|p| p + from) {
        let end = pos + needle.len();
        if !text.is_char_boundary(pos) || !text.is_char_boundary(end) {
            break;
        }
        if pos > from {
            spans.push(Span::styled(text[from..pos].to_owned(), base));
        }
        spans.push(Span::styled(text[pos..end].to_owned(), hit));
        from = end;
    }
    if from < text.len() {
        spans.push(Span::styled(text[from..].to_owned(), base));
    }
    spans
}

/// Puts the terminal cursor in a one-line input drawn at `area` after `prefix` columns, by the
/// display width of the text left of the input's cursor; nowhere when that is outside `area`.
pub fn place_cursor(frame: &mut Frame, area: Rect, prefix: u16, input: &LineInput) {
    if area.height == 0 {
        return;
    }
    let typed = crate::sanitize::line(input.before_cursor()).width();
    let x = u16::try_from(typed)
        .unwrap_or(u16::MAX)
        .saturating_add(prefix)
        .saturating_add(area.x);
    if x < area.x.saturating_add(area.width) {
        frame.set_cursor_position((x, area.y));
    }
}

/// About how many rows `lines` take when wrapped at `width` (at least one each).
pub fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(width).max(1)).sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_every_hit() {
        let spans = highlight("Needle in a needle", "needle", Style::new(), Style::new());
        let parts: Vec<_> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(parts, ["Needle", " in a ", "needle"]);
    }
}
