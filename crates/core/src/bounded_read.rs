//! Reading a file the user named (a config file, a token file, a connect or report payload)
//! with a bound on both time and size. A FIFO blocks whoever opens or reads it until someone
//! writes, and a device such as `/dev/zero` never ends: read naively, either hangs appdeck with
//! nothing said. So only a regular file is read, never more than the caller's cap, and the open
//! itself cannot block. The errors are plain `io::Error`s, so every caller keeps the messages it
//! already gives for a missing or unreadable file.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::api::error::describe_bytes;

/// The largest payload (a report, a connect payload) read from a file: the same size as the
/// default cap on the service's answers.
pub const MAX_PAYLOAD_BYTES: u64 = crate::api::ClientSettings::DEFAULT_MAX_RESPONSE_BYTES;

/// Reads the regular file at `path` (symbolic links followed), at most `cap` bytes, and returns
/// its bytes with its metadata (for its permissions or its time). A FIFO, a device, a socket or
/// a directory is refused without reading from it (`InvalidInput`); a file larger than `cap` is
/// refused too (`FileTooLarge`).
pub fn file(path: &Path, cap: u64) -> io::Result<(Vec<u8>, Metadata)> {
    let file = open_without_blocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_of(&meta)),
        ));
    }
    Ok((up_to(file, cap)?, meta))
}

/// Reads at most `cap` bytes from `source`, failing (`FileTooLarge`) when there is more: a pipe
/// need not end either.
pub fn up_to(source: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    source.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it is larger than the {} limit", describe_bytes(cap)),
        ));
    }
    Ok(bytes)
}

/// How long a payload named as a pipe (`validate <(…)`, `api @FIFO`) may take to arrive whole.
pub const PIPE_PATIENCE: Duration = Duration::from_secs(60);

/// Reads the payload a user named at `path`: a regular file, or a pipe (a FIFO, or the
/// `/dev/fd/N` of a shell's process substitution `<(…)`), as kubectl, gh and jq do. Never more
/// than `cap` bytes (`FileTooLarge`), and a pipe never longer than `patience` (`TimedOut`): a
/// FIFO nobody writes to, or a writer that never ends, is said instead of waited for. Anything
/// else (a directory, a device, a socket) is refused unread (`InvalidInput`).
pub fn file_or_pipe(path: &Path, cap: u64, patience: Duration) -> io::Result<Vec<u8>> {
    let file = open_without_blocking(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        return up_to(file, cap);
    }
    if is_fifo(&meta) {
        return up_to(Pipe::new(file, Some(patience)), cap);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not a file or a pipe", kind_of(&meta)),
    ))
}

/// Reads standard input (`-`) by the rules of [`file_or_pipe`]: a pipe (`sleep 1000 | appdeck
/// validate -`) for at most `patience`, never more than `cap` bytes. A terminal is read until
/// its end (`^D`): a person typing is no pipe that stalled.
pub fn stdin(cap: u64, patience: Duration) -> io::Result<Vec<u8>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // A descriptor of its own: dropping it leaves stdin open.
        let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
        opened(file, cap, patience)
    }
    #[cfg(not(unix))]
    {
        let _ = patience;
        up_to(io::stdin().lock(), cap)
    }
}

/// Reads an input already open (standard input): a pipe or a socket for at most `patience`
/// (`TimedOut`), anything else (a file, a terminal, a device) up to `cap` bytes.
pub fn opened(file: File, cap: u64, patience: Duration) -> io::Result<Vec<u8>> {
    let meta = file.metadata()?;
    #[cfg(unix)]
    let socket = std::os::unix::fs::FileTypeExt::is_socket(&meta.file_type());
    #[cfg(not(unix))]
    let socket = false;
    if is_fifo(&meta) || socket {
        return up_to(Pipe::new(file, Some(patience)), cap);
    }
    up_to(file, cap)
}

/// Whether `meta` is a pipe's (a FIFO, or an unnamed pipe reached through `/dev/fd/N`).
pub fn is_fifo(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// A pipe opened once, without blocking ([`open_without_blocking`]), read through that same
/// descriptor: opening it a second time to read loses what a writer let in by the first open
/// wrote before the second, and waits for ever once that writer is gone. Each read waits (poll)
/// until bytes are there or the writers are gone; a FIFO no writer has opened yet is waited for,
/// not taken for an empty one (Linux reports the end only after a writer came and went).
pub struct Pipe {
    file: File,
    /// When a read stops waiting (`TimedOut`); `None`: it never does.
    deadline: Option<Instant>,
}

impl Pipe {
    /// Reads `file`, a pipe opened with `O_NONBLOCK`, giving up `patience` from now.
    pub fn new(file: File, patience: Option<Duration>) -> Pipe {
        Pipe {
            file,
            deadline: patience.map(|p| Instant::now() + p),
        }
    }

    /// Waits until a read has something to say: bytes, or the end.
    #[cfg(unix)]
    fn wait(&self) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        loop {
            let timeout = match self.deadline {
                None => -1,
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "the pipe did not end in time (is anything writing to it?)",
                        ));
                    }
                    i32::try_from(left.as_millis().max(1)).unwrap_or(i32::MAX)
                }
            };
            let mut fd = libc::pollfd {
                fd: self.file.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for the length given.
            let ready = unsafe { libc::poll(&mut fd, 1, timeout) };
            if ready > 0 {
                return Ok(());
            }
            if ready < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }

    #[cfg(not(unix))]
    fn wait(&self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            self.wait()?;
            match self.file.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                other => return other,
            }
        }
    }
}

/// Opening a FIFO for reading waits for a writer; `O_NONBLOCK` makes it return at once, so that
/// its type can be checked. On a regular file the flag changes nothing.
pub fn open_without_blocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

pub fn kind_of(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "something else"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_file_up_to_its_cap_and_refuses_one_past_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "12345").unwrap();
        let (bytes, meta) = file(&path, 5).unwrap();
        assert_eq!(bytes, b"12345");
        assert!(meta.is_file());
        let error = file(&path, 4).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(error.to_string(), "it is larger than the 4-byte limit");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = file(dir.path(), 10).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("a directory"), "{error}");
    }

    /// A new FIFO in `dir`.
    #[cfg(unix)]
    fn fifo_in(dir: &tempfile::TempDir) -> std::path::PathBuf {
        let path = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        path
    }

    /// With no writer, reading a FIFO would wait for ever: the refusal must come without a read.
    #[cfg(unix)]
    #[test]
    fn a_fifo_with_no_writer_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = fifo_in(&dir);
        let (done, answer) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(file(&path, 10).map(|_| ()));
        });
        let error = answer
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("a FIFO is refused without waiting for a writer")
            .unwrap_err();
        assert!(error.to_string().contains("FIFO"), "{error}");
    }

    /// Issue 35 item 7: a pipe a user names is read (a writer that comes after the open, then
    /// pauses, loses nothing), and one nobody writes to is given up on after its patience.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_read_whole_and_a_silent_one_within_its_patience() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = fifo_in(&dir);
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            let mut w = OpenOptions::new().write(true).open(&writer_path).unwrap();
            w.write_all(b"{\"a\":").unwrap();
            std::thread::sleep(Duration::from_millis(100));
            w.write_all(b"1}").unwrap();
        });
        let read = file_or_pipe(&path, 100, Duration::from_secs(20)).unwrap();
        writer.join().unwrap();
        assert_eq!(read, b"{\"a\":1}");

        let started = Instant::now();
        let error = file_or_pipe(&path, 100, Duration::from_millis(300)).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut, "{error}");
        assert!(started.elapsed() < Duration::from_secs(10));

        let error = file_or_pipe(Path::new("/dev/zero"), 10, PIPE_PATIENCE).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
    }

    /// Standard input as a pipe whose writer never ends it (`sleep 1000 | appdeck validate -`)
    /// is given up after its patience, as a FIFO named by its path is; one that ends is read.
    #[cfg(unix)]
    #[test]
    fn an_open_pipe_is_read_whole_and_a_silent_one_within_its_patience() {
        use std::io::Write;
        let (reader, mut writer) = io::pipe().unwrap();
        writer.write_all(b"{}").unwrap();
        drop(writer);
        let read = opened(
            File::from(std::os::fd::OwnedFd::from(reader)),
            100,
            PIPE_PATIENCE,
        );
        assert_eq!(read.unwrap(), b"{}");

        let (reader, writer) = io::pipe().unwrap();
        let (done, said) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let reader = File::from(std::os::fd::OwnedFd::from(reader));
            let _ = done.send(opened(reader, 100, Duration::from_millis(300)));
        });
        let error = said
            .recv_timeout(Duration::from_secs(10))
            .expect("given up within its patience")
            .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut, "{error}");
        drop(writer);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let error = file(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(error.to_string().contains("a device"), "{error}");
    }
}
