//! The config file: profiles in TOML. Parsing is kept apart from resolution so that resolution
//! stays a pure function of text, and so that a parse error can be reported without echoing the
//! offending line (it may hold a token).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Deserializer};

use crate::api::Token;

/// The parts of `config.toml` this module reads. Other top-level tables (settings of the terminal
/// UI) are left to their owners and ignored here.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ConfigFile {
    /// The profile used when neither `--profile` nor `APPDECK_PROFILE` names one.
    pub default_profile: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// One `[profiles.NAME]` table.
#[derive(Debug, Default, Deserialize)]
pub struct Profile {
    pub base_url: Option<String>,
    /// Read straight into a [`Token`] so that no `Debug` of the profile can show it.
    #[serde(default, deserialize_with = "token")]
    pub token: Option<Token>,
    pub token_file: Option<PathBuf>,
    pub connect_timeout_secs: Option<f64>,
    pub request_timeout_secs: Option<f64>,
    /// The largest answer read from the service, in MiB (64 when not given).
    pub max_response_mib: Option<i64>,
    /// The largest body sent to the service, in MiB (8 when not given).
    pub max_request_mib: Option<i64>,
    /// Connect payload files whose resource types appdeck should know (`--types` does the same).
    #[serde(default)]
    pub types: Vec<PathBuf>,
    /// Refuse every write (reports, connects) made with this profile; reads still work.
    pub read_only: Option<bool>,
    /// How many times a read (`list`) retries a page that failed for a passing reason; 0 never
    /// (`--retries` overrides it).
    pub retries: Option<i64>,
    /// Whether the TUI keeps the last listing it showed in the store, to show it at the next
    /// start before the service answers (true when not given).
    pub keep_listings: Option<bool>,
}

/// The keys of a `[profiles.NAME]` table, as [`Profile`] reads them.
const PROFILE_KEYS: &[&str] = &[
    "base_url",
    "token",
    "token_file",
    "connect_timeout_secs",
    "request_timeout_secs",
    "max_response_mib",
    "max_request_mib",
    "types",
    "read_only",
    "retries",
    "keep_listings",
];

/// The keys at the top of the file: this module's and the terminal UI's (`theme`, `keys`,
/// `opener`, read by the tui crate's settings).
const TOP_KEYS: &[&str] = &["default_profile", "profiles", "theme", "keys", "opener"];

/// Keys of the file this version does not read, each with its 1-based line and what to do:
/// most are typos, and a key written at the wrong level (`read_only` at the top) would
/// otherwise be dropped without a word. Reported as warnings, so that a file shared with a
/// newer appdeck still works.
pub(crate) fn unknown_keys(text: &str) -> Vec<(usize, String)> {
    use toml::de::{DeTable, DeValue};
    let Ok(file) = DeTable::parse(text) else {
        return Vec::new();
    };
    let line = |span: std::ops::Range<usize>| super::located::line_of(text, span.start);
    let shown = |key: &str| crate::sanitize::line(key).into_owned();
    let mut found = Vec::new();
    for (key, value) in file.get_ref().iter() {
        let name = key.get_ref().as_ref();
        if TOP_KEYS.contains(&name) {
            if name == "profiles"
                && let DeValue::Table(profiles) = value.get_ref()
            {
                for (profile, table) in profiles.iter() {
                    let DeValue::Table(table) = table.get_ref() else {
                        continue;
                    };
                    for (key, _) in table.iter() {
                        let name = key.get_ref().as_ref();
                        if PROFILE_KEYS.contains(&name) {
                            continue;
                        }
                        let profile = shown(profile.get_ref());
                        let why = if TOP_KEYS.contains(&name) {
                            format!(
                                "`{name}` in profile {profile:?} ignored: it belongs at the top of the file, before any [table]"
                            )
                        } else {
                            format!(
                                "profile {profile:?}: unknown key `{}` ignored (known: {})",
                                shown(name),
                                PROFILE_KEYS.join(", ")
                            )
                        };
                        found.push((line(key.span()), why));
                    }
                }
            }
            continue;
        }
        let why = if PROFILE_KEYS.contains(&name) {
            format!(
                "`{name}` at the top of the file ignored: it is a profile key and belongs in a [profiles.NAME] table{}",
                if name == "read_only" {
                    " (or pass --read-only)"
                } else {
                    ""
                }
            )
        } else {
            format!(
                "unknown key `{}` ignored (the top of the file knows: {})",
                shown(name),
                TOP_KEYS.join(", ")
            )
        };
        found.push((line(key.span()), why));
    }
    found.sort();
    found
}

fn token<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Token>, D::Error> {
    Ok(Some(Token::new(String::deserialize(de)?)))
}

/// A config file that could not be read as TOML, located by line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseProblem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ConfigFile {
    /// Parses the file. The error carries toml's message and position only, never its usual
    /// excerpt of the source, which could be a line holding a token.
    pub(crate) fn parse(text: &str) -> Result<Self, ParseProblem> {
        toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start.min(text.len()));
            let (line, column) = line_column(text, offset);
            ParseProblem {
                line,
                column,
                message: crate::sanitize::line(e.message().trim()).into_owned(),
            }
        })
    }

    /// Whether any profile keeps a token in the file itself.
    pub(crate) fn holds_token(&self) -> bool {
        self.profiles.values().any(|p| p.token.is_some())
    }

    pub(crate) fn profile_names(&self) -> Vec<String> {
        self.profiles.keys().cloned().collect()
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset;
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_profiles_and_finds_unknown_keys_apart() {
        const TEXT: &str = r#"
default_profile = "dev"
[theme]
name = "dark"
[profiles.dev]
base_url = "http://localhost:8080/api/v1"
token = " secret "
request_timeout_secs = 5
basse_url = "typo"
"#;
        let file = ConfigFile::parse(TEXT).unwrap();
        let dev = &file.profiles["dev"];
        assert_eq!(dev.token.as_ref().unwrap().expose(), "secret");
        assert_eq!(dev.request_timeout_secs, Some(5.0));
        assert_eq!(unknown_keys(TEXT)[0].0, 9);
        assert!(file.holds_token());
        assert!(!format!("{file:?}").contains("secret"));
    }

    #[test]
    fn a_parse_error_has_a_position_and_no_excerpt() {
        let problem =
            ConfigFile::parse("[profiles.dev]\nbase_url = \"x\"\ntoken = \"s3cr3t").unwrap_err();
        assert_eq!(problem.line, 3);
        assert!(!problem.message.contains("s3cr3t"), "{problem:?}");
    }

    #[test]
    fn a_wrong_type_is_an_error() {
        let problem =
            ConfigFile::parse("[profiles.dev]\nconnect_timeout_secs = \"ten\"").unwrap_err();
        assert_eq!(problem.line, 2);
    }
}
