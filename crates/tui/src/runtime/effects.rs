//! The side effects that are not API calls: the clipboard (OSC 52) and the browser. Behind a
//! trait so the loop can be driven in tests without a terminal or a desktop; the real effects
//! are thin wrappers over [`write_osc52`] and [`open_with`], which tests drive with a captured
//! writer and a fake opener.

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
pub(crate) struct TerminalEffects {
    /// What `o` opens links with, in order (see `opener.rs`).
    pub openers: Vec<super::opener::Opener>,
}

impl Effects for TerminalEffects {
    fn copy(&mut self, text: &str) -> io::Result<()> {
        let inside_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
        write_osc52(&mut io::stdout().lock(), text, inside_tmux)
    }

    /// The opener may wait a moment to see whether the launcher failed, so it runs off the UI
    /// task.
    fn open_url(&mut self, url: String, report: UnboundedSender<Action>) {
        let openers = self.openers.clone();
        tokio::task::spawn_blocking(move || {
            if let Some(notice) = open_with(&url, |url| super::opener::open(url, &openers)) {
                let _ = report.send(Action::Notice(notice));
            }
        });
    }
}

/// Writes the OSC 52 sequence that asks the terminal to put `text` on its clipboard. The text
/// is base64-encoded, so whatever it holds cannot end the sequence early or inject another one.
///
/// Inside tmux the plain sequence reaches tmux, which copies it only with `set-clipboard on`;
/// so the same sequence follows wrapped in tmux's DCS passthrough, which tmux hands on to the
/// outer terminal (with `allow-passthrough on`). Each setting makes one of the two arrive.
pub(crate) fn write_osc52(out: &mut impl Write, text: &str, inside_tmux: bool) -> io::Result<()> {
    let sequence = osc52(text);
    out.write_all(sequence.as_bytes())?;
    if inside_tmux {
        out.write_all(tmux_passthrough(&sequence).as_bytes())?;
    }
    out.flush()
}

/// `ESC ] 52 ; c ; <base64> BEL`: set the clipboard (`c`) to the decoded text.
fn osc52(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07")
}

/// `ESC P tmux; <sequence with every ESC doubled> ESC \`: tmux's passthrough to the terminal
/// it runs in.
fn tmux_passthrough(sequence: &str) -> String {
    format!("\x1bPtmux;{}\x1b\\", sequence.replace('\x1b', "\x1b\x1b"))
}

/// Hands `url` to `opener` if it is an http(s) URL, and says what went wrong as a notice: a
/// URL of another scheme (the app checks this too; a `file:` or `javascript:` link must never
/// reach a launcher) or an opener that failed, in words rather than a launcher's exit status.
pub(crate) fn open_with(url: &str, opener: impl FnOnce(&str) -> io::Result<()>) -> Option<Notice> {
    if !is_web_url(url) {
        return Some(Notice::Error(format!(
            "not opened: only http and https links are opened, not {}",
            crate::sanitize::line(url)
        )));
    }
    let error = opener(url).err()?;
    tracing::warn!("opening a URL failed: {error}");
    let set_by_user = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<super::opener::CommandFailed>());
    let reason = match error.kind() {
        _ if set_by_user.is_some() => error.to_string(),
        // No launcher could start, or the one that did (xdg-open and the like) found nothing
        // to open the URL with.
        io::ErrorKind::NotFound | io::ErrorKind::Other => {
            "no opener found: set $BROWSER or `opener` in the config file".to_owned()
        }
        kind => kind.to_string(),
    };
    Some(Notice::Error(format!(
        "could not open a browser ({reason})"
    )))
}

fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str, inside_tmux: bool) -> String {
        let mut out = Vec::new();
        write_osc52(&mut out, text, inside_tmux).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn decode(encoded: &str) -> String {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .expect("base64");
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn osc52_is_base64_between_the_introducer_and_bel() {
        let text = "res_0042 \u{1b}]52;c;evil\u{7} ünïcode";
        let out = written(text, false);
        let encoded = out
            .strip_prefix("\x1b]52;c;")
            .and_then(|rest| rest.strip_suffix('\x07'))
            .unwrap_or_else(|| panic!("not one OSC 52 sequence: {out:?}"));
        assert!(
            encoded
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)),
            "only base64 between the framing: {encoded:?}"
        );
        assert_eq!(decode(encoded), text);
    }

    #[test]
    fn inside_tmux_the_sequence_also_goes_through_the_passthrough() {
        let out = written("res_1", true);
        let plain = format!("\x1b]52;c;{}\x07", base64_of("res_1"));
        let wrapped = format!("\x1bPtmux;\x1b\x1b]52;c;{}\x07\x1b\\", base64_of("res_1"));
        assert_eq!(out, format!("{plain}{wrapped}"));
        // Outside tmux, only the plain sequence.
        assert_eq!(written("res_1", false), plain);
    }

    fn base64_of(text: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(text)
    }

    #[test]
    fn the_opener_is_called_with_http_and_https_urls_only() {
        let mut called = Vec::new();
        for url in [
            "https://example.com/a",
            "HTTP://example.com/b",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "mailto:a@b.c",
            "httpx://example.com",
            "/relative/path",
            "",
        ] {
            let notice = open_with(url, |u| {
                called.push(u.to_owned());
                Ok(())
            });
            let web = url.to_ascii_lowercase().starts_with("http://")
                || url.to_ascii_lowercase().starts_with("https://");
            assert_eq!(notice.is_none(), web, "{url}: {notice:?}");
        }
        assert_eq!(called, ["https://example.com/a", "HTTP://example.com/b"]);
    }

    #[test]
    fn a_refused_scheme_is_said_and_neutralised() {
        let Some(Notice::Error(message)) = open_with("file:///x\u{1b}[2J", |_| Ok(())) else {
            panic!("a notice");
        };
        assert!(
            message.starts_with("not opened: only http and https"),
            "{message}"
        );
        assert!(!message.contains('\u{1b}'), "{message:?}");
    }

    #[test]
    fn an_opener_failure_reads_as_words_not_an_exit_status() {
        let failed = |kind, text: &str| {
            let error = io::Error::new(kind, text.to_owned());
            match open_with("https://example.com", move |_| Err(error)) {
                Some(Notice::Error(message)) => message,
                other => panic!("expected an error notice, got {other:?}"),
            }
        };
        let launcher_failed = failed(
            io::ErrorKind::Other,
            "Launcher \"xdg-open\" failed with ExitStatus(unix_wait_status(768))",
        );
        assert_eq!(
            launcher_failed,
            "could not open a browser (no opener found: set $BROWSER or `opener` in the config file)"
        );
        assert_eq!(
            failed(io::ErrorKind::NotFound, "No such file or directory"),
            "could not open a browser (no opener found: set $BROWSER or `opener` in the config file)"
        );
        let denied = failed(io::ErrorKind::PermissionDenied, "EACCES");
        assert_eq!(denied, "could not open a browser (permission denied)");
        assert_eq!(open_with("https://example.com", |_| Ok(())), None);
    }
}
