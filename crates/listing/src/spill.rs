//! The texts of the loaded items, kept in a file rather than in memory: a million items of a
//! kilobyte would take a gigabyte of RSS, a file takes page cache the kernel can drop. Texts
//! are only ever appended, each as its length (8 bytes, little-endian) and its bytes; a text is
//! found again by the offset it was written at.
//!
//! The file is created unlinked (`O_TMPFILE`, or created and removed at once), so it leaves
//! nothing behind however the process ends, and is read with positioned reads, so jobs on other
//! threads read while the UI thread appends. Appends are gathered in memory only; the runtime
//! writes them out ([`Spill::write_due`]) once 64 kilobytes have gathered, so the UI thread's
//! `update` never touches the file. What is not written yet is read from memory. Where no
//! file can be made or written (no writable directory, a full disk), the texts stay in memory:
//! slower to grow, never lost.

use std::fs::File;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Appends are written to the file once this much has gathered: what is gathered stays
/// resident (and is copied by each read's snapshot), so a quarter of a megabyte was 0.2 MB
/// more than this, for no write or read measurably quicker.
const WRITE_AT: usize = 64 * 1024;
/// The most a scan reads at once when the texts it wants lie close together: small enough that a
/// stretch is still in the CPU cache while it is searched (4 MB made `/` 10% slower).
const SCAN_WINDOW: u64 = 256 * 1024;
/// The length before each text.
const HEADER: u64 = 8;

pub(crate) struct Spill {
    /// Where the file is made, the first time texts are written (small listings never touch
    /// the disk); `None`: the user's cache directory, looked up then (by the writer, not by
    /// whoever makes the spill).
    dir: Option<PathBuf>,
    tail: Mutex<Tail>,
}

#[derive(Default)]
struct Tail {
    /// Shared with the reads under way, which hold no lock.
    file: Option<Arc<File>>,
    /// Bytes of the file written; everything below stays as it is.
    written: u64,
    /// The records from `written` on, not in the file yet.
    pending: Vec<u8>,
    /// Writing failed once: everything from `written` on stays in `pending`.
    in_memory: bool,
}

/// A text that cannot be read back: the file failed, or it holds something else than was
/// written (an offset that no append returned).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpillError {
    #[error("cannot read the rows' spill file: {0}")]
    Io(String),
    #[error("the rows' spill file has no text at {0}")]
    Corrupt(u64),
}

/// Sizes only: the texts themselves would flood a listing's debug output.
impl std::fmt::Debug for Spill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tail = self.tail();
        f.debug_struct("Spill")
            .field("dir", &self.dir)
            .field("written", &tail.written)
            .field("pending", &tail.pending.len())
            .field("in_memory", &tail.in_memory)
            .finish()
    }
}

impl Default for Spill {
    fn default() -> Spill {
        Spill::new()
    }
}

impl Spill {
    /// Texts spilled to an unlinked file in the user's cache directory, which is on disk where
    /// `/tmp` may be memory (tmpfs), once there are enough. Makes nothing and reads nothing
    /// until the first write.
    pub(crate) fn new() -> Spill {
        Spill {
            dir: None,
            tail: Mutex::default(),
        }
    }

    /// Texts spilled to an unlinked file in `dir` (made if missing; else the system's
    /// temporary directory) once there are enough.
    #[cfg(test)]
    pub(crate) fn in_dir(dir: impl Into<PathBuf>) -> Spill {
        Spill {
            dir: Some(dir.into()),
            tail: Mutex::default(),
        }
    }

    /// Texts kept in memory only, as after a failed write.
    #[cfg(test)]
    pub(crate) fn in_memory() -> Spill {
        let spill = Spill::new();
        spill.tail().in_memory = true;
        spill
    }

    /// Appends a text, in memory; returns the offset it is read back by.
    pub(crate) fn append(&self, text: &str) -> u64 {
        let mut tail = self.tail();
        let offset = tail.written + tail.pending.len() as u64;
        tail.pending
            .extend_from_slice(&(text.len() as u64).to_le_bytes());
        tail.pending.extend_from_slice(text.as_bytes());
        offset
    }

    /// Whether enough texts have gathered in memory to be written ([`Spill::write_due`]).
    pub(crate) fn is_due(&self) -> bool {
        self.tail().is_due()
    }

    /// Writes the texts gathered in memory to the file (made on first use), when there are
    /// enough: the runtime's part, off the UI thread.
    pub(crate) fn write_due(&self) {
        let mut tail = self.tail();
        if tail.is_due() {
            let dir = self.dir.clone().unwrap_or_else(cache_dir);
            tail.write_out(&dir);
        }
    }

    /// The text appended at `offset`.
    pub(crate) fn read(&self, offset: u64) -> Result<String, SpillError> {
        let mut window = Window::default();
        let snapshot = self.snapshot();
        let text = snapshot.text(&mut window, offset, std::iter::empty())?;
        Ok(text.to_owned())
    }

    /// Calls `f` with the text of each of `items` (at the offset `offset_of` says), in their
    /// order, with its position among them, until `f` breaks. Texts that lie close together are
    /// read from the file in one go.
    pub(crate) fn scan<T: Copy>(
        &self,
        items: &[T],
        offset_of: impl Fn(T) -> u64 + Copy,
        mut f: impl FnMut(usize, &str) -> ControlFlow<()>,
    ) -> Result<(), SpillError> {
        let snapshot = self.snapshot();
        let mut window = Window::default();
        for (position, &item) in items.iter().enumerate() {
            let ahead = items[position + 1..].iter().map(|&next| offset_of(next));
            let text = snapshot.text(&mut window, offset_of(item), ahead)?;
            if f(position, text).is_break() {
                break;
            }
        }
        Ok(())
    }

    fn tail(&self) -> MutexGuard<'_, Tail> {
        // A panic while appending leaves whole records behind: the data is still good.
        self.tail.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The file as written so far and a copy of what is not: reading then holds no lock.
    fn snapshot(&self) -> Snapshot {
        let tail = self.tail();
        Snapshot {
            file: tail.file.clone(),
            written: tail.written,
            pending: tail.pending.clone(),
        }
    }

    /// Whether the texts went to a file.
    #[cfg(test)]
    fn on_disk(&self) -> bool {
        self.tail().written > 0
    }
}

/// The user's cache directory, else the system's temporary one.
fn cache_dir() -> PathBuf {
    let cache = directories::ProjectDirs::from("", "", "appdeck");
    cache.map_or_else(std::env::temp_dir, |d| d.cache_dir().to_path_buf())
}

impl Tail {
    fn is_due(&self) -> bool {
        self.pending.len() >= WRITE_AT && !self.in_memory
    }

    /// Writes `pending` at the end of the file, made on first use. On failure the texts stay in
    /// memory from here on.
    fn write_out(&mut self, dir: &Path) {
        let written = match &self.file {
            Some(file) => positioned::write_all_at(file, &self.pending, self.written),
            None => self.create(dir),
        };
        match written {
            Ok(()) => {
                self.written += self.pending.len() as u64;
                self.pending.clear();
            }
            Err(error) => {
                tracing::warn!("rows kept in memory: cannot write their spill file: {error}");
                self.in_memory = true;
            }
        }
    }

    /// Makes the file, unlinked, and writes `pending` into it.
    fn create(&mut self, dir: &Path) -> std::io::Result<()> {
        let file = std::fs::create_dir_all(dir)
            .and_then(|()| tempfile::tempfile_in(dir))
            .or_else(|_| tempfile::tempfile())?;
        // Owner-only, as the store is: it holds the service's rows (tempfile makes it 0666 & umask).
        #[cfg(unix)]
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        positioned::write_all_at(&file, &self.pending, 0)?;
        self.file = Some(Arc::new(file));
        Ok(())
    }
}

/// What a read sees: the file up to `written`, then `pending`.
struct Snapshot {
    file: Option<Arc<File>>,
    written: u64,
    pending: Vec<u8>,
}

impl Snapshot {
    /// The text at `offset`; `ahead` are the offsets to be read next, to read them along.
    fn text<'a>(
        &'a self,
        window: &'a mut Window,
        offset: u64,
        ahead: impl Iterator<Item = u64>,
    ) -> Result<&'a str, SpillError> {
        let bytes = if offset >= self.written {
            record(&self.pending, offset - self.written).ok_or(SpillError::Corrupt(offset))?
        } else {
            let file = self.file.as_ref().ok_or(SpillError::Corrupt(offset))?;
            window.record(file, offset, self.written, ahead)?
        };
        simdutf8::basic::from_utf8(bytes).map_err(|_| SpillError::Corrupt(offset))
    }
}

/// The record at `at` in `bytes`: its text, if it lies whole within them.
fn record(bytes: &[u8], at: u64) -> Option<&[u8]> {
    let at = usize::try_from(at).ok()?;
    let header = bytes.get(at..at.checked_add(HEADER as usize)?)?;
    let len = usize::try_from(u64::from_le_bytes(header.try_into().ok()?)).ok()?;
    let start = at + HEADER as usize;
    bytes.get(start..start.checked_add(len)?)
}

/// A stretch of the file read at once, reused from one text to the next.
#[derive(Default)]
struct Window {
    start: u64,
    bytes: Vec<u8>,
}

impl Window {
    /// The text of the record at `offset` (below `end`, the written length), reading the file
    /// if the window does not hold it whole.
    fn record(
        &mut self,
        file: &File,
        offset: u64,
        end: u64,
        ahead: impl Iterator<Item = u64>,
    ) -> Result<&[u8], SpillError> {
        let within = |w: &Window| offset >= w.start && record(&w.bytes, offset - w.start).is_some();
        if !within(self) {
            // Read on up to the texts wanted next that lie close, so a dense scan reads large
            // stretches and a sparse one little.
            let near = ahead
                .take_while(|&next| next > offset && next < offset.saturating_add(SCAN_WINDOW))
                .last()
                .map_or(0, |next| next - offset);
            self.fill(file, offset, (near + 4096).min(SCAN_WINDOW), end)?;
            if !within(self) {
                // A text longer than the stretch read: its length says how much to read.
                let len = self
                    .bytes
                    .get(..HEADER as usize)
                    .and_then(|h| h.try_into().ok())
                    .map(u64::from_le_bytes)
                    .ok_or(SpillError::Corrupt(offset))?;
                let whole = HEADER
                    .checked_add(len)
                    .filter(|&n| offset + n <= end)
                    .ok_or(SpillError::Corrupt(offset))?;
                self.fill(file, offset, whole, end)?;
            }
        }
        record(&self.bytes, offset - self.start).ok_or(SpillError::Corrupt(offset))
    }

    fn fill(&mut self, file: &File, offset: u64, len: u64, end: u64) -> Result<(), SpillError> {
        let len = len.min(end.saturating_sub(offset));
        let len = usize::try_from(len).map_err(|_| SpillError::Corrupt(offset))?;
        self.start = offset;
        self.bytes.resize(len, 0);
        positioned::read_exact_at(file, &mut self.bytes, offset)
            .map_err(|e| SpillError::Io(e.to_string()))
    }
}

/// Reads and writes at an offset, leaving the file's position alone (so threads share it).
mod positioned {
    use std::fs::File;
    use std::io;

    #[cfg(unix)]
    pub(super) fn write_all_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
    }

    #[cfg(unix)]
    pub(super) fn read_exact_at(file: &File, bytes: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(file, bytes, offset)
    }

    /// Elsewhere the texts stay in memory.
    #[cfg(not(unix))]
    pub fn write_all_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }

    #[cfg(not(unix))]
    pub fn read_exact_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }
}

#[cfg(test)]
#[path = "spill_tests.rs"]
mod tests;
