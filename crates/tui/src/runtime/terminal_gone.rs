//! The terminal going away without a hangup signal. A process with no controlling terminal (one
//! started with `setsid`) reading a pty gets no SIGHUP when the pty's other end closes: the pty is
//! hung up, every read returns 0 at once, and crossterm's reader takes that for "nothing yet" and
//! polls again, for ever, at full speed. A thread of its own waits in `poll(2)` for the hangup
//! alone (no event asked for: input and output do not wake it, and there is no timer), so that
//! appdeck quits as a hangup signal would make it. Tested end to end in tests/terminal_gone.rs.

/// Starts waiting for the terminal appdeck reads (stdin when it is a terminal, else
/// `/dev/tty`, as crossterm chooses) to be hung up; `gone` is called once when it is. Nothing is
/// watched when neither can be had.
#[cfg(unix)]
pub(crate) fn watch(gone: impl FnOnce() + Send + 'static) {
    use std::os::fd::{AsFd, AsRawFd, OwnedFd};

    // A descriptor of its own, so that the watching thread owns what it polls.
    let tty: Option<OwnedFd> = if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        std::io::stdin().as_fd().try_clone_to_owned().ok()
    } else {
        std::fs::File::open("/dev/tty").ok().map(OwnedFd::from)
    };
    let Some(tty) = tty else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("terminal-gone".to_owned())
        .spawn(move || {
            if wait_for_hangup(tty.as_raw_fd()) {
                gone();
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot watch the terminal for a hangup: {e}");
    }
}

#[cfg(not(unix))]
pub fn watch(_gone: impl FnOnce() + Send + 'static) {}

/// Blocks until `fd` is hung up (true), or cannot be watched (false).
#[cfg(unix)]
fn wait_for_hangup(fd: std::os::fd::RawFd) -> bool {
    let mut watched = libc::pollfd {
        fd,
        // No event asked for: poll reports POLLHUP and POLLERR whatever is asked.
        events: 0,
        revents: 0,
    };
    loop {
        // SAFETY: one valid pollfd, for the length given; `fd` stays open (owned by the caller).
        let ready = unsafe { libc::poll(&raw mut watched, 1, -1) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        if watched.revents & libc::POLLNVAL != 0 {
            return false;
        }
        if watched.revents & (libc::POLLHUP | libc::POLLERR) != 0 {
            return true;
        }
    }
}
