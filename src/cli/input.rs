//! Reading a payload from a file or from stdin (`-`).

use std::io::Read;
use std::path::Path;

use super::Failure;

/// A payload's text and the name to use for it in messages.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// Reads `path`, or stdin when it is `-`. Unreadable and non-UTF-8 input are usage errors.
pub fn read(path: &Path) -> Result<Input, Failure> {
    let (name, bytes) = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Usage(format!("cannot read stdin: {e}")))?;
        ("stdin".to_owned(), bytes)
    } else {
        let name = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?;
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
