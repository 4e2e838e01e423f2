//! How keys are written: in `config.toml` and `appdeck keys` (`x`, `G`, `Enter`, `PgDn`,
//! `ctrl-f`), and in the help and the footer (`x`, `↓`, `PgDn`, `^f`). One syntax, documented in
//! the README: a single character as it is typed (case matters: `G` is shift-g), or a name
//! (case does not matter), or `ctrl-` and a letter.

use crossterm::event::KeyCode;

use super::Key;

/// The named keys, as the config file writes them (compared without regard to case).
const NAMES: [(&str, KeyCode); 15] = [
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("BackTab", KeyCode::BackTab),
    ("Backspace", KeyCode::Backspace),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("PgUp", KeyCode::PageUp),
    ("PgDn", KeyCode::PageDown),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
];

/// The function keys the syntax takes (`F1`..`F12`).
const FUNCTION_KEYS: u8 = 12;

/// The prefix of a control key (`ctrl-f`).
const CTRL: &str = "ctrl-";

/// What the config's error says a key may be.
pub(crate) const HOW_TO_WRITE_A_KEY: &str = "a key is one character as typed (`x`, `G`, `?`), \
     a name (Enter, Esc, Tab, BackTab, Space, Backspace, Delete, Insert, Up, Down, Left, Right, \
     PgUp, PgDn, Home, End, F1 to F12; any case), or ctrl- and a letter (`ctrl-f`)";

/// Reads a key as the config file writes it; `None` when it is not one.
pub(crate) fn parse(text: &str) -> Option<Key> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        // A character the sanitiser would change (a control, a bidirectional override) is no
        // key: it could not be shown as it is in the help.
        let printable = matches!(crate::sanitize::line(text), std::borrow::Cow::Borrowed(_));
        return (printable && !c.is_control()).then_some(Key::Char(c));
    }
    if text.eq_ignore_ascii_case("space") {
        return Some(Key::Char(' '));
    }
    if let Some((_, code)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(text)) {
        return Some(Key::Code(*code));
    }
    if let Some(rest) = text.strip_prefix(['f', 'F'])
        && let Ok(n) = rest.parse::<u8>()
        && (1..=FUNCTION_KEYS).contains(&n)
        && !rest.starts_with(['+', '0'])
    {
        return Some(Key::Code(KeyCode::F(n)));
    }
    let prefix = text.get(..CTRL.len())?;
    if !prefix.eq_ignore_ascii_case(CTRL) {
        return None;
    }
    let mut rest = text[CTRL.len()..].chars();
    match (rest.next(), rest.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(Key::Ctrl(c.to_ascii_lowercase())),
        _ => None,
    }
}

/// A key as the config file writes it: `parse(&written(k)) == Some(k)`.
pub fn written(key: Key) -> String {
    match key {
        Key::Char(' ') => "Space".to_owned(),
        Key::Char(c) => c.to_string(),
        Key::Ctrl(c) => format!("{CTRL}{c}"),
        Key::Code(KeyCode::F(n)) => format!("F{n}"),
        Key::Code(code) => NAMES
            .iter()
            .find(|(_, c)| *c == code)
            .map_or_else(|| format!("{code:?}"), |(n, _)| (*n).to_owned()),
    }
}

/// A key as the help and the footer show it: short, with arrows for the arrow keys.
pub(crate) fn shown(key: Key) -> String {
    match key {
        Key::Ctrl(c) => format!("^{c}"),
        Key::Code(KeyCode::Up) => "↑".to_owned(),
        Key::Code(KeyCode::Down) => "↓".to_owned(),
        Key::Code(KeyCode::Left) => "←".to_owned(),
        Key::Code(KeyCode::Right) => "→".to_owned(),
        Key::Code(KeyCode::BackTab) => "S-Tab".to_owned(),
        other => written(other),
    }
}

/// The help's label for a list of keys: `l/→`.
pub(crate) fn label(keys: &[Key]) -> String {
    keys.iter().map(|k| shown(*k)).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_names_any_case_and_ctrl() {
        assert_eq!(parse("x"), Some(Key::Char('x')));
        assert_eq!(parse("G"), Some(Key::Char('G')));
        assert_eq!(parse("?"), Some(Key::Char('?')));
        assert_eq!(parse("space"), Some(Key::Char(' ')));
        assert_eq!(parse("ENTER"), Some(Key::Code(KeyCode::Enter)));
        assert_eq!(parse("pgdn"), Some(Key::Code(KeyCode::PageDown)));
        assert_eq!(parse("f5"), Some(Key::Code(KeyCode::F(5))));
        assert_eq!(parse("F12"), Some(Key::Code(KeyCode::F(12))));
        assert_eq!(parse("Ctrl-F"), Some(Key::Ctrl('f')));
        assert_eq!(parse("ctrl-x"), Some(Key::Ctrl('x')));
    }

    #[test]
    fn what_is_not_a_key() {
        for text in [
            "", "xy", "F0", "F13", "F01", "ctrl-", "ctrl-ab", "ctrl-1", "C-x", "\t", "Entr",
            "\u{202e}",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn written_keys_read_back() {
        let keys = [
            Key::Char('x'),
            Key::Char(' '),
            Key::Ctrl('u'),
            Key::Code(KeyCode::F(3)),
            Key::Code(KeyCode::BackTab),
            Key::Code(KeyCode::PageUp),
        ];
        for key in keys {
            assert_eq!(parse(&written(key)), Some(key), "{key:?}");
        }
        assert_eq!(label(&[Key::Char('j'), Key::Code(KeyCode::Down)]), "j/↓");
    }
}
