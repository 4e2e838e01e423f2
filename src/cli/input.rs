//! Reading a payload from a file or from stdin (`-`), within a size cap: a payload is a JSON
//! document, so input past the cap (or a device such as `/dev/zero`, which never ends) is a
//! mistake to report, not something to read into memory.

use std::io::ErrorKind;
use std::path::Path;

use super::Failure;
use crate::api::error::describe_bytes;
use crate::bounded_read;

/// A payload's text and the name to use for it in messages.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// Reads `path`, or stdin when it is `-`: a regular file or a pipe (`<(…)`, a FIFO), a pipe for
/// at most [`bounded_read::PIPE_PATIENCE`]. Unreadable, oversized, late and non-UTF-8 input,
/// and anything else (a device, a directory), are usage errors.
pub fn read(path: &Path) -> Result<Input, Failure> {
    read_capped(path, bounded_read::MAX_PAYLOAD_BYTES)
}

fn read_capped(path: &Path, cap: u64) -> Result<Input, Failure> {
    let (name, read) = if path == Path::new("-") {
        let name = "stdin".to_owned();
        let read = bounded_read::stdin(cap, bounded_read::PIPE_PATIENCE);
        (name, read)
    } else {
        let read = bounded_read::file_or_pipe(path, cap, bounded_read::PIPE_PATIENCE);
        (path.display().to_string(), read)
    };
    let bytes = read.map_err(|e| match e.kind() {
        ErrorKind::FileTooLarge => Failure::Usage(format!(
            "{name} is larger than the {} a payload may have",
            describe_bytes(cap)
        )),
        ErrorKind::InvalidInput => Failure::Usage(format!(
            "cannot read {name}: {e} (give a JSON file, or - for stdin)"
        )),
        ErrorKind::TimedOut => Failure::Usage(format!(
            "cannot read {name}: it did not end within {}s (is anything writing to it?)",
            bounded_read::PIPE_PATIENCE.as_secs()
        )),
        _ => Failure::Usage(format!("cannot read {name}: {e}")),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Usage(format!(
            "{name}: not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Input { name, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_past_the_cap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; 3 * 1024 * 1024]).unwrap();
        let Err(Failure::Usage(message)) = read_capped(&path, 2 * 1024 * 1024) else {
            panic!("a file over the cap was read");
        };
        assert!(message.contains("larger than the 2 MiB"), "{message}");
        assert!(read_capped(&path, 4 * 1024 * 1024).is_ok());
    }
}
