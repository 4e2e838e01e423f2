//! Which key does what, per context. One table serves the dispatch, the `?` help and the footer,
//! so the keys a user is shown are always the keys that work.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::Action;

/// Where the keyboard goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Browser,
    Detail,
    /// A one-line input has focus (filter, search, command line, help filter).
    TextInput,
    Picker,
    Popup,
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

/// One line of the keymap.
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

const fn bind(
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

static MOVE: [Binding; 6] = [
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

static GLOBAL: [Binding; 5] = [
    bind(
        &[Char('?')],
        "?",
        "show the keys of this pane",
        || Action::Help,
        "help",
    ),
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
    bind(&[Char('q')], "q", "quit", || Action::Quit, "quit"),
    bind(&[Ctrl('c')], "^c", "quit", || Action::ForceQuit, ""),
];

static BROWSER: [Binding; 8] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "open the resource",
        || Action::Open,
        "open",
    ),
    bind(
        &[Char('/')],
        "/",
        "filter the loaded rows",
        || Action::Search,
        "filter",
    ),
    bind(
        &[Char('t')],
        "t",
        "pick a type filter",
        || Action::TypePicker,
        "type",
    ),
    bind(
        &[Char('r')],
        "r",
        "retry a failed load, else reload",
        || Action::Refresh,
        "reload",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "cancel a load or an opening / clear the filter",
        || Action::Back,
        "",
    ),
    bind(
        &[Char('o')],
        "o",
        "open external_url in the browser",
        || Action::OpenLink,
        "",
    ),
    bind(
        &[Char('y')],
        "y",
        "copy the resource id",
        || Action::Copy,
        "",
    ),
    bind(
        &[Char('l'), Code(KeyCode::Right)],
        "l/→",
        "open the resource",
        || Action::Open,
        "",
    ),
];

static DETAIL: [Binding; 11] = [
    bind(
        &[Code(KeyCode::Tab)],
        "Tab",
        "next pane",
        || Action::NextPane,
        "pane",
    ),
    bind(
        &[Code(KeyCode::BackTab)],
        "S-Tab",
        "previous pane",
        || Action::PrevPane,
        "",
    ),
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "expand / collapse a node",
        || Action::Open,
        "",
    ),
    bind(
        &[Char('l'), Code(KeyCode::Right)],
        "l/→",
        "expand a node",
        || Action::Right,
        "",
    ),
    bind(
        &[Char('h'), Code(KeyCode::Left)],
        "h/←",
        "collapse a node / go to its parent",
        || Action::Left,
        "",
    ),
    bind(
        &[Char('/')],
        "/",
        "search this pane",
        || Action::Search,
        "search",
    ),
    bind(&[Char('n')], "n", "next match", || Action::NextMatch, ""),
    bind(
        &[Char('N')],
        "N",
        "previous match",
        || Action::PrevMatch,
        "",
    ),
    bind(
        &[Char('o')],
        "o",
        "open the link under the cursor",
        || Action::OpenLink,
        "open link",
    ),
    bind(
        &[Char('y')],
        "y",
        "copy the link or value under the cursor",
        || Action::Copy,
        "copy",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to the list",
        || Action::Back,
        "back",
    ),
];

/// The picker's own keys; it moves with `MOVE`'s j/k and g/G.
static PICKER: [Binding; 2] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "choose",
        || Action::Open,
        "choose",
    ),
    bind(
        &[Code(KeyCode::Esc), Char('q')],
        "Esc",
        "close",
        || Action::Back,
        "close",
    ),
];

static POPUP: [Binding; 3] = [
    bind(
        &[Code(KeyCode::Esc), Code(KeyCode::Enter), Char('q')],
        "Esc",
        "close",
        || Action::Back,
        "close",
    ),
    bind(
        &[Char('j'), Code(KeyCode::Down)],
        "j/↓",
        "scroll down",
        || Action::Down,
        "",
    ),
    bind(
        &[Char('k'), Code(KeyCode::Up)],
        "k/↑",
        "scroll up",
        || Action::Up,
        "",
    ),
];

static TEXT_INPUT: [Binding; 6] = [
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
    bind(&[Ctrl('c')], "^c", "quit", || Action::ForceQuit, ""),
];

/// The bindings of a context, most specific first.
pub fn bindings(context: Context) -> Vec<&'static Binding> {
    let groups: &[&'static [Binding]] = match context {
        Context::Browser => &[&BROWSER, &MOVE, &GLOBAL],
        Context::Detail => &[&DETAIL, &MOVE, &GLOBAL],
        Context::TextInput => &[&TEXT_INPUT],
        Context::Picker => &[&PICKER, &MOVE[..2], &MOVE[4..], &GLOBAL[4..]],
        Context::Popup => &[&POPUP, &GLOBAL[4..]],
    };
    groups.iter().flat_map(|g| g.iter()).collect()
}

/// The action a key press means in `context`. Keys that mean nothing there give `None`; in a text
/// input every other key edits the text.
pub fn action_for(context: Context, event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    if let Some(binding) = bindings(context)
        .into_iter()
        .find(|b| b.keys.iter().any(|k| k.matches(&event)))
    {
        return Some((binding.action)());
    }
    (context == Context::TextInput).then(|| Action::Edit(event.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn browser_keys() {
        assert!(matches!(
            action_for(Context::Browser, press(KeyCode::Char('j'))),
            Some(Action::Down)
        ));
        assert!(matches!(
            action_for(Context::Browser, press(KeyCode::Char('q'))),
            Some(Action::Quit)
        ));
        assert!(action_for(Context::Browser, press(KeyCode::Char('z'))).is_none());
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(matches!(
            action_for(Context::Browser, ctrl_c),
            Some(Action::ForceQuit)
        ));
    }

    #[test]
    fn text_input_takes_letters_that_are_commands_elsewhere() {
        assert!(matches!(
            action_for(Context::TextInput, press(KeyCode::Char('q'))),
            Some(Action::Edit(_))
        ));
        assert!(matches!(
            action_for(Context::TextInput, press(KeyCode::Enter)),
            Some(Action::Submit)
        ));
    }

    #[test]
    fn every_context_has_footer_keys_and_no_key_is_bound_twice() {
        for context in [
            Context::Browser,
            Context::Detail,
            Context::TextInput,
            Context::Picker,
            Context::Popup,
        ] {
            let all = bindings(context);
            assert!(all.iter().any(|b| !b.footer.is_empty()), "{context:?}");
            let mut keys: Vec<Key> = all.iter().flat_map(|b| b.keys.iter().copied()).collect();
            let before = keys.len();
            keys.dedup();
            keys.sort_by_key(|k| format!("{k:?}"));
            keys.dedup();
            assert_eq!(before, keys.len(), "{context:?} binds a key twice");
        }
    }
}
