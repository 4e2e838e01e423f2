//! The log file: created private (0600), rotated by size so that it can never fill a disk. When
//! the file would pass `max_bytes`, it becomes `NAME.1` (`NAME.1` becomes `NAME.2`, and so on, the
//! oldest dropped) and a fresh file is started: at most `keep + 1` files of `max_bytes` each.
//!
//! A log that cannot be written (a full disk) drops its lines: [`DropOnError`] never hands the
//! error to `tracing_subscriber`, whose writer would print it on stderr, over the TUI's frames.
//! Instead [`LogHealth`] keeps the first error for the TUI to say once in its status bar.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A size-rotated log file, for `tracing_subscriber`'s writer (wrapped in a `Mutex`).
#[derive(Debug)]
pub struct RotatingFile {
    path: PathBuf,
    max_bytes: u64,
    keep: usize,
    file: File,
    written: u64,
}

impl RotatingFile {
    /// The default size of one file, and how many rotated files are kept.
    pub const DEFAULT_MAX_BYTES: u64 = 5 * 1024 * 1024;
    pub const DEFAULT_KEEP: usize = 3;

    /// Opens (appending) or creates the log at `path`, owner-only.
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> io::Result<Self> {
        let file = open_private(path)?;
        let written = file.metadata()?.len();
        Ok(RotatingFile {
            path: path.to_owned(),
            max_bytes: max_bytes.max(1),
            keep,
            file,
            written,
        })
    }

    fn rotated(&self, n: usize) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    fn rotate(&mut self) -> io::Result<()> {
        self.file.flush()?;
        if self.keep == 0 {
            let _ = std::fs::remove_file(&self.path);
        } else {
            let _ = std::fs::remove_file(self.rotated(self.keep));
            for n in (1..self.keep).rev() {
                let _ = std::fs::rename(self.rotated(n), self.rotated(n + 1));
            }
            std::fs::rename(&self.path, self.rotated(1))?;
        }
        self.file = open_private(&self.path)?;
        self.written = 0;
        Ok(())
    }
}

impl Write for RotatingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.written > 0 && self.written + buf.len() as u64 > self.max_bytes {
            self.rotate()?;
        }
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Whether the log could be written: the first failure, kept for whoever can tell the user
/// (the TUI's status bar). Clones share it.
#[derive(Clone, Debug, Default)]
pub struct LogHealth {
    inner: Arc<Health>,
}

#[derive(Debug, Default)]
struct Health {
    first_failure: OnceLock<String>,
    failed: tokio::sync::Notify,
}

impl LogHealth {
    /// Records a failure; only the first is kept and announced.
    pub fn fail(&self, why: &dyn std::fmt::Display) {
        if self.inner.first_failure.set(why.to_string()).is_ok() {
            // A stored permit: a waiter that comes later still hears of it.
            self.inner.failed.notify_one();
        }
    }

    /// The first failure, if there was one.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.inner.first_failure.get().map(String::as_str)
    }

    /// Resolves with the first failure once there is one (at once if there already was).
    pub async fn failed(&self) -> String {
        loop {
            if let Some(why) = self.failure() {
                return why.to_owned();
            }
            self.inner.failed.notified().await;
        }
    }
}

/// A writer for logs that never fails: a line that cannot be written is dropped, and the first
/// error goes to its [`LogHealth`] rather than back to `tracing_subscriber` (which would print
/// it on stderr, that is over the TUI).
#[derive(Debug)]
pub struct DropOnError<W> {
    inner: W,
    health: LogHealth,
}

impl<W: Write> DropOnError<W> {
    pub fn new(inner: W, health: LogHealth) -> Self {
        DropOnError { inner, health }
    }
}

impl<W: Write> Write for DropOnError<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.inner.write(buf) {
            Ok(n) => Ok(n),
            Err(e) => {
                self.health.fail(&e);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Err(e) = self.inner.flush() {
            self.health.fail(&e);
        }
        Ok(())
    }
}

/// Opens for appending, creating the file 0600; an existing file is made 0600 too (an older
/// appdeck created it 0644). Only a regular file is a log: a FIFO (whose open would wait for a
/// reader, hanging the start), a terminal or another device (whose lines would draw over the
/// TUI) at the log's path is refused, and nothing is logged. The open cannot block: it is
/// non-blocking, and the type is checked on what was opened.
fn open_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600).custom_flags(libc::O_NONBLOCK);
        let file = options.open(path).map_err(|e| match e.raw_os_error() {
            // What a FIFO with no reader answers a non-blocking open for writing.
            Some(libc::ENXIO) => io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is a named pipe (FIFO), not a regular file; nothing is logged",
            ),
            _ => e,
        })?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "it is {}, not a regular file; nothing is logged",
                    crate::bounded_read::kind_of(&meta)
                ),
            ));
        }
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(file)
    }
    #[cfg(not(unix))]
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_stay_within_their_bound_and_are_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("appdeck.log");
        let mut log = RotatingFile::open(&path, 1000, 2).unwrap();
        let line = [b'x'; 99];
        for _ in 0..1000 {
            log.write_all(&line).unwrap();
            log.write_all(b"\n").unwrap();
        }
        log.flush().unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["appdeck.log", "appdeck.log.1", "appdeck.log.2"]);
        for name in names {
            let meta = std::fs::metadata(dir.path().join(&name)).unwrap();
            assert!(meta.len() <= 1000, "{name}: {} bytes", meta.len());
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{name}");
            }
        }
    }

    /// Opens the log at `path` on a thread of its own, given 5 s: an open that hangs fails the
    /// test instead of hanging it.
    #[cfg(unix)]
    fn open_within_5s(path: &Path) -> io::Result<RotatingFile> {
        let (done, opened) = std::sync::mpsc::channel();
        let path = path.to_owned();
        std::thread::spawn(move || {
            let _ = done.send(RotatingFile::open(&path, 1000, 1));
        });
        opened
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the open returns at once")
    }

    /// A FIFO at the log's path, with a reader or without, or a link to a device (a terminal
    /// would have the lines drawn over the TUI): refused at once, with the reason, never waited on
    /// nor written to.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_a_log() {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("appdeck.log");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let error = open_within_5s(&fifo).unwrap_err();
        assert!(error.to_string().contains("named pipe (FIFO)"), "{error}");
        let _reader = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let error = open_within_5s(&fifo).unwrap_err();
        assert!(error.to_string().contains("named pipe (FIFO)"), "{error}");

        let link = dir.path().join("linked.log");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let error = open_within_5s(&link).unwrap_err();
        assert!(
            error.to_string().contains("a device, not a regular file"),
            "{error}"
        );

        let regular = dir.path().join("regular.log");
        open_within_5s(&regular).expect("a regular file is opened");
        assert!(std::fs::metadata(&regular).unwrap().is_file());
    }

    /// A full disk (`/dev/full`): every line is dropped without an error reaching the caller
    /// (`tracing_subscriber` would print it on stderr, over the TUI), and the failure is kept
    /// once, for the status bar.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_drops_the_lines_and_is_reported_once() {
        let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
        let health = LogHealth::default();
        let mut log = DropOnError::new(full, health.clone());
        assert_eq!(health.failure(), None);
        for _ in 0..3 {
            log.write_all(b"a line\n").expect("never an error");
            log.flush().expect("never an error");
        }
        let why = health.failure().expect("the failure is kept");
        assert!(why.contains("No space left"), "{why}");
        let announced = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(async {
                tokio::time::timeout(std::time::Duration::from_secs(5), health.failed()).await
            });
        assert_eq!(announced.as_deref(), Ok(why));
    }
}
