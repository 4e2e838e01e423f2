//! Fitting text into cells by display width, and marking search hits.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Cuts `text` to `width` columns, ending with `…` when something was cut.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

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
pub fn place_cursor(
    frame: &mut Frame,
    area: Rect,
    prefix: u16,
    input: &crate::app::input::LineInput,
) {
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

/// Thousands separators, for row counts.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_by_display_width() {
        assert_eq!(fit("hello", 5), "hello");
        assert_eq!(fit("hello world", 6), "hello…");
        assert_eq!(fit("日本語テキスト", 7), "日本語…");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn highlights_every_hit() {
        let spans = highlight("Needle in a needle", "needle", Style::new(), Style::new());
        let parts: Vec<_> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(parts, ["Needle", " in a ", "needle"]);
    }

    #[test]
    fn counts() {
        assert_eq!(count(0), "0");
        assert_eq!(count(1234567), "1,234,567");
    }
}
