//! End to end: the built binary (release under the README's test command) in a real terminal,
//! tmux, against the built-in sandbox (`--demo`). Keys go in with `send-keys`, the screen comes
//! back with `capture-pane`; every wait polls for a condition with a deadline.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::tmux::{Tmux, WAIT, binary};
use common::{TOKEN, TestSandbox};

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
    // The fields of the resource itself, not just any screen mentioning a name: a field line
    // starts at the focused pane's border (`┃`), the selected one with its marker.
    let field = |name: &str| {
        detail.lines().find(|l| {
            l.strip_prefix('┃')
                .map(|rest| rest.trim_start_matches('▶').trim_start())
                .is_some_and(|rest| rest.starts_with(name))
        })
    };
    assert!(field("display_name ").is_some(), "{detail}");
    assert!(
        field("id ").is_some_and(|l| l.contains(" res_")),
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
    // The table's rows: inside its border, the selected one marked `▶`.
    fn rows(screen: &str) -> Vec<&str> {
        screen
            .lines()
            .filter(|l| {
                let mut chars = l.chars();
                matches!(chars.next(), Some('│' | '┃'))
                    && matches!(chars.next(), Some(' ' | '▶' | '!'))
                    && !l.contains("TYPE")
            })
            .collect()
    }
    // A capture can catch a frame half drawn over the loading one: wait for the list whole.
    let screen = tmux.wait_for("the filtered list", |s| {
        s.contains("type deployment ·")
            && s.contains("loaded")
            && !rows(s).is_empty()
            && rows(s).iter().all(|l| l.contains("deployment"))
    });
    assert!(
        rows(&screen).iter().all(|l| l.contains("deployment")),
        "{screen}"
    );
    tmux.send(&["t"]);
    tmux.wait_for("the picker, the listed type marked", |s| {
        s.contains("Type filter") && s.contains("(all types)") && s.contains("✓ deployment")
    });
    // Typing narrows the types.
    tmux.send(&["-l", "inc"]);
    tmux.wait_for("only incident in the picker", |s| {
        s.contains("incident") && !s.contains("(all types)")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the incidents", |s| s.contains("type incident ·"));
    tmux.send(&["t"]);
    tmux.send(&["-l", "all"]);
    tmux.wait_for("all types alone", |s| {
        s.contains("(all types)") && !s.contains("✓ incident")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("all types again", |s| s.contains("all types ·"));
    tmux.send(&["q"]);
}

#[test]
fn a_server_that_disappears_shows_an_error_and_q_still_quits() {
    let tmux = Tmux::start(100, 30);
    // A port this test holds without listening: the connection is refused.
    let closed = common::RefusedPort::bind();
    tmux.type_line(&format!(
        "APPDECK_BASE_URL={} APPDECK_TOKEN=s3cr3t-t0ken {}",
        closed.base_url(),
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

/// A log that cannot be written (here no file may grow: `ulimit -f 0`, with SIGXFSZ ignored so
/// that a write fails with EFBIG as on a full disk) used to have its errors printed on stderr by
/// `tracing_subscriber`, over the frames. Now nothing but appdeck's frames reaches the terminal,
/// and the status bar says the log cannot be written.
#[test]
fn an_unwritable_log_never_draws_over_the_screen_and_the_status_bar_says_so() {
    // Wide enough for the whole warning in the status bar.
    let tmux = Tmux::start(200, 30);
    tmux.type_line(&format!(
        "sh -c \"trap '' XFSZ; ulimit -f 0; exec {} --demo\"",
        binary().display()
    ));
    let screen = tmux.wait_for("the rows and the warning", |s| {
        s.contains("loaded") && s.contains("the log file cannot be written")
    });
    assert!(screen.contains("its lines are dropped"), "{screen}");
    // Moving draws frames and logs; no error text may land on the screen meanwhile.
    tmux.send(&["j", "j", "k"]);
    let screen = tmux.wait_for("the cursor moved", |s| {
        position(s).is_some_and(|(at, _)| at == 2)
    });
    for stray in ["tracing", "Unable to write"] {
        assert!(
            !screen.contains(stray),
            "{stray:?} on the screen:\n{screen}"
        );
    }
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell after quitting");
}

/// After a TUI has gone, whichever way: the shell's prompt on the main screen (which still shows
/// what the shell printed before the TUI started), the cursor visible, no mouse reporting, and
/// the terminal's modes as they were (`stty_before`). Returns the screen.
fn assert_terminal_restored(tmux: &Tmux, stty_before: &str) -> String {
    let screen = tmux.wait_for_prompt("the shell prompt");
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "0",
        "back on the main screen"
    );
    assert!(
        screen.contains("stty -g > stty.before"),
        "the main screen shows the shell's earlier lines:\n{screen}"
    );
    assert_eq!(tmux.format("#{cursor_flag}"), "1", "cursor visible");
    assert_eq!(tmux.format("#{mouse_any_flag}"), "0", "mouse reporting off");
    assert_eq!(
        tmux.stty("stty.after"),
        stty_before,
        "terminal modes restored"
    );
    screen
}

/// Starts `appdeck --demo` in the shell, writing its PID to `appdeck.pid` (the shell execs it,
/// so the PID is appdeck's), and waits for the first rows on the alternate screen.
fn launch_demo_with_pid(tmux: &Tmux) -> String {
    tmux.type_line(&format!(
        "sh -c 'echo $$ > appdeck.pid; exec {} --demo'",
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    assert_eq!(tmux.format("#{alternate_on}"), "1", "the TUI is on");
    assert_eq!(
        tmux.format("#{cursor_flag}"),
        "0",
        "the TUI hides the cursor"
    );
    let pid = std::fs::read_to_string(tmux.home.path().join("appdeck.pid")).expect("the PID");
    pid.trim().to_owned()
}

/// The signal quits like `q`, restoring the terminal, but the exit status is 128 + the signal's
/// number (`status`), as a shell expects of a program a signal stopped: never 0.
fn a_signal_quits_and_restores_the_terminal(signal: &str, status: u8) {
    let tmux = Tmux::start(100, 30);
    let stty_before = tmux.stty("stty.before");
    let pid = launch_demo_with_pid(&tmux);
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill -{signal} {pid}: {killed}");
    // The status first: any command typed after it would replace `$?`.
    tmux.wait_for_prompt("the shell after the signal");
    tmux.type_line("echo \"status $?\" > exit.status");
    let path = tmux.home.path().join("exit.status");
    tmux.wait_for("the exit status", |_| {
        std::fs::read_to_string(&path).is_ok_and(|s| s.ends_with('\n'))
    });
    let said = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(said.trim(), format!("status {status}"), "after SIG{signal}");
    assert_terminal_restored(&tmux, &stty_before);
}

#[test]
fn sigterm_restores_the_terminal() {
    a_signal_quits_and_restores_the_terminal("TERM", 143);
}

#[test]
fn sighup_restores_the_terminal() {
    a_signal_quits_and_restores_the_terminal("HUP", 129);
}

#[test]
fn sigint_restores_the_terminal() {
    a_signal_quits_and_restores_the_terminal("INT", 130);
}

/// An example program, built next to this test by `cargo test` (target/<profile>/examples/).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.is_file(),
        "{} is missing: `cargo test --release` builds the examples (so does \
         `cargo build --release --examples`)",
        path.display()
    );
    path
}

/// A panic restores the terminal before its message is printed, so the message is readable on
/// the main screen. examples/panic_after_first_frame.rs enters the terminal through appdeck's
/// own guard and panic hook, then panics on a key.
#[test]
fn a_panic_restores_the_terminal_and_its_message_is_readable() {
    let tmux = Tmux::start(100, 30);
    let stty_before = tmux.stty("stty.before");
    tmux.type_line(&example("panic_after_first_frame").display().to_string());
    tmux.wait_for("the first frame", |s| s.contains("press a key to panic"));
    assert_eq!(tmux.format("#{alternate_on}"), "1", "the TUI is on");
    assert_eq!(tmux.format("#{mouse_any_flag}"), "1", "mouse reporting on");
    tmux.send(&["x"]);
    let screen = assert_terminal_restored(&tmux, &stty_before);
    assert!(
        screen.contains("deliberate panic after the first frame"),
        "the panic message is on the main screen:\n{screen}"
    );
}

/// `appdeck sandbox` as a child process with the given token, logging to `home`; killed on drop.
struct SandboxProcess {
    child: std::process::Child,
    base_url: String,
}

impl SandboxProcess {
    fn start(home: &Path, token: &str) -> SandboxProcess {
        SandboxProcess::start_with(home, token, &[])
    }

    /// As [`SandboxProcess::start`], with more of `appdeck sandbox`'s arguments (`--generate`,
    /// `--fault`...).
    fn start_with(home: &Path, token: &str, more: &[&str]) -> SandboxProcess {
        let mut child = Command::new(binary())
            .args(["sandbox", "--listen", "127.0.0.1:0", "--token", token])
            .args(more)
            .env_clear()
            .env("HOME", home)
            .env("APPDECK_LOG", "trace")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("appdeck sandbox starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = rx.recv_timeout(WAIT).expect("the sandbox prints its URL");
        let base_url = first
            .strip_prefix("export APPDECK_BASE_URL=")
            .unwrap_or_else(|| panic!("a URL line, not {first:?}"))
            .to_owned();
        SandboxProcess { child, base_url }
    }

    /// `appdeck` with nothing of the caller's environment but `home`, pointed at this sandbox
    /// with `token`.
    fn appdeck(&self, home: &Path, token: &str) -> Command {
        let mut cmd = Command::new(binary());
        cmd.env_clear()
            .env("HOME", home)
            .env("APPDECK_BASE_URL", &self.base_url)
            .env("APPDECK_TOKEN", token);
        cmd
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The token never reaches the log, even at the most verbose level: the sandbox command, the
/// TUI (browsing, opening a resource, a refused request) and a CLI command all run with
/// `APPDECK_LOG=trace` and the same HOME, so they log to the same file.
#[test]
fn the_token_is_never_logged_even_at_trace_level() {
    const TOKEN: &str = "tok-Zq81-recognisable-Wv7e";
    let tmux = Tmux::start(100, 30);
    let home = tmux.home.path().to_owned();
    let sandbox = SandboxProcess::start(&home, TOKEN);

    let list = sandbox
        .appdeck(&home, TOKEN)
        .args(["list", "--limit", "5"])
        .env("APPDECK_LOG", "trace")
        .output()
        .expect("appdeck list runs");
    assert!(list.status.success(), "{list:?}");

    // The token goes in through a file, so it is not on the screen either.
    common::write_file(&home.join("token"), TOKEN, 0o600);
    tmux.type_line(&format!(
        "APPDECK_LOG=trace APPDECK_BASE_URL={} {} --token-file token",
        sandbox.base_url,
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the detail", |s| s.contains("Raw JSON"));
    tmux.send(&["Escape"]);
    tmux.wait_for("the list again", |s| s.contains("TYPE"));
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");

    // A refused token, which the sandbox logs as a refusal.
    let refused = sandbox
        .appdeck(&home, &format!("{TOKEN}-wrong"))
        .args(["list"])
        .env("APPDECK_LOG", "trace")
        .output()
        .expect("appdeck list runs");
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    drop(sandbox);

    let log_path = home.join(".local/state/appdeck/appdeck.log");
    let log = std::fs::read_to_string(&log_path)
        .unwrap_or_else(|e| panic!("{}: {e}", log_path.display()));
    // Not vacuous: the log holds the TUI's session and the sandbox's requests, refusal included.
    assert!(log.contains("TUI closed"), "{log}");
    assert!(log.contains("sandbox request"), "{log}");
    assert!(log.contains("refused a request"), "{log}");
    assert!(!log.contains(TOKEN), "the token is in the log:\n{log}");
}

/// `:types`, a type's detail, its schema tree, then `b` to its resources.
#[test]
fn types_view_a_type_its_schemas_and_its_resources() {
    let tmux = Tmux::start(120, 40);
    launch_demo(&tmux, "");
    tmux.send(&[":"]);
    tmux.send(&["-l", "types"]);
    tmux.send(&["Enter"]);
    // The title can be drawn before the rows reach the screen: wait for both, or time out.
    tmux.wait_for("the types with their marks and source", |s| {
        s.contains("Types · 5 known") && s.contains("LRCUDH") && s.contains("demo")
    });
    tmux.send(&["/"]);
    tmux.send(&["-l", "repo"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("1 match"));
    tmux.send(&["Enter"]);
    // tmux can capture a frame half drawn: wait until the whole type is on screen, or time out.
    tmux.wait_for(
        "the type: description, capabilities, instructions and actions at once",
        |s| {
            s.contains("About repository")
                && s.contains("A Git repository hosted on Acme Code")
                && s.contains("Capabilities")
                && s.contains("Repositories")
                && s.contains("sync · Sync now")
        },
    );
    tmux.send(&["Tab"]);
    tmux.send(&["Tab"]);
    let screen = tmux.wait_for("the schemas", |s| s.contains("▶ Schemas"));
    assert!(screen.contains("property_json_schema"), "{screen}");
    assert!(screen.contains("Raw JSON"), "{screen}");
    tmux.send(&["b"]);
    tmux.wait_for("the repositories", |s| {
        s.contains("type repository ·") && s.contains("loaded")
    });
    tmux.send(&["q"]);
}

/// Starts `appdeck sandbox ARGS` as the shell's job `%1` on a free port, and exports its base URL
/// and token in the shell for the appdeck runs that follow.
fn sandbox_in_the_shell(tmux: &Tmux, args: &str) {
    tmux.type_line(&format!(
        "{} sandbox {args} --listen 127.0.0.1:0 > sandbox.env 2> sandbox.log &",
        binary().display()
    ));
    tmux.type_line(
        "until grep -q TOKEN sandbox.env; do sleep 0.1; done; . ./sandbox.env; echo ready",
    );
    tmux.wait_for("the sandbox", |s| s.lines().any(|l| l == "ready"));
}

/// `appdeck connect FILE` records the app version in the store; a TUI started afterwards on the
/// same service lists its types without `--types`.
#[test]
fn a_connect_sent_earlier_lists_its_types_in_a_new_tui() {
    let tmux = Tmux::start(120, 40);
    let bin = binary();
    sandbox_in_the_shell(&tmux, "--empty");
    let payload = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/connect.json");
    tmux.type_line(&format!("{} connect {payload} && echo sent", bin.display()));
    tmux.wait_for("the connect", |s| s.lines().any(|l| l == "sent"));
    tmux.type_line(&bin.display().to_string());
    tmux.wait_for("the TUI", |s| s.contains("Resources"));
    tmux.send(&["2"]);
    let screen = tmux.wait_for("the recorded types", |s| s.contains("Types · 2 known"));
    assert!(
        screen.contains("example-git-host") && screen.contains("sent 20"),
        "{screen}"
    );
    tmux.send(&["q"]);
    tmux.type_line("kill %1");
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
    if review.contains(" finding: ") || review.contains(" findings: ") {
        tmux.send(&["Enter"]);
    }
    let answer = tmux.wait_for("the answer", |s| s.contains("answer · HTTP 200"));
    assert!(answer.contains("sent: the service answered ok"), "{answer}");
    assert!(
        answer.contains("platform_app_url  http://127.0.0.1"),
        "{answer}"
    );
    // Issue 37 item 2: only the message was written, so the resource went as it was listed.
    assert!(
        answer.contains("What it changed · nothing (the resource was sent as it was listed)"),
        "{answer}"
    );
    tmux.send(&["Escape"]);
    // The fields show under the answer too: back means the answer is gone.
    tmux.wait_for("back to the report", |s| {
        s.contains("message       typed in tmux") && !s.contains("answer · HTTP 200")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    // Issue 37 item 3: the resource's detail lists the report just sent (from the history in
    // the store), and `Enter` on it shows the send in full; `Esc` comes back to the detail.
    tmux.send(&["Enter"]);
    tmux.wait_for("the report in the detail", |s| {
        s.contains("── Reports sent 1") && s.contains("ok · typed in tmux, q and s are text →")
    });
    tmux.send(&["G"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the send in full", |s| {
        s.contains("/apps.operations.report") && !s.contains("── Reports sent")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the detail again", |s| s.contains("── Reports sent 1"));
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
    // The history keeps the resource as listed: `history show` says what the report changed.
    tmux.type_line(&format!("clear; {} history show 1", binary().display()));
    tmux.wait_for("the send in full from the CLI", |s| {
        s.contains("what it changed: nothing (the resource was sent as it was listed)")
    });
}

/// Issue 33 item 5: `R` over marked rows composes one report, sends it once to each marked
/// resource against the sandbox, shows a result a row, unmarks the accepted ones, and every send
/// is in the history.
#[test]
fn r_over_marked_rows_sends_one_report_to_each_and_unmarks_the_accepted() {
    let tmux = Tmux::start(120, 40);
    tmux.type_line(&format!(
        "APPDECK_DATA_DIR=$HOME/data {} --demo",
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["Space", "Space", "Space"]);
    tmux.wait_for("three marks", |s| s.contains("3 marked"));
    tmux.send(&["R"]);
    tmux.wait_for("the composer over marks", |s| {
        s.contains("Task report to each of 3 marked resources")
    });
    tmux.send(&["j", "j", "Enter"]);
    tmux.send(&["-l", "sent to each from tmux"]);
    tmux.send(&["Escape"]);
    tmux.wait_for("the message", |s| {
        s.contains("message       sent to each from tmux")
    });
    tmux.send(&["s"]);
    let review = tmux.wait_for("the review", |s| s.contains("Review: the exact request"));
    assert!(
        review.contains("sends to each of 3 marked resources"),
        "{review}"
    );
    tmux.send(&["Enter"]);
    if review.contains(" finding: ") || review.contains(" findings: ") {
        tmux.send(&["Enter"]);
    }
    let results = tmux.wait_for("a result a row", |s| s.contains("reports: 3 of 3 done"));
    let ok_rows = results
        .lines()
        .filter(|l| l.contains("✓") && l.contains("HTTP 200, status ok"))
        .count();
    assert_eq!(ok_rows, 3, "{results}");
    assert!(results.contains("3 reports sent: 3 ok"), "{results}");
    tmux.send(&["Escape"]);
    // Back on the list: the accepted resources are no longer marked.
    tmux.wait_for("the list without marks", |s| {
        position(s).is_some() && !s.contains("marked")
    });
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
    tmux.type_line(&format!(
        "clear; APPDECK_DATA_DIR=$HOME/data {} history --jq 'length'",
        binary().display()
    ));
    tmux.wait_for("three sends in the history", |s| {
        s.lines().any(|l| l.trim() == "3")
    });
}

/// Starts `appdeck --demo` with `editor` as `$EDITOR` and a data dir in HOME (drafts, history),
/// and waits for the first rows.
fn launch_demo_with_editor(tmux: &Tmux, editor: &Path) {
    tmux.type_line(&format!(
        "EDITOR={} APPDECK_DATA_DIR=$HOME/data {} --demo",
        editor.display(),
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
}

/// An `$EDITOR` for the tests: a shell script that notes the file's mode, path and the terminal's
/// modes while it runs, then does what `ed.do` in HOME says: rewrite the message with sed, write
/// a report that is not JSON, or fail.
fn editor_script(home: &Path) -> PathBuf {
    common::write_file(
        &home.join("ed.sh"),
        r#"#!/bin/sh
stat -c %a "$1" > "$HOME/ed.mode"
echo "$1" > "$HOME/ed.path"
stty -g > "$HOME/ed.stty"
case "$(cat "$HOME/ed.do")" in
  message) sed -i 's/"message": ""/"message": "rewritten by the editor script"/' "$1" ;;
  broken) printf '{"task_id": oops' > "$1" ;;
  visibility) sed -i 's/"visibility": "[a-z]*"/"visibility": 42/' "$1" ;;
  fail) exit 4 ;;
esac
"#,
        0o755,
    )
}

#[test]
fn e_edits_the_report_in_the_editor_and_a_broken_edit_is_kept_with_its_error() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let stty_before = tmux.stty("stty.before");
    let editor = editor_script(&home);
    launch_demo_with_editor(&tmux, &editor);
    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about"));

    // The editor rewrites the message: the composer shows it, on an intact screen.
    std::fs::write(home.join("ed.do"), "message").unwrap();
    tmux.send(&["e"]);
    let screen = tmux.wait_for("the edited message", |s| {
        s.contains("message       rewritten by the editor script")
    });
    assert!(
        screen.contains("updated from the editor")
            && screen.contains("resource (JSON)")
            && screen.contains("findings"),
        "{screen}"
    );
    assert_eq!(
        tmux.format("#{alternate_on}"),
        "1",
        "back on the TUI's screen"
    );
    assert_eq!(
        std::fs::read_to_string(home.join("ed.mode"))
            .unwrap()
            .trim(),
        "600"
    );
    let path = std::fs::read_to_string(home.join("ed.path")).unwrap();
    let path = Path::new(path.trim());
    assert!(path.extension().is_some_and(|e| e == "json"), "{path:?}");
    assert!(!path.exists(), "the temp file was removed");
    assert_eq!(
        std::fs::read_to_string(home.join("ed.stty")).unwrap(),
        stty_before,
        "the editor ran in the shell's terminal modes, not raw mode"
    );

    // A result that is not JSON is kept as text, with its error.
    std::fs::write(home.join("ed.do"), "broken").unwrap();
    tmux.send(&["e"]);
    let screen = tmux.wait_for("the kept text", |s| {
        s.contains("edited report, not JSON") && s.contains(r#"{"task_id": oops"#)
    });
    assert!(screen.contains("syntax error at line 1"), "{screen}");

    // An editor that fails changes nothing, and the terminal comes back all the same.
    std::fs::write(home.join("ed.do"), "fail").unwrap();
    tmux.send(&["e"]);
    let screen = tmux.wait_for("the failure", |s| s.contains("exited with"));
    assert!(screen.contains(r#"{"task_id": oops"#), "{screen}");
    assert_eq!(tmux.format("#{alternate_on}"), "1");
    tmux.send(&["X"]);
    tmux.wait_for("the report again", |s| {
        s.contains("message       rewritten by the editor script")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    tmux.send(&["q"]);
    assert_terminal_restored(&tmux, &stty_before);
}

/// `^z` stops appdeck as a shell job, with the terminal handed back as `$EDITOR` gets it (main
/// screen, cursor, no mouse, the shell's modes), and `fg` brings it back drawn whole, where it
/// was, taking keys: the tester's `fg` landed as keys in a TUI that ignored `^z`.
#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_brings_appdeck_back() {
    let tmux = Tmux::start(100, 30);
    let stty_before = tmux.stty("stty.before");
    launch_demo(&tmux, "");
    tmux.send(&["j"]);
    tmux.send(&["j"]);
    tmux.wait_for("the cursor on row 3", |s| {
        position(s).is_some_and(|(row, _)| row == 3)
    });

    tmux.send(&["C-z"]);
    tmux.wait_for("the shell, appdeck stopped", |s| {
        s.contains("Stopped") && s.lines().rev().find(|l| !l.trim().is_empty()) == Some("$")
    });
    assert_terminal_restored(&tmux, &stty_before);

    tmux.type_line("fg");
    let back = tmux.wait_for("appdeck again, where it was", |s| {
        s.contains("Resources") && position(s).is_some_and(|(row, _)| row == 3)
    });
    assert!(!back.contains("Stopped"), "drawn whole:\n{back}");
    assert_eq!(tmux.format("#{alternate_on}"), "1", "the TUI's screen");
    assert_eq!(tmux.format("#{mouse_any_flag}"), "1", "mouse reporting on");
    tmux.send(&["j"]);
    tmux.wait_for("the cursor on row 4", |s| {
        position(s).is_some_and(|(row, _)| row == 4)
    });
    tmux.send(&["q"]);
    assert_terminal_restored(&tmux, &stty_before);
}

/// The drafts of the composer survive `kill -9`: type, see the draft saved, kill, start again,
/// `R` on the same resource, and the text is back with its notice; `D` discards it.
#[test]
fn a_draft_survives_kill_9_and_comes_back_on_r() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let launch = format!(
        "sh -c 'echo $$ > appdeck.pid; APPDECK_DATA_DIR=$HOME/data exec {} --demo'",
        binary().display()
    );
    tmux.type_line(&launch);
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about res_1"));
    tmux.send(&["j", "j", "Enter"]);
    tmux.send(&["-l", "survives kill -9"]);
    tmux.send(&["Escape"]);
    tmux.wait_for("the draft saved", |s| {
        s.contains("message       survives kill -9") && s.contains("· draft saved")
    });
    assert!(home.join("data/appdeck.db").is_file());
    let pid = std::fs::read_to_string(home.join("appdeck.pid")).expect("the PID");
    let killed = Command::new("kill")
        .args(["-9", pid.trim()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    // kill -9 leaves the terminal as the TUI had it: put it back for the next run.
    tmux.type_line(
        r"printf '\033[?1049l\033[?1000l\033[?1002l\033[?1006l\033[?2004l'; stty sane; clear; echo after-kill",
    );
    tmux.wait_for("the shell again", |s| s.lines().any(|l| l == "after-kill"));

    tmux.type_line(&launch);
    tmux.wait_for("the first rows again", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["R"]);
    let screen = tmux.wait_for("the restored draft", |s| {
        s.contains("message       survives kill -9")
    });
    assert!(
        screen.contains("restored; D discards it") && screen.contains("(D discards it)"),
        "{screen}"
    );
    tmux.send(&["D"]);
    let screen = tmux.wait_for("the discarded draft", |s| s.contains("draft discarded"));
    assert!(!screen.contains("survives kill -9"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");
}

/// `appdeck history` with the store in `data`, as a script would run it.
fn cli_history(home: &Path, data: &Path, args: &[&str]) -> Output {
    Command::new(binary())
        .arg("history")
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("APPDECK_DATA_DIR", data)
        .env("COLUMNS", "120")
        .output()
        .expect("appdeck history runs")
}

/// `R` on the selected row, `s`, and the review's `Enter` (twice when the checks find something):
/// the report is on its way.
fn report_the_selected_row(tmux: &Tmux) {
    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about"));
    tmux.send(&["s"]);
    let review = tmux.wait_for("the review", |s| s.contains("Review: the exact request"));
    tmux.send(&["Enter"]);
    if review.contains(" finding: ") || review.contains(" findings: ") {
        tmux.send(&["Enter"]);
    }
}

/// `:connect ~/…` and `:report ~/…` read from the home directory, as `:export ~/…` writes
/// there: no shell expands `~` on appdeck's command line (they said "No such file").
#[test]
fn a_file_named_from_home_opens_in_its_composer() {
    let tmux = Tmux::start(120, 40);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["connect.json", "report.json"] {
        let text = std::fs::read_to_string(root.join("assets/examples").join(name)).unwrap();
        common::write_file(&tmux.home.path().join(name), &text, 0o600);
    }
    launch_demo(&tmux, "");
    tmux.send(&[":"]);
    tmux.send(&["-l", "connect ~/connect.json"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the connect composer on the file", |s| {
        s.contains("connect.json") && !s.contains("No such file")
    });
    tmux.send(&["Escape"]);
    tmux.send(&[":"]);
    tmux.send(&["-l", "report ~/report.json"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the report composer on the file", |s| {
        s.contains("Task report") && !s.contains("No such file")
    });
}

/// `q` while a report is in flight: the history keeps it as cancelled (the service may have
/// received it), as `Esc` would have recorded it; it kept nothing.
#[test]
fn quitting_during_a_send_leaves_it_in_the_history_as_cancelled() {
    let sandbox = TestSandbox::with_fault(appdeck_sandbox::Fault::Slow(Duration::from_secs(3)));
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let data = home.join("data");
    tmux.type_line(&format!(
        "APPDECK_DATA_DIR={} APPDECK_BASE_URL={} APPDECK_TOKEN={TOKEN} {}",
        data.display(),
        sandbox.base_url,
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| s.contains("loaded"));
    report_the_selected_row(&tmux);
    tmux.wait_for("the send under way", |s| s.contains("sending the report"));
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell after quitting");
    let out = cli_history(&home, &data, &["--output", "json"]);
    let items: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(items.len(), 1, "{out:?}");
    assert_eq!(items[0]["kind"], "report");
    assert!(items[0]["http_status"].is_null(), "{:#?}", items[0]);
    let error = items[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("cancelled"), "{:#?}", items[0]);
}

/// `R` on a resource in the TUI, send it; `appdeck history` (the CLI, same APPDECK_DATA_DIR)
/// lists the report, and `3` in the TUI shows it, `Enter` in full.
#[test]
fn a_report_sent_from_the_tui_is_in_the_history_of_the_cli_and_of_the_tui() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let data = home.join("data");
    tmux.type_line(&format!("export APPDECK_DATA_DIR={}", data.display()));
    launch_demo(&tmux, "");
    report_the_selected_row(&tmux);
    tmux.wait_for("the answer", |s| s.contains("answer · HTTP 200"));

    // The record is written off the UI thread: poll the CLI until it lists it.
    let deadline = Instant::now() + WAIT;
    let items: Vec<serde_json::Value> = loop {
        let out = cli_history(&home, &data, &["--output", "json"]);
        let items: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if !items.is_empty() {
            break items;
        }
        assert!(
            Instant::now() < deadline,
            "appdeck history never listed the report: {out:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(items.len(), 1, "{items:#?}");
    let item = &items[0];
    assert_eq!(item["kind"], "report");
    assert_eq!(item["http_status"], 200);
    assert_eq!(item["answer"]["status"], "ok");
    let task_id = item["body"]["task_id"].as_str().unwrap().to_owned();
    assert!(task_id.starts_with("PROVISIONAL-"), "{task_id}");
    let table = cli_history(&home, &data, &[]);
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.lines().nth(1).is_some_and(|l| l.starts_with("1 ")
            && l.contains("report")
            && l.contains(&task_id)
            && l.contains("200")),
        "{table}"
    );

    tmux.send(&["Escape"]);
    tmux.wait_for("back to the report", |s| s.contains("findings"));
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    tmux.send(&["3"]);
    let screen = tmux.wait_for("the history with the report", |s| {
        s.contains("History · 1 sent") && s.contains(&task_id)
    });
    assert!(
        screen.contains("report") && screen.contains("200") && screen.contains(" ok"),
        "{screen}"
    );
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the send in full", |s| {
        s.contains("Sent: the request and the answer")
    });
    assert!(
        screen.contains("/apps.operations.report") && screen.contains("Bearer ••••"),
        "{screen}"
    );
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
}

/// Issue 9, items 11 and 12: the status bar names the profile only when the profile supplied
/// the base URL (else `env` or `flags`), and a token file others can read is warned about on
/// the TUI's own screen, not only on stderr behind it.
#[test]
fn the_status_bar_names_the_settings_source_and_shows_a_token_file_warning() {
    const TOKEN: &str = "tok-status-bar-source";
    let tmux = Tmux::start(120, 30);
    let home = tmux.home.path().to_owned();
    let sandbox = SandboxProcess::start(&home, TOKEN);
    common::write_file(&home.join("shared.token"), TOKEN, 0o644);
    common::write_file(
        &home.join("appdeck.toml"),
        &format!(
            "[profiles.staging]\nbase_url = \"{}\"\ntoken_file = \"shared.token\"\n",
            sandbox.base_url
        ),
        0o600,
    );
    let status = |s: &str| s.lines().next().unwrap_or_default().to_owned();

    tmux.type_line(&format!(
        "{} --config appdeck.toml --profile staging",
        binary().display()
    ));
    // While a second page loads, "loading page 2…" shares the bar and cuts the warning: wait
    // for the bar once the list is still.
    let screen = tmux.wait_for("the first rows and the token file's warning", |s| {
        s.contains("loaded")
            && position(s).is_some()
            && status(s).contains("warning: token file shared.token is readable by group")
    });
    assert!(status(&screen).contains("│ staging │"), "{screen}");
    // The bar may cut it; `!` has it in full.
    tmux.send(&["!"]);
    tmux.wait_for("the warning in full", |s| {
        s.contains("While reading the configuration") && s.contains("run: chmod 600")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the popup to close", |s| {
        !s.contains("While reading the configuration")
    });
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");

    // The same profile, but the environment gives the base URL: the bar says so.
    tmux.type_line(&format!(
        "APPDECK_BASE_URL={} {} --config appdeck.toml --profile staging",
        sandbox.base_url,
        binary().display()
    ));
    let screen = tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    assert!(status(&screen).contains("│ env │"), "{screen}");
    assert!(!status(&screen).contains("staging"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");
}

/// A report whose properties break its type's schema: the finding shows before it is sent, the
/// review asks twice, and the sandbox's refusal (422, naming the field) shows after, with the
/// report left as it was so it can be fixed and sent again.
#[test]
fn a_report_that_breaks_its_type_schema_shows_the_finding_then_the_service_error() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let editor = editor_script(&home);
    std::fs::write(home.join("ed.do"), "visibility").unwrap();
    launch_demo_with_editor(&tmux, &editor);
    tmux.send(&[":"]);
    tmux.send(&["-l", "type repository"]);
    tmux.send(&["Enter"]);
    // The unfiltered list's first row may be a repository too: wait for the filtered rows, or R
    // lands while they load and finds no row.
    tmux.wait_for("the repositories", |s| {
        s.contains("· type repository ·")
            && s.contains(" loaded")
            && s.contains("│▶  repository")
            && position(s).is_some_and(|(at, n)| at == 1 && n > 0)
    });
    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about"));
    tmux.send(&["e"]);
    let screen = tmux.wait_for("the schema finding", |s| {
        s.contains("/response/resource/properties/visibility")
    });
    assert!(screen.contains("\"visibility\": 42"), "{screen}");
    tmux.send(&["s"]);
    let review = tmux.wait_for("the review", |s| s.contains("Review: the exact request"));
    assert!(review.contains("1 finding:"), "{review}");
    tmux.send(&["Enter"]);
    tmux.wait_for("the second confirmation", |s| s.contains("again"));
    tmux.send(&["Enter"]);
    let answer = tmux.wait_for("the service's refusal", |s| s.contains("answer · HTTP 422"));
    assert!(answer.contains("visibility"), "{answer}");
    tmux.send(&["Escape"]);
    let screen = tmux.wait_for("the report as it was", |s| {
        s.contains("Task report about") && !s.contains("answer ·")
    });
    assert!(screen.contains("\"visibility\": 42"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
}

/// Issue 9: a long value cut in the tree reads in full in the value popup (`v`), wrapped and
/// scrolled to its end, and `Esc` closes it without leaving the detail.
#[test]
fn the_value_popup_shows_a_long_value_whole() {
    let tmux = Tmux::start(80, 24);
    launch_demo(&tmux, "");
    tmux.send(&["/"]);
    tmux.send(&["-l", "INC-1037"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the incident", |s| s.contains("match"));
    tmux.send(&["Enter"]);
    tmux.wait_for("the detail", |s| s.contains("Properties"));
    tmux.send(&["Tab"]);
    tmux.send(&["/"]);
    tmux.send(&["-l", "summary"]);
    tmux.send(&["Enter"]);
    let detail = tmux.wait_for("the summary in the tree", |s| {
        s.contains("▶") && s.contains("summary: \"At 09:12")
    });
    // Cut at the pane's edge: its end is not on the screen.
    assert!(!detail.contains("release checklist"), "{detail}");
    tmux.send(&["v"]);
    let popup = tmux.wait_for("the popup", |s| s.contains("properties/summary"));
    assert!(popup.contains("y copy"), "{popup}");
    tmux.send(&["G"]);
    tmux.wait_for("the end of the value", |s| {
        s.contains("properties/summary") && s.contains("release checklist.")
    });
    tmux.send(&["Escape"]);
    let back = tmux.wait_for("the popup to close", |s| !s.contains("properties/summary"));
    assert!(back.contains("Properties"), "still on the detail: {back}");
    tmux.send(&["q"]);
}

/// Issue 8, the connect composer end to end: `--demo`, `C` on the demo's app, an `$EDITOR`
/// script that bumps the version and removes a type, the diff shows the removal as breaking,
/// two `Enter`s send it; the types view then shows the new version, and `appdeck history` (the
/// CLI, same APPDECK_DATA_DIR) lists the connect.
///
/// Checked against a broken product, each time failing where it should: a review that asks once
/// even with a breaking change (times out on the second confirmation), a sent version not made
/// known (times out on the types view), a removed type not marked breaking (times out on the
/// diff). Under `--demo` the store's record of the version is keyed by the sandbox's URL, whose
/// port changes every run, so no screen shows it (`cli_connect_guard` checks the record).
#[test]
fn c_composes_a_connect_whose_breaking_removal_is_confirmed_twice_sent_and_known() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let data = home.join("data");
    let mut payload: serde_json::Value =
        serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).unwrap();
    payload["version"] = serde_json::json!("1.5.0");
    payload["resources"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["type"] != "repository");
    std::fs::write(
        home.join("bumped.json"),
        serde_json::to_string_pretty(&payload).unwrap(),
    )
    .unwrap();
    let editor = common::write_file(
        &home.join("bump.sh"),
        "#!/bin/sh\ncp \"$HOME/bumped.json\" \"$1\"\n",
        0o755,
    );
    tmux.type_line(&format!(
        "EDITOR={} APPDECK_DATA_DIR={} {} --demo",
        editor.display(),
        data.display(),
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["C"]);
    tmux.wait_for("the composer on the demo app", |s| {
        s.contains("Connect payload (JSON)")
            && s.contains("\"app_id\": \"acme-devtools\"")
            && s.contains("outline: 5 types")
    });
    tmux.send(&["e"]);
    let screen = tmux.wait_for("the edited payload, compared", |s| {
        s.contains("outline: 4 types") && s.contains("diff: 1 breaking of 2")
    });
    assert!(
        screen.contains("BREAKING type \"repository\"")
            && screen.contains("\"version\": \"1.5.0\""),
        "{screen}"
    );
    tmux.send(&["s"]);
    let review = tmux.wait_for("the review", |s| {
        s.contains("Review: the changes") && s.contains("/apps.version.connect")
    });
    assert!(
        review.contains("breaking first") && review.contains("/apps.version.connect"),
        "{review}"
    );
    tmux.send(&["Enter"]);
    tmux.wait_for("the second confirmation", |s| {
        s.contains("press Enter again to send anyway")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the answer", |s| {
        s.contains("answer · HTTP 200") && s.contains("sent: the service answered ok")
    });

    tmux.escape();
    tmux.send(&["Escape"]);
    tmux.wait_for("back on the list", |s| position(s).is_some());
    tmux.send(&["2"]);
    let types = tmux.wait_for("the types with the new version", |s| {
        s.contains("Types ·") && s.contains("acme-devtools 1.5.0")
    });
    let repository = types
        .lines()
        .find(|l| l.contains("repository "))
        .unwrap_or_default();
    assert!(
        repository.contains("acme-devtools 1.4.0"),
        "the removed type keeps its last definition: {types}"
    );

    // The history is written off the UI thread: poll the CLI until it lists the connect.
    let deadline = Instant::now() + WAIT;
    let table = loop {
        let out = cli_history(&home, &data, &["--kind", "connect"]);
        let table = String::from_utf8_lossy(&out.stdout).into_owned();
        if table.contains("acme-devtools 1.5.0") {
            break table;
        }
        assert!(
            Instant::now() < deadline,
            "appdeck history never listed the connect: {out:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        table.contains("connect") && table.contains("200"),
        "{table}"
    );
    tmux.send(&["q"]);
    tmux.wait_for("the shell again", |s| s.trim_end().ends_with('$'));
}

/// Issue 20 item 1: `G` until the 300 demo rows are loaded, a few rows up, `R`, send, `Esc`,
/// `Esc`: the list still holds the 300 rows, with the cursor where it was.
#[test]
fn an_ok_report_keeps_the_loaded_rows_and_the_cursor() {
    let tmux = Tmux::start(120, 40);
    launch_demo(&tmux, "");
    tmux.send(&["G"]);
    tmux.wait_for("the last row of 300", |s| {
        if position(s) == Some((300, 300)) {
            return true;
        }
        // Each G goes to the last row loaded; the next page comes in behind it.
        tmux.send(&["G"]);
        false
    });
    tmux.send(&["k", "k", "k"]);
    tmux.wait_for("row 297", |s| position(s) == Some((297, 300)));
    report_the_selected_row(&tmux);
    tmux.wait_for("the answer", |s| s.contains("answer · HTTP 200"));
    tmux.send(&["Escape"]);
    tmux.wait_for("back to the report", |s| !s.contains("answer · HTTP 200"));
    tmux.send(&["Escape"]);
    let list = tmux.wait_for("the list, refreshed, at row 297 of 300", |s| {
        position(s) == Some((297, 300)) && !s.contains("refreshing")
    });
    assert!(list.contains("300 loaded"), "{list}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// Issue 20 item 2: a `--types` file that does not exist is said on the screen (the CLI exits 2
/// for it), and `!` shows the message whole.
#[test]
fn a_missing_types_file_is_said_and_shown_under_bang() {
    let tmux = Tmux::start(100, 30);
    launch_demo(&tmux, "--types /nonexistent/acme-types.json");
    // Cut to the width, with where to read it whole.
    tmux.wait_for("the warning", |s| {
        s.contains("⚠ warning: some known types") && s.contains("(! whole)")
    });
    tmux.send(&["!"]);
    let popup = tmux.wait_for("the popup", |s| s.contains("While loading the known types"));
    let joined: String = popup.lines().map(|l| l.trim_matches(['│', ' '])).collect();
    assert!(
        joined.contains("/nonexistent/acme-types.json: cannot read it"),
        "{popup}"
    );
    tmux.send(&["Escape"]);
    tmux.wait_for("the popup closed", |s| {
        !s.contains("While loading the known types")
    });
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// Issue 20 item 3: `o` opens the row's `external_url` with `$BROWSER` (here a script that
/// writes down what it was given), not with the platform's opener.
#[test]
fn o_opens_the_link_with_browser() {
    let tmux = Tmux::start(120, 40);
    let home = tmux.home.path().to_owned();
    let script = common::write_file(
        &home.join("browser.sh"),
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$HOME/opened.tmp\" && mv \"$HOME/opened.tmp\" \"$HOME/opened\"\n",
        0o755,
    );
    tmux.type_line(&format!(
        "BROWSER='{} --flag' {} --demo",
        script.display(),
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&["o"]);
    let opened = home.join("opened");
    tmux.wait_for("the browser script to run", |_| opened.exists());
    let args = std::fs::read_to_string(&opened).unwrap();
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args.len(), 2, "{args:?}");
    assert_eq!(args[0], "--flag");
    assert!(args[1].starts_with("https://"), "{args:?}");
    let screen = tmux.screen();
    assert!(!screen.contains("could not open"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// Issue 22 items 1 and 2 on the release binary against the sandbox: `:where` keeps the
/// repositories with more than 4,600 stars (a jq expression over the whole resource) and the
/// title says so; a wrong one says where it is wrong and keeps the list; `/` then finds rows by
/// a field the table does not show and names it; `:where` alone gives every row back.
#[test]
fn where_keeps_the_rows_it_is_true_of_and_slash_searches_every_field() {
    let tmux = Tmux::start(120, 40);
    // One page holds the 300 demo resources: all of them are loaded.
    launch_demo(&tmux, "--page-size 500");
    tmux.wait_for("every row", |s| s.contains("300 loaded · all loaded"));
    tmux.send(&[":"]);
    tmux.send(&["-l", "where .properties.stars > 4600"]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the six repositories", |s| {
        s.contains("where .properties.stars > 4600 · 6 match · 300 loaded")
            && s.contains("Mobile iOS app")
    });
    assert!(!screen.contains("Feature flags"), "{screen}");
    assert_eq!(position(&screen), Some((1, 6)), "{screen}");

    tmux.send(&[":"]);
    tmux.send(&["-l", "where .properties.stars >"]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the error", |s| s.contains("not a valid jq expression"));
    assert!(
        screen.contains("6 match"),
        "the list stays as it was:\n{screen}"
    );
    // The status bar cuts it; `!` shows it whole, with where it is wrong.
    tmux.send(&["!"]);
    tmux.wait_for("the whole error", |s| s.contains("character 20"));
    tmux.send(&["Escape"]);
    tmux.wait_for("the list again", |s| !s.contains("character 20"));

    tmux.send(&["/"]);
    tmux.send(&["-l", "ukrainian"]);
    let screen = tmux.wait_for("the row found by its properties", |s| {
        s.contains("1 match") && s.contains("…message: Add Ukrainian")
    });
    assert!(screen.contains("Mobile iOS app"), "{screen}");
    tmux.escape();
    tmux.send(&["Escape"]);
    tmux.wait_for("the six again", |s| s.contains("6 match"));

    tmux.send(&[":"]);
    tmux.send(&["-l", "where"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("every row again", |s| {
        s.contains("all types · 300 loaded") && s.contains("Feature flags")
    });
    tmux.send(&["q"]);
}

/// The `:where` workers (src/jq/worker) that `pid` started and that still run.
fn workers_of(pid: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let child = entry.ok()?.file_name().into_string().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            let mut after_name = stat.rsplit(") ").next()?.split(' ');
            let (state, parent) = (after_name.next()?, after_name.next()?);
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).ok()?;
            let worker = String::from_utf8_lossy(&cmdline).contains("--internal-jq-worker");
            (parent == pid && state != "Z" && worker).then_some(child)
        })
        .collect()
}

/// A `:where` jaq cannot stop or bound runs in a worker: one that grows without end is stopped
/// at the worker's memory cap and says so, the TUI still answering; one that runs without end
/// is killed by `Esc`, and by appdeck's own death (`kill -9`). One nested too deep for jaq's
/// reader is refused before it reads it.
#[cfg(target_os = "linux")]
#[test]
fn a_runaway_where_is_stopped_and_killed_without_harm_to_appdeck() {
    let tmux = Tmux::start(160, 30);
    let pid = launch_demo_with_pid(&tmux);
    // Nested past what jaq's reader takes (it overflowed the stack): refused, appdeck lives on.
    let deep = format!("where {}1{} | length > 0", "[".repeat(300), "]".repeat(300));
    tmux.send(&[":"]);
    tmux.send(&["-l", &deep]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the refusal", |s| s.contains("not a valid jq"));
    tmux.send(&["!"]);
    tmux.wait_for("why, whole", |s| s.contains("nests") && s.contains("256"));
    tmux.escape();
    tmux.send(&[":"]);
    tmux.send(&["-l", "where [range(1e10)] | length > 0"]);
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the worker to stop at its cap", |s| {
        s.contains("where stopped: the expression needed more than 1 GiB of memory")
    });
    assert!(screen.contains("0 match"), "{screen}");
    tmux.send(&[":"]);
    tmux.send(&["-l", "where"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("every row again", |s| s.contains("Feature flags"));

    tmux.send(&[":"]);
    tmux.send(&["-l", "where last(range(1e15)) > 0"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("a worker computing", |_| !workers_of(&pid).is_empty());
    tmux.send(&["Escape"]);
    tmux.wait_for("the cancel", |s| s.contains(":where cancelled"));
    tmux.wait_for("the worker killed", |_| workers_of(&pid).is_empty());

    tmux.send(&[":"]);
    tmux.send(&["-l", "where last(range(1e15)) > 0"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("a worker computing", |_| !workers_of(&pid).is_empty());
    let worker = workers_of(&pid).remove(0);
    let killed = Command::new("kill").args(["-KILL", &pid]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    tmux.wait_for("the worker to die with appdeck", |_| {
        !std::path::Path::new(&format!("/proc/{worker}")).exists()
            || std::fs::read_to_string(format!("/proc/{worker}/stat"))
                .is_ok_and(|s| s.rsplit(") ").next().is_some_and(|r| r.starts_with('Z')))
    });
}

/// Issue 22 item 5: `:watch 1` in the TUI, then a report sent meanwhile with the CLI to the same
/// sandbox renames the first row: within a look or two the row shows its new name, marked
/// changed (`~`), and the title counts it.
#[test]
fn watch_marks_a_row_changed_by_a_report_sent_meanwhile() {
    const TOKEN: &str = "watch-token";
    let tmux = Tmux::start(120, 30);
    let home = tmux.home.path().to_owned();
    let sandbox = SandboxProcess::start(&home, TOKEN);
    let cli = |args: &[&str]| {
        let out = sandbox
            .appdeck(&home, TOKEN)
            .args(args)
            .output()
            .expect("appdeck runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    tmux.type_line(&format!(
        "APPDECK_TOKEN={TOKEN} APPDECK_BASE_URL={} {}",
        sandbox.base_url,
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| {
        s.contains("loaded") && position(s).is_some()
    });
    tmux.send(&[":"]);
    tmux.send(&["-l", "watch 1"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the first look", |s| {
        s.contains("watching every 1s · looked")
    });

    let first = cli(&["list", "--limit", "1", "-o", "ndjson"]);
    let mut resource: serde_json::Value = serde_json::from_str(&first).expect("one resource");
    let old_name = resource["display_name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(tmux.screen().contains(&old_name), "{}", tmux.screen());
    resource["display_name"] = "renamed while watched".into();
    let report = serde_json::json!({
        "task_id": "watch-1", "status": "ok", "message": "renamed",
        "response": {"response_type": "resource", "resource": resource}
    });
    common::write_file(&home.join("report.json"), &report.to_string(), 0o644);
    let answer = cli(&[
        "report",
        home.join("report.json").to_str().unwrap_or_default(),
    ]);
    assert!(answer.contains("status: ok"), "{answer}");

    let screen = tmux.wait_for("the row marked changed", |s| {
        s.contains("~ renamed while watched") && s.contains("~1 changed")
    });
    let selected = screen.lines().find(|l| l.contains('▶')).unwrap_or_default();
    assert!(
        selected.contains("~ renamed while watched") && !selected.contains(&old_name),
        "the cursor stays on the renamed row:\n{screen}"
    );
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// The count of rows loaded the list's title says ("1,234 loaded").
fn loaded_count(screen: &str) -> Option<usize> {
    let before = screen.split(" loaded").next()?;
    before.rsplit(' ').next()?.replace(',', "").parse().ok()
}

/// The time of the last look the list's title says ("watching 1s · 12:34:56").
fn looked_at(screen: &str) -> Option<String> {
    let title = screen.lines().find(|l| l.contains("Resources"))?;
    let is_time = |w: &&str| w.len() == 8 && w.matches(':').count() == 2;
    title.split(' ').find(is_time).map(str::to_owned)
}

/// `:watch 1` on a list narrowed by a `:where` that matches nothing: look after look, the list
/// stays as deep as was loaded (a look used to fetch a page more each time, to fill the screen
/// the query left empty).
#[test]
fn watch_on_a_narrowed_list_looks_as_deep_as_was_loaded() {
    const TOKEN: &str = "watch-narrow-token";
    let tmux = Tmux::start(120, 30);
    let home = tmux.home.path().to_owned();
    let sandbox = SandboxProcess::start(&home, TOKEN);
    tmux.type_line(&format!(
        "APPDECK_TOKEN={TOKEN} APPDECK_BASE_URL={} {} --page-size 20",
        sandbox.base_url,
        binary().display()
    ));
    let screen = tmux.wait_for("the screen filled", |s| {
        s.contains("loaded · more available") && !s.contains("loading")
    });
    let loaded = loaded_count(&screen).expect("a count loaded");
    tmux.send(&[":"]);
    tmux.send(&["-l", r#"where .status == "no such status""#]);
    tmux.send(&["Enter"]);
    tmux.wait_for("nothing to match", |s| s.contains("· 0 match ·"));
    tmux.send(&[":"]);
    tmux.send(&["-l", "watch 1"]);
    tmux.send(&["Enter"]);
    let looks = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let screen = tmux.wait_for("four looks", |s| {
        assert_eq!(loaded_count(s), Some(loaded), "no look goes deeper:\n{s}");
        looks.borrow_mut().extend(looked_at(s));
        looks.borrow().len() >= 4
    });
    assert!(screen.contains("· 0 match ·"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// The columns chosen for the list come back with its kept rows at the next start: what taking
/// the kept rows asks of the store (the list's columns) runs once the first frame is out.
#[test]
fn the_columns_chosen_come_back_with_the_kept_rows() {
    let tmux = Tmux::start(120, 30);
    let bin = binary();
    sandbox_in_the_shell(&tmux, "");
    tmux.type_line(&bin.display().to_string());
    tmux.wait_for("the live rows", |s| {
        s.contains("loaded") && s.contains("res_3 ")
    });
    tmux.send(&[":"]);
    tmux.send(&["-l", "columns +properties.language"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the added column", |s| {
        s.contains("PROPERTIES.LANGUAGE") && s.contains("Swift")
    });
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");

    tmux.type_line(&format!("{} --offline", bin.display()));
    tmux.wait_for("the kept rows with the column", |s| {
        s.contains("offline: r asks the service")
            && s.contains("PROPERTIES.LANGUAGE")
            && s.contains("Swift")
    });
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");
}

/// The listing shown last is there at the next start, marked as kept, with the error when the
/// service is down (issue 37 item 1); `--offline` opens on it without asking the service.
#[test]
fn the_last_listing_shows_at_the_next_start_marked_kept_with_the_service_down() {
    let tmux = Tmux::start(120, 30);
    let bin = binary();
    sandbox_in_the_shell(&tmux, "");
    tmux.type_line(&bin.display().to_string());
    let live = tmux.wait_for("the live rows", |s| {
        s.contains("loaded") && s.contains("res_3 ")
    });
    assert!(!live.contains("kept"), "{live}");
    tmux.send(&["q"]);
    // Typed before appdeck has left the terminal, the command would be keys to it.
    tmux.wait_for_prompt("the shell prompt");
    tmux.type_line("kill %1; wait; echo stopped");
    tmux.wait_for("the sandbox to stop", |s| s.lines().any(|l| l == "stopped"));

    tmux.type_line(&bin.display().to_string());
    let kept = tmux.wait_for("the kept rows and the error", |s| {
        s.contains("kept") && s.contains("service not answering") && s.contains("res_3 ")
    });
    assert!(kept.contains("cannot connect"), "the error is said: {kept}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");

    tmux.type_line(&format!("{} --offline", bin.display()));
    let offline = tmux.wait_for("the kept rows, offline", |s| {
        s.contains("offline: r asks the service") && s.contains("res_3 ")
    });
    assert!(
        !offline.contains("cannot connect"),
        "nothing was asked: {offline}"
    );
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");

    // The kept rows are read as appdeck starts, so the first frame of both later runs shows
    // them (unless the read took longer than the first frame waits, which the log says).
    let log = std::fs::read_to_string(tmux.home.path().join(".local/state/appdeck/appdeck.log"))
        .expect("the TUI's log");
    let runs: Vec<&str> = log.split("startup: first frame after ").skip(1).collect();
    assert_eq!(runs.len(), 3, "three runs: {log}");
    for (before, run) in runs.iter().zip(&runs[1..]) {
        let frame = run.split(" ms").next().unwrap();
        let rows = run
            .split("startup: first rows on screen after ")
            .nth(1)
            .and_then(|rest| rest.split(" ms").next());
        // Logged before the run's first frame: at the end of the text before it.
        let waited_out = before.contains("the first frame goes without them");
        assert!(
            rows == Some(frame) || waited_out,
            "the first frame ({frame} ms) did not show the kept rows ({rows:?} ms)"
        );
    }
}

/// Starts the TUI in `tmux` on `sandbox` with pages of 100 and waits for its first page.
fn launch_paged(tmux: &Tmux, sandbox: &SandboxProcess, token: &str) {
    tmux.type_line(&format!(
        "APPDECK_TOKEN={token} APPDECK_BASE_URL={} {} --page-size 100",
        sandbox.base_url,
        binary().display()
    ));
    tmux.wait_for("the first page", |s| loaded_count(s) == Some(100));
}

/// The tester's report on the release binary: `L`, then `:watch 1` while it loads (every answer
/// late): the look, asked when fewer rows were loaded, came back and took their place (700
/// loaded went back to 400) and `L` stopped. Now the count only grows, `L` reaches the end, and
/// the watch looks once it is done.
#[test]
fn l_then_watch_never_loses_rows_and_l_reaches_the_end() {
    const TOKEN: &str = "l-watch-token";
    let tmux = Tmux::start(150, 30);
    let home = tmux.home.path().to_owned();
    let slow = ["--empty", "--generate", "2000", "--fault", "slow:300"];
    let sandbox = SandboxProcess::start_with(&home, TOKEN, &slow);
    launch_paged(&tmux, &sandbox, TOKEN);
    tmux.send(&["L"]);
    tmux.wait_for("L under way", |s| loaded_count(s).is_some_and(|n| n >= 300));
    tmux.send(&[":"]);
    tmux.send(&["-l", "watch 1"]);
    tmux.send(&["Enter"]);
    let most = std::cell::Cell::new(0);
    let screen = tmux.wait_for("every row loaded, then a look", |s| {
        let loaded = loaded_count(s).unwrap_or(0);
        assert!(
            loaded >= most.get(),
            "the rows loaded went from {} to {loaded}:\n{s}",
            most.get()
        );
        most.set(loaded);
        s.contains("2,000 loaded · all loaded") && looked_at(s).is_some()
    });
    assert!(!screen.contains("more available"), "{screen}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// `r` with the service gone: the rows stay (the list emptied), and the status bar and the
/// title say they were not refreshed.
#[test]
fn r_with_the_service_gone_keeps_the_rows_and_says_so() {
    const TOKEN: &str = "r-gone-token";
    let tmux = Tmux::start(150, 30);
    let home = tmux.home.path().to_owned();
    let sandbox = SandboxProcess::start_with(&home, TOKEN, &["--empty", "--generate", "300"]);
    launch_paged(&tmux, &sandbox, TOKEN);
    drop(sandbox);
    tmux.send(&["r"]);
    let screen = tmux.wait_for("the refresh to fail", |s| {
        s.contains("the list was not refreshed") && s.contains("not refreshed: r retries")
    });
    assert_eq!(loaded_count(&screen), Some(100), "{screen}");
    assert!(position(&screen).is_some(), "the rows are shown: {screen}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell again");
}

/// `q` the moment the live rows show (before anything else happens) still keeps them: the next
/// start, `--offline`, opens on those rows marked as kept. The listing is written to the store
/// by its own thread; quitting waits for it (bounded), or the first run of the start-up bench
/// would leave its `--offline` run nothing to show.
#[test]
fn rows_shown_and_quit_at_once_are_kept_for_the_offline_start() {
    let tmux = Tmux::start(120, 30);
    let bin = binary();
    sandbox_in_the_shell(&tmux, "");
    tmux.type_line(&bin.display().to_string());
    // Not `wait_for`, which lets the screen settle first: `q` goes as soon as a row is drawn.
    let deadline = Instant::now() + WAIT;
    let live = loop {
        let screen = tmux.screen();
        if screen.contains("res_1 ") {
            tmux.send(&["q"]);
            break screen;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for the live rows; the screen was:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(
        !live.contains("kept"),
        "a first run has nothing kept: {live}"
    );
    tmux.wait_for_prompt("the shell prompt");

    tmux.type_line(&format!("{} --offline", bin.display()));
    let offline = tmux.wait_for("the rows shown, kept", |s| {
        s.contains("offline: r asks the service") && s.contains("res_1 ")
    });
    assert!(offline.contains("kept"), "marked as kept: {offline}");
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell prompt");
}
