//! Reading a payload from a file or from stdin (`-`), within a size cap: a payload is a JSON
//! document, so input past the cap (or a device such as `/dev/zero`, which never ends) is a
//! mistake to report, not something to read into memory.

use std::io::Read;
use std::path::Path;

use super::Failure;
use crate::api::ClientSettings;

/// The largest payload read: the same size as the default cap on the service's answers.
pub const MAX_INPUT_BYTES: u64 = ClientSettings::DEFAULT_MAX_RESPONSE_BYTES;

/// A payload's text and the name to use for it in messages.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// Reads `path`, or stdin when it is `-`. Unreadable, oversized and non-UTF-8 input, and
/// devices, are usage errors.
pub fn read(path: &Path) -> Result<Input, Failure> {
    read_capped(path, MAX_INPUT_BYTES)
}

fn read_capped(path: &Path, cap: u64) -> Result<Input, Failure> {
    let (name, bytes) = if path == Path::new("-") {
        let name = "stdin".to_owned();
        let bytes = read_up_to(std::io::stdin().lock(), &name, cap)?;
        (name, bytes)
    } else {
        let name = path.display().to_string();
        let cannot = |e: std::io::Error| Failure::Usage(format!("cannot read {name}: {e}"));
        let file = std::fs::File::open(path).map_err(cannot)?;
        let kind = file.metadata().map_err(cannot)?.file_type();
        if kind.is_dir() {
            return Err(Failure::Usage(format!(
                "cannot read {name}: it is a directory"
            )));
        }
        if is_device(&kind) {
            return Err(Failure::Usage(format!(
                "cannot read {name}: it is a device, not a file (give a JSON file, or - for stdin)"
            )));
        }
        let bytes = read_up_to(file, &name, cap)?;
        (name, bytes)
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Usage(format!(
            "{name}: not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Input { name, text })
}

/// Reads at most `cap` bytes, failing when there is more (a pipe may not end either).
fn read_up_to(source: impl Read, name: &str, cap: u64) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    source
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(Failure::Usage(format!(
            "{name} is larger than the {} MiB a payload may have",
            cap / (1024 * 1024)
        )));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn is_device(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_char_device() || kind.is_block_device()
}

#[cfg(not(unix))]
fn is_device(_kind: &std::fs::FileType) -> bool {
    false
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
