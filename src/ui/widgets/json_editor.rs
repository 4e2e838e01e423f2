//! The composers' JSON editor (line numbers, a `●` in the left column on each line a finding
//! points at) and the findings list under it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui_textarea::TextArea;

use crate::sanitize;
use crate::ui::theme::Theme;
use crate::validate::{Finding, Severity};

/// The editor in `block`, with a mark beside each line of `marks` (0-based lines).
pub fn render_marked(
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
pub struct FindingsText<'a> {
    /// Shown when there are none ("the report passes the checks of appdeck validate").
    pub none: &'a str,
    /// Stands for an empty pointer ("(report)").
    pub whole: &'a str,
}

/// The findings list: severity, pointer and message, the selected one highlighted when the list
/// has the cursor, scrolled to keep it in view.
pub fn render_findings(
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
    let height = usize::from(block.inner(area).height);
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
                let mut line = finding_line(theme, finding, text.whole);
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
pub fn finding_line(theme: &Theme, finding: &Finding, whole: &str) -> Line<'static> {
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

pub fn severity_style(theme: &Theme, severity: Severity) -> ratatui::style::Style {
    match severity {
        Severity::Error => theme.error(),
        Severity::Warning => theme.warning(),
    }
}
