//! Where the base URL, the token and the timeouts come from: flags beat the environment, which
//! beats the selected profile of `config.toml`, which beats the defaults.
//!
//! [`resolve`] is a pure function of its inputs (flag values, environment values, config text) so
//! that every precedence rule is unit-tested without touching the real environment; [`load`] does
//! the reading around it, and [`Settings::client_settings`] reads the token file at the last moment.

mod file;
pub mod located;
mod secret;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::api::{ClientSettings, Token};
use crate::bounded_read;

pub(crate) use file::ConfigFile;
pub use file::{ParseProblem, Profile};
pub use located::LineProblem;
pub use secret::read_token_file;
pub(crate) use secret::readable_by_others;

/// Environment variables appdeck reads.
pub const ENV_BASE_URL: &str = "APPDECK_BASE_URL";
pub const ENV_TOKEN: &str = "APPDECK_TOKEN";
pub(crate) const ENV_PROFILE: &str = "APPDECK_PROFILE";
pub(crate) const ENV_CONFIG: &str = "APPDECK_CONFIG";
/// The directory of the local store (tests and several set-ups side by side use it).
pub const ENV_DATA_DIR: &str = "APPDECK_DATA_DIR";

/// Largest response cap accepted, in MiB: beyond 16 GiB it is a typo.
const MAX_RESPONSE_MIB: i64 = 16 * 1024;

/// Largest config file read: a few profiles, keys and colours take a few KiB; past this it is
/// not a config file (`--config /dev/zero` would otherwise be read until memory runs out).
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Most retries accepted in a profile: past this, backoff alone would wait for days.
pub const MAX_RETRIES: i64 = 100;

/// Longest timeout accepted: beyond a day it is a typo, and it keeps `Duration` arithmetic safe.
const MAX_TIMEOUT_SECS: f64 = 86_400.0;

/// The platform's directories for appdeck (`~/.config/appdeck` and the like on Linux).
fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "appdeck")
}

/// The config file used when neither `--config` nor `APPDECK_CONFIG` names one.
pub fn default_config_path() -> Option<PathBuf> {
    project_dirs().map(|d| d.config_dir().join("config.toml"))
}

/// Where the terminal UI writes its log: the state directory where the platform has one
/// (`$XDG_STATE_HOME/appdeck/appdeck.log` on Linux), else the local data directory.
pub fn log_path() -> Option<PathBuf> {
    let dirs = project_dirs()?;
    let dir = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Some(dir.join("appdeck.log"))
}

/// The store's file name inside the data directory.
pub const STORE_FILE_NAME: &str = "appdeck.db";

/// Where the local store is: in `APPDECK_DATA_DIR` when it is set, else in the platform's data
/// directory (`~/.local/share/appdeck/appdeck.db` on Linux).
pub fn store_path(env: &Env) -> Option<Sourced<PathBuf>> {
    if let Some(dir) = &env.data_dir {
        return Some(Sourced::new(
            dir.join(STORE_FILE_NAME),
            Source::Env(ENV_DATA_DIR),
        ));
    }
    project_dirs().map(|d| Sourced::new(d.data_dir().join(STORE_FILE_NAME), Source::Default))
}

/// Where a setting came from, shown by `appdeck config show`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag, by name.
    Flag(&'static str),
    /// An environment variable, by name.
    Env(&'static str),
    /// A key of the named profile.
    Profile(String),
    /// `default_profile` in the config file.
    ConfigDefault,
    /// Built in.
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(name) => write!(f, "flag {name}"),
            Source::Env(name) => write!(f, "env {name}"),
            Source::Profile(name) => write!(f, "profile {name}"),
            Source::ConfigDefault => f.write_str("default_profile in the config file"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A value and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Sourced<T> {
    pub(crate) fn new(value: T, source: Source) -> Self {
        Sourced { value, source }
    }
}

/// What the command line said. The timeouts are already checked by the argument parser.
#[derive(Clone, Debug, Default)]
pub struct Flags {
    pub base_url: Option<String>,
    pub token_file: Option<PathBuf>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    pub request_timeout: Option<Duration>,
    pub connect_timeout: Option<Duration>,
    /// `--read-only`: refuse every write whatever the profile says.
    pub read_only: bool,
}

/// What the environment said. Empty variables count as unset, so `APPDECK_TOKEN=` disables one.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub base_url: Option<String>,
    pub token: Option<Token>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    /// For `~/` in a profile's `token_file`.
    pub home: Option<PathBuf>,
    /// `APPDECK_DATA_DIR`: where the local store lives.
    pub data_dir: Option<PathBuf>,
}

impl Env {
    /// Reads the `APPDECK_*` variables of this process.
    pub fn from_process() -> Result<Self, ConfigError> {
        Ok(Env {
            base_url: env_var(ENV_BASE_URL)?,
            token: env_var(ENV_TOKEN)?.map(Token::new),
            profile: env_var(ENV_PROFILE)?,
            config: std::env::var_os(ENV_CONFIG)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            home: directories::BaseDirs::new().map(|d| d.home_dir().to_owned()),
            data_dir: std::env::var_os(ENV_DATA_DIR)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        })
    }
}

fn env_var(name: &'static str) -> Result<Option<String>, ConfigError> {
    match std::env::var(name) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => Ok(Some(v.trim().to_owned())),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(ConfigError::BadEnv(name)),
    }
}

/// The config file as read from disk.
#[derive(Clone, Debug)]
pub struct ConfigText {
    pub path: PathBuf,
    pub text: String,
    /// Whether group or others may read it (a token in it is then exposed).
    pub shared: bool,
}

/// Where a token is to be found. A file is read only when a command needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenSource {
    Value(Token),
    File(PathBuf),
}

/// The effective settings, each with its source.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The config file consulted (`None` when the platform has no config directory).
    pub config_path: Option<Sourced<PathBuf>>,
    /// Whether that file exists.
    pub config_found: bool,
    pub profile: Option<Sourced<String>>,
    pub base_url: Option<Sourced<String>>,
    pub token: Option<Sourced<TokenSource>>,
    pub connect_timeout: Sourced<Duration>,
    pub request_timeout: Sourced<Duration>,
    /// The largest answer read, in bytes.
    pub max_response_bytes: Sourced<u64>,
    /// The largest body sent, in bytes.
    pub max_request_bytes: Sourced<u64>,
    /// Connect payload files of the selected profile's `types`, relative paths resolved against
    /// the config file's directory.
    pub types: Vec<PathBuf>,
    /// The profiles the config file defines, for `:profile` and its completion.
    pub profile_names: Vec<String>,
    /// Whether writes (reports, connects) are refused: `--read-only`, or `read_only = true` in
    /// the selected profile.
    pub read_only: Sourced<bool>,
    /// How many times `list` retries a failed page: the profile's `retries`, else the default
    /// (`--retries` is the command's and overrides this).
    pub retries: Sourced<u32>,
    /// Whether the TUI keeps the last listing it showed (the profile's `keep_listings`; on by
    /// default). Off, appdeck also forgets what it kept for this profile.
    pub keep_listings: Sourced<bool>,
    /// Things the user should fix but that do not stop the command (exposed secrets, typos).
    pub warnings: Vec<String>,
}

/// Why appdeck refuses to write: said in every refusal, so the user knows what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadOnly {
    /// `read_only = true` in this profile.
    Profile(String),
    /// `--read-only` on the command line (with the profile in use, if any).
    Flag(Option<String>),
}

impl fmt::Display for ReadOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |name: &str| crate::sanitize::line(name).into_owned();
        match self {
            ReadOnly::Profile(name) => write!(f, "profile {:?} is read-only", shown(name)),
            ReadOnly::Flag(Some(name)) => {
                write!(f, "profile {:?} is read-only (--read-only)", shown(name))
            }
            ReadOnly::Flag(None) => f.write_str("read-only (--read-only)"),
        }
    }
}

/// A configuration problem; every one of them is a usage error (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "no base URL: pass --base-url URL or set {ENV_BASE_URL} (or `base_url` in a profile of {})",
        describe_path(.0.as_deref())
    )]
    MissingBaseUrl(Option<PathBuf>),
    #[error(
        "no token: set {ENV_TOKEN} or pass --token-file PATH (or `token_file` in a profile of {})",
        describe_path(.0.as_deref())
    )]
    MissingToken(Option<PathBuf>),
    #[error("unknown profile {name:?} (from {chosen_by}); {}", describe_profiles(.available, .path.as_deref(), .found))]
    UnknownProfile {
        name: String,
        chosen_by: Source,
        available: Vec<String>,
        path: Option<PathBuf>,
        found: bool,
    },
    #[error("{}:{}:{}: {}", .path.display(), .problem.line, .problem.column, .problem.message)]
    Parse {
        path: PathBuf,
        problem: ParseProblem,
    },
    /// Mistakes in the terminal UI's settings (`theme`, `keys`), each at a line of the file:
    /// one per line, `path:line: message`.
    #[error("{}", .problems.iter().map(|p| format!("{}:{}: {}", .path.display(), p.line, p.message)).collect::<Vec<_>>().join("\n"))]
    Setting {
        path: PathBuf,
        problems: Vec<located::LineProblem>,
    },
    #[error("cannot read {}: {error}", .path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("token file {}: {problem}", .path.display())]
    TokenFile { path: PathBuf, problem: String },
    #[error("profile {0:?} sets both `token` and `token_file`; keep one")]
    TokenTwice(String),
    #[error("profile {profile:?}: `{key}` must be a number of seconds above 0 and at most a day")]
    BadTimeout { profile: String, key: &'static str },
    #[error("{0} is not valid UTF-8")]
    BadEnv(&'static str),
    #[error(
        "profile {0:?}: `max_response_mib` must be a whole number of MiB from 1 to {MAX_RESPONSE_MIB}"
    )]
    BadResponseCap(String),
    #[error(
        "profile {0:?}: `max_request_mib` must be a whole number of MiB from 1 to {MAX_RESPONSE_MIB}"
    )]
    BadRequestCap(String),
    #[error("profile {0:?}: `retries` must be a whole number from 0 to {MAX_RETRIES}")]
    BadRetries(String),
    #[error(
        "the token (from {0}) contains a control character; it must be the token alone, on one line"
    )]
    ControlInToken(Source),
    /// `--config PATH` names a file that is not there: a typo must not fall back silently to no
    /// config at all (the default path and `APPDECK_CONFIG` may be absent, for a fresh machine).
    #[error("config file {} (from --config) does not exist", .0.display())]
    ConfigNotFound(PathBuf),
}

/// Refuses a token holding a control character (a newline, DEL...): it could not go in an HTTP
/// header as it is, and is almost always a pasting mistake.
pub fn check_token(token: &Token, source: &Source) -> Result<(), ConfigError> {
    if token.expose().chars().any(char::is_control) {
        return Err(ConfigError::ControlInToken(source.clone()));
    }
    Ok(())
}

fn describe_path(path: Option<&Path>) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => "the config file".to_owned(),
    }
}

fn describe_profiles(available: &[String], path: Option<&Path>, found: &bool) -> String {
    let where_ = describe_path(path);
    if !*found {
        format!("there is no config file at {where_}")
    } else if available.is_empty() {
        format!("{where_} defines no profiles")
    } else {
        format!("profiles in {where_}: {}", available.join(", "))
    }
}

/// Picks the config file: `--config`, else `APPDECK_CONFIG`, else the platform's default.
pub fn config_path(flags: &Flags, env: &Env) -> Option<Sourced<PathBuf>> {
    if let Some(p) = &flags.config {
        return Some(Sourced::new(p.clone(), Source::Flag("--config")));
    }
    if let Some(p) = &env.config {
        return Some(Sourced::new(p.clone(), Source::Env(ENV_CONFIG)));
    }
    default_config_path().map(|p| Sourced::new(p, Source::Default))
}

/// Reads the config file. A missing file is not an error (it is shown as missing, and only an
/// explicitly chosen profile then fails), so a fresh machine works with environment variables alone.
pub fn read_config(path: &Path) -> Result<Option<ConfigText>, ConfigError> {
    match bounded_read::file(path, MAX_CONFIG_BYTES) {
        Ok((bytes, meta)) => {
            let text = String::from_utf8(bytes).map_err(|_| ConfigError::Parse {
                path: path.to_owned(),
                problem: ParseProblem {
                    line: 1,
                    column: 1,
                    message: "the file is not valid UTF-8".to_owned(),
                },
            })?;
            Ok(Some(ConfigText {
                path: path.to_owned(),
                text,
                shared: readable_by_others(&meta),
            }))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(ConfigError::Read {
            path: path.to_owned(),
            error,
        }),
    }
}

/// Reads the process's environment and config file, then resolves.
pub fn load(flags: &Flags) -> Result<Settings, ConfigError> {
    read(flags)?.resolve(flags)
}

/// The environment and the config file as read, not yet resolved: for a caller that takes
/// several things from one reading (the terminal UI: its look, the service, the profiles,
/// keeping), so that they all come from the same text, read once.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub env: Env,
    /// The config file chosen (`None` when the platform has no config directory).
    pub path: Option<Sourced<PathBuf>>,
    /// Its text (`None` when it does not exist).
    pub text: Option<ConfigText>,
}

/// Reads the process's environment and config file. A file named by `--config` must exist.
pub fn read(flags: &Flags) -> Result<Inputs, ConfigError> {
    let env = Env::from_process()?;
    let path = config_path(flags, &env);
    let text = match &path {
        Some(p) => read_config(&p.value)?,
        None => None,
    };
    if let (Some(chosen), None) = (&path, &text)
        && chosen.source == Source::Flag("--config")
    {
        return Err(ConfigError::ConfigNotFound(chosen.value.clone()));
    }
    Ok(Inputs { env, path, text })
}

impl Inputs {
    /// The profiles the file as read defines (none when there is no file).
    pub fn profile_names(&self) -> Result<Vec<String>, ConfigError> {
        let Some(config) = &self.text else {
            return Ok(Vec::new());
        };
        let file = ConfigFile::parse(&config.text).map_err(|problem| ConfigError::Parse {
            path: config.path.clone(),
            problem,
        })?;
        Ok(file.profile_names())
    }

    /// The settings `flags` select from what was read ([`resolve`], with the file's path).
    pub fn resolve(&self, flags: &Flags) -> Result<Settings, ConfigError> {
        let mut settings = resolve(flags, &self.env, self.text.as_ref())?;
        settings.config_path = self.path.clone();
        Ok(settings)
    }
}

/// The settings of profile `name` for a switch at run time (`:profile NAME`): the profile's
/// own base URL and token win over the environment's and the flags', since the user has just
/// asked for that profile; the config file, the timeouts and `--read-only` still apply.
pub fn load_profile(flags: &Flags, name: &str) -> Result<Settings, ConfigError> {
    let mut env = Env::from_process()?;
    let path = config_path(flags, &env);
    let text = match &path {
        Some(p) => read_config(&p.value)?,
        None => None,
    };
    (env.base_url, env.token, env.profile) = (None, None, None);
    let mut settings = resolve(&switch_flags(flags, name), &env, text.as_ref())?;
    settings.config_path = path;
    Ok(settings)
}

/// The flags a profile switch resolves with: the profile named, no connection flag.
fn switch_flags(flags: &Flags, name: &str) -> Flags {
    Flags {
        profile: Some(name.to_owned()),
        base_url: None,
        token_file: None,
        ..flags.clone()
    }
}

/// The precedence rules, as a pure function: flags, then environment, then the selected profile,
/// then defaults. `config_path` is left for the caller to fill in.
pub fn resolve(
    flags: &Flags,
    env: &Env,
    config: Option<&ConfigText>,
) -> Result<Settings, ConfigError> {
    let file = match config {
        Some(c) => ConfigFile::parse(&c.text).map_err(|problem| ConfigError::Parse {
            path: c.path.clone(),
            problem,
        })?,
        None => ConfigFile::default(),
    };
    let config_dir = config.and_then(|c| c.path.parent());
    let mut warnings = Vec::new();
    if let Some(c) = config
        && c.shared
        && file.holds_token()
    {
        warnings.push(format!(
            "{} holds a token and is readable by group or others; run: chmod 600 {}",
            c.path.display(),
            c.path.display()
        ));
    }

    if let Some(c) = config {
        for (line, why) in file::unknown_keys(&c.text) {
            warnings.push(format!("{}:{line}: {why}", c.path.display()));
        }
    }

    let profile_choice = flags
        .profile
        .clone()
        .map(|n| Sourced::new(n, Source::Flag("--profile")))
        .or_else(|| {
            env.profile
                .clone()
                .map(|n| Sourced::new(n, Source::Env(ENV_PROFILE)))
        })
        .or_else(|| {
            file.default_profile
                .clone()
                .map(|n| Sourced::new(n, Source::ConfigDefault))
        });
    let profile = match &profile_choice {
        Some(choice) => match file.profiles.get(&choice.value) {
            Some(p) => Some(p),
            None => {
                return Err(ConfigError::UnknownProfile {
                    name: choice.value.clone(),
                    chosen_by: choice.source.clone(),
                    available: file.profile_names(),
                    path: config.map(|c| c.path.clone()),
                    found: config.is_some(),
                });
            }
        },
        None => None,
    };
    let name = profile_choice.as_ref().map(|c| c.value.clone());
    let from_profile = || Source::Profile(name.clone().unwrap_or_default());
    if let (Some(p), Some(name)) = (profile, &name)
        && p.token.is_some()
        && p.token_file.is_some()
    {
        return Err(ConfigError::TokenTwice(name.clone()));
    }

    let base_url = flags
        .base_url
        .clone()
        .map(|u| Sourced::new(u, Source::Flag("--base-url")))
        .or_else(|| {
            env.base_url
                .clone()
                .map(|u| Sourced::new(u, Source::Env(ENV_BASE_URL)))
        })
        .or_else(|| {
            profile
                .and_then(|p| p.base_url.clone())
                .map(|u| Sourced::new(u, from_profile()))
        });

    let token = flags
        .token_file
        .clone()
        .map(|p| Sourced::new(TokenSource::File(p), Source::Flag("--token-file")))
        .or_else(|| {
            env.token
                .clone()
                .map(|t| Sourced::new(TokenSource::Value(t), Source::Env(ENV_TOKEN)))
        })
        .or_else(|| {
            let p = profile?;
            let source = if let Some(t) = &p.token {
                TokenSource::Value(t.clone())
            } else {
                let path = expand_path(p.token_file.as_ref()?, env.home.as_deref(), config_dir);
                TokenSource::File(path)
            };
            Some(Sourced::new(source, from_profile()))
        });

    let timeout = |flag: Option<Duration>,
                   flag_name: &'static str,
                   key: &'static str,
                   value: Option<f64>,
                   default: Duration|
     -> Result<Sourced<Duration>, ConfigError> {
        if let Some(d) = flag {
            return Ok(Sourced::new(d, Source::Flag(flag_name)));
        }
        match value {
            Some(secs) => {
                let d = seconds(secs).ok_or_else(|| ConfigError::BadTimeout {
                    profile: name.clone().unwrap_or_default(),
                    key,
                })?;
                Ok(Sourced::new(d, from_profile()))
            }
            None => Ok(Sourced::new(default, Source::Default)),
        }
    };
    let connect_timeout = timeout(
        flags.connect_timeout,
        "--connect-timeout",
        "connect_timeout_secs",
        profile.and_then(|p| p.connect_timeout_secs),
        ClientSettings::DEFAULT_CONNECT_TIMEOUT,
    )?;
    let request_timeout = timeout(
        flags.request_timeout,
        "--timeout",
        "request_timeout_secs",
        profile.and_then(|p| p.request_timeout_secs),
        ClientSettings::DEFAULT_REQUEST_TIMEOUT,
    )?;

    let max_response_bytes = match profile.and_then(|p| p.max_response_mib) {
        Some(mib) if (1..=MAX_RESPONSE_MIB).contains(&mib) => {
            Sourced::new(mib as u64 * 1024 * 1024, from_profile())
        }
        Some(_) => {
            return Err(ConfigError::BadResponseCap(
                name.clone().unwrap_or_default(),
            ));
        }
        None => Sourced::new(ClientSettings::DEFAULT_MAX_RESPONSE_BYTES, Source::Default),
    };
    let max_request_bytes = match profile.and_then(|p| p.max_request_mib) {
        Some(mib) if (1..=MAX_RESPONSE_MIB).contains(&mib) => {
            Sourced::new(mib as u64 * 1024 * 1024, from_profile())
        }
        Some(_) => {
            return Err(ConfigError::BadRequestCap(name.clone().unwrap_or_default()));
        }
        None => Sourced::new(ClientSettings::DEFAULT_MAX_REQUEST_BYTES, Source::Default),
    };
    let types = profile.map_or_else(Vec::new, |p| {
        p.types
            .iter()
            .map(|path| expand_path(path, env.home.as_deref(), config_dir))
            .collect()
    });

    let read_only = if flags.read_only {
        Sourced::new(true, Source::Flag("--read-only"))
    } else {
        match profile.and_then(|p| p.read_only) {
            Some(value) => Sourced::new(value, from_profile()),
            None => Sourced::new(false, Source::Default),
        }
    };

    let retries = match profile.and_then(|p| p.retries) {
        Some(n) if (0..=MAX_RETRIES).contains(&n) => Sourced::new(n as u32, from_profile()),
        Some(_) => return Err(ConfigError::BadRetries(name.clone().unwrap_or_default())),
        None => Sourced::new(
            crate::api::retry::RetryPolicy::DEFAULT_RETRIES,
            Source::Default,
        ),
    };

    let keep_listings = match profile.and_then(|p| p.keep_listings) {
        Some(value) => Sourced::new(value, from_profile()),
        None => Sourced::new(true, Source::Default),
    };

    Ok(Settings {
        retries,
        keep_listings,
        types,
        profile_names: file.profile_names(),
        read_only,
        config_path: None,
        config_found: config.is_some(),
        profile: profile_choice,
        base_url,
        token,
        connect_timeout,
        request_timeout,
        max_response_bytes,
        max_request_bytes,
        warnings,
    })
}

/// A number of seconds as a `Duration`, if it is a sensible timeout.
pub fn seconds(secs: f64) -> Option<Duration> {
    (secs.is_finite() && secs > 0.0 && secs <= MAX_TIMEOUT_SECS)
        .then(|| Duration::from_secs_f64(secs))
}

/// `~/x` is under the home directory; a relative path in a profile is relative to the config
/// file, so the file means the same whatever the working directory.
fn expand_path(path: &Path, home: Option<&Path>, config_dir: Option<&Path>) -> PathBuf {
    if let (Ok(rest), Some(home)) = (path.strip_prefix("~"), home) {
        return home.join(rest);
    }
    match config_dir {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_owned(),
    }
}

impl Settings {
    /// The name of the selected profile, whether or not any setting came from it.
    pub fn profile_name(&self) -> Option<&str> {
        self.profile.as_ref().map(|p| p.value.as_str())
    }

    /// Why writes are refused, when they are: names the profile (or the flag), for messages
    /// such as "read-only profile \"prod\": not sent".
    pub fn write_refusal(&self) -> Option<ReadOnly> {
        if !self.read_only.value {
            return None;
        }
        Some(match &self.read_only.source {
            Source::Profile(name) => ReadOnly::Profile(name.clone()),
            _ => ReadOnly::Flag(self.profile_name().map(str::to_owned)),
        })
    }

    /// The client's settings, reading the token file if the token is in one. Warnings about the
    /// token file's permissions are added to the returned list.
    pub fn client_settings(&self) -> Result<(ClientSettings, Vec<String>), ConfigError> {
        let config_path = self.config_path.as_ref().map(|p| p.value.clone());
        let base_url = self
            .base_url
            .as_ref()
            .ok_or_else(|| ConfigError::MissingBaseUrl(config_path.clone()))?;
        let token = self
            .token
            .as_ref()
            .ok_or(ConfigError::MissingToken(config_path))?;
        let mut warnings = self.warnings.clone();
        let source = &token.source;
        let token = match &token.value {
            TokenSource::Value(t) => t.clone(),
            TokenSource::File(path) => {
                let (token, warning) = read_token_file(path)?;
                warnings.extend(warning);
                token
            }
        };
        check_token(&token, source)?;
        let settings = ClientSettings {
            base_url: base_url.value.clone(),
            token,
            connect_timeout: self.connect_timeout.value,
            request_timeout: self.request_timeout.value,
            max_response_bytes: self.max_response_bytes.value,
            max_request_bytes: self.max_request_bytes.value,
        };
        Ok((settings, warnings))
    }
}

#[cfg(test)]
mod tests;
