//! Entering and leaving the terminal's TUI mode. Whatever happens (normal exit, error, panic,
//! signal) the terminal is handed back as it was: cooked mode, main screen, cursor, no mouse.

use std::fmt;
use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::thread::ThreadId;

use crossterm::cursor::Show;
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub(crate) type Tui = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

/// Room for a whole frame, so it goes out in one write when ratatui flushes at the end of a
/// draw: stdout's own buffer holds 1 KiB, and the first frame of the list (120x40, 10.7 KB) went
/// out in 11 writes, each waking the terminal to read it. `appdeck --offline`'s first rows came
/// 0.25 ms sooner (3.85 to 3.60 ms after `main`, medians of 101 runs side by side, load 1.7).
const FRAME_BYTES: usize = 64 * 1024;

/// Whether the TUI owns the terminal, and from which thread it draws.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static UI_THREAD: Mutex<Option<ThreadId>> = Mutex::new(None);

/// Restores the terminal when dropped, so an early return or an error cannot leave it raw.
pub struct TerminalGuard(());

impl TerminalGuard {
    /// Switches to raw mode and the alternate screen, and returns the terminal to draw on.
    pub fn enter() -> io::Result<(TerminalGuard, Tui)> {
        install_panic_hook();
        if let Ok(mut ui) = UI_THREAD.lock() {
            *ui = Some(std::thread::current().id());
        }
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = TerminalGuard(());
        let mut stdout = io::stdout();
        execute!(
            stdout,
            EnterAlternateScreen,
            EnableMouseButtons,
            EnableBracketedPaste
        )?;
        let writer = BufWriter::with_capacity(FRAME_BYTES, stdout);
        let terminal = Terminal::new(CrosstermBackend::new(writer))?;
        Ok((guard, terminal))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back. Safe to call more than once, and from the panic hook: only the first
/// call after [`TerminalGuard::enter`] acts. A second "leave the alternate screen" is not
/// harmless: terminals (tmux, xterm) then move the cursor back to where the TUI started, so the
/// shell's prompt would overwrite a panic message printed in between.
pub(crate) fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
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

/// Hands the terminal back to the shell's modes for another program (`$EDITOR`), as
/// [`restore`] does; [`resume`] takes it again. A signal or a panic meanwhile finds nothing to
/// restore.
pub(crate) fn suspend() -> io::Result<()> {
    restore();
    Ok(())
}

/// Takes the terminal again after [`suspend`]: raw mode, the alternate screen, mouse and paste.
pub(crate) fn resume() -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseButtons,
        EnableBracketedPaste
    )
}

/// Clicks, drags and the wheel in SGR encoding, but not crossterm's any-motion tracking (1003):
/// every mouse move would wake an idle appdeck for nothing.
struct EnableMouseButtons;

impl crossterm::Command for EnableMouseButtons {
    fn write_ansi(&self, f: &mut impl fmt::Write) -> fmt::Result {
        f.write_str("\x1b[?1000h\x1b[?1002h\x1b[?1006h")
    }
}

/// A panic on the UI thread restores the terminal before the message is printed, so the
/// message is readable and the shell usable. A panic on another thread (a request task, the demo
/// sandbox) while the UI runs goes to the log instead: printing it would scribble over the
/// screen, and restoring the terminal under a live UI would break it.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let on_ui_thread = UI_THREAD
                .lock()
                .map(|ui| *ui == Some(std::thread::current().id()))
                .unwrap_or(true);
            if ACTIVE.load(Ordering::SeqCst) && !on_ui_thread {
                tracing::error!("panic on a background thread: {info}");
                return;
            }
            restore();
            previous(info);
        }));
    });
}
