//! `:where` in a process of its own. jaq has no fuel, no depth limit and no way to stop an
//! evaluation: `[range(1e9)]` grows until the system kills appdeck (the terminal left raw), and
//! `last(range(1e12))` runs for hours after `Esc` said "cancelled". So the TUI tests rows in a
//! worker: appdeck itself, started again with [`ARG`], its address space capped at
//! [`MEMORY_LIMIT`], killed the moment the job is cancelled or replaced, and on Linux killed
//! with appdeck too, whatever ends it.
//!
//! The two talk over the worker's stdin and stdout, in frames (a little-endian `u32` length, then
//! the bytes). appdeck sends the expression, then one frame per row's JSON; the worker answers
//! each row, in order, with one byte: `T` true, `F` false, or `E` and a frame with the error.
//!
//! A binary that has no worker (the library's own tests) runs the expression in place:
//! [`command`] says which.

mod process;
mod serve;
mod slots;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

pub use process::{Answer, RowSender, Stopped, Worker};
pub use serve::serve;

/// The first argument that makes appdeck a worker instead of anything else (read before the
/// arguments are parsed: it is not a command a user has).
pub const ARG: &str = "--internal-jq-worker";

/// The most address space a worker may take. Testing one row needs a few megabytes; an
/// expression past this is building something no row filter needs, and its allocation fails
/// (the worker aborts) long before the system runs short.
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// An error text from the worker is cut to this many bytes: the worker is trusted no further
/// than a server is.
const MAX_ERROR_BYTES: usize = 4096;

/// The program to start as a worker, once the binary has said it has one.
static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// The appdeck binary says it can be a worker (`main`, when it opens the TUI). On Linux it is
/// started through `/proc/self/exe`: the same program even after the file was replaced or
/// removed (an upgrade while appdeck runs).
pub fn enable() {
    let program = match cfg!(target_os = "linux") {
        true => Some(PathBuf::from("/proc/self/exe")),
        false => std::env::current_exe().ok(),
    };
    if let Some(program) = program {
        // Only the first call counts: the binary is the same for the process's life.
        let _ = PROGRAM.set(program);
    }
}

/// Starts workers from `program` (tests and benches name the appdeck binary they built).
pub fn enable_with(program: PathBuf) {
    let _ = PROGRAM.set(program);
}

/// The program to start as a worker; `None` when expressions run in place.
pub fn command() -> Option<&'static std::path::Path> {
    match cfg!(unix) {
        true => PROGRAM.get().map(PathBuf::as_path),
        false => None,
    }
}

/// One byte, the answer for one row.
const TRUE: u8 = b'T';
const FALSE: u8 = b'F';
const ERROR: u8 = b'E';

fn write_frame(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a frame over 4 GiB"))?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(bytes)
}

/// The next frame into `buf`, or `false` at the end of the input (between frames).
fn read_frame(input: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes(len) as usize;
    buf.clear();
    buf.try_reserve_exact(len)
        .map_err(|_| io::Error::new(io::ErrorKind::OutOfMemory, "a frame too large"))?;
    input.take(len as u64).read_to_end(buf)?;
    if buf.len() < len {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(true)
}
