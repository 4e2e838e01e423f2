//! Keys typed one by one into the `:` command line (a paste without bracketed paste) are all
//! taken in, and the keys after them answered (issue 36 item 8). That each costs the same however
//! long the line is, is measured by `cargo bench --bench typing` (a timed test failed on a busy
//! machine): 200,000 keys here would take minutes if each walked the whole line.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::harness::{key, press};
use super::overlay::Overlay;
use super::*;

#[test]
fn typing_into_the_command_line_keeps_every_key_and_esc_is_answered_after() {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    key(&mut app, ':');
    assert!(matches!(app.overlay, Some(Overlay::CommandLine(_))));
    for i in 0..200_000 {
        // A mix of one- and two-byte characters: the line is walked by character.
        key(&mut app, if i % 7 == 0 { 'é' } else { 'x' });
    }
    let Some(Overlay::CommandLine(line)) = &app.overlay else {
        panic!("the line is open");
    };
    assert_eq!(line.input.text().chars().count(), 200_000, "every key kept");
    assert_eq!(line.input.cursor_column(), 200_000);
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none(), "Esc closes it");
}
