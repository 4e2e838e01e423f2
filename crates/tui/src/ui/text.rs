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
pub(crate) fn highlight(text: &str, needle: &str, base: Style, hit: Style) -> Vec<Span<'static>> {
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
pub(crate) fn place_cursor(frame: &mut Frame, area: Rect, prefix: u16, input: &LineInput) {
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

/// The part of styled `spans` that covers bytes `range` of their text put end to end (a row of
/// a wrapped line), each piece in its span's style.
pub(crate) fn slice_spans(
    spans: &[Span<'static>],
    range: std::ops::Range<usize>,
) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut start = 0;
    for span in spans {
        let text = span.content.as_ref();
        let end = start + text.len();
        let (from, to) = (range.start.max(start), range.end.min(end));
        if from < to {
            out.push(Span::styled(
                text[from - start..to - start].to_owned(),
                span.style,
            ));
        }
        start = end;
    }
    out
}

/// `line` as the rows it takes at `width` columns (broken after a space where one fits), each in
/// its spans' styles and the line's own: nothing is cut.
pub(crate) fn wrap_line(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    crate::text::wrap_ranges(&text, width, usize::MAX)
        .into_iter()
        .map(|range| Line::from(slice_spans(&line.spans, range)).style(line.style))
        .collect()
}

/// Cuts styled spans to `width` columns by display width, ending with `…` (in the style of the
/// span it cuts) when something was cut, so that a cut line never passes for a whole one.
pub(crate) fn fit_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    let total: usize = spans.iter().map(|s| s.content.width()).sum();
    if total <= width {
        return spans;
    }
    let mut budget = width;
    let mut out = Vec::new();
    for span in spans {
        let w = span.content.width();
        // Keep one column for the `…`.
        if w < budget {
            budget -= w;
            out.push(span);
        } else {
            // A span that fills the budget exactly is cut too: more follows it.
            let text = if w > budget {
                crate::text::fit(&span.content, budget)
            } else {
                crate::text::fit(&format!("{}…", span.content), budget)
            };
            out.push(Span::styled(text, span.style));
            break;
        }
    }
    out
}

/// Cuts styled spans to `width` columns, with `…` only inside a span it cuts: unlike
/// [`fit_spans`], a line cut exactly between two spans shows no `…`. The type detail's schema
/// rows are cut so (their name and type, then facts and description that may be left out).
pub(crate) fn cut_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    let mut left = width;
    let mut out = Vec::new();
    for span in spans {
        let w = span.content.width();
        if w <= left {
            left -= w;
            out.push(span);
        } else {
            out.push(Span::styled(
                crate::text::fit(&span.content, left),
                span.style,
            ));
            break;
        }
    }
    out
}

/// About how many rows `lines` take when wrapped at `width` (at least one each).
pub(crate) fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(width).max(1)).sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_spans_keep_their_styles() {
        let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let spans = vec![Span::styled("\"key\": ", bold), Span::raw("\"value\"")];
        let sliced = slice_spans(&spans, 3..10);
        let parts: Vec<(&str, Style)> = sliced
            .iter()
            .map(|s| (s.content.as_ref(), s.style))
            .collect();
        assert_eq!(parts, [("y\": ", bold), ("\"va", Style::new())]);
        assert!(slice_spans(&spans, 20..30).is_empty());
    }

    #[test]
    fn cut_spans_end_with_an_ellipsis() {
        let spans = vec![Span::raw("key: "), Span::raw("\"a long value\"")];
        let cut = fit_spans(spans.clone(), 10);
        let text: String = cut.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "key: \"a l…");
        assert_eq!(
            fit_spans(spans.clone(), 19),
            spans,
            "what fits is kept whole"
        );
        let text: String = fit_spans(spans, 5)
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(text, "key:…");
    }

    #[test]
    fn highlights_every_hit() {
        let spans = highlight("Needle in a needle", "needle", Style::new(), Style::new());
        let parts: Vec<_> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(parts, ["Needle", " in a ", "needle"]);
    }
}
