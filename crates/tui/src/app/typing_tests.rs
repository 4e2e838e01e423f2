//! Keys typed one by one into the `:` command line (a paste without bracketed paste) are taken in
//! in linear time, and the keys after them answered (issue 36 item 8): each character typed at
//! the end of the line costs the same however long the line is.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::harness::{key, press};
use super::overlay::Overlay;
use super::*;

/// Opens `:` and types `count` characters into it, one key each; the time the keys took.
fn typed(count: usize) -> (App, Duration) {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    key(&mut app, ':');
    assert!(matches!(app.overlay, Some(Overlay::CommandLine(_))));
    let started = Instant::now();
    for i in 0..count {
        // A mix of one- and two-byte characters: the line is walked by character.
        key(&mut app, if i % 7 == 0 { 'é' } else { 'x' });
    }
    (app, started.elapsed())
}

/// The fastest of three runs: the least disturbed by whatever else the machine does.
fn fastest(count: usize) -> Duration {
    (0..3).map(|_| typed(count).1).min().unwrap()
}

#[test]
fn typing_into_the_command_line_is_linear_and_esc_is_answered_after() {
    let (mut app, _) = typed(200_000);
    let Some(Overlay::CommandLine(line)) = &app.overlay else {
        panic!("the line is open");
    };
    assert_eq!(line.input.text().chars().count(), 200_000, "every key kept");
    assert_eq!(line.input.cursor_column(), 200_000);
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none(), "Esc closes it");

    // Four times the keys take about four times as long; quadratic work would take sixteen.
    let (small, large) = (fastest(50_000), fastest(200_000));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
    assert!(
        ratio < 8.0,
        "50,000 keys took {small:?}, 200,000 took {large:?}: {ratio:.1} times as long"
    );
}
