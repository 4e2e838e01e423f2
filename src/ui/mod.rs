//! Rendering: `render` draws the whole screen from `&App` and reads nothing else, so any state
//! can be drawn into a `TestBackend` and compared.

mod bars;
mod browser;
mod detail;
pub mod layout;
mod popups;
pub mod text;
pub mod theme;

use chrono::{DateTime, Utc};
use ratatui::Frame;

use crate::app::overlay::Overlay;
use crate::app::{App, View};

/// Draws one frame. `now` is passed in (not read from the clock) so relative times are
/// reproducible in tests.
pub fn render(frame: &mut Frame, app: &App, now: DateTime<Utc>) {
    let area = frame.area();
    let screen = layout::screen(area);
    bars::render_status(frame, app, screen.status);
    match (app.view, &app.detail) {
        (View::Detail, Some(detail)) => detail::render(frame, detail, screen.body, now),
        _ => browser::render(frame, app, screen.body),
    }
    bars::render_footer(frame, app, screen.footer);
    match &app.overlay {
        Some(Overlay::Help(help)) => popups::render_help(frame, help, screen.body),
        Some(Overlay::CommandLine(line)) => popups::render_command_line(frame, line, screen.footer),
        Some(Overlay::TypePicker(picker)) => popups::render_type_picker(frame, picker, screen.body),
        Some(Overlay::Error(popup)) => popups::render_error(frame, popup, screen.body),
        None => {}
    }
}
