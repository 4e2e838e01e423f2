//! Standard output for a command's results. With descriptor 1 closed (`appdeck list >&-`),
//! Rust's start-up puts /dev/null there, so the output would be lost without a word and the
//! command exit 0: a descriptor 1 closed or read-only when the process starts is noted before
//! that, and every write to [`Out`] then fails with EBADF, said on stderr with exit status 1.
//! Only a closed pipe (EPIPE) stays a quiet end (`appdeck list | head`).

use std::io::{self, StdoutLock, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static UNWRITABLE_AT_START: AtomicBool = AtomicBool::new(false);

/// Runs from the initialisers' section, before Rust's runtime puts /dev/null on a closed
/// descriptor 1 (which would hide that it was closed).
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_AT_START: extern "C" fn() = note_at_start;

#[cfg(target_os = "macos")]
#[used]
#[unsafe(link_section = "__DATA,__mod_init_func")]
static NOTE_AT_START: extern "C" fn() = note_at_start;

extern "C" fn note_at_start() {
    // SAFETY: F_GETFL only reads descriptor 1's flags.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    let unwritable = flags == -1 || flags & libc::O_ACCMODE == libc::O_RDONLY;
    UNWRITABLE_AT_START.store(unwritable, Ordering::Relaxed);
}

/// Standard output, locked, whose writes fail when descriptor 1 could not be written at start.
pub fn out() -> Out {
    Out(io::stdout().lock())
}

pub struct Out(StdoutLock<'static>);

impl Out {
    fn check() -> io::Result<()> {
        if UNWRITABLE_AT_START.load(Ordering::Relaxed) {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        }
        Ok(())
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Out::check()?;
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Out::check()?;
        self.0.flush()
    }
}
