//! The log file: created private (0600), rotated by size so that it can never fill a disk. When
//! the file would pass `max_bytes`, it becomes `NAME.1` (`NAME.1` becomes `NAME.2`, and so on, the
//! oldest dropped) and a fresh file is started: at most `keep + 1` files of `max_bytes` each.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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

/// Opens for appending, creating the file 0600; an existing file is made 0600 too (an older
/// appdeck created it 0644).
fn open_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let file = options.open(path)?;
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
}
