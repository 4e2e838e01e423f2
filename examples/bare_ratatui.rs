//! The baseline of the startup benchmark: the least a ratatui program does to put a frame on
//! screen. It appends the wall-clock time (ns since the epoch) at which its first frame was
//! flushed to the file named by its argument; benches/tui_startup.sh compares that with the time
//! it was launched, exactly as it does for appdeck's log.

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use ratatui::widgets::{Block, Borders, Paragraph};

fn main() -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    terminal.draw(|frame| {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" bare ratatui ");
        frame.render_widget(Paragraph::new("first frame").block(block), frame.area());
    })?;
    let drawn_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // Wait for a key so the benchmark sees the frame, then leave.
    let _ = crossterm::event::read();
    ratatui::restore();
    if let Some(path) = std::env::args().nth(1) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        writeln!(file, "first frame at {drawn_at}")?;
    }
    Ok(())
}
