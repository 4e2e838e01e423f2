//! `appdeck config path` and `appdeck config show`: where the settings come from, so a user can
//! tell why appdeck talks to the service it talks to. The token is shown masked, never in clear.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::Failure;
use super::args::{ConfigCommand, GlobalArgs};
use crate::api::Token;
use crate::api::client::redact_url;
use crate::config::{self, ConfigError, Env, Settings, Sourced, TokenSource};
use crate::sanitize;
use crate::tui::{ThemeChoice, describe_colour};

pub fn run(which: ConfigCommand, global: &GlobalArgs, out: &mut impl Write) -> Result<(), Failure> {
    match which {
        ConfigCommand::Path(_) => path(global, out),
        ConfigCommand::Show(_) => show(global, out),
    }
}

fn path(global: &GlobalArgs, out: &mut impl Write) -> Result<(), Failure> {
    let env = Env::from_process()?;
    let path = config::config_path(&global.flags(), &env).ok_or_else(|| {
        Failure::Usage(
            "this platform has no config directory; pass --config PATH or set APPDECK_CONFIG"
                .to_owned(),
        )
    })?;
    // The config file's path alone, as the help says (`config show` names the store too).
    writeln!(out, "{}", path.value.display())?;
    out.flush()?;
    if !path.value.exists() {
        eprintln!("appdeck: {} does not exist yet", path.value.display());
    }
    Ok(())
}

/// Prints every setting with its source. Exits 2 when the base URL or the token is missing or
/// unreadable, so `appdeck config show` doubles as a check of the set-up.
fn show(global: &GlobalArgs, out: &mut impl Write) -> Result<(), Failure> {
    let settings = config::load(&global.flags())?;
    let mut report = describe(&settings, config::read_token_file);
    let store = config::store_path(&Env::from_process()?).map_or_else(
        || format!("(none: set {})", config::ENV_DATA_DIR),
        |p| format!("{} (from {})", p.value.display(), p.source),
    );
    report.lines.push(("store", store));
    // The terminal UI's settings: a mistake there is an error here too, with its line.
    let ui = crate::tui::load_ui(&global.flags())?;
    report.lines.push(("theme", describe_theme(&ui.theme)));
    // What `o` in the terminal UI opens links with, first that works.
    let openers = crate::tui::choose_openers(
        ui.opener.as_deref(),
        std::env::var("BROWSER").ok().as_deref(),
    );
    report
        .lines
        .push(("opener", crate::tui::describe_openers(&openers)));
    for line in describe_keys(&ui.keys) {
        report.lines.push(("keys", line));
    }
    super::warn(&report.warnings);
    for (key, value) in &report.lines {
        writeln!(out, "{key:<16} {value}")?;
    }
    out.flush()?;
    if report.complete {
        Ok(())
    } else {
        Err(Failure::Reported(2))
    }
}

/// What `config show` prints, worked out apart from the printing so that it can be tested.
struct Report {
    lines: Vec<(&'static str, String)>,
    warnings: Vec<String>,
    /// Whether a command could reach the service with these settings.
    complete: bool,
}

type ReadTokenFile = fn(&Path) -> Result<(Token, Option<String>), ConfigError>;

fn describe(settings: &Settings, read_token_file: ReadTokenFile) -> Report {
    let mut warnings = settings.warnings.clone();
    let mut complete = true;
    let from = |source: &config::Source| format!("(from {source})");

    let config_file = match &settings.config_path {
        Some(p) => {
            let missing = if settings.config_found {
                ""
            } else {
                " [not found]"
            };
            format!("{}{missing} {}", p.value.display(), from(&p.source))
        }
        None => "(none: this platform has no config directory)".to_owned(),
    };
    let profile = settings.profile.as_ref().map_or_else(
        || "(none)".to_owned(),
        |p| format!("{} {}", sanitize::line(&p.value), from(&p.source)),
    );
    let base_url = match &settings.base_url {
        // A base URL may carry credentials (`https://user:pass@host/...`): masked like the token.
        Some(u) => format!(
            "{} {}",
            sanitize::line(&redact_url(&u.value)),
            from(&u.source)
        ),
        None => {
            complete = false;
            "(not set: pass --base-url or set APPDECK_BASE_URL)".to_owned()
        }
    };
    let token = match &settings.token {
        Some(Sourced { value, source }) => match value {
            TokenSource::Value(t) => match config::check_token(t, source) {
                Ok(()) => format!("{} {}", t.masked(), from(source)),
                Err(e) => {
                    complete = false;
                    format!("(unusable: {e})")
                }
            },
            TokenSource::File(path) => {
                match read_token_file(path)
                    .and_then(|(t, warning)| config::check_token(&t, source).map(|()| (t, warning)))
                {
                    Ok((t, warning)) => {
                        warnings.extend(warning);
                        format!("{} in {} {}", t.masked(), path.display(), from(source))
                    }
                    Err(e) => {
                        complete = false;
                        format!("(unusable: {e}) {}", from(source))
                    }
                }
            }
        },
        None => {
            complete = false;
            "(not set: set APPDECK_TOKEN or pass --token-file PATH)".to_owned()
        }
    };
    let timeout = |t: &Sourced<Duration>| format!("{}s {}", t.value.as_secs_f64(), from(&t.source));
    let read_only = format!(
        "{} {}",
        if settings.read_only.value {
            "yes: reports and connects are refused"
        } else {
            "no"
        },
        from(&settings.read_only.source)
    );
    let (types, unusable) = types_lines(&settings.types);
    complete &= unusable.is_empty();
    let mut report = Report {
        lines: vec![
            ("config_file", config_file),
            ("profile", profile),
            ("base_url", base_url),
            ("token", token),
            ("connect_timeout", timeout(&settings.connect_timeout)),
            ("request_timeout", timeout(&settings.request_timeout)),
            (
                "max_response",
                format!(
                    "{} MiB {}",
                    settings.max_response_bytes.value / (1024 * 1024),
                    from(&settings.max_response_bytes.source)
                ),
            ),
            (
                "max_request",
                format!(
                    "{} MiB {}",
                    settings.max_request_bytes.value / (1024 * 1024),
                    from(&settings.max_request_bytes.source)
                ),
            ),
            ("read_only", read_only),
            (
                "retries",
                format!(
                    "{} (from {}; list's --retries overrides it)",
                    settings.retries.value, settings.retries.source
                ),
            ),
            (
                "keep_listings",
                format!(
                    "{} (from {}; the TUI's last listing, kept in the store)",
                    settings.keep_listings.value, settings.keep_listings.source
                ),
            ),
            ("types", types),
        ],
        warnings,
        complete,
    };
    for problem in unusable {
        report
            .lines
            .push(("types", format!("(unusable: {problem})")));
    }
    report
}

/// The profile's `types` files, resolved against the config file's directory, and why each one
/// that `appdeck types` (and the terminal UI) could not use cannot be, checked as they read it.
fn types_lines(files: &[std::path::PathBuf]) -> (String, Vec<String>) {
    if files.is_empty() {
        return ("(none)".to_owned(), Vec::new());
    }
    let shown: Vec<String> = files
        .iter()
        .map(|f| sanitize::line(&f.display().to_string()).into_owned())
        .collect();
    let unusable = files
        .iter()
        .filter_map(|f| crate::catalog::load_file(f).err())
        .map(|problem| sanitize::line(&problem.to_string()).into_owned())
        .collect();
    (format!("{} (from the profile)", shown.join(", ")), unusable)
}

/// The theme's name and the colours the config file changes in it, as `[theme]` spells them.
fn describe_theme(theme: &ThemeChoice) -> String {
    let mut text = theme.base.name().to_owned();
    if !theme.colours.is_empty() {
        let colours: Vec<String> = theme
            .colours
            .iter()
            .map(|(role, colour)| format!("{} = {}", role.name(), describe_colour(*colour)))
            .collect();
        text.push_str(&format!(" ({})", colours.join(", ")));
    }
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        text.push_str(" [off: NO_COLOR is set]");
    }
    text
}

/// The keys the config file changes, one line per action and key set: `quit = x (default: q) in
/// browser, detail, ...`; "(defaults)" when nothing is remapped.
fn describe_keys(keymap: &crate::tui::Keymap) -> Vec<String> {
    let lines: Vec<String> = keymap
        .actions()
        .iter()
        .filter(|a| a.is_remapped())
        .map(|a| {
            format!(
                "{} = {} (default: {}) in {}",
                a.action,
                super::keys::written(&a.keys),
                super::keys::written(a.default_keys),
                a.panes.join(", ")
            )
        })
        .collect();
    if lines.is_empty() {
        vec!["(defaults; `appdeck keys` lists them)".to_owned()]
    } else {
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Flags, resolve};

    #[test]
    fn the_keys_that_differ_from_the_defaults_are_shown() {
        use crate::tui::KeyEntry;
        use crate::tui::Keymap;
        assert_eq!(
            describe_keys(&Keymap::default()),
            ["(defaults; `appdeck keys` lists them)"]
        );
        let keymap = Keymap::with_entries(&[KeyEntry {
            pane: Some(("detail".into(), 1)),
            action: "search".into(),
            line: 2,
            keys: vec![("s".into(), 2), ("F3".into(), 2)],
        }])
        .unwrap();
        assert_eq!(
            describe_keys(&keymap),
            ["search = s, F3 (default: /) in detail"]
        );
    }

    #[test]
    fn the_theme_is_shown_with_its_overrides() {
        let mut theme = ThemeChoice {
            base: crate::tui::BaseTheme::Light,
            ..ThemeChoice::default()
        };
        theme.colours.insert(
            crate::tui::Role::Selection,
            ratatui::style::Color::Rgb(1, 2, 3),
        );
        let shown = describe_theme(&theme);
        assert!(shown.starts_with("light (selection = #010203)"), "{shown}");
    }

    #[test]
    fn the_read_only_flag_is_shown_with_its_source() {
        let env = Env {
            base_url: Some("http://127.0.0.1:9/api/v1".into()),
            token: Some(Token::new("t")),
            ..Env::default()
        };
        let flags = Flags {
            read_only: true,
            ..Flags::default()
        };
        let report = describe(&resolve(&flags, &env, None).unwrap(), no_file);
        let line = report
            .lines
            .iter()
            .find(|(k, _)| *k == "read_only")
            .unwrap();
        assert_eq!(
            line.1,
            "yes: reports and connects are refused (from flag --read-only)"
        );
        let report = describe(&resolve(&Flags::default(), &env, None).unwrap(), no_file);
        let line = report
            .lines
            .iter()
            .find(|(k, _)| *k == "read_only")
            .unwrap();
        assert_eq!(line.1, "no (from default)");
    }

    fn no_file(path: &Path) -> Result<(Token, Option<String>), ConfigError> {
        Err(ConfigError::TokenFile {
            path: path.to_owned(),
            problem: "No such file or directory".to_owned(),
        })
    }

    #[test]
    fn shows_sources_and_masks_the_token() {
        let env = Env {
            base_url: Some("http://127.0.0.1:9/api/v1".into()),
            token: Some(Token::new("very-secret-value")),
            ..Env::default()
        };
        let flags = Flags {
            request_timeout: Some(Duration::from_millis(1500)),
            ..Flags::default()
        };
        let report = describe(&resolve(&flags, &env, None).unwrap(), no_file);
        let text: String = report
            .lines
            .iter()
            .map(|(k, v)| format!("{k} {v}\n"))
            .collect();
        assert!(!text.contains("very-secret-value"), "{text}");
        assert!(!text.contains("17"), "not even its length: {text}");
        assert!(
            text.contains("token ******** (from env APPDECK_TOKEN)"),
            "{text}"
        );
        assert!(text.contains("base_url http://127.0.0.1:9/api/v1 (from env APPDECK_BASE_URL)"));
        assert!(
            text.contains("request_timeout 1.5s (from flag --timeout)"),
            "{text}"
        );
        assert!(
            text.contains("connect_timeout 10s (from default)"),
            "{text}"
        );
        assert!(report.complete);
    }

    #[test]
    fn credentials_in_the_base_url_are_masked() {
        let env = Env {
            base_url: Some("https://deploy:hunter2@example.com/api/v1".into()),
            token: Some(Token::new("t")),
            ..Env::default()
        };
        let report = describe(&resolve(&Flags::default(), &env, None).unwrap(), no_file);
        assert_eq!(
            report.lines[2].1,
            "https://***@example.com/api/v1 (from env APPDECK_BASE_URL)"
        );
    }

    #[test]
    fn a_missing_or_unreadable_token_makes_it_incomplete() {
        let report = describe(
            &resolve(&Flags::default(), &Env::default(), None).unwrap(),
            no_file,
        );
        assert!(!report.complete);
        let flags = Flags {
            token_file: Some("/nowhere/token".into()),
            ..Flags::default()
        };
        let report = describe(&resolve(&flags, &Env::default(), None).unwrap(), no_file);
        assert!(report.lines[3].1.contains("unusable"), "{:?}", report.lines);
        assert!(!report.complete);
    }
}
