//! A TUI that panics, for the end-to-end test of the terminal's restore after a panic
//! (tests/e2e/e2e_tmux.rs). It enters the terminal exactly as appdeck does, through
//! `appdeck_tui::TerminalGuard` (raw mode, alternate screen, mouse, bracketed paste,
//! and the panic hook), draws one frame, waits for one key and panics: the test checks that the
//! shell gets its terminal back, with the panic message readable on the main screen.
//!
//! This keeps a way to crash out of the product: appdeck itself has no switch to panic.

use crossterm::event::{Event, read};
use ratatui::widgets::{Block, Borders, Paragraph};

fn main() -> std::io::Result<()> {
    let (_guard, mut terminal) = appdeck_tui::TerminalGuard::enter()?;
    terminal.draw(|frame| {
        let block = Block::default().borders(Borders::ALL).title(" panic test ");
        frame.render_widget(
            Paragraph::new("first frame: press a key to panic").block(block),
            frame.area(),
        );
    })?;
    while !matches!(read()?, Event::Key(_)) {}
    panic!("deliberate panic after the first frame");
}
