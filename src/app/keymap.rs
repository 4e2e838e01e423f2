//! Key and binding machinery, and the tables every pane shares (movement, global keys, text
//! input). Each pane keeps its own table in its `keys.rs`; one table serves the dispatch, the `?`
//! help and the footer, so the keys a user is shown are always the keys that work.

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
    /// A multi-line editor: only `Esc` (leave) and `^c` (quit) are commands; `Enter`, `Tab` and
    /// every other key are text.
    Editor,
}

/// What the keyboard talks to now: a key table and the input mode.
#[derive(Clone, Copy, Debug)]
pub struct Focus {
    pub keys: &'static KeyTable,
    pub mode: InputMode,
}

impl Focus {
    /// The focus of a pane or popup whose own keys are `keys`, in `mode`: while typing, the
    /// input's table applies instead.
    pub fn new(keys: &'static KeyTable, mode: InputMode) -> Self {
        let keys = match mode {
            InputMode::None => keys,
            InputMode::Line => &LINE_INPUT,
            InputMode::Editor => &EDITOR,
        };
        Focus { keys, mode }
    }

    pub fn is_typing(&self) -> bool {
        self.mode != InputMode::None
    }
}

/// The keys of one pane or popup: its own, then the shared tables it takes.
#[derive(Debug)]
pub struct KeyTable {
    /// What the help calls the place ("resource list").
    pub name: &'static str,
    pub own: &'static [Binding],
    pub shared: &'static [&'static [Binding]],
}

impl KeyTable {
    /// Every binding, most specific first.
    pub fn bindings(&self) -> impl Iterator<Item = &'static Binding> + use<> {
        let (own, shared) = (self.own, self.shared);
        own.iter().chain(shared.iter().flat_map(|g| g.iter()))
    }
}

/// A key as the table spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// One line of a key table.
#[derive(Clone, Debug)]
pub struct Binding {
    pub keys: &'static [Key],
    /// How the help spells the keys.
    pub label: &'static str,
    pub help: &'static str,
    /// Makes the action (a constructor, so the static tables hold no `Action` values).
    pub action: fn() -> Action,
    /// The word the footer shows for it; empty when the footer leaves it out (only the few keys
    /// that matter most here are there).
    pub footer: &'static str,
}

pub const fn bind(
    keys: &'static [Key],
    label: &'static str,
    help: &'static str,
    action: fn() -> Action,
    footer: &'static str,
) -> Binding {
    Binding {
        keys,
        label,
        help,
        action,
        footer,
    }
}

use Key::{Char, Code, Ctrl};

pub static MOVE_LINES: [Binding; 2] = [
    bind(
        &[Char('j'), Code(KeyCode::Down)],
        "j/↓",
        "move down",
        || Action::Down,
        "",
    ),
    bind(
        &[Char('k'), Code(KeyCode::Up)],
        "k/↑",
        "move up",
        || Action::Up,
        "",
    ),
];

pub static MOVE_PAGES: [Binding; 2] = [
    bind(
        &[Code(KeyCode::PageDown), Ctrl('f'), Ctrl('d')],
        "PgDn/^f",
        "page down",
        || Action::PageDown,
        "",
    ),
    bind(
        &[Code(KeyCode::PageUp), Ctrl('b'), Ctrl('u')],
        "PgUp/^b",
        "page up",
        || Action::PageUp,
        "",
    ),
];

pub static MOVE_ENDS: [Binding; 2] = [
    bind(
        &[Char('g'), Code(KeyCode::Home)],
        "g/Home",
        "go to the top",
        || Action::Top,
        "",
    ),
    bind(
        &[Char('G'), Code(KeyCode::End)],
        "G/End",
        "go to the bottom",
        || Action::Bottom,
        "",
    ),
];

/// Keys that work on every pane (handled in `global.rs` when the pane passes them on). A key
/// that switches to another view (`2` types, `3` history) belongs here. `q` comes right after
/// `?`: the footer shows hints in this order while they fit, and quitting must stay visible.
pub static GLOBAL: [Binding; 8] = [
    bind(
        &[Char('?')],
        "?",
        "show the keys of this pane",
        || Action::Help,
        "help",
    ),
    bind(&[Char('q')], "q", "quit", || Action::Quit, "quit"),
    bind(
        &[Char(':')],
        ":",
        "command line (Tab completes)",
        || Action::CommandLine,
        "",
    ),
    bind(
        &[Char('!')],
        "!",
        "details of the last error",
        || Action::ShowError,
        "",
    ),
    bind(
        &[Char('1')],
        "1",
        "the resource list",
        || Action::ShowResources,
        "list",
    ),
    bind(
        &[Char('2')],
        "2",
        "the known resource types",
        || Action::ShowTypes,
        "types",
    ),
    bind(
        &[Char('3')],
        "3",
        "the history of reports and connects sent",
        || Action::ShowHistory,
        "history",
    ),
    bind(
        &[Char('C')],
        "C",
        "compose a connect: an app version and its types",
        || Action::Connect,
        "",
    ),
];

/// Quits from anywhere, popups and inputs included.
pub static FORCE_QUIT: [Binding; 1] = [bind(&[Ctrl('c')], "^c", "quit", || Action::ForceQuit, "")];

/// What a pane's table takes after its own keys.
pub static PANE_SHARED: [&[Binding]; 5] =
    [&MOVE_LINES, &MOVE_PAGES, &MOVE_ENDS, &GLOBAL, &FORCE_QUIT];

static LINE_INPUT_KEYS: [Binding; 7] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "confirm",
        || Action::Submit,
        "confirm",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "cancel",
        || Action::Back,
        "cancel",
    ),
    bind(
        &[Code(KeyCode::Tab)],
        "Tab",
        "complete",
        || Action::Complete,
        "",
    ),
    bind(
        &[Code(KeyCode::Down)],
        "↓",
        "move down",
        || Action::Down,
        "",
    ),
    bind(&[Code(KeyCode::Up)], "↑", "move up", || Action::Up, ""),
    bind(
        &[Code(KeyCode::PageDown)],
        "PgDn",
        "page down",
        || Action::PageDown,
        "",
    ),
    bind(
        &[Code(KeyCode::PageUp)],
        "PgUp",
        "page up",
        || Action::PageUp,
        "",
    ),
];

/// A one-line input (filter, search, command line, help filter); every other key is text.
pub static LINE_INPUT: KeyTable = KeyTable {
    name: "text input",
    own: &LINE_INPUT_KEYS,
    shared: &[&FORCE_QUIT],
};

static EDITOR_KEYS: [Binding; 1] = [bind(
    &[Code(KeyCode::Esc)],
    "Esc",
    "leave the editor",
    || Action::Back,
    "leave",
)];

/// A multi-line editor: `Enter` and `Tab` are text there.
pub static EDITOR: KeyTable = KeyTable {
    name: "editor",
    own: &EDITOR_KEYS,
    shared: &[&FORCE_QUIT],
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

/// Checks a table as every pane's tests should: it has footer keys, and no key is bound twice.
#[cfg(test)]
pub fn assert_well_formed(table: &KeyTable) {
    assert!(
        table.bindings().any(|b| !b.footer.is_empty()),
        "{} has no footer key",
        table.name
    );
    let mut keys: Vec<String> = table
        .bindings()
        .flat_map(|b| b.keys.iter().map(|k| format!("{k:?}")))
        .collect();
    let before = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(before, keys.len(), "{} binds a key twice", table.name);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    static PLAIN: KeyTable = KeyTable {
        name: "plain",
        own: &[],
        shared: &PANE_SHARED,
    };

    #[test]
    fn shared_keys_and_ctrl_c() {
        let focus = Focus::new(&PLAIN, InputMode::None);
        assert!(matches!(
            action_for(focus, press(KeyCode::Char('j'))),
            Some(Action::Down)
        ));
        assert!(matches!(
            action_for(focus, press(KeyCode::Char('q'))),
            Some(Action::Quit)
        ));
        assert!(action_for(focus, press(KeyCode::Char('z'))).is_none());
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(matches!(action_for(focus, ctrl_c), Some(Action::ForceQuit)));
    }

    #[test]
    fn a_line_input_takes_letters_that_are_commands_elsewhere() {
        let focus = Focus::new(&PLAIN, InputMode::Line);
        assert!(matches!(
            action_for(focus, press(KeyCode::Char('q'))),
            Some(Action::Edit(_))
        ));
        assert!(matches!(
            action_for(focus, press(KeyCode::Enter)),
            Some(Action::Submit)
        ));
        assert!(matches!(
            action_for(focus, press(KeyCode::Tab)),
            Some(Action::Complete)
        ));
    }

    #[test]
    fn an_editor_takes_enter_and_tab_as_text() {
        let focus = Focus::new(&PLAIN, InputMode::Editor);
        for code in [KeyCode::Enter, KeyCode::Tab, KeyCode::Char('q')] {
            assert!(
                matches!(action_for(focus, press(code)), Some(Action::Edit(_))),
                "{code:?}"
            );
        }
        assert!(matches!(
            action_for(focus, press(KeyCode::Esc)),
            Some(Action::Back)
        ));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(matches!(action_for(focus, ctrl_c), Some(Action::ForceQuit)));
    }

    #[test]
    fn shared_tables_are_well_formed() {
        for table in [&LINE_INPUT, &EDITOR, &PLAIN] {
            assert_well_formed(table);
        }
    }
}
