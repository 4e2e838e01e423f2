//! The side effects that are not API calls: the clipboard (OSC 52) and the browser. Behind a
//! trait so the loop can be driven in tests without a terminal or a desktop.

use std::io::{self, Write};

use base64::Engine;

pub trait Effects {
    /// Puts `text` on the clipboard of the user's terminal.
    fn copy(&mut self, text: &str) -> io::Result<()>;
}

/// The real terminal: OSC 52 written to stdout. The text is base64-encoded, so whatever it holds
/// cannot end the sequence early or inject another one.
pub struct TerminalEffects;

impl Effects for TerminalEffects {
    fn copy(&mut self, text: &str) -> io::Result<()> {
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut stdout = io::stdout();
        write!(stdout, "\x1b]52;c;{encoded}\x07")?;
        stdout.flush()
    }
}

/// Records what would have been copied, for tests.
#[derive(Default, Debug)]
pub struct RecordedEffects {
    pub copied: Vec<String>,
}

impl Effects for RecordedEffects {
    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.copied.push(text.to_owned());
        Ok(())
    }
}
