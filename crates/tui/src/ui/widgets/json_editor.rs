//! The composers' JSON editor (line numbers, a `●` in the left column on each line a finding
//! points at) and the findings list under it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui_textarea::TextArea;

use crate::sanitize;
use crate::ui::text::{fit_spans, wrap_line};
use crate::ui::theme::Theme;
use crate::validate::{Finding, Severity};

/// The editor in `block`, with a mark beside each line of `marks` (0-based lines).
pub(crate) fn render_marked(
    frame: &mut Frame,
    theme: &Theme,
    editor: &TextArea<'_>,
    marks: impl Iterator<Item = (usize, Severity)>,
    block: Block<'_>,
    area: Rect,
) {
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.width < 2 || inner.height == 0 {
        return;
    }
    // One column on the left marks the lines that have findings.
    let column = Rect::new(inner.x, inner.y, 1, inner.height);
    let text = Rect::new(inner.x + 1, inner.y, inner.width - 1, inner.height);
    frame.render_widget(editor, text);
    theme.uncolour(frame.buffer_mut(), text);
    let (top, _) = editor.scroll_offset();
    let top = usize::from(top);
    for (line, severity) in marks {
        if line >= top && line < top + usize::from(column.height) {
            let row = column.y + (line - top) as u16;
            frame.render_widget(
                Paragraph::new(Span::styled("●", severity_style(theme, severity))),
                Rect::new(column.x, row, 1, 1),
            );
        }
    }
}

/// What the findings list says around its rows.
pub(crate) struct FindingsText<'a> {
    /// Shown when there are none ("the report passes the checks of appdeck validate").
    pub none: &'a str,
    /// Stands for an empty pointer ("(report)").
    pub whole: &'a str,
}

/// The findings list: severity, pointer and message, the selected one highlighted when the list
/// has the cursor, scrolled to keep it in view.
pub(crate) fn render_findings(
    frame: &mut Frame,
    theme: &Theme,
    findings: &[&Finding],
    (selected, focused, checking): (usize, bool, bool),
    text: &FindingsText<'_>,
    area: Rect,
) {
    if area.height == 0 {
        return;
    }
    let title = match (findings.len(), checking) {
        (_, true) => " findings: checking… ".to_owned(),
        (0, false) => " findings: none ".to_owned(),
        (n, false) => format!(" findings: {n} (Enter goes to one, n/N next/previous) "),
    };
    let block = theme
        .focus_block(focused)
        .title(Span::styled(title, theme.title()));
    let inner = block.inner(area);
    let (height, width) = (usize::from(inner.height), usize::from(inner.width));
    let offset = if selected >= height {
        selected + 1 - height
    } else {
        0
    };
    let lines: Vec<Line> = if findings.is_empty() {
        vec![Line::from(Span::styled(text.none.to_owned(), theme.dim()))]
    } else {
        findings
            .iter()
            .enumerate()
            .skip(offset)
            .take(height)
            .map(|(i, finding)| {
                // Cut with `…` at the border: a cut message never passes for a whole one.
                let line = finding_line(theme, finding, text.whole);
                let mut line = Line::from(fit_spans(line.spans, width));
                if focused && i == selected {
                    line = line.style(theme.selected(true));
                }
                line
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// One finding as the findings list and a review show it: severity, pointer (`whole` standing
/// for an empty one) and message.
pub(crate) fn finding_line(theme: &Theme, finding: &Finding, whole: &str) -> Line<'static> {
    let pointer = if finding.pointer.is_empty() {
        whole.to_owned()
    } else {
        sanitize::line(&finding.pointer).into_owned()
    };
    Line::from(vec![
        Span::styled(
            format!("{} ", finding.severity),
            severity_style(theme, finding.severity),
        ),
        Span::styled(pointer, theme.key()),
        Span::raw(": "),
        Span::raw(sanitize::line(&finding.message).into_owned()),
    ])
}

/// The findings a review lists, each wrapped at `width`, in at most `room` rows: past that, as
/// many as fit whole, then how many more, so that a long list leaves the request below in
/// sight. When not even the first fits, as much of it as there is room for, cut with `…`.
pub(crate) fn review_findings(
    theme: &Theme,
    findings: &[&Finding],
    whole: &str,
    (width, room): (usize, usize),
) -> Vec<Line<'static>> {
    let room = room.max(1);
    let wrapped: Vec<Vec<Line<'static>>> = findings
        .iter()
        .map(|f| wrap_line(finding_line(theme, f, whole), width))
        .collect();
    let mut rows = Vec::new();
    let mut shown = 0;
    for (i, finding) in wrapped.iter().enumerate() {
        let more_line = usize::from(i + 1 < wrapped.len());
        if rows.len() + finding.len() + more_line > room {
            break;
        }
        rows.extend(finding.iter().cloned());
        shown += 1;
    }
    if shown == 0 && !findings.is_empty() {
        let fit = room - usize::from(findings.len() > 1 && room > 1);
        rows = if fit == 1 {
            let line = finding_line(theme, findings[0], whole);
            vec![Line::from(fit_spans(line.spans, width))]
        } else {
            let mut first = wrapped[0][..fit].to_vec();
            if let Some(last) = first.last_mut() {
                let mut spans = std::mem::take(&mut last.spans);
                spans.push(Span::raw("…"));
                *last = Line::from(fit_spans(spans, width));
            }
            first
        };
        shown = 1;
    }
    let more = findings.len() - shown;
    if more > 0 && rows.len() < room {
        rows.push(Line::from(Span::styled(
            format!("… and {more} more (Esc, then n)"),
            theme.dim(),
        )));
    }
    rows
}

pub(crate) fn severity_style(theme: &Theme, severity: Severity) -> ratatui::style::Style {
    match severity {
        Severity::Error => theme.error(),
        Severity::Warning => theme.warning(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(findings: &[Finding], width: usize, room: usize) -> Vec<String> {
        let findings: Vec<_> = findings.iter().collect();
        let lines = review_findings(&Theme::MONOCHROME, &findings, "(all)", (width, room));
        lines.iter().map(|l| l.to_string()).collect()
    }

    fn finding(pointer: &str, message: &str) -> Finding {
        Finding {
            severity: Severity::Error,
            pointer: pointer.to_owned(),
            message: message.to_owned(),
        }
    }

    /// A review's findings wrap, as many as fit whole and then how many more; when not even the
    /// first fits, as much of it as the room holds, cut with `…`, so the request stays in sight.
    #[test]
    fn a_review_lists_the_findings_that_fit_then_how_many_more() {
        let long = finding("/a", "one two three four five six seven eight nine ten");
        let short = finding("", "bad");
        let list = [short.clone(), long.clone(), short.clone()];
        assert_eq!(
            rows_of(&list, 80, 5),
            [
                "error (all): bad",
                "error /a: one two three four five six seven eight nine ten",
                "error (all): bad"
            ]
        );
        assert_eq!(
            rows_of(&list, 30, 4),
            [
                "error (all): bad",
                "error /a: one two three four ",
                "five six seven eight nine ten",
                "error (all): bad"
            ]
        );
        assert_eq!(
            rows_of(&list, 30, 3),
            ["error (all): bad", "… and 2 more (Esc, then n)"]
        );
        assert_eq!(
            rows_of(&[long.clone(), short.clone()], 20, 3),
            [
                "error /a: one two ",
                "three four five six…",
                "… and 1 more (Esc, then n)"
            ]
        );
        assert_eq!(rows_of(&[long, short], 20, 1), ["error /a: one two t…"]);
    }
}
