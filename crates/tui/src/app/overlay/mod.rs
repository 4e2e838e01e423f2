//! Popups drawn over the panes: the `?` help, the `:` command line, the type picker, the
//! details of the last error, and the question `q` asks before losing a draft. Each owns its
//! own small state; `update.rs` handles their keys.

pub(crate) mod command_line;
mod update;
pub(crate) mod value;

use crate::app::action::Move;
use crossterm::event::KeyCode;

use super::Action;
use super::keymap::{
    ANYWHERE, Binding, EffectiveTable, Focus, INPUT_MOVES, InputMode, Key, KeyTable, Keymap,
    LINE_INPUT, bind,
};
use ratatui::layout::Rect;

use super::layout;
use super::widgets::{LineInput, ListCursor};
use crate::api::ApiError;
use crate::sanitize;
use unicode_width::UnicodeWidthStr;

#[derive(Clone, Debug)]
pub enum Overlay {
    Help(Help),
    CommandLine(CommandLine),
    TypePicker(TypePicker),
    Error(ErrorPopup),
    Value(value::ValuePopup),
    Quit(QuitAsk),
}

impl Overlay {
    pub(crate) fn focus(&self, keymap: &Keymap) -> Focus {
        match self {
            Overlay::CommandLine(_) => keymap.focus(&LINE_INPUT, InputMode::Line),
            // Typing filters the keys; nothing to confirm: its own table, so the footer says
            // `Esc close`, not the generic input's `Enter confirm  Esc cancel`.
            Overlay::Help(_) => Focus {
                keys: keymap.table(&HELP_FILTER_KEYS),
                mode: InputMode::Line,
            },
            // Typing narrows the types: arrows move, Enter chooses, Esc closes. Its own table
            // (not the generic input's), so that the footer and the help name its keys.
            Overlay::TypePicker(_) => Focus {
                keys: keymap.table(&PICKER_KEYS),
                mode: InputMode::Line,
            },
            Overlay::Error(_) => keymap.focus(&POPUP_KEYS, InputMode::None),
            Overlay::Value(_) => keymap.focus(&value::VALUE_KEYS, InputMode::None),
            Overlay::Quit(_) => keymap.focus(&QUIT_KEYS, InputMode::None),
        }
    }
}

/// The help takes typing (it filters the keys), so only keys that are not text are bound: it
/// has nothing to confirm, so `Enter` and `Esc` both close it, and the arrows scroll.
static HELP_FILTER: [Binding; 2] = [
    bind(
        "cancel",
        &[Key::Code(KeyCode::Esc)],
        "close the help",
        || Action::Back,
        "close",
    ),
    bind(
        "confirm",
        &[Key::Code(KeyCode::Enter)],
        "close the help",
        || Action::Submit,
        "",
    ),
];

/// The help's keys while the user types to filter it.
pub(crate) static HELP_FILTER_KEYS: KeyTable = KeyTable {
    id: "help_filter",
    name: "help",
    own: &HELP_FILTER,
    shared: &[&INPUT_MOVES, &ANYWHERE],
};

/// The picker takes typing (it narrows the types), so only keys that are not text are bound.
static PICKER: [Binding; 6] = [
    bind(
        "confirm",
        &[Key::Code(KeyCode::Enter)],
        "list the type under the cursor",
        || Action::Submit,
        "choose",
    ),
    bind(
        "cancel",
        &[Key::Code(KeyCode::Esc)],
        "close, keeping the list as it is",
        || Action::Back,
        "close",
    ),
    bind(
        "input_down",
        &[Key::Code(KeyCode::Down)],
        "next type",
        || Action::Move(Move::Down),
        "",
    ),
    bind(
        "input_up",
        &[Key::Code(KeyCode::Up)],
        "previous type",
        || Action::Move(Move::Up),
        "",
    ),
    bind(
        "input_page_down",
        &[Key::Code(KeyCode::PageDown)],
        "page down",
        || Action::Move(Move::PageDown),
        "",
    ),
    bind(
        "input_page_up",
        &[Key::Code(KeyCode::PageUp)],
        "page up",
        || Action::Move(Move::PageUp),
        "",
    ),
];

/// The type picker's keys while the user types to narrow it.
pub(crate) static PICKER_KEYS: KeyTable = KeyTable {
    id: "type_picker",
    name: "type picker",
    own: &PICKER,
    shared: &[&ANYWHERE],
};

static POPUP: [Binding; 3] = [
    bind(
        "back",
        &[
            Key::Code(KeyCode::Esc),
            Key::Code(KeyCode::Enter),
            Key::Char('q'),
        ],
        "close",
        || Action::Back,
        "close",
    )
    .shown_as("Esc"),
    bind(
        "down",
        &[Key::Char('j'), Key::Code(KeyCode::Down)],
        "scroll down",
        || Action::Move(Move::Down),
        "",
    ),
    bind(
        "up",
        &[Key::Char('k'), Key::Code(KeyCode::Up)],
        "scroll up",
        || Action::Move(Move::Up),
        "",
    ),
];

pub(crate) static POPUP_KEYS: KeyTable = KeyTable {
    id: "error_popup",
    name: "popup",
    own: &POPUP,
    shared: &[&ANYWHERE],
};

/// `q` with a draft the store did not take: quit all the same (the text kept in a file), or
/// stay. Quitting is the `quit` action, so that a remapped quit key answers it too.
static QUIT_ASK: [Binding; 2] = [
    bind(
        "quit",
        &[Key::Char('q')],
        "quit all the same, keeping the text in a file",
        || Action::Quit,
        "quit, keep the text in a file",
    ),
    bind(
        "back",
        &[Key::Code(KeyCode::Esc)],
        "stay",
        || Action::Back,
        "stay",
    ),
];

pub(crate) static QUIT_KEYS: KeyTable = KeyTable {
    id: "quit_popup",
    name: "quit?",
    own: &QUIT_ASK,
    shared: &[&ANYWHERE],
};

/// The question `q` asks when quitting would lose what the store did not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuitAsk {
    /// What would be lost, top screen first.
    pub unsaved: Vec<super::pane::UnsavedWork>,
}

/// The keys of the pane that was focused when `?` was pressed, then the `:` commands and what
/// the mouse does, narrowed as the user types and scrolled with the arrows and PgUp/PgDn.
#[derive(Clone, Debug)]
pub struct Help {
    /// The keys in effect there (remaps included).
    pub keys: std::sync::Arc<EffectiveTable>,
    pub filter: LineInput,
    /// The first line in view.
    pub scroll: usize,
}

/// One line of the help: a key (or command, or mouse gesture) and what it does; a line with an
/// empty label is a section heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HelpLine {
    pub label: String,
    pub text: &'static str,
}

/// What the mouse does, for the help.
const MOUSE: [(&str, &str); 3] = [
    ("wheel", "scroll the list or pane under the pointer"),
    ("click", "select a row or a pane"),
    ("click again", "open the selected row"),
];

/// The help popup is as wide as its widest line, so that no description is cut where the screen
/// has room, and never narrower than this; as high as its lines (plus border and filter line).
const HELP_MIN_WIDTH: u16 = 64;
const HELP_CHROME: u16 = 3;
/// The key column: two spaces, then the key padded to 12.
pub(crate) const HELP_LABEL_WIDTH: usize = 14;

impl Help {
    pub(crate) fn new(keys: std::sync::Arc<EffectiveTable>) -> Self {
        Help {
            keys,
            filter: LineInput::new(),
            scroll: 0,
        }
    }

    /// The bindings that match the filter (on the keys or on what they do).
    #[cfg(test)]
    pub(crate) fn entries(&self) -> Vec<&super::keymap::EffectiveBinding> {
        let needle = self.filter.text().to_lowercase();
        self.keys
            .bindings()
            .filter(|b| matches(&needle, &b.label, b.help))
            .collect()
    }

    /// Every line of the help that matches the filter: keys, then commands, then the mouse.
    pub(crate) fn lines(&self) -> Vec<HelpLine> {
        self.lines_matching(&self.filter.text().to_lowercase())
    }

    /// How wide the help's widest line is (filtered or not: the popup keeps its width as the
    /// filter is typed), border included.
    fn width(&self) -> u16 {
        let widest = (self.lines_matching("").iter())
            .map(|line| {
                let label = match line.label.is_empty() {
                    true => 0,
                    false => HELP_LABEL_WIDTH.max(line.label.width() + 2),
                };
                label + line.text.width()
            })
            .max()
            .unwrap_or(0);
        u16::try_from(widest + 2).unwrap_or(u16::MAX)
    }

    fn lines_matching(&self, needle: &str) -> Vec<HelpLine> {
        let mut lines: Vec<HelpLine> = (self.keys.bindings())
            .filter(|b| matches(needle, &b.label, b.help))
            .map(|b| HelpLine {
                label: b.label.clone().into_owned(),
                text: b.help,
            })
            .collect();
        let sections: [(&'static str, Vec<HelpLine>); 2] = [
            (
                "── : commands (Tab completes, ↑/↓ recall)",
                command_line::COMMANDS
                    .iter()
                    .filter(|(c, what)| matches(needle, c, what))
                    .map(|(c, what)| HelpLine {
                        label: format!(":{c}"),
                        text: what,
                    })
                    .collect(),
            ),
            (
                "── mouse",
                MOUSE
                    .iter()
                    .filter(|(g, what)| matches(needle, g, what))
                    .map(|(g, what)| HelpLine {
                        label: (*g).to_owned(),
                        text: what,
                    })
                    .collect(),
            ),
        ];
        for (heading, section) in sections {
            if !section.is_empty() {
                lines.push(HelpLine {
                    label: String::new(),
                    text: heading,
                });
                lines.extend(section);
            }
        }
        lines
    }

    /// Where the popup goes in `body`.
    pub(crate) fn popup(&self, body: Rect) -> Rect {
        let height = u16::try_from(self.lines().len())
            .unwrap_or(u16::MAX)
            .saturating_add(HELP_CHROME)
            .max(6);
        layout::centered(body, self.width().max(HELP_MIN_WIDTH), height)
    }

    /// How many help lines fit in the popup drawn in `body` (below the filter line).
    pub(crate) fn rows_in_view(&self, body: Rect) -> usize {
        usize::from(self.popup(body).height.saturating_sub(HELP_CHROME))
    }

    /// Scrolls by `delta` lines, never past the last screenful.
    pub(crate) fn scroll_by(&mut self, delta: isize, body: Rect) {
        let len = self.lines().len();
        let last_top = len.saturating_sub(self.rows_in_view(body));
        self.scroll = self.scroll.saturating_add_signed(delta).min(last_top);
    }
}

fn matches(needle: &str, label: &str, help: &str) -> bool {
    needle.is_empty()
        || label.to_lowercase().contains(needle)
        || help.to_lowercase().contains(needle)
}

#[derive(Clone, Debug, Default)]
pub struct CommandLine {
    pub input: LineInput,
    /// What Tab found, shown above the line; Tab again cycles through them.
    pub candidates: Vec<String>,
    /// Which earlier command Up/Down brought back (an index into the app's history).
    pub recalled: Option<usize>,
}

/// Choosing a type filter among the types seen so far, narrowed as the user types.
#[derive(Clone, Debug)]
pub struct TypePicker {
    /// "All types" first, then every type seen.
    pub options: Vec<TypeOption>,
    /// The type listed now (`None`: all types), marked in the list.
    pub current: Option<String>,
    pub filter: LineInput,
    /// The options that match the filter, as indexes into `options`.
    pub visible: Vec<usize>,
    pub cursor: ListCursor,
}

/// One line of the type picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeOption {
    /// `None` is "all types".
    pub name: Option<String>,
    /// Loaded rows of the type; `None` when the current listing cannot tell (it holds another
    /// type only).
    pub count: Option<usize>,
}

impl TypePicker {
    /// "All types", then `types` with their counts, with the cursor on `current`.
    pub(crate) fn new(
        all: Option<usize>,
        types: impl Iterator<Item = (String, Option<usize>)>,
        current: Option<&String>,
    ) -> Self {
        let options: Vec<TypeOption> = std::iter::once(TypeOption {
            name: None,
            count: all,
        })
        .chain(types.map(|(name, count)| TypeOption {
            name: Some(name),
            count,
        }))
        .collect();
        let mut picker = TypePicker {
            visible: (0..options.len()).collect(),
            options,
            current: current.cloned(),
            filter: LineInput::new(),
            cursor: ListCursor::default(),
        };
        let index = picker
            .options
            .iter()
            .position(|o| o.name.as_ref() == current)
            .unwrap_or(0);
        let len = picker.visible.len();
        picker.cursor.select(index, len, len);
        picker
    }

    /// Recomputes the options that match the filter; the cursor stays on its option when that
    /// still matches, else goes to the first.
    pub(crate) fn refilter(&mut self) {
        let before = self.chosen_index();
        let needle = self.filter.text().to_lowercase();
        self.visible = self
            .options
            .iter()
            .enumerate()
            .filter(|(_, o)| needle.is_empty() || o.label().to_lowercase().contains(&needle))
            .map(|(i, _)| i)
            .collect();
        let at = before
            .and_then(|b| self.visible.iter().position(|&i| i == b))
            .unwrap_or(0);
        self.cursor = ListCursor::default();
        let len = self.visible.len();
        self.cursor.select(at, len, len);
    }

    fn chosen_index(&self) -> Option<usize> {
        self.visible.get(self.cursor.selected).copied()
    }

    /// The option under the cursor, if any matches the filter.
    pub(crate) fn chosen(&self) -> Option<&TypeOption> {
        self.options.get(self.chosen_index()?)
    }
}

impl TypeOption {
    /// What the picker shows and the filter matches.
    pub(crate) fn label(&self) -> &str {
        self.name.as_deref().unwrap_or("(all types)")
    }
}

/// The last error in full, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// What appdeck was doing ("loading resources").
    pub doing: String,
    pub message: String,
    pub hint: Option<String>,
    /// The exchange that failed, when the service answered with an error status.
    pub exchange: Option<FailedExchange>,
}

/// A request the service refused, as `!` shows it: never the token (it travels in a header that
/// is not kept), the URL with any credentials masked, the answer's start neutralised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedExchange {
    /// `POST https://host/api/v1/resources.list`
    pub request: String,
    /// `500 Internal Server Error`
    pub status: String,
    /// The first characters of the answer's body; empty for no body.
    pub body_start: String,
}

impl ErrorReport {
    /// The message is neutralised: it may quote the server.
    pub(crate) fn new(doing: &str, message: &str, hint: Option<String>) -> Self {
        ErrorReport {
            doing: doing.to_owned(),
            message: sanitize::line(message).into_owned(),
            hint,
            exchange: None,
        }
    }

    /// An API error, with the request and the answer's start when the service answered.
    pub(crate) fn of_api_error(doing: &str, error: &ApiError) -> Self {
        let mut report =
            ErrorReport::new(doing, &error.to_string(), error.hint().map(str::to_owned));
        if let ApiError::Http {
            status,
            reason,
            request,
            ..
        } = error
        {
            report.exchange = Some(FailedExchange {
                request: sanitize::line(&format!("{} {}", request.method, request.url))
                    .into_owned(),
                status: sanitize::line(format!("{status} {reason}").trim_end()).into_owned(),
                body_start: sanitize::line(&request.body_start).into_owned(),
            });
        }
        report
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
        let mut help = Help::new(Keymap::default().table(&BROWSER_KEYS));
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

    /// Issue 9: the picker's footer named the generic input's keys ("confirm", "cancel").
    #[test]
    fn the_type_picker_shows_and_takes_its_own_keys_while_typing() {
        use crate::app::keymap::action_for;
        use crossterm::event::{KeyEvent, KeyModifiers};
        let picker = TypePicker::new(None, std::iter::empty(), None);
        let focus = Overlay::TypePicker(picker).focus(&Keymap::default());
        assert_eq!(focus.keys.name, "type picker");
        let footer: Vec<&str> = focus
            .keys
            .bindings()
            .filter(|b| !b.footer.is_empty())
            .map(|b| b.footer)
            .collect();
        assert_eq!(footer, ["choose", "close"]);
        let press = |c| action_for(focus.clone(), KeyEvent::new(c, KeyModifiers::NONE));
        // Letters narrow the list, even those that are commands elsewhere.
        for c in ['q', 'j', 'g', 'G', '?'] {
            assert!(
                matches!(press(KeyCode::Char(c)), Some(Action::Edit(_))),
                "{c}"
            );
        }
        assert!(matches!(press(KeyCode::Enter), Some(Action::Submit)));
        assert!(matches!(press(KeyCode::Esc), Some(Action::Back)));
        assert!(matches!(
            press(KeyCode::Down),
            Some(Action::Move(Move::Down))
        ));
    }

    #[test]
    fn popup_tables_are_well_formed() {
        assert_well_formed(&POPUP_KEYS);
        assert_well_formed(&QUIT_KEYS);
    }
}
