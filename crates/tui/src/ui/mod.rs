//! Rendering: `render` draws the whole screen from `&App` and reads nothing else, so any state
//! can be drawn into a `TestBackend` and compared. `panes/` mirrors `app/panes/`; the layouts
//! come from `app` (update needs the same viewport sizes).

mod bars;
mod overlay;
mod panes;
mod popup_clear;
pub(crate) mod text;
pub(crate) mod theme;
pub(crate) mod widgets;

use chrono::{DateTime, Utc};
use ratatui::Frame;

use crate::app::App;
use crate::app::layout;
use crate::app::overlay::Overlay;
use crate::app::pane::Screen;
use theme::Theme;

/// Draws one frame. `now` is passed in (not read from the clock) so relative times are
/// reproducible in tests; `theme` too, so the same state can be drawn with and without colour.
pub fn render(frame: &mut Frame, app: &App, theme: &Theme, now: DateTime<Utc>) {
    let area = frame.area();
    let screen = layout::screen(area);
    bars::render_status(frame, app, theme, screen.status);
    // The screen on top of the stack; one arm per pane.
    match app.stack.top() {
        None => panes::browser::render(frame, &app.browser, theme, screen.body, (now, app.now)),
        Some(Screen::Detail(detail)) => {
            panes::detail::render(frame, detail, theme, screen.body, (now, app.now))
        }
        Some(Screen::Types(types)) => panes::types::render(frame, types, theme, screen.body),
        Some(Screen::TypeDetail(detail)) => {
            panes::type_detail::render(frame, detail, theme, screen.body)
        }
        Some(Screen::Report(composer)) => {
            let read_only = app.read_only.as_ref();
            panes::report::render(frame, composer, theme, screen.body, read_only)
        }
        Some(Screen::History(history)) => {
            panes::history::render(frame, history, theme, screen.body)
        }
        Some(Screen::Browser(list)) => {
            panes::browser::render(frame, list, theme, screen.body, (now, app.now))
        }
        Some(Screen::Connect(connect)) => {
            let read_only = app.read_only.as_ref();
            panes::connect::render(frame, connect, theme, screen.body, read_only)
        }
        Some(Screen::Overview(overview)) => {
            let kept = app.browser.kept_age(app.now);
            panes::overview::render(frame, overview, theme, screen.body, kept)
        }
    }
    bars::render_footer(frame, app, theme, screen.footer);
    match &app.overlay {
        Some(Overlay::Help(help)) => overlay::render_help(frame, help, theme, screen.body),
        Some(Overlay::CommandLine(line)) => {
            overlay::render_command_line(frame, line, theme, screen.footer)
        }
        Some(Overlay::TypePicker(picker)) => {
            overlay::render_type_picker(frame, picker, theme, screen.body)
        }
        Some(Overlay::Error(popup)) => overlay::render_error(frame, popup, theme, screen.body),
        Some(Overlay::Value(popup)) => overlay::render_value(frame, popup, theme, screen.body),
        Some(Overlay::Quit(ask)) => {
            // The key that answers, as the config file may have remapped it.
            let keys = app.focus().keys;
            let quit = keys.bindings().find(|b| b.name == "quit");
            let quit = quit.map_or_else(|| "q".to_owned(), |b| b.label.to_string());
            overlay::render_quit(frame, ask, &quit, theme, screen.body)
        }
        None => {}
    }
}
