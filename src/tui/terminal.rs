//! Entering and leaving the terminal's TUI mode. Whatever happens (normal exit, error, panic,
//! signal) the terminal is handed back as it was: cooked mode, main screen, cursor, no mouse.

use std::io::{self, Stdout, Write};
use std::sync::Once;

use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped, so an early return or an error cannot leave it raw.
pub struct TerminalGuard(());

impl TerminalGuard {
    /// Switches to raw mode and the alternate screen, and returns the terminal to draw on.
    pub fn enter() -> io::Result<(TerminalGuard, Tui)> {
        install_panic_hook();
        enable_raw_mode()?;
        let guard = TerminalGuard(());
        let mut stdout = io::stdout();
        execute!(
            stdout,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste
        )?;
        let terminal = Terminal::new(CrosstermBackend::new(stdout))?;
        Ok((guard, terminal))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back. Safe to call more than once, and from the panic hook.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show
    );
    let _ = stdout.flush();
}

/// A panic restores the terminal before the message is printed, so the message is readable and
/// the shell usable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
