//! Mistakes in the terminal UI's settings (`theme`, `keys`), located by line so the error can
//! say where to look; the caller adds the file's path.

/// A problem at a line of the config file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineProblem {
    pub line: usize,
    pub message: String,
}

impl LineProblem {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        LineProblem {
            line,
            message: message.into(),
        }
    }
}

/// The 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}
