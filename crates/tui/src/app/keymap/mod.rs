//! Key and binding machinery, and the tables every pane shares (movement, global keys, text
//! input). Each pane keeps its default keys in its `keys.rs`, one `bind(...)` line per action;
//! at start those defaults and the config file's `[keys]` become one [`Keymap`], and the
//! dispatch, the `?` help and the footer all read it, so the keys a user is shown are always the
//! keys that work, remapped or not.
//!
//! Adding a key to a pane: one `bind("action_name", &[keys], "help", || Action::X, "footer")`
//! line in its table (the help spells its keys). Adding a table: give it an `id` (its name under
//! `[keys.ID]`) and list it in `registry.rs`.

mod effective;
pub(crate) mod registry;
pub(crate) mod syntax;

pub use effective::{ActionKeys, Keymap};
pub(crate) use effective::{EffectiveBinding, EffectiveTable};

use crate::app::View;
use crate::app::action::Move;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::Action;

/// Whether typing goes to a text input. Separate from focus (which pane has the keyboard): the
/// same pane may be browsing or typing, and an editor takes `Enter` and `Tab` as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// Keys are commands, looked up in the focused pane's table.
    None,
    /// A one-line input: `Enter` confirms, `Esc` cancels, `Tab` completes, the rest is text.
    Line,
    /// A field of a form (the report's task id, message, response type): as [`InputMode::Line`],
    /// but `Esc` leaves it with the text typed, so the keys say `done`, not `cancel`.
    Field,
    /// A multi-line editor: only `Esc` (leave) and `^c` (quit) are commands; `Enter`, `Tab` and
    /// every other key are text.
    Editor,
}

impl InputMode {
    /// The default table that applies in this mode to a pane whose own table is `keys`: while
    /// typing, the input's table replaces the pane's.
    pub(crate) fn table(self, keys: &'static KeyTable) -> &'static KeyTable {
        match self {
            InputMode::None => keys,
            InputMode::Line => &LINE_INPUT,
            InputMode::Field => &FIELD_INPUT,
            InputMode::Editor => &EDITOR,
        }
    }
}

/// What the keyboard talks to now: the effective keys (defaults and remaps) and the input mode.
#[derive(Clone, Debug)]
pub struct Focus {
    pub keys: Arc<EffectiveTable>,
    pub mode: InputMode,
}

impl Focus {
    pub(crate) fn is_typing(&self) -> bool {
        self.mode != InputMode::None
    }
}

/// The default keys of one pane or popup: its own, then the shared tables it takes.
#[derive(Debug)]
pub struct KeyTable {
    /// The name of the table under `[keys.ID]` in the config file and in `appdeck keys`
    /// (snake_case, stable).
    pub id: &'static str,
    /// What the help calls the place ("resource list").
    pub name: &'static str,
    pub own: &'static [Binding],
    pub shared: &'static [&'static [Binding]],
}

impl KeyTable {
    /// Every default binding, most specific first.
    pub(crate) fn bindings(&self) -> impl Iterator<Item = &'static Binding> + use<> {
        let (own, shared) = (self.own, self.shared);
        own.iter().chain(shared.iter().flat_map(|g| g.iter()))
    }
}

/// A key as the table spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Code(KeyCode),
}

impl Key {
    fn matches(self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        match self {
            Key::Char(c) => !ctrl && event.code == KeyCode::Char(c),
            Key::Ctrl(c) => ctrl && event.code == KeyCode::Char(c),
            Key::Code(code) => event.code == code,
        }
    }
}

/// One line of a default key table.
#[derive(Clone, Debug)]
pub struct Binding {
    /// The action's name in the config file, `appdeck keys` and the README (snake_case, stable;
    /// unique within a pane; the same name in two panes is the same idea, so that a top-level
    /// `[keys]` entry remaps it everywhere).
    pub name: &'static str,
    pub keys: &'static [Key],
    /// How the help spells the default keys when it leaves some out (`PgDn/^f` for PgDn, ^f and
    /// ^d); `None` spells each of them (`j/↓`), as a remap's keys are spelled.
    pub shown_as: Option<&'static str>,
    pub help: &'static str,
    /// Makes the action (a constructor, so the static tables hold no `Action` values).
    pub action: fn() -> Action,
    /// The word the footer shows for it; empty when the footer leaves it out (only the few keys
    /// that matter most here are there).
    pub footer: &'static str,
}

/// A binding whose help spells its keys (`syntax::label`): the label cannot drift from them.
pub(crate) const fn bind(
    name: &'static str,
    keys: &'static [Key],
    help: &'static str,
    action: fn() -> Action,
    footer: &'static str,
) -> Binding {
    let shown_as = None;
    Binding {
        name,
        keys,
        shown_as,
        help,
        action,
        footer,
    }
}

impl Binding {
    /// The help spells the default keys `label`, leaving some out (the short `Enter` of a key
    /// `l` and `→` also open).
    pub(crate) const fn shown_as(mut self, label: &'static str) -> Binding {
        self.shown_as = Some(label);
        self
    }

    /// How the help spells the default keys.
    pub(crate) fn label(&self) -> std::borrow::Cow<'static, str> {
        match self.shown_as {
            Some(label) => label.into(),
            None => syntax::label(self.keys).into(),
        }
    }
}

use Key::{Char, Code, Ctrl};

pub(crate) static MOVE_LINES: [Binding; 2] = [
    bind(
        "down",
        &[Char('j'), Code(KeyCode::Down)],
        "move down",
        || Action::Move(Move::Down),
        "",
    ),
    bind(
        "up",
        &[Char('k'), Code(KeyCode::Up)],
        "move up",
        || Action::Move(Move::Up),
        "",
    ),
];

pub(crate) static MOVE_PAGES: [Binding; 2] = [
    bind(
        "page_down",
        &[Code(KeyCode::PageDown), Ctrl('f'), Ctrl('d')],
        "page down",
        || Action::Move(Move::PageDown),
        "",
    )
    .shown_as("PgDn/^f"),
    bind(
        "page_up",
        &[Code(KeyCode::PageUp), Ctrl('b'), Ctrl('u')],
        "page up",
        || Action::Move(Move::PageUp),
        "",
    )
    .shown_as("PgUp/^b"),
];

pub(crate) static MOVE_ENDS: [Binding; 2] = [
    bind(
        "top",
        &[Char('g'), Code(KeyCode::Home)],
        "go to the top",
        || Action::Move(Move::Top),
        "",
    ),
    bind(
        "bottom",
        &[Char('G'), Code(KeyCode::End)],
        "go to the bottom",
        || Action::Move(Move::Bottom),
        "",
    ),
];

/// Keys that work on every pane (handled in `global.rs` when the pane passes them on). A key
/// that switches to another view (`2` types, `3` history) belongs here. `q` comes right after
/// `?`: the footer shows hints in this order while they fit, and quitting must stay visible.
pub(crate) static GLOBAL: [Binding; 9] = [
    bind(
        "help",
        &[Char('?')],
        "show the keys of this pane",
        || Action::Help,
        "help",
    ),
    bind("quit", &[Char('q')], "quit", || Action::Quit, "quit"),
    bind(
        "command_line",
        &[Char(':')],
        "command line (Tab completes)",
        || Action::CommandLine,
        "",
    ),
    bind(
        "show_error",
        &[Char('!')],
        "the last warning or error, whole",
        || Action::ShowError,
        "",
    ),
    bind(
        "show_resources",
        &[Char('1')],
        "the resource list",
        || Action::Show(View::Resources),
        "list",
    ),
    bind(
        "show_types",
        &[Char('2')],
        "the known resource types",
        || Action::Show(View::Types),
        "types",
    ),
    bind(
        "show_history",
        &[Char('3')],
        "the history of reports and connects sent",
        || Action::Show(View::History),
        "history",
    ),
    bind(
        "show_overview",
        &[Char('4')],
        "the loaded rows in charts, by type and status",
        || Action::Show(View::Overview),
        "overview",
    ),
    bind(
        "compose_connect",
        &[Char('C')],
        "compose a connect: an app version and its types",
        || Action::Connect,
        "",
    ),
];

/// Keys that work from anywhere, popups and inputs included: control keys, which no text takes.
pub(crate) static ANYWHERE: [Binding; 2] = [
    bind("force_quit", &[Ctrl('c')], "quit", || Action::ForceQuit, ""),
    bind(
        "suspend",
        &[Ctrl('z')],
        "suspend to the shell (fg brings appdeck back)",
        || Action::Suspend,
        "",
    ),
];

/// What a pane's table takes after its own keys.
pub(crate) static PANE_SHARED: [&[Binding]; 5] =
    [&MOVE_LINES, &MOVE_PAGES, &MOVE_ENDS, &GLOBAL, &ANYWHERE];

/// The input's keys have names of their own: a top-level remap of `down` must not take a letter
/// away from the text being typed.
static LINE_INPUT_KEYS: [Binding; 3] = [
    bind(
        "confirm",
        &[Code(KeyCode::Enter)],
        "confirm",
        || Action::Submit,
        "confirm",
    ),
    bind(
        "cancel",
        &[Code(KeyCode::Esc)],
        "cancel",
        || Action::Back,
        "cancel",
    ),
    bind(
        "complete",
        &[Code(KeyCode::Tab)],
        "complete",
        || Action::Complete,
        "",
    ),
];

/// The arrows and page keys of a one-line input, which move in what it narrows or scrolls (a
/// list of candidates, the help), named apart from the panes' own as [`LINE_INPUT_KEYS`] are.
pub(crate) static INPUT_MOVES: [Binding; 4] = [
    bind(
        "input_down",
        &[Code(KeyCode::Down)],
        "move down",
        || Action::Move(Move::Down),
        "",
    ),
    bind(
        "input_up",
        &[Code(KeyCode::Up)],
        "move up",
        || Action::Move(Move::Up),
        "",
    ),
    bind(
        "input_page_down",
        &[Code(KeyCode::PageDown)],
        "page down",
        || Action::Move(Move::PageDown),
        "",
    ),
    bind(
        "input_page_up",
        &[Code(KeyCode::PageUp)],
        "page up",
        || Action::Move(Move::PageUp),
        "",
    ),
];

/// A one-line input (filter, search, command line); every other key is text.
pub(crate) static LINE_INPUT: KeyTable = KeyTable {
    id: "line_input",
    name: "text input",
    own: &LINE_INPUT_KEYS,
    shared: &[&INPUT_MOVES, &ANYWHERE],
};

/// A form's field: the line input's keys, but `Enter` and `Esc` both leave it keeping the text.
static FIELD_INPUT_KEYS: [Binding; 3] = [
    bind(
        "field_done",
        &[Code(KeyCode::Enter), Code(KeyCode::Esc)],
        "done: leave the field, keeping what was typed",
        || Action::Submit,
        "done",
    ),
    bind(
        "field_down",
        &[Code(KeyCode::Down)],
        "done, and to the next field",
        || Action::Move(Move::Down),
        "",
    ),
    bind(
        "field_up",
        &[Code(KeyCode::Up)],
        "done, and to the previous field",
        || Action::Move(Move::Up),
        "",
    ),
];

/// A field of a form being typed into; every other key is text.
pub(crate) static FIELD_INPUT: KeyTable = KeyTable {
    id: "field_input",
    name: "field",
    own: &FIELD_INPUT_KEYS,
    shared: &[&ANYWHERE],
};

static EDITOR_KEYS: [Binding; 1] = [bind(
    "leave_editor",
    &[Code(KeyCode::Esc)],
    "leave the editor",
    || Action::Back,
    "leave",
)];

/// A multi-line editor: `Enter` and `Tab` are text there.
pub(crate) static EDITOR: KeyTable = KeyTable {
    id: "editor",
    name: "editor",
    own: &EDITOR_KEYS,
    shared: &[&ANYWHERE],
};

/// The action a key press means under `focus`. Keys that mean nothing there give `None`; in a
/// text input every other key edits the text.
pub fn action_for(focus: Focus, event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    if let Some(binding) = focus
        .keys
        .bindings()
        .find(|b| b.keys.iter().any(|k| k.matches(&event)))
    {
        return Some((binding.action)());
    }
    focus.is_typing().then(|| Action::Edit(event.into()))
}

/// Checks a table as every pane's tests should: it is listed in the registry (so that `[keys]`
/// reaches it), it has footer keys, no key is bound twice and no action name is used twice.
#[cfg(test)]
pub(crate) fn assert_well_formed(table: &'static KeyTable) {
    assert!(
        registry::TABLES.iter().any(|t| std::ptr::eq(*t, table)),
        "{} is not listed in keymap/registry.rs",
        table.id
    );
    assert!(
        table.bindings().any(|b| !b.footer.is_empty()),
        "{} has no footer key",
        table.name
    );
    let keys: Vec<Key> = table
        .bindings()
        .flat_map(|b| b.keys.iter().copied())
        .collect();
    let distinct: std::collections::HashSet<Key> = keys.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        keys.len(),
        "{} binds a key twice",
        table.name
    );
    let mut names: Vec<&str> = table.bindings().map(|b| b.name).collect();
    let before = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(before, names.len(), "{} names an action twice", table.name);
    for name in names {
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{name:?} in {} is not snake_case",
            table.id
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    static PLAIN: KeyTable = KeyTable {
        id: "plain",
        name: "plain",
        own: &[],
        shared: &PANE_SHARED,
    };

    fn focus(mode: InputMode) -> Focus {
        Keymap::default().focus(&PLAIN, mode)
    }

    /// The help spells a binding's keys from the keys themselves, so a label cannot name a key
    /// that does not work; one that leaves keys out spells its first keys, in their order.
    #[test]
    fn the_help_spells_the_keys_and_a_short_label_spells_the_first_of_them() {
        assert_eq!(MOVE_LINES[0].label(), "j/↓");
        assert_eq!(MOVE_PAGES[0].label(), "PgDn/^f");
        for table in super::registry::TABLES {
            for binding in table.bindings() {
                let every = syntax::label(binding.keys);
                let Some(short) = binding.shown_as else {
                    continue;
                };
                let (name, id) = (binding.name, table.id);
                assert!(
                    short != every,
                    "{id} {name}: `{short}` spells every key anyway"
                );
                assert!(
                    every.starts_with(&format!("{short}/")),
                    "{id} {name}: `{short}` is not the first of `{every}`"
                );
            }
        }
    }

    #[test]
    fn shared_keys_and_ctrl_c() {
        let focus = focus(InputMode::None);
        assert!(matches!(
            action_for(focus.clone(), press(KeyCode::Char('j'))),
            Some(Action::Move(Move::Down))
        ));
        assert!(matches!(
            action_for(focus.clone(), press(KeyCode::Char('q'))),
            Some(Action::Quit)
        ));
        assert!(action_for(focus.clone(), press(KeyCode::Char('z'))).is_none());
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(matches!(action_for(focus, ctrl_c), Some(Action::ForceQuit)));
    }

    #[test]
    fn a_line_input_takes_letters_that_are_commands_elsewhere() {
        let focus = focus(InputMode::Line);
        assert!(matches!(
            action_for(focus.clone(), press(KeyCode::Char('q'))),
            Some(Action::Edit(_))
        ));
        assert!(matches!(
            action_for(focus.clone(), press(KeyCode::Enter)),
            Some(Action::Submit)
        ));
        assert!(matches!(
            action_for(focus, press(KeyCode::Tab)),
            Some(Action::Complete)
        ));
    }

    #[test]
    fn an_editor_takes_enter_and_tab_as_text() {
        let focus = focus(InputMode::Editor);
        for code in [KeyCode::Enter, KeyCode::Tab, KeyCode::Char('q')] {
            assert!(
                matches!(
                    action_for(focus.clone(), press(code)),
                    Some(Action::Edit(_))
                ),
                "{code:?}"
            );
        }
        assert!(matches!(
            action_for(focus.clone(), press(KeyCode::Esc)),
            Some(Action::Back)
        ));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(matches!(action_for(focus, ctrl_c), Some(Action::ForceQuit)));
    }

    /// `^z` suspends wherever the focus is, typing included: raw mode took the terminal's own
    /// `^z` away, and no text input takes a control key as text.
    #[test]
    fn ctrl_z_suspends_from_anywhere_typing_included() {
        let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
        for mode in [
            InputMode::None,
            InputMode::Line,
            InputMode::Field,
            InputMode::Editor,
        ] {
            assert!(
                matches!(action_for(focus(mode), ctrl_z), Some(Action::Suspend)),
                "{mode:?}"
            );
        }
        // Every table, the popups' and pickers' included, which each list the shared keys
        // themselves: one that left them out would take ^z and ^c away there.
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        let keymap = Keymap::default();
        for table in registry::TABLES {
            let focus = Focus {
                keys: keymap.table(table),
                mode: InputMode::None,
            };
            let name = table.id;
            let suspend = action_for(focus.clone(), ctrl_z);
            assert!(matches!(suspend, Some(Action::Suspend)), "{name}");
            let quit = action_for(focus, ctrl_c);
            assert!(matches!(quit, Some(Action::ForceQuit)), "{name}");
        }
    }

    #[test]
    fn shared_tables_are_well_formed() {
        for table in [&LINE_INPUT, &EDITOR] {
            assert_well_formed(table);
        }
    }
}
