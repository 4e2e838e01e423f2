//! Colours and styles, in one place so panes look alike. A [`Theme`] is a value handed to
//! rendering (never read from the environment by a widget), so a test can draw the same state
//! in the dark theme, the light one and without colour. Every colour comes from a [`Role`]
//! (`config::theme`), so a `[theme]` table in the config file can change any of them.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders};

pub(crate) use crate::app::settings::theme::{BaseTheme, Role, ThemeChoice};
use crate::app::widgets::json_tree::JsonKind;

/// The marker in front of the selected row or line, so the selection shows without colour and
/// in a plain-text capture of the screen.
pub(crate) const SELECTED_MARKER: &str = "▶";

/// One colour per role, indexed by `Role as usize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette([Color; Role::ALL.len()]);

impl Palette {
    /// Light text on a dark terminal: appdeck's colours from the start.
    pub const DARK: Palette = Palette([
        Color::Cyan,            // title
        Color::DarkGray,        // border
        Color::Cyan,            // focused_border
        Color::Blue,            // selection
        Color::White,           // selection_text
        Color::DarkGray,        // inactive_selection
        Color::Yellow,          // header
        Color::LightBlue,       // key
        Color::Magenta,         // extra_key
        Color::DarkGray,        // dim
        Color::LightRed,        // error
        Color::Yellow,          // warning
        Color::Green,           // info
        Color::Yellow,          // search_hit
        Color::Rgb(30, 30, 46), // status_bar
        Color::Gray,            // status_bar_text
        Color::Yellow,          // banner
        Color::DarkGray,        // null
        Color::Yellow,          // bool
        Color::Cyan,            // number
        Color::Green,           // string
        Color::Magenta,         // container
    ]);

    /// Dark text on a light terminal: no yellow or light colours on white.
    pub const LIGHT: Palette = Palette([
        Color::Blue,         // title
        Color::Indexed(250), // border
        Color::Blue,         // focused_border
        Color::Blue,         // selection
        Color::White,        // selection_text
        Color::Indexed(244), // inactive_selection
        Color::Indexed(130), // header: dark orange
        Color::Indexed(25),  // key: dark blue
        Color::Magenta,      // extra_key
        Color::Indexed(242), // dim
        Color::Indexed(160), // error: dark red
        Color::Indexed(130), // warning
        Color::Indexed(28),  // info: dark green
        Color::Indexed(227), // search_hit: pale yellow
        Color::Indexed(254), // status_bar: light grey
        Color::Black,        // status_bar_text
        Color::Indexed(220), // banner
        Color::Indexed(242), // null
        Color::Indexed(130), // bool
        Color::Indexed(25),  // number
        Color::Indexed(28),  // string
        Color::Indexed(90),  // container: dark magenta
    ]);

    pub(crate) fn of(base: BaseTheme) -> Palette {
        match base {
            BaseTheme::Dark => Palette::DARK,
            BaseTheme::Light => Palette::LIGHT,
        }
    }

    pub fn get(&self, role: Role) -> Color {
        self.0[role as usize]
    }

    pub(crate) fn set(&mut self, role: Role, colour: Color) {
        self.0[role as usize] = colour;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// False under `NO_COLOR`: only attributes (reverse, bold, underline) and markers remain.
    pub color: bool,
    pub palette: Palette,
}

impl Default for Theme {
    fn default() -> Self {
        Theme::COLOR
    }
}

impl Theme {
    /// The dark theme (the default).
    pub const COLOR: Theme = Theme {
        color: true,
        palette: Palette::DARK,
    };
    pub const LIGHT: Theme = Theme {
        color: true,
        palette: Palette::LIGHT,
    };
    pub const MONOCHROME: Theme = Theme {
        color: false,
        palette: Palette::DARK,
    };

    /// The theme the user asked for, `NO_COLOR` (set to anything but the empty string,
    /// <https://no-color.org>) winning over the config file. Read once, at start.
    pub fn from_env(choice: &ThemeChoice) -> Theme {
        Theme::chosen(choice, std::env::var_os("NO_COLOR").as_deref())
    }

    /// The built-in theme `choice` names with its colours applied, or no colour at all when
    /// `no_color` is set and not empty.
    pub fn chosen(choice: &ThemeChoice, no_color: Option<&std::ffi::OsStr>) -> Theme {
        if no_color.is_some_and(|v| !v.is_empty()) {
            return Theme::MONOCHROME;
        }
        let mut palette = Palette::of(choice.base);
        for (role, colour) in &choice.colours {
            palette.set(*role, *colour);
        }
        Theme {
            color: true,
            palette,
        }
    }

    /// The colour of `role` in this theme.
    pub fn colour(&self, role: Role) -> Color {
        self.palette.get(role)
    }

    /// Text in the colour of `role`; plain without colour.
    fn fg(&self, role: Role) -> Style {
        self.tint(Style::new().fg(self.colour(role)))
    }

    /// `style` in colour, plain without.
    fn tint(&self, style: Style) -> Style {
        if self.color { style } else { Style::new() }
    }

    /// Without colour, takes the colours out of `area` after a widget that styles itself (the
    /// text editor's line numbers) has been drawn there.
    pub(crate) fn uncolour(
        &self,
        buffer: &mut ratatui::buffer::Buffer,
        area: ratatui::layout::Rect,
    ) {
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
    pub(crate) fn content(&self, style: Style) -> Style {
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
    pub(crate) fn title(&self) -> Style {
        self.tint(
            Style::new()
                .fg(self.colour(Role::Title))
                .add_modifier(Modifier::BOLD),
        )
    }

    /// The title of a pane: the focused pane's stands out by colour, or by reverse video.
    pub(crate) fn pane_title(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => self.title(),
            (true, false) => Style::new().add_modifier(Modifier::REVERSED),
            (false, _) => self.dim(),
        }
    }

    pub(crate) fn border(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(self.colour(Role::FocusedBorder)),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => self.fg(Role::Border),
        }
    }

    /// The focused pane's border is thick, which shows without colour too.
    pub(crate) fn border_type(&self, focused: bool) -> BorderType {
        if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        }
    }

    /// The frame of one of a screen's parts that can have focus: every pane marks the focused
    /// part the same way (thick and coloured, thick and bold without colour).
    pub(crate) fn focus_block(&self, focused: bool) -> Block<'static> {
        Block::default()
            .borders(Borders::ALL)
            .border_style(self.border(focused))
            .border_type(self.border_type(focused))
    }

    /// The selected row or line. White on blue reads well on dark and light terminals alike
    /// (the cells' own colours are dropped on it, see [`Theme::select`]); without colour,
    /// reverse video when the pane has focus, bold when not.
    pub(crate) fn selected(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new()
                .bg(self.colour(Role::Selection))
                .fg(self.colour(Role::SelectionText))
                .add_modifier(Modifier::BOLD),
            (false, true) => Style::new()
                .bg(self.colour(Role::InactiveSelection))
                .fg(self.colour(Role::SelectionText)),
            (true, false) => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            (false, false) => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// `spans` restyled as the selected line: every part takes the selection style (a dim
    /// or light-blue cell on a blue background is unreadable), except search hits, which
    /// keep theirs so a hit on the selected line still shows.
    pub(crate) fn select(&self, spans: Vec<Span<'static>>, focused: bool) -> Line<'static> {
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

    pub(crate) fn header(&self) -> Style {
        match self.color {
            true => Style::new()
                .fg(self.colour(Role::Header))
                .add_modifier(Modifier::BOLD),
            false => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    pub(crate) fn key(&self) -> Style {
        self.fg(Role::Key)
    }

    pub(crate) fn extra_key(&self) -> Style {
        match self.color {
            true => Style::new()
                .fg(self.colour(Role::ExtraKey))
                .add_modifier(Modifier::ITALIC),
            false => Style::new().add_modifier(Modifier::ITALIC),
        }
    }

    pub(crate) fn dim(&self) -> Style {
        self.fg(Role::Dim)
    }

    pub(crate) fn error(&self) -> Style {
        self.fg(Role::Error)
    }

    pub(crate) fn warning(&self) -> Style {
        self.fg(Role::Warning)
    }

    pub(crate) fn info(&self) -> Style {
        self.fg(Role::Info)
    }

    /// A warning that stays on screen (the read-only banner): it must show without colour too.
    pub(crate) fn banner(&self) -> Style {
        match self.color {
            true => Style::new()
                .bg(self.colour(Role::Banner))
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD),
            false => Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        }
    }

    pub(crate) fn search_hit(&self) -> Style {
        match self.color {
            true => Style::new()
                .bg(self.colour(Role::SearchHit))
                .fg(Color::Black),
            false => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    pub(crate) fn status_bar(&self) -> Style {
        self.tint(
            Style::new()
                .bg(self.colour(Role::StatusBar))
                .fg(self.colour(Role::StatusBarText)),
        )
    }

    /// JSON values are coloured by their type.
    pub(crate) fn json(&self, kind: JsonKind) -> Style {
        self.fg(match kind {
            JsonKind::Null => Role::Null,
            JsonKind::Bool => Role::Bool,
            JsonKind::Number => Role::Number,
            JsonKind::String => Role::String,
            JsonKind::Array | JsonKind::Object => Role::Container,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_set_to_anything_but_empty_turns_colour_off() {
        let dark = ThemeChoice::default();
        assert_eq!(Theme::chosen(&dark, None), Theme::COLOR);
        assert_eq!(Theme::chosen(&dark, Some(OsStr::new(""))), Theme::COLOR);
        assert_eq!(
            Theme::chosen(&dark, Some(OsStr::new("1"))),
            Theme::MONOCHROME
        );
    }

    #[test]
    fn the_choice_picks_a_palette_and_overrides_roles_and_no_color_wins_over_both() {
        let mut choice = ThemeChoice {
            base: BaseTheme::Light,
            ..ThemeChoice::default()
        };
        assert_eq!(Theme::chosen(&choice, None), Theme::LIGHT);
        choice.colours.insert(Role::Selection, Color::Rgb(1, 2, 3));
        let theme = Theme::chosen(&choice, None);
        assert_eq!(theme.selected(true).bg, Some(Color::Rgb(1, 2, 3)));
        assert_eq!(theme.key().fg, Some(Palette::LIGHT.get(Role::Key)));
        let mono = Theme::chosen(&choice, Some(OsStr::new("1")));
        assert_eq!(mono.selected(true).bg, None);
        assert!(
            mono.selected(true)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
    }

    #[test]
    fn the_palettes_give_every_role_a_colour_in_role_order() {
        // Role::ALL is in declaration order, so `role as usize` indexes the palette.
        for (i, role) in Role::ALL.into_iter().enumerate() {
            assert_eq!(role as usize, i, "{role:?}");
        }
        assert_ne!(Palette::DARK, Palette::LIGHT);
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
