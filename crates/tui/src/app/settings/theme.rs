//! The `theme` setting of `config.toml`: a built-in theme (`theme = "light"`), or a `[theme]`
//! table with `name` and a colour per role. Every mistake is located by line, so the user knows
//! what to fix before the terminal UI takes the screen.

use std::collections::BTreeMap;

use ratatui::style::Color;
use toml::de::{DeTable, DeValue};

use crate::config::located::{LineProblem, line_of};

/// The built-in themes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BaseTheme {
    /// Light text on a dark terminal (the default).
    #[default]
    Dark,
    /// Dark text on a light terminal.
    Light,
}

impl BaseTheme {
    pub fn name(self) -> &'static str {
        match self {
            BaseTheme::Dark => "dark",
            BaseTheme::Light => "light",
        }
    }

    fn parse(name: &str) -> Option<BaseTheme> {
        match name {
            "dark" => Some(BaseTheme::Dark),
            "light" => Some(BaseTheme::Light),
            _ => None,
        }
    }
}

/// What a colour is used for. The `[theme]` table names them as [`Role::name`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Pane and popup titles, the keys in the footer.
    Title,
    /// Borders of the panes without focus.
    Border,
    /// The border of the pane with focus.
    FocusedBorder,
    /// Background of the selected row or line in the pane with focus.
    Selection,
    /// Text of the selected row or line.
    SelectionText,
    /// Background of the selected row or line in a pane without focus.
    InactiveSelection,
    /// Table headers and section titles.
    Header,
    /// Field names.
    Key,
    /// Fields the spec does not name.
    ExtraKey,
    /// Secondary text (hints, counts, placeholders).
    Dim,
    Error,
    Warning,
    Info,
    /// Background of a search match.
    SearchHit,
    /// Background of the status bar.
    StatusBar,
    /// Text of the status bar.
    StatusBarText,
    /// Background of the read-only banner.
    Banner,
    /// JSON values, by type.
    Null,
    Bool,
    Number,
    String,
    /// JSON arrays and objects.
    Container,
}

impl Role {
    pub const ALL: [Role; 22] = [
        Role::Title,
        Role::Border,
        Role::FocusedBorder,
        Role::Selection,
        Role::SelectionText,
        Role::InactiveSelection,
        Role::Header,
        Role::Key,
        Role::ExtraKey,
        Role::Dim,
        Role::Error,
        Role::Warning,
        Role::Info,
        Role::SearchHit,
        Role::StatusBar,
        Role::StatusBarText,
        Role::Banner,
        Role::Null,
        Role::Bool,
        Role::Number,
        Role::String,
        Role::Container,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Role::Title => "title",
            Role::Border => "border",
            Role::FocusedBorder => "focused_border",
            Role::Selection => "selection",
            Role::SelectionText => "selection_text",
            Role::InactiveSelection => "inactive_selection",
            Role::Header => "header",
            Role::Key => "key",
            Role::ExtraKey => "extra_key",
            Role::Dim => "dim",
            Role::Error => "error",
            Role::Warning => "warning",
            Role::Info => "info",
            Role::SearchHit => "search_hit",
            Role::StatusBar => "status_bar",
            Role::StatusBarText => "status_bar_text",
            Role::Banner => "banner",
            Role::Null => "null",
            Role::Bool => "bool",
            Role::Number => "number",
            Role::String => "string",
            Role::Container => "container",
        }
    }

    fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// The theme the config file asks for: a built-in one and the colours it overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeChoice {
    pub base: BaseTheme,
    pub colours: BTreeMap<Role, Color>,
}

/// Colour names, as `[theme]` accepts them (case, `-`, `_` and spaces ignored).
const NAMES: [(&str, Color); 18] = [
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("grey", Color::Gray),
    ("darkgray", Color::DarkGray),
    ("darkgrey", Color::DarkGray),
    ("lightred", Color::LightRed),
    ("lightgreen", Color::LightGreen),
    ("lightyellow", Color::LightYellow),
    ("lightblue", Color::LightBlue),
    ("lightmagenta", Color::LightMagenta),
    ("lightcyan", Color::LightCyan),
    ("white", Color::White),
];

const HOW_TO_WRITE_A_COLOUR: &str = "write a colour name (red, lightblue, darkgray...), \"#rrggbb\" or a 256-colour index from 0 to 255";

/// A colour as written in the config file: a name, `#rrggbb`, or an index 0-255 (as a number
/// or a string of digits).
pub(crate) fn parse_colour(value: &DeValue) -> Option<Color> {
    match value {
        DeValue::Integer(i) => i
            .as_str()
            .replace('_', "")
            .parse::<u8>()
            .ok()
            .filter(|_| i.radix() == 10)
            .map(Color::Indexed),
        DeValue::String(text) => colour_from_text(text),
        _ => None,
    }
}

fn colour_from_text(text: &str) -> Option<Color> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix('#') {
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some(Color::Rgb(byte(0)?, byte(2)?, byte(4)?));
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        return text.parse::<u8>().ok().map(Color::Indexed);
    }
    let folded: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    NAMES
        .iter()
        .find(|(name, _)| *name == folded)
        .map(|(_, colour)| *colour)
}

/// A colour as `[theme]` would take it back: a name, `#rrggbb` or an index.
pub fn describe_colour(colour: Color) -> String {
    match colour {
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => i.to_string(),
        other => NAMES
            .iter()
            .find(|(_, c)| *c == other)
            .map_or_else(|| format!("{other:?}"), |(name, _)| (*name).to_owned()),
    }
}

/// Reads the `theme` key of the parsed config file (absent: the dark theme as it is): a base
/// theme's name, or a table of a base and colours by role. Every mistake in it is reported, not
/// only the first, so that one start shows all there is to fix.
pub(crate) fn read(file: &DeTable, text: &str) -> Result<ThemeChoice, Vec<LineProblem>> {
    let Some(theme) = file.get("theme") else {
        return Ok(ThemeChoice::default());
    };
    let at = |span: std::ops::Range<usize>| line_of(text, span.start);
    match theme.get_ref() {
        DeValue::String(name) => Ok(ThemeChoice {
            base: base(name, at(theme.span())).map_err(|p| vec![p])?,
            colours: BTreeMap::new(),
        }),
        DeValue::Table(table) => {
            let mut choice = ThemeChoice::default();
            let mut problems = Vec::new();
            for (key, value) in table.iter() {
                let line = at(key.span());
                match entry(key.get_ref().as_ref(), value.get_ref(), line) {
                    Ok(Entry::Base(base)) => choice.base = base,
                    Ok(Entry::Colour(role, colour)) => {
                        choice.colours.insert(role, colour);
                    }
                    Err(problem) => problems.push(problem),
                }
            }
            match problems.is_empty() {
                true => Ok(choice),
                false => Err(problems),
            }
        }
        _ => Err(vec![LineProblem::new(at(theme.span()), not_a_theme_name())]),
    }
}

/// One line of a `[theme]` table.
enum Entry {
    Base(BaseTheme),
    Colour(Role, Color),
}

fn entry(key: &str, value: &DeValue, line: usize) -> Result<Entry, LineProblem> {
    if key == "name" {
        let DeValue::String(name) = value else {
            return Err(LineProblem::new(line, not_a_theme_name()));
        };
        return base(name, line).map(Entry::Base);
    }
    let Some(role) = Role::parse(key) else {
        return Err(LineProblem::new(
            line,
            format!(
                "[theme]: unknown role `{}`; the roles are `name` (dark or light) and {}",
                crate::sanitize::line(key),
                Role::ALL.map(Role::name).join(", ")
            ),
        ));
    };
    let Some(colour) = parse_colour(value) else {
        return Err(LineProblem::new(
            line,
            format!(
                "[theme]: `{key}` is not a colour; {HOW_TO_WRITE_A_COLOUR}",
                key = role.name()
            ),
        ));
    };
    Ok(Entry::Colour(role, colour))
}

fn base(name: &str, line: usize) -> Result<BaseTheme, LineProblem> {
    BaseTheme::parse(name).ok_or_else(|| {
        LineProblem::new(
            line,
            format!(
                "unknown theme {:?}; {}",
                crate::sanitize::line(name),
                not_a_theme_name()
            ),
        )
    })
}

fn not_a_theme_name() -> String {
    "the theme is \"dark\" or \"light\" (theme = \"light\", or `name` in a [theme] table with colours per role)".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<ThemeChoice, Vec<LineProblem>> {
        let file = DeTable::parse(text).expect("valid TOML");
        read(file.get_ref(), text)
    }

    /// The one mistake in `text`.
    fn mistake(text: &str) -> LineProblem {
        let mut problems = read_text(text).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        problems.remove(0)
    }

    #[test]
    fn a_name_alone_or_a_table_of_roles() {
        assert_eq!(read_text("").unwrap(), ThemeChoice::default());
        assert_eq!(
            read_text("theme = \"light\"").unwrap().base,
            BaseTheme::Light
        );
        let choice = read_text(
            "[theme]\nname = \"light\"\nselection = \"#1e90ff\"\nborder = 244\nerror = \"Light-Red\"\nkey = \"33\"\n",
        )
        .unwrap();
        assert_eq!(choice.base, BaseTheme::Light);
        assert_eq!(
            choice.colours[&Role::Selection],
            Color::Rgb(0x1e, 0x90, 0xff)
        );
        assert_eq!(choice.colours[&Role::Border], Color::Indexed(244));
        assert_eq!(choice.colours[&Role::Error], Color::LightRed);
        assert_eq!(choice.colours[&Role::Key], Color::Indexed(33));
        let dark = read_text("[theme]\nstring = \"green\"").unwrap();
        assert_eq!(dark.base, BaseTheme::Dark);
    }

    #[test]
    fn mistakes_are_located_and_say_what_to_write() {
        let err = mistake("theme = \"solarized\"");
        assert_eq!(err.line, 1);
        assert!(
            err.message.contains("unknown theme \"solarized\""),
            "{err:?}"
        );
        assert!(err.message.contains("\"dark\" or \"light\""), "{err:?}");

        let err = mistake("[theme]\nselection = \"#12345\"\n");
        assert_eq!(err.line, 2);
        assert!(
            err.message.contains("`selection` is not a colour"),
            "{err:?}"
        );
        assert!(err.message.contains("#rrggbb"), "{err:?}");

        for bad in ["256", "\"bluish\"", "-1", "true", "0x10"] {
            let err = mistake(&format!("[theme]\n\nborder = {bad}\n"));
            assert_eq!(err.line, 3, "{bad}");
            assert!(
                err.message.contains("`border` is not a colour"),
                "{bad}: {err:?}"
            );
        }

        let err = mistake("[theme]\nselected = \"blue\"\n");
        assert_eq!(err.line, 2);
        assert!(err.message.contains("unknown role `selected`"), "{err:?}");
        assert!(err.message.contains("selection"), "{err:?}");

        let err = mistake("theme = 3");
        assert!(err.message.contains("\"dark\" or \"light\""), "{err:?}");
    }

    #[test]
    fn every_mistake_is_reported_not_only_the_first() {
        let problems =
            read_text("[theme]\nborder = \"bluish\"\nkey = \"blue\"\nerror = 300\n").unwrap_err();
        let lines: Vec<_> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 4], "{problems:?}");
        assert!(problems[1].message.contains("`error` is not a colour"));
    }

    #[test]
    fn colours_are_described_as_they_are_written() {
        assert_eq!(describe_colour(Color::Rgb(1, 2, 255)), "#0102ff");
        assert_eq!(describe_colour(Color::Indexed(42)), "42");
        assert_eq!(describe_colour(Color::LightBlue), "lightblue");
    }
}
