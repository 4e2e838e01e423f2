//! Keys typed one by one into the `:` command line (a paste without bracketed paste, issue 36
//! item 8) are taken in linear time: each character typed at the end of the line costs the same
//! however long the line is. Prints the fastest of three runs of 50,000 and of 200,000 keys and
//! their ratio: about 4 when linear, 16 when each key walked the whole line. Run with
//! `cargo bench --bench typing`. (`app::typing_tests` checks that every key is kept and `Esc`
//! is answered after them.)

use std::time::{Duration, Instant};

use appdeck_tui::harness::key;
use appdeck_tui::{App, Session};
use ratatui::layout::Rect;

/// Opens `:` and types `count` characters into it, one key each; the time the keys took.
fn typed(count: usize) -> Duration {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    key(&mut app, ':');
    let started = Instant::now();
    for i in 0..count {
        // A mix of one- and two-byte characters: the line is walked by character.
        key(&mut app, if i % 7 == 0 { 'é' } else { 'x' });
    }
    started.elapsed()
}

/// The fastest of three runs: the least disturbed by whatever else the machine does.
fn fastest(count: usize) -> Duration {
    (0..3).map(|_| typed(count)).min().unwrap_or_default()
}

fn main() {
    let (small, large) = (fastest(50_000), fastest(200_000));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
    println!("typed into `:`:  50,000 keys {small:>10.1?}   200,000 keys {large:>10.1?}");
    println!("ratio {ratio:.1} (linear: about 4; each key walking the line: about 16)");
}
