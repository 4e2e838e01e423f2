//! Every mistake `[keys]` can hold is an error at start that names the file, the line and what
//! to fix; a valid `[keys]` reaches the keymap.

use super::settings::{UiSettings, ui_settings};
use crate::app::keymap::Key;
use crate::config::{ConfigError, ConfigText};
use crossterm::event::KeyCode;

fn settings(text: &str) -> Result<UiSettings, ConfigError> {
    ui_settings(Some(&ConfigText {
        path: "/home/me/.config/appdeck/config.toml".into(),
        text: text.to_owned(),
        shared: false,
    }))
}

/// The error as the user reads it: `path:line: message`.
fn error(text: &str) -> String {
    let error = settings(text).expect_err("a mistake in [keys]");
    assert!(matches!(error, ConfigError::Setting { .. }), "{error:?}");
    error.to_string()
}

fn keys_of(settings: &UiSettings, pane: &str, action: &str) -> Vec<Key> {
    let table = settings
        .keys
        .tables()
        .find(|t| t.id == pane)
        .expect("a registered pane");
    let binding = table
        .bindings()
        .find(|b| b.name == action)
        .expect("an action");
    binding.keys.clone()
}

#[test]
fn a_global_and_a_pane_entry_remap_their_action() {
    let settings = settings(
        "theme = \"light\"\n[keys]\nquit = [\"Q\"]\n[keys.browser]\nopen = [\"O\", \"enter\"]\nquit = [\"ctrl-q\"]\n",
    )
    .unwrap();
    assert_eq!(keys_of(&settings, "detail", "quit"), [Key::Char('Q')]);
    assert_eq!(keys_of(&settings, "browser", "quit"), [Key::Ctrl('q')]);
    assert_eq!(
        keys_of(&settings, "browser", "open"),
        [Key::Char('O'), Key::Code(KeyCode::Enter)]
    );
    assert_eq!(
        keys_of(&settings, "types", "open"),
        [
            Key::Code(KeyCode::Enter),
            Key::Char('l'),
            Key::Code(KeyCode::Right)
        ]
    );
}

#[test]
fn an_unknown_action_names_the_file_the_line_and_where_to_look() {
    assert_eq!(
        error("[keys]\n\nquitt = [\"x\"]\n"),
        "/home/me/.config/appdeck/config.toml:3: [keys]: unknown action `quitt`; `appdeck keys` lists the actions and their panes"
    );
}

#[test]
fn an_action_unknown_in_its_pane_lists_the_panes_actions() {
    let message = error("[keys.types]\nreport = [\"x\"]\n");
    assert!(
        message.starts_with(
            "/home/me/.config/appdeck/config.toml:2: [keys.types]: unknown action `report` in types; its actions are open, search, browse_type, refresh, copy, back, down, up,"
        ),
        "{message}"
    );
}

#[test]
fn an_unknown_pane_lists_the_panes() {
    let message = error("[keys]\nquit = [\"Q\"]\n[keys.brower]\nopen = [\"O\"]\n");
    assert!(
        message.starts_with(
            "/home/me/.config/appdeck/config.toml:3: [keys.brower]: unknown pane `brower`; the panes are browser, detail, types,"
        ),
        "{message}"
    );
}

#[test]
fn a_key_that_is_not_one_is_located_at_its_own_line() {
    let message = error("[keys]\nquit = [\n  \"Q\",\n  \"C-q\",\n]\n");
    assert!(
        message.starts_with(
            "/home/me/.config/appdeck/config.toml:4: [keys] quit: \"C-q\" is not a key; a key is one character as typed"
        ),
        "{message}"
    );
    assert!(
        message.contains("ctrl- and a letter (`ctrl-f`)"),
        "{message}"
    );
}

#[test]
fn a_key_bound_twice_in_a_pane_names_both_actions_and_the_pane() {
    // `o` opens a link in the list: quitting cannot take it there.
    assert_eq!(
        error("[keys]\nquit = [\"o\"]\n"),
        "/home/me/.config/appdeck/config.toml:2: `o` is bound twice in resource list ([keys.browser]): to `open_link` and to `quit`; give one of them another key, in every pane ([keys]) or in this one ([keys.browser]); a pane also takes the shared keys (movement, help, quit...)"
    );
    // A pane's own remap against a shared key (`j` moves down everywhere).
    let message = error("[keys.detail]\n\nsearch = [\"j\"]\n");
    assert!(
        message.starts_with(
            "/home/me/.config/appdeck/config.toml:3: `j` is bound twice in resource detail ([keys.detail]): to `search` and to `down`"
        ),
        "{message}"
    );
}

#[test]
fn moving_a_key_away_first_makes_room_for_it() {
    // `n` is the next match in the detail and the next marked row in the list; once those move
    // to `m` and `]`, `n` may move down.
    let settings =
        settings("[keys]\ndown = [\"n\"]\nnext_match = [\"m\"]\nnext_marked = [\"]\"]\n").unwrap();
    assert_eq!(keys_of(&settings, "detail", "down"), [Key::Char('n')]);
    assert_eq!(keys_of(&settings, "detail", "next_match"), [Key::Char('m')]);
}

#[test]
fn an_action_cannot_be_left_without_keys() {
    assert_eq!(
        error("[keys.browser]\ncopy = []\n"),
        "/home/me/.config/appdeck/config.toml:2: [keys.browser] copy: an action needs at least one key (an action cannot be left without keys; to free a key, give this action another one)"
    );
}

#[test]
fn a_key_listed_twice_for_one_action_is_an_error() {
    assert_eq!(
        error("[keys]\nquit = [\"Q\", \"Q\"]\n"),
        "/home/me/.config/appdeck/config.toml:2: [keys] quit: `Q` is listed twice; list it once"
    );
}

#[test]
fn keys_that_are_not_strings_are_an_error() {
    assert_eq!(
        error("[keys]\nquit = 7\n"),
        "/home/me/.config/appdeck/config.toml:2: [keys] quit: give a list of keys as strings, e.g. [\"x\", \"ctrl-x\"]"
    );
}

/// Issue 20 item 8: with two bad `[theme]` colours only one was reported, so fixing it showed
/// the next at the following start.
#[test]
fn every_bad_theme_colour_is_named_at_once() {
    let error = settings("[theme]\nborder = \"bluish\"\nkey = \"blue\"\nerror = 300\n")
        .expect_err("two bad colours")
        .to_string();
    assert_eq!(
        error
            .lines()
            .map(|l| l.split(": ").next().unwrap())
            .collect::<Vec<_>>(),
        [
            "/home/me/.config/appdeck/config.toml:2",
            "/home/me/.config/appdeck/config.toml:4"
        ],
        "{error}"
    );
    assert!(
        error.contains("`border` is not a colour") && error.contains("`error` is not a colour")
    );
}
