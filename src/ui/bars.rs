//! The status bar (where, what is going on, the last error) and the footer (the keys that
//! matter here).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::{App, Notice};
use crate::sanitize;
use crate::text::fit;

/// Ends a warning or an error cut to the status bar's width.
const WHOLE_UNDER_BANG: &str = " (! whole)";

pub fn render_status(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let mut spans = vec![Span::styled(" appdeck ", theme.title())];
    // Right after the name, so that no narrow terminal cuts it off.
    if app.read_only.is_some() {
        spans.push(Span::styled(" read-only ", theme.banner()));
    }
    spans.push(Span::raw(format!(
        "│ {} │ {} ",
        sanitize::line(&app.session.origin),
        sanitize::line(&app.session.host)
    )));
    if let Some(activity) = app.activity() {
        spans.push(Span::styled(format!("│ {activity} "), theme.warning()));
    }
    // What the last key did, else what is wrong now (a fixed error leaves the bar; `!` keeps
    // the last one in full).
    // A warning or an error cut to the width says where it is whole (`!` keeps the last one).
    let mut whole_under_bang = false;
    match (&app.notice, app.problem()) {
        (Some(Notice::Info(text)), _) => {
            spans.push(Span::styled(format!("│ {text}"), theme.info()))
        }
        (Some(Notice::Error(text)), _) => {
            whole_under_bang = true;
            spans.push(Span::styled(format!("│ ⚠ {text}"), theme.error()))
        }
        (None, Some(problem)) => spans.push(Span::styled(
            format!("│ ⚠ {problem} (! details)"),
            theme.error(),
        )),
        (None, None) => {}
    }
    let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
    // Cut the whole line to the width, keeping the styles of the parts that fit.
    let mut budget = usize::from(area.width);
    let mut fitted = Vec::new();
    if unicode_width::UnicodeWidthStr::width(text.as_str()) > budget {
        let last = spans.len() - 1;
        for (i, span) in spans.into_iter().enumerate() {
            let w = unicode_width::UnicodeWidthStr::width(span.content.as_ref());
            if w <= budget {
                budget -= w;
                fitted.push(span);
            } else {
                let pointer = if i == last && whole_under_bang {
                    WHOLE_UNDER_BANG
                } else {
                    ""
                };
                let room = budget.saturating_sub(pointer.len());
                fitted.push(Span::styled(fit(&span.content, room), span.style));
                if room > 0 && !pointer.is_empty() {
                    fitted.push(Span::styled(pointer, span.style));
                }
                break;
            }
        }
    } else {
        fitted = spans;
    }
    frame.render_widget(
        Paragraph::new(Line::from(fitted)).style(theme.status_bar()),
        area,
    );
}

pub fn render_footer(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    // Whole hints only: one that does not fit is left out (a later, shorter one may still fit),
    // never cut in the middle of a word.
    let mut spans = Vec::new();
    let mut room = usize::from(area.width);
    for binding in app.focus().keys.bindings().filter(|b| !b.footer.is_empty()) {
        let key = format!(" {} ", binding.label);
        let word = format!("{} ", binding.footer);
        let width = unicode_width::UnicodeWidthStr::width(key.as_str())
            + unicode_width::UnicodeWidthStr::width(word.as_str());
        if width > room {
            continue;
        }
        room -= width;
        spans.push(Span::styled(key, theme.title()));
        spans.push(Span::styled(word, theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
