//! A private tmux server to run the release binary in a real terminal: keys go in with
//! `send-keys`, the screen comes back with `capture-pane`, and every wait polls a condition
//! with a deadline (never a fixed sleep).

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a condition may take to show. Only a failing test waits it out; the suite runs the
/// tmux tests side by side on two cores, where a busy moment took over 15 s.
pub const WAIT: Duration = Duration::from_secs(30);

/// One tmux server of our own (its own socket), running a clean shell in a private home;
/// killed on drop.
pub struct Tmux {
    socket: String,
    pub home: tempfile::TempDir,
}

impl Tmux {
    pub fn start(width: u16, height: u16) -> Tmux {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "appdeck-e2e-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let home = tempfile::tempdir().expect("temp home");
        let tmux = Tmux { socket, home };
        let shell = format!(
            "env -i PATH=/usr/bin:/bin HOME={home} TERM=xterm-256color PS1='$ ' bash --norc --noprofile",
            home = tmux.home.path().display()
        );
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            "-c",
            &tmux.home.path().display().to_string(),
            &shell,
        ]);
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        tmux.wait_for("the shell prompt", |screen| screen.contains('$'));
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux must be installed to run the end-to-end tests (apt-get install tmux)")
    }

    pub fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Sends `Esc` and waits until the screen changed: an `Esc` sent right after another can
    /// reach appdeck in the same read, which crossterm takes for a single `Esc` (an e2e test
    /// flaked so on a loaded machine). Only for an `Esc` that changes the screen.
    pub fn escape(&self) -> String {
        let before = self.screen();
        self.send(&["Escape"]);
        self.wait_for("the Esc to be taken", |s| s != before)
    }

    pub fn type_line(&self, line: &str) {
        self.send(&["-l", line]);
        self.send(&["Enter"]);
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "0"]).stdout).into_owned()
    }

    /// Polls the screen until `ready` holds; panics with the last screen after the deadline.
    ///
    /// The screen returned is a settled one: tmux can be captured while appdeck is halfway
    /// through writing a frame (CI once caught a review popup with only its top lines drawn,
    /// which satisfied `ready` but not the test's next assert). So a ready screen is captured
    /// again until two captures agree; a screen that keeps moving (a spinner) is returned after
    /// `SETTLE_TRIES` captures.
    pub fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        const SETTLE_TRIES: usize = 25;
        let deadline = Instant::now() + WAIT;
        loop {
            let mut screen = self.screen();
            if ready(&screen) {
                for _ in 0..SETTLE_TRIES {
                    std::thread::sleep(Duration::from_millis(20));
                    let again = self.screen();
                    if again == screen {
                        break;
                    }
                    screen = again;
                }
                if ready(&screen) {
                    return screen;
                }
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; the screen was:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A tmux format (`#{alternate_on}`...) for the pane, as tmux sees it now.
    pub fn format(&self, format: &str) -> String {
        String::from_utf8_lossy(
            &self
                .run(&["display-message", "-p", "-t", "0", format])
                .stdout,
        )
        .trim()
        .to_owned()
    }

    /// The pane's terminal modes (`stty -g`), as the shell sees them; saved to `file`.
    pub fn stty(&self, file: &str) -> String {
        self.type_line(&format!("stty -g > {file}"));
        let path = self.home.path().join(file);
        // Wait for content, not just the file: the shell creates it before stty writes.
        self.wait_for("stty", |_| {
            std::fs::read_to_string(&path).is_ok_and(|s| !s.is_empty())
        });
        std::fs::read_to_string(&path).unwrap_or_default()
    }

    /// Waits until the last non-empty line is the shell's prompt (the TUI has quit).
    pub fn wait_for_prompt(&self, what: &str) -> String {
        self.wait_for(what, |s| {
            s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$")
        })
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_appdeck"))
}
