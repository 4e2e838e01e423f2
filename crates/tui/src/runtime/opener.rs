//! What `o` opens a link with: the config file's `opener`, else `$BROWSER`, else the platform's
//! opener (`xdg-open`, `open`, `start`). `$BROWSER` is a `:`-separated list of commands tried in
//! turn (the convention lynx, Python's `webbrowser` and `xdg-open` follow); in a command, `%s`
//! stands for the URL (`%%` for a `%`), else the URL is its last argument. The command is split
//! as a shell would split words, and run without a shell, so a URL never reaches one.

use std::io;
use std::process::{Command, Stdio};

/// One way to open a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opener {
    /// A command line, with where it came from (`opener` in the config, `$BROWSER`).
    Command { line: String, from: &'static str },
    /// The platform's own opener.
    Platform,
}

/// What to try, in order: the config's `opener`, each command of `$BROWSER`, then the platform's.
/// Empty settings count as unset.
pub fn choose(config: Option<&str>, browser_env: Option<&str>) -> Vec<Opener> {
    let mut openers = Vec::new();
    if let Some(line) = config.filter(|l| !l.trim().is_empty()) {
        openers.push(Opener::Command {
            line: line.to_owned(),
            from: "opener in the config file",
        });
    }
    for line in browser_env.unwrap_or_default().split(':') {
        if !line.trim().is_empty() {
            openers.push(Opener::Command {
                line: line.to_owned(),
                from: "$BROWSER",
            });
        }
    }
    openers.push(Opener::Platform);
    openers
}

/// The openers in the order they are tried, for `appdeck config show`.
pub fn describe(openers: &[Opener]) -> String {
    let each: Vec<String> = openers
        .iter()
        .map(|o| match o {
            Opener::Command { line, from } => {
                format!("`{}` (from {from})", crate::sanitize::line(line))
            }
            Opener::Platform => "the platform's opener".to_owned(),
        })
        .collect();
    each.join(", then ")
}

/// The program and arguments of `line` for `url`: `%s` replaced by the URL, else the URL added
/// last.
pub(crate) fn command_for(line: &str, url: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(line).map_err(|e| format!("`{line}` cannot be split: {e}"))?;
    if words.is_empty() {
        return Err("the command is empty".to_owned());
    }
    let mut placed = false;
    let mut argv: Vec<String> = words
        .iter()
        .map(|word| {
            if word.contains("%s") {
                placed = true;
            }
            substitute(word, url)
        })
        .collect();
    if !placed {
        argv.push(url.to_owned());
    }
    Ok(argv)
}

/// `%s` becomes the URL and `%%` a `%`; any other `%` stays.
fn substitute(word: &str, url: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('%', Some('s')) => {
                chars.next();
                out.push_str(url);
            }
            ('%', Some('%')) => {
                chars.next();
                out.push('%');
            }
            _ => out.push(c),
        }
    }
    out
}

/// A command the user set (`opener`, `$BROWSER`) failed: its words say which and how, where
/// the platform's failure can only say that no opener was found.
#[derive(Debug)]
pub(crate) struct CommandFailed(pub String);

impl std::fmt::Display for CommandFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandFailed {}

/// Opens `url` with the first opener that starts and succeeds; the error of the last one that
/// failed otherwise, in words. Blocking: a command is waited for (a browser that is already
/// running hands the URL over and exits; one that stays is left running in the background).
pub(crate) fn open(url: &str, openers: &[Opener]) -> io::Result<()> {
    let mut failures = Vec::new();
    for opener in openers {
        let result = match opener {
            Opener::Platform => open::that_detached(url),
            Opener::Command { line, from } => run(line, url).map_err(|e| {
                let said = format!("{from} `{}`: {e}", crate::sanitize::line(line));
                io::Error::new(e.kind(), CommandFailed(said))
            }),
        };
        match result {
            Ok(()) => return Ok(()),
            Err(error) => failures.push(error),
        }
    }
    // The platform's own failure says little ("no opener found") when a command was set: the
    // first command's failure is what the user can fix.
    let first = failures.into_iter().next();
    Err(first.unwrap_or_else(|| io::Error::other("nothing to open it with")))
}

/// Starts the command without a shell and without the terminal (its output would draw over the
/// screen); success when it started. A command that exits at once with a failure counts as a
/// failure, so the next opener is tried.
fn run(line: &str, url: &str) -> io::Result<()> {
    let argv = command_for(line, url).map_err(io::Error::other)?;
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    // A launcher that fails does so at once; a browser that stays is left to run.
    for _ in 0..10 {
        if let Some(status) = child.try_wait()? {
            return if status.success() {
                Ok(())
            } else {
                Err(io::Error::other(format!("exited with {status}")))
            };
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Still running: reap it when it exits, off this thread.
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_then_each_browser_then_the_platform() {
        let chosen = choose(Some("firefox --new-tab"), Some("w3m:lynx %s"));
        let lines: Vec<_> = chosen
            .iter()
            .map(|o| match o {
                Opener::Command { line, from } => format!("{from}: {line}"),
                Opener::Platform => "platform".to_owned(),
            })
            .collect();
        assert_eq!(
            lines,
            [
                "opener in the config file: firefox --new-tab",
                "$BROWSER: w3m",
                "$BROWSER: lynx %s",
                "platform"
            ]
        );
        assert_eq!(choose(Some(" "), Some("")), [Opener::Platform]);
    }

    #[test]
    fn the_url_goes_in_place_of_percent_s_or_last_and_is_one_word() {
        let url = "https://example.com/a b;rm -rf ~";
        assert_eq!(
            command_for("my-browser --new-window", url).unwrap(),
            ["my-browser", "--new-window", url]
        );
        assert_eq!(
            command_for("'/opt/my browser/bin' --url=%s --x 100%%", url).unwrap(),
            [
                "/opt/my browser/bin",
                &format!("--url={url}"),
                "--x",
                "100%"
            ]
        );
        assert!(command_for("broken 'quote", url).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_failing_command_falls_through_to_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("opened");
        let record = format!("sh -c 'echo \"$0\" > {}' %s", out.display());
        let openers = choose(None, Some(&format!("false:{record}")));
        open("https://example.com/x", &openers[..2]).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !out.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let opened = std::fs::read_to_string(&out).unwrap();
        assert_eq!(opened.trim(), "https://example.com/x");
        let error = open("https://example.com/x", &openers[..1]).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("$BROWSER `false`: exited with"),
            "{error}"
        );
    }
}
