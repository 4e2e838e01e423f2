//! The baseline of the startup benchmark: the least a ratatui program does to put a frame on
//! screen, timed the way appdeck times itself (from the first line of `main` to the first frame
//! flushed). benches/tui_startup.sh runs both in the same terminal and compares them.

use std::io::Write;
use std::time::Instant;

use ratatui::widgets::{Block, Borders, Paragraph};

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let mut terminal = ratatui::init();
    terminal.draw(|frame| {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" bare ratatui ");
        frame.render_widget(Paragraph::new("first frame").block(block), frame.area());
    })?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    // Wait for a key so the benchmark sees the frame, then leave.
    let _ = crossterm::event::read();
    ratatui::restore();
    if let Some(path) = std::env::args().nth(1) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        writeln!(file, "startup: first frame after {ms:.2} ms")?;
    }
    Ok(())
}
