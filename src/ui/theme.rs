//! Colours and styles, in one place so panes look alike. A [`Theme`] is a value handed to
//! rendering (never read from the environment by a widget), so a test can draw the same state
//! with and without colour, and later themes (light, dark, per-role colours) are new values.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::BorderType;

use crate::app::widgets::json_tree::JsonKind;

const ACCENT: Color = Color::Cyan;

/// The marker in front of the selected row or line, so the selection shows without colour and
/// in a plain-text capture of the screen.
pub const SELECTED_MARKER: &str = "▶";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// False under `NO_COLOR`: only attributes (reverse, bold, underline) and markers remain.
    pub color: bool,
}

impl Default for Theme {
    fn default() -> Self {
        Theme::COLOR
    }
}

impl Theme {
    pub const COLOR: Theme = Theme { color: true };
    pub const MONOCHROME: Theme = Theme { color: false };

    /// The theme the user asked for: monochrome when `NO_COLOR` is set to anything but the
    /// empty string (<https://no-color.org>). Read once, at start.
    pub fn from_env() -> Theme {
        Theme::from_no_color(std::env::var_os("NO_COLOR").as_deref())
    }

    fn from_no_color(value: Option<&std::ffi::OsStr>) -> Theme {
        match value {
            Some(v) if !v.is_empty() => Theme::MONOCHROME,
            _ => Theme::COLOR,
        }
    }

    /// `style` in colour, plain without.
    fn tint(&self, style: Style) -> Style {
        if self.color { style } else { Style::new() }
    }

    /// Without colour, takes the colours out of `area` after a widget that styles itself (the
    /// text editor's line numbers) has been drawn there.
    pub fn uncolour(&self, buffer: &mut ratatui::buffer::Buffer, area: ratatui::layout::Rect) {
        if self.color {
            return;
        }
        let area = area.intersection(buffer.area);
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                let cell = &mut buffer[(x, y)];
                cell.set_fg(ratatui::style::Color::Reset);
                cell.set_bg(ratatui::style::Color::Reset);
            }
        }
    }

    /// A style that came with the content (formatted Markdown): kept in colour; without colour
    /// only its attributes (bold, italic, underline) stay, so headings still stand out.
    pub fn content(&self, style: Style) -> Style {
        if self.color {
            style
        } else {
            Style {
                fg: None,
                bg: None,
                underline_color: None,
                ..style
            }
        }
    }

    /// Pane and popup titles. Bold only in colour: without it, bold means "selected" or
    /// "focused", so plain titles keep that meaning clear.
    pub fn title(&self) -> Style {
        self.tint(Style::new().fg(ACCENT).add_modifier(Modifier::BOLD))
    }

    /// The title of a pane: the focused pane's stands out by colour, or by reverse video.
    pub fn pane_title(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => self.title(),
            (true, false) => Style::new().add_modifier(Modifier::REVERSED),
            (false, _) => self.dim(),
        }
    }

    pub fn border(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(ACCENT),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => self.dim(),
        }
    }

    /// The focused pane's border is thick, which shows without colour too.
    pub fn border_type(&self, focused: bool) -> BorderType {
        if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        }
    }

    /// The selected row or line. White on blue reads well on dark and light terminals alike
    /// (the cells' own colours are dropped on it, see [`Theme::select`]); without colour,
    /// reverse video when the pane has focus, bold when not.
    pub fn selected(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new()
                .bg(Color::Blue)
                .fg(Color::White)
                .add_modifier(Modifier::BOLD),
            (false, true) => Style::new().bg(Color::DarkGray).fg(Color::White),
            (true, false) => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            (false, false) => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// `spans` restyled as the selected line: every part takes the selection style (a dim
    /// or light-blue cell on a blue background is unreadable), except search hits, which
    /// keep theirs so a hit on the selected line still shows.
    pub fn select(&self, spans: Vec<Span<'static>>, focused: bool) -> Line<'static> {
        let selected = self.selected(focused);
        let hit = self.search_hit();
        Line::from(
            spans
                .into_iter()
                .map(|span| {
                    let style = if span.style == hit { hit } else { selected };
                    span.style(style)
                })
                .collect::<Vec<_>>(),
        )
        .style(selected)
    }

    pub fn header(&self) -> Style {
        match self.color {
            true => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            false => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    pub fn key(&self) -> Style {
        self.tint(Style::new().fg(Color::LightBlue))
    }

    pub fn extra_key(&self) -> Style {
        match self.color {
            true => Style::new()
                .fg(Color::Magenta)
                .add_modifier(Modifier::ITALIC),
            false => Style::new().add_modifier(Modifier::ITALIC),
        }
    }

    pub fn dim(&self) -> Style {
        self.tint(Style::new().fg(Color::DarkGray))
    }

    pub fn error(&self) -> Style {
        self.tint(Style::new().fg(Color::LightRed))
    }

    pub fn warning(&self) -> Style {
        self.tint(Style::new().fg(Color::Yellow))
    }

    pub fn info(&self) -> Style {
        self.tint(Style::new().fg(Color::Green))
    }

    /// A warning that stays on screen (the read-only banner): it must show without colour too.
    pub fn banner(&self) -> Style {
        match self.color {
            true => Style::new()
                .bg(Color::Yellow)
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD),
            false => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        }
    }

    pub fn search_hit(&self) -> Style {
        match self.color {
            true => Style::new().bg(Color::Yellow).fg(Color::Black),
            false => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    pub fn status_bar(&self) -> Style {
        self.tint(Style::new().bg(Color::Rgb(30, 30, 46)).fg(Color::Gray))
    }

    /// JSON values are coloured by their type.
    pub fn json(&self, kind: JsonKind) -> Style {
        self.tint(match kind {
            JsonKind::Null => Style::new().fg(Color::DarkGray),
            JsonKind::Bool => Style::new().fg(Color::Yellow),
            JsonKind::Number => Style::new().fg(Color::Cyan),
            JsonKind::String => Style::new().fg(Color::Green),
            JsonKind::Array | JsonKind::Object => Style::new().fg(Color::Magenta),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_set_to_anything_but_empty_turns_colour_off() {
        assert_eq!(Theme::from_no_color(None), Theme::COLOR);
        assert_eq!(Theme::from_no_color(Some(OsStr::new(""))), Theme::COLOR);
        assert_eq!(
            Theme::from_no_color(Some(OsStr::new("1"))),
            Theme::MONOCHROME
        );
    }

    #[test]
    fn monochrome_styles_carry_no_colour_and_selection_keeps_an_attribute() {
        let t = Theme::MONOCHROME;
        for style in [
            t.title(),
            t.border(true),
            t.selected(true),
            t.selected(false),
            t.search_hit(),
            t.header(),
            t.dim(),
            t.status_bar(),
            t.json(JsonKind::String),
        ] {
            assert_eq!((style.fg, style.bg), (None, None), "{style:?}");
        }
        for focused in [true, false] {
            assert!(!t.selected(focused).add_modifier.is_empty());
        }
        assert!(!t.title().add_modifier.contains(Modifier::BOLD));
    }
}
