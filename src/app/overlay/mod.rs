//! Popups drawn over the panes: the `?` help, the `:` command line, the type picker, and the
//! details of the last error. Each owns its own small state; `update.rs` handles their keys.

pub mod command_line;
mod update;

use crossterm::event::KeyCode;

use super::Action;
use super::keymap::{
    Binding, FORCE_QUIT, Focus, InputMode, Key, KeyTable, LINE_INPUT, MOVE_ENDS, MOVE_LINES, bind,
};
use super::widgets::{LineInput, ListCursor};
use crate::sanitize;

#[derive(Clone, Debug)]
pub enum Overlay {
    Help(Help),
    CommandLine(CommandLine),
    TypePicker(TypePicker),
    Error(ErrorPopup),
}

impl Overlay {
    pub fn focus(&self) -> Focus {
        match self {
            Overlay::Help(_) | Overlay::CommandLine(_) => Focus::new(&LINE_INPUT, InputMode::Line),
            Overlay::TypePicker(_) => Focus::new(&PICKER_KEYS, InputMode::None),
            Overlay::Error(_) => Focus::new(&POPUP_KEYS, InputMode::None),
        }
    }
}

static PICKER: [Binding; 2] = [
    bind(
        &[Key::Code(KeyCode::Enter)],
        "Enter",
        "choose",
        || Action::Open,
        "choose",
    ),
    bind(
        &[Key::Code(KeyCode::Esc), Key::Char('q')],
        "Esc",
        "close",
        || Action::Back,
        "close",
    ),
];

/// A picker moves with j/k and g/G.
pub static PICKER_KEYS: KeyTable = KeyTable {
    name: "picker",
    own: &PICKER,
    shared: &[&MOVE_LINES, &MOVE_ENDS, &FORCE_QUIT],
};

static POPUP: [Binding; 3] = [
    bind(
        &[
            Key::Code(KeyCode::Esc),
            Key::Code(KeyCode::Enter),
            Key::Char('q'),
        ],
        "Esc",
        "close",
        || Action::Back,
        "close",
    ),
    bind(
        &[Key::Char('j'), Key::Code(KeyCode::Down)],
        "j/↓",
        "scroll down",
        || Action::Down,
        "",
    ),
    bind(
        &[Key::Char('k'), Key::Code(KeyCode::Up)],
        "k/↑",
        "scroll up",
        || Action::Up,
        "",
    ),
];

pub static POPUP_KEYS: KeyTable = KeyTable {
    name: "popup",
    own: &POPUP,
    shared: &[&FORCE_QUIT],
};

/// The keys of the pane that was focused when `?` was pressed, narrowed as the user types.
#[derive(Clone, Debug)]
pub struct Help {
    pub keys: &'static KeyTable,
    pub filter: LineInput,
    pub cursor: ListCursor,
}

impl Help {
    pub fn new(keys: &'static KeyTable) -> Self {
        Help {
            keys,
            filter: LineInput::new(),
            cursor: ListCursor::default(),
        }
    }

    /// The bindings that match the filter (on the keys or on what they do).
    pub fn entries(&self) -> Vec<&'static Binding> {
        let needle = self.filter.text().to_lowercase();
        self.keys
            .bindings()
            .filter(|b| {
                needle.is_empty()
                    || b.label.to_lowercase().contains(&needle)
                    || b.help.to_lowercase().contains(&needle)
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default)]
pub struct CommandLine {
    pub input: LineInput,
    /// What Tab found, shown above the line.
    pub candidates: Vec<String>,
    pub error: Option<String>,
}

/// Choosing a type filter among the types seen so far; `None` is "all types".
#[derive(Clone, Debug)]
pub struct TypePicker {
    pub options: Vec<Option<String>>,
    pub cursor: ListCursor,
}

impl TypePicker {
    /// "All types", then `types`, with the cursor on `current`.
    pub fn new<'a>(types: impl Iterator<Item = &'a String>, current: Option<&String>) -> Self {
        let options: Vec<Option<String>> = std::iter::once(None)
            .chain(types.cloned().map(Some))
            .collect();
        let index = options
            .iter()
            .position(|o| o.as_ref() == current)
            .unwrap_or(0);
        let mut cursor = ListCursor::default();
        cursor.select(index, options.len(), options.len());
        TypePicker { options, cursor }
    }
}

/// The last error in full, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// What appdeck was doing ("loading resources").
    pub doing: String,
    pub message: String,
    pub hint: Option<String>,
}

impl ErrorReport {
    /// The message is neutralised: it may quote the server.
    pub fn new(doing: &str, message: &str, hint: Option<String>) -> Self {
        ErrorReport {
            doing: doing.to_owned(),
            message: sanitize::line(message).into_owned(),
            hint,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ErrorPopup {
    pub report: ErrorReport,
    pub scroll: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keymap::assert_well_formed;
    use crate::app::panes::browser::keys::BROWSER_KEYS;

    #[test]
    fn help_filters_on_keys_and_descriptions() {
        let mut help = Help::new(&BROWSER_KEYS);
        let all = help.entries().len();
        help.filter.set("type");
        let some = help.entries();
        assert!(some.len() < all);
        assert!(
            some.iter()
                .all(|b| b.help.contains("type") || b.label.contains("type"))
        );
        help.filter.set("zzzz");
        assert!(help.entries().is_empty());
    }

    #[test]
    fn popup_tables_are_well_formed() {
        assert_well_formed(&PICKER_KEYS);
        assert_well_formed(&POPUP_KEYS);
    }
}
