//! Lending the terminal to another program (`$EDITOR`, or the shell while `^z` has appdeck
//! stopped) and taking it back. While the terminal is lent, appdeck must not read it at all:
//! crossterm's event stream keeps a thread reading input, which would take the editor's keys;
//! so the stream is dropped before the terminal is handed over, and a new one is made when it
//! comes back.

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
    /// Stops the whole process as a shell job (SIGTSTP, as the terminal's own `^z` would) and
    /// returns once the shell continues it (`fg`, SIGCONT). The terminal is released first.
    fn stop(&mut self) -> io::Result<()>;
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

    #[cfg(unix)]
    fn stop(&mut self) -> io::Result<()> {
        // SAFETY: raise has no memory effects; SIGTSTP's default action (no one handles it)
        // stops every thread of the process, and raise returns once SIGCONT continues it. In
        // a process group no shell watches (an orphaned one), the kernel drops the signal and
        // raise returns at once: appdeck comes back instead of hanging stopped.
        if unsafe { libc::raise(libc::SIGTSTP) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    #[cfg(not(unix))]
    fn stop(&mut self) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "only a Unix shell can stop a program and bring it back",
        ))
    }
}
