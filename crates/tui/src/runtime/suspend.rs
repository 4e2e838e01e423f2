//! Lending the terminal to another program (`$EDITOR`) and taking it back. While the editor runs,
//! appdeck must not read the terminal at all: crossterm's event stream keeps a thread reading
//! input, which would take the editor's keys; so the stream is dropped before the terminal is
//! handed over, and a new one is made when it comes back.

use std::io;

use crossterm::event::EventStream;

/// What the event loop needs to hand its terminal over and take it back.
pub(crate) trait Console<E>: Send {
    /// Stops reading input (`events` is dropped, or kept aside by a test console) and puts the
    /// terminal back as the shell had it: cooked mode, main screen, cursor, no mouse.
    fn release(&mut self, events: E) -> io::Result<()>;
    /// Takes the terminal again (raw mode, alternate screen, mouse, paste) and returns a new
    /// input stream.
    fn reclaim(&mut self) -> io::Result<E>;
}

/// The real terminal, read through crossterm's [`EventStream`].
pub(crate) struct TerminalConsole;

impl Console<EventStream> for TerminalConsole {
    fn release(&mut self, events: EventStream) -> io::Result<()> {
        // Stops its reader thread (dropping wakes it and tells it to end).
        drop(events);
        super::terminal::suspend()
    }

    fn reclaim(&mut self) -> io::Result<EventStream> {
        super::terminal::resume()?;
        Ok(EventStream::new())
    }
}
