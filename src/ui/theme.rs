//! Colours and styles, in one place so panes look alike.

use ratatui::style::{Color, Modifier, Style};

use crate::app::widgets::json_tree::JsonKind;

pub const ACCENT: Color = Color::Cyan;

pub fn title() -> Style {
    Style::new().fg(ACCENT).add_modifier(Modifier::BOLD)
}

pub fn border(focused: bool) -> Style {
    if focused {
        Style::new().fg(ACCENT)
    } else {
        Style::new().fg(Color::DarkGray)
    }
}

pub fn selected(focused: bool) -> Style {
    if focused {
        Style::new()
            .bg(Color::Blue)
            .fg(Color::White)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::new().bg(Color::DarkGray)
    }
}

pub fn header() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

pub fn key() -> Style {
    Style::new().fg(Color::LightBlue)
}

pub fn extra_key() -> Style {
    Style::new()
        .fg(Color::Magenta)
        .add_modifier(Modifier::ITALIC)
}

pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn error() -> Style {
    Style::new().fg(Color::LightRed)
}

pub fn warning() -> Style {
    Style::new().fg(Color::Yellow)
}

pub fn info() -> Style {
    Style::new().fg(Color::Green)
}

pub fn search_hit() -> Style {
    Style::new().bg(Color::Yellow).fg(Color::Black)
}

pub fn status_bar() -> Style {
    Style::new().bg(Color::Rgb(30, 30, 46)).fg(Color::Gray)
}

/// JSON values are coloured by their type.
pub fn json(kind: JsonKind) -> Style {
    match kind {
        JsonKind::Null => Style::new().fg(Color::DarkGray),
        JsonKind::Bool => Style::new().fg(Color::Yellow),
        JsonKind::Number => Style::new().fg(Color::Cyan),
        JsonKind::String => Style::new().fg(Color::Green),
        JsonKind::Array | JsonKind::Object => Style::new().fg(Color::Magenta),
    }
}
