//! Remapped keys through `App::update`: the remapped key does the action, the old default no
//! longer does, and the `?` help shows the keys in effect.

use crate::app::harness::press_with;
use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;

use crate::app::keymap::{InputMode, Keymap};
use crate::app::overlay::Overlay;
use crate::app::settings::keys::KeyEntry;
use crate::app::{App, Session};

fn entry(pane: Option<&str>, action: &str, keys: &[&str]) -> KeyEntry {
    KeyEntry {
        pane: pane.map(|p| (p.to_owned(), 1)),
        action: action.to_owned(),
        line: 1,
        keys: keys.iter().map(|k| ((*k).to_owned(), 1)).collect(),
    }
}

fn app_with(entries: &[KeyEntry]) -> App {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    app.keymap = Keymap::with_entries(entries).expect("valid remaps");
    app
}

#[test]
fn a_remapped_quit_quits_and_the_old_key_does_nothing() {
    let mut app = app_with(&[entry(None, "quit", &["Q"])]);
    assert!(press_with(&mut app, KeyCode::Char('q'), KeyModifiers::NONE).is_none());
    assert!(!app.should_quit);
    press_with(&mut app, KeyCode::Char('Q'), KeyModifiers::NONE).expect("Q is bound");
    assert!(app.should_quit);
}

/// The issue's own example: `quit = ["x"]` is a valid remap (no pane binds `x` by default).
#[test]
fn quit_on_x_is_accepted_and_quits() {
    let mut app = app_with(&[entry(None, "quit", &["x"])]);
    press_with(&mut app, KeyCode::Char('x'), KeyModifiers::NONE).expect("x is bound");
    assert!(app.should_quit);
}

#[test]
fn a_ctrl_key_can_take_a_global_action() {
    let mut app = app_with(&[entry(None, "help", &["ctrl-h", "F1"])]);
    assert!(press_with(&mut app, KeyCode::Char('?'), KeyModifiers::NONE).is_none());
    assert!(app.overlay.is_none());
    press_with(&mut app, KeyCode::Char('h'), KeyModifiers::CONTROL).expect("ctrl-h is bound");
    assert!(matches!(app.overlay, Some(Overlay::Help(_))));
    app.overlay = None;
    press_with(&mut app, KeyCode::F(1), KeyModifiers::NONE).expect("F1 is bound");
    assert!(matches!(app.overlay, Some(Overlay::Help(_))));
}

#[test]
fn a_pane_remap_applies_in_that_pane_only() {
    let mut app = app_with(&[entry(Some("browser"), "search", &["f"])]);
    assert!(press_with(&mut app, KeyCode::Char('/'), KeyModifiers::NONE).is_none());
    assert_eq!(app.focus().mode, InputMode::None);
    press_with(&mut app, KeyCode::Char('f'), KeyModifiers::NONE).expect("f is bound");
    assert_eq!(app.focus().mode, InputMode::Line, "f opened the filter");
    // The detail keeps its own `/`.
    let detail = app
        .keymap
        .table(&crate::app::panes::detail::keys::DETAIL_KEYS);
    let search = detail.bindings().find(|b| b.name == "search").unwrap();
    assert_eq!(search.label, "/");
}

#[test]
fn the_help_shows_the_keys_in_effect() {
    let mut app = app_with(&[entry(None, "quit", &["Q", "ctrl-q"])]);
    press_with(&mut app, KeyCode::Char('?'), KeyModifiers::NONE).expect("? is bound");
    let Some(Overlay::Help(help)) = &app.overlay else {
        panic!("the help is open");
    };
    let lines = help.lines();
    assert!(
        lines.iter().any(|l| l.label == "Q/^q" && l.text == "quit"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.label == "q"), "{lines:?}");
}
