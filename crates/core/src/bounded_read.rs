//! Reading a file the user named (a config file, a token file, a connect or report payload)
//! with a bound on both time and size. A FIFO blocks whoever opens or reads it until someone
//! writes, and a device such as `/dev/zero` never ends: read naively, either hangs appdeck with
//! nothing said. So only a regular file is read, never more than the caller's cap, and the open
//! itself cannot block. The errors are plain `io::Error`s, so every caller keeps the messages it
//! already gives for a missing or unreadable file.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

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

    /// With no writer, reading a FIFO would wait for ever: the refusal must come without a read.
    #[cfg(unix)]
    #[test]
    fn a_fifo_with_no_writer_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
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

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused() {
        let error = file(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(error.to_string().contains("a device"), "{error}");
    }
}
