//! The side effects that are not API calls: the clipboard (OSC 52) and the browser. Behind a
//! trait so the loop can be driven in tests without a terminal or a desktop.

use std::io::{self, Write};

use base64::Engine;
use tokio::sync::mpsc::UnboundedSender;

use crate::app::{Action, Notice};

pub trait Effects {
    /// Puts `text` on the clipboard of the user's terminal.
    fn copy(&mut self, text: &str) -> io::Result<()>;
    /// Opens an http(s) URL (already checked by the app) in the user's browser; a failure comes
    /// back on `report` as a notice.
    fn open_url(&mut self, url: String, report: UnboundedSender<Action>);
}

/// The real terminal and desktop.
pub struct TerminalEffects;

impl Effects for TerminalEffects {
    /// OSC 52 written to stdout. The text is base64-encoded, so whatever it holds cannot end the
    /// sequence early or inject another one.
    fn copy(&mut self, text: &str) -> io::Result<()> {
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut stdout = io::stdout();
        write!(stdout, "\x1b]52;c;{encoded}\x07")?;
        stdout.flush()
    }

    /// The opener may wait a moment to see whether the launcher failed, so it runs off the UI
    /// task.
    fn open_url(&mut self, url: String, report: UnboundedSender<Action>) {
        tokio::task::spawn_blocking(move || {
            if let Err(e) = open::that_detached(&url) {
                let notice = Notice::Error(format!("could not open a browser: {e}"));
                let _ = report.send(Action::Notice(notice));
            }
        });
    }
}

/// Records what would have been copied or opened, for tests.
#[derive(Default, Debug)]
pub struct RecordedEffects {
    pub copied: Vec<String>,
    pub opened: Vec<String>,
}

impl Effects for RecordedEffects {
    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.copied.push(text.to_owned());
        Ok(())
    }

    fn open_url(&mut self, url: String, _report: UnboundedSender<Action>) {
        self.opened.push(url);
    }
}
