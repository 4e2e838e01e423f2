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
use unicode_width::UnicodeWidthStr;

/// Ends a warning or an error cut to the status bar's width.
const WHOLE_UNDER_BANG: &str = " (! whole)";

/// With fewer cells left for a cut message, it ends with ` (!)` only.
const WIDE_ENOUGH_TO_SAY_WHOLE: usize = 30;

/// The host appdeck is connected to is shown cut to no fewer cells than this, or not at all.
const MIN_HOST: usize = 12;

/// The settings' name (a profile, `demo (built-in sandbox)`) is cut to a quarter of the width,
/// and on a narrow terminal to no more than this: it stays whole wherever a quarter holds it.
const NARROW_ORIGIN: usize = 16;

/// From this width on the settings' name may take a quarter of it.
const WIDE: usize = 100;

pub(super) fn render_status(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    let mut name = vec![Span::styled(" appdeck ", theme.title())];
    // Right after the name, so that no narrow terminal cuts it off.
    if app.read_only.is_some() {
        name.push(Span::styled(" read-only ", theme.banner()));
    }
    // Which settings are in use (the profile, `demo`) stays whatever is said; the host gives
    // way to what is said.
    if !app.session.origin.is_empty() {
        let width = usize::from(area.width);
        let most = match width >= WIDE {
            true => width / 4,
            false => NARROW_ORIGIN.min(width / 4),
        };
        let origin = fit(&sanitize::line(&app.session.origin), most);
        name.push(Span::raw(format!("│ {origin} ")));
    }
    let host = format!("│ {} ", sanitize::line(&app.session.host));
    let mut said = Vec::new();
    if let Some(activity) = app.activity() {
        said.push(Span::styled(format!("│ {activity} "), theme.warning()));
    }
    // What the last key did, else what is wrong now (a fixed error leaves the bar; `!` keeps
    // the last one in full).
    let mut whole_under_bang = false;
    match (&app.notice, app.problem()) {
        (Some(Notice::Info(text)), _) => said.push(Span::styled(format!("│ {text}"), theme.info())),
        (Some(Notice::Error(text)), _) => {
            whole_under_bang = true;
            said.push(Span::styled(format!("│ ⚠ {text}"), theme.error()))
        }
        (None, Some(problem)) => {
            whole_under_bang = true;
            said.push(Span::styled(
                format!("│ ⚠ {problem} (! details)"),
                theme.error(),
            ))
        }
        (None, None) => {}
    }
    let mut budget = usize::from(area.width).saturating_sub(widths(&name));
    // What is said now goes before the host: on a narrow terminal the host gives way first,
    // then the message is cut, saying where it is whole.
    let host_room = budget.saturating_sub(widths(&said));
    let mut line = name;
    if host_room >= host.width().min(MIN_HOST) || said.is_empty() {
        let host = match (host.width() <= host_room, said.is_empty()) {
            (true, _) => host,
            (false, true) => fit(&host, host_room),
            // Cut, it still ends with a blank before what is said.
            (false, false) => format!("{} ", fit(host.trim_end(), host_room - 1)),
        };
        budget -= host.width();
        line.push(Span::raw(host));
    }
    let last = said.len().saturating_sub(1);
    for (i, span) in said.into_iter().enumerate() {
        let w = span.content.width();
        if w <= budget {
            budget -= w;
            line.push(span);
            continue;
        }
        let pointer = match (i == last && whole_under_bang, budget) {
            (false, _) => "",
            // On a narrow terminal the pointer leaves room for the start of the message.
            (true, ..WIDE_ENOUGH_TO_SAY_WHOLE) => " (!)",
            (true, _) => WHOLE_UNDER_BANG,
        };
        let room = budget.saturating_sub(pointer.len());
        line.push(Span::styled(fit(&span.content, room), span.style));
        if room > 0 && !pointer.is_empty() {
            line.push(Span::styled(pointer, span.style));
        }
        break;
    }
    frame.render_widget(
        Paragraph::new(Line::from(line)).style(theme.status_bar()),
        area,
    );
}

/// The cells `spans` take.
fn widths(spans: &[Span]) -> usize {
    spans.iter().map(|s| s.content.width()).sum()
}

pub(super) fn render_footer(frame: &mut Frame, app: &App, theme: &Theme, area: Rect) {
    // Whole hints only: one that does not fit is left out (a later, shorter one may still fit),
    // never cut in the middle of a word.
    let mut spans = Vec::new();
    let mut room = usize::from(area.width);
    let idle = if app.overlay.is_none() {
        app.top_pane().idle_keys()
    } else {
        &[]
    };
    let offered =
        |b: &&crate::app::keymap::EffectiveBinding| !b.footer.is_empty() && !idle.contains(&b.name);
    for binding in app.focus().keys.bindings().filter(offered) {
        let key = format!(" {} ", binding.label);
        let word = format!("{} ", binding.footer);
        let width = key.width() + word.width();
        if width > room {
            continue;
        }
        room -= width;
        spans.push(Span::styled(key, theme.title()));
        spans.push(Span::styled(word, theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod tests {
    use crate::app::harness::{draw, line};
    use crate::app::{App, Session};
    use crate::ui::theme::Theme;
    use ratatui::layout::Rect;

    fn status_bar(origin: &str, width: u16) -> String {
        let session = Session {
            origin: origin.to_owned(),
            host: "127.0.0.1:39181".to_owned(),
            warnings: Vec::new(),
        };
        let (app, _) = App::new(session, Rect::new(0, 0, width, 10), None);
        line(&draw(&app, &Theme::MONOCHROME, chrono::Utc::now()), 0)
    }

    /// Issue 35 item 14: `demo (built-in …` even at 220 columns. Whole where a quarter of the
    /// width holds it; cut on a narrow terminal, where the message needs the room.
    #[test]
    fn the_settings_name_is_whole_where_there_is_room() {
        for width in [100, 120, 220] {
            let bar = status_bar("demo (built-in sandbox)", width);
            assert!(
                bar.contains("│ demo (built-in sandbox) │"),
                "{width}: {bar}"
            );
        }
        let bar = status_bar("demo (built-in sandbox)", 80);
        assert!(bar.contains("│ demo (built-in … │"), "{bar}");
    }
}
