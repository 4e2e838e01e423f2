//! End to end: the built binary (release under the README's test command) in a real terminal,
//! tmux, against the built-in sandbox (`--demo`). Keys go in with `send-keys`, the screen comes
//! back with `capture-pane`; every wait polls for a condition with a deadline.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(15);

/// One tmux server of our own (its own socket), running a clean shell; killed on drop.
struct Tmux {
    socket: String,
    home: tempfile::TempDir,
}

impl Tmux {
    fn start(width: u16, height: u16) -> Tmux {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "appdeck-e2e-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let home = tempfile::tempdir().expect("temp home");
        let tmux = Tmux { socket, home };
        // A bare shell with a known prompt and a private HOME, so no user config leaks in.
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
        tmux.wait_for("the shell prompt", |screen| screen.contains("$"));
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux must be installed to run the end-to-end tests (apt-get install tmux)")
    }

    fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    fn type_line(&self, line: &str) {
        self.send(&["-l", line]);
        self.send(&["Enter"]);
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "0"]).stdout).into_owned()
    }

    fn format(&self, format: &str) -> String {
        String::from_utf8_lossy(
            &self
                .run(&["display-message", "-p", "-t", "0", format])
                .stdout,
        )
        .trim()
        .to_owned()
    }

    /// Polls the screen until `ready` holds; panics with the last screen after the deadline.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; the screen was:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_appdeck"))
}

/// The selected row and the row count from the table's bottom border (" 12/300 ").
fn position(screen: &str) -> Option<(usize, usize)> {
    screen
        .lines()
        .filter(|l| l.starts_with('└'))
        .find_map(|line| {
            let part = line.trim_end_matches(['┘', '─', ' ']).rsplit(' ').next()?;
            let (a, b) = part.split_once('/')?;
            Some((
                a.replace(',', "").parse().ok()?,
                b.replace(',', "").parse().ok()?,
            ))
        })
}

/// Starts `appdeck --demo` in the shell and waits for the first rows.
fn launch_demo(tmux: &Tmux, extra: &str) -> String {
    tmux.type_line(&format!("{} --demo {extra}", binary().display()));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    })
}

#[test]
fn browse_detail_help_and_quit_restore_the_terminal() {
    let tmux = Tmux::start(120, 40);
    let stty_before = {
        tmux.type_line("stty -g > stty.before");
        // Wait for content, not just the file: the shell creates it before stty writes.
        tmux.wait_for("stty", |_| {
            std::fs::read_to_string(tmux.home.path().join("stty.before"))
                .is_ok_and(|s| !s.is_empty())
        });
        std::fs::read_to_string(tmux.home.path().join("stty.before")).unwrap_or_default()
    };
    let screen = launch_demo(&tmux, "");
    assert!(screen.contains("Resources"), "{screen}");
    assert!(
        screen.contains("TYPE") && screen.contains("NAME"),
        "{screen}"
    );
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "1",
        "the TUI uses the alternate screen"
    );

    // Help lists the keys of the pane and narrows as the user types.
    tmux.send(&["?"]);
    tmux.wait_for("the help", |s| {
        s.contains("Keys · resource list") && s.contains("pick a type filter")
    });
    tmux.send(&["-l", "copy"]);
    tmux.wait_for("the filtered help", |s| {
        s.contains("copy the resource id") && !s.contains("pick a type filter")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the help to close", |s| !s.contains("Keys · resource list"));

    // Enter opens the detail with its properties, tree and raw JSON; Esc goes back.
    tmux.send(&["Enter"]);
    let detail = tmux.wait_for("the detail", |s| {
        s.contains("Properties") && s.contains("Raw JSON")
    });
    assert!(
        detail.contains("display_name") || detail.contains("name"),
        "{detail}"
    );
    assert!(detail.contains("created_at"), "{detail}");
    tmux.send(&["Escape"]);
    tmux.wait_for("the list again", |s| {
        s.contains("TYPE") && s.contains("NAME")
    });

    // q quits at once and leaves the terminal as it was.
    tmux.send(&["q"]);
    tmux.wait_for("the shell prompt after quitting", |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$")
    });
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "0",
        "back on the main screen"
    );
    assert_eq!(tmux.format("#{cursor_flag}"), "1", "cursor visible");
    assert_eq!(tmux.format("#{mouse_any_flag}"), "0", "mouse reporting off");
    tmux.type_line("stty -g > stty.after");
    tmux.wait_for("stty", |_| {
        std::fs::read_to_string(tmux.home.path().join("stty.after")).is_ok_and(|s| !s.is_empty())
    });
    let stty_after =
        std::fs::read_to_string(tmux.home.path().join("stty.after")).unwrap_or_default();
    assert_eq!(stty_before, stty_after, "terminal modes restored");
}

#[test]
fn holding_j_runs_past_several_pages_without_stopping() {
    let tmux = Tmux::start(100, 30);
    let first = launch_demo(&tmux, "--page-size 20");
    let (_, loaded_at_start) = position(&first).expect("a position");
    assert!(
        loaded_at_start < 150,
        "only the first pages are loaded at start: {loaded_at_start}"
    );
    // 150 separate presses, as a held key repeats (faster, in fact: one per tmux call): the
    // cursor must follow every one of them, which it can only do if pages arrive before it
    // reaches the end of the loaded rows.
    for _ in 0..150 {
        tmux.send(&["j"]);
    }
    let screen = tmux.wait_for("the cursor on row 151", |s| {
        position(s).is_some_and(|(row, _)| row == 151)
    });
    let (_, loaded) = position(&screen).expect("a position");
    assert!(
        loaded > 151,
        "pages kept arriving ahead of the cursor: {loaded} loaded"
    );
    tmux.send(&["q"]);
    tmux.wait_for("the shell prompt", |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$")
    });
}

#[test]
fn type_filter_from_the_command_line_and_the_picker() {
    let tmux = Tmux::start(120, 40);
    launch_demo(&tmux, "");
    tmux.send(&[":"]);
    tmux.send(&["-l", "type dep"]);
    tmux.send(&["Tab"]);
    tmux.wait_for("completion", |s| s.contains(":type deployment"));
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the filtered list", |s| {
        s.contains("type deployment ·") && s.contains("loaded")
    });
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.starts_with("│ ") && !l.contains("TYPE"))
        .collect();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|l| l.contains("deployment")), "{screen}");
    tmux.send(&["t"]);
    tmux.wait_for("the picker", |s| {
        s.contains("Type filter") && s.contains("(all types)")
    });
    tmux.send(&["g", "Enter"]);
    tmux.wait_for("all types again", |s| s.contains("all types ·"));
    tmux.send(&["q"]);
}

#[test]
fn a_server_that_disappears_shows_an_error_and_q_still_quits() {
    let tmux = Tmux::start(100, 30);
    // Nothing listens on port 9 of loopback: the connection is refused.
    tmux.type_line(&format!(
        "APPDECK_BASE_URL=http://127.0.0.1:9/api/v1 APPDECK_TOKEN=s3cr3t-t0ken {}",
        binary().display()
    ));
    let screen = tmux.wait_for("the error", |s| s.contains("Could not load resources"));
    assert!(screen.contains("r retry"), "{screen}");
    assert!(!screen.contains("s3cr3t-t0ken"), "the token is never shown");
    tmux.send(&["!"]);
    tmux.wait_for("the error details", |s| {
        s.contains("While loading resources")
    });
    // Esc and q apart: sent together they read as Alt-q, as from any terminal.
    tmux.send(&["Escape"]);
    tmux.wait_for("the details to close", |s| {
        !s.contains("While loading resources")
    });
    tmux.send(&["q"]);
    tmux.wait_for("the shell prompt", |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$")
    });
    assert_eq!(tmux.format("#{alternate_on}"), "0");
}

#[test]
fn r_writes_a_report_about_a_resource_sends_it_and_shows_the_answer() {
    let tmux = Tmux::start(120, 40);
    launch_demo(&tmux, "");
    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about"));
    tmux.send(&["j", "j", "Enter"]);
    tmux.send(&["-l", "typed in tmux, q and s are text"]);
    tmux.send(&["Escape"]);
    tmux.wait_for("the message", |s| {
        s.contains("message       typed in tmux, q and s are text")
    });
    tmux.send(&["s"]);
    let review = tmux.wait_for("the review", |s| s.contains("Review: the exact request"));
    assert!(review.contains("Bearer ••••"), "{review}");
    assert!(review.contains("/apps.operations.report"), "{review}");
    tmux.send(&["Enter"]);
    if review.contains("finding(s)") {
        tmux.send(&["Enter"]);
    }
    let answer = tmux.wait_for("the answer", |s| s.contains("answer · HTTP 200"));
    assert!(answer.contains("sent: the service answered ok"), "{answer}");
    assert!(
        answer.contains("platform_app_url  http://127.0.0.1"),
        "{answer}"
    );
    tmux.send(&["Escape"]);
    tmux.wait_for("back to the report", |s| {
        s.contains("message       typed in tmux")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
}
