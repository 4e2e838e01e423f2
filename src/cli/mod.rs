//! The non-interactive commands: `list`, `report`, `connect`, `api`, `validate`, `sandbox`,
//! `config`, `diff`, `infer`, `history`.
//!
//! Every command returns `Result<(), Failure>`; [`run`] turns that into the documented exit
//! status (0 ok, 1 API or network error, 2 usage, configuration or validation error) and prints
//! the error as `appdeck: <message>` on stderr, with a hint when one helps.

mod api;
pub mod args;
mod cache;
mod config_cmd;
mod diff;
mod each;
mod generate;
mod history;
mod infer;
mod input;
mod keys;
pub mod list;
mod report_diff;
mod sandbox;
mod send;
pub mod shape;
pub mod stdout;
pub mod table;
mod types;
mod validate;

use std::io::Write;
use std::process::ExitCode;

use crate::api::{ApiError, Client, ClientSettings, Operation};
use crate::config::{self, ConfigError};
use args::{Command, GlobalArgs};

/// Why a command did not succeed, which decides the exit status.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The service refused, failed, answered nonsense or did not answer (exit 1).
    #[error("{0}")]
    Api(ApiError),
    /// Writing the output failed (exit 1); a closed pipe is not reported.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    /// The sandbox could not start or failed while serving (exit 1).
    #[error("sandbox: {0:#}")]
    Sandbox(anyhow::Error),
    /// The command line or an input file is unusable (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The configuration is incomplete or wrong (exit 2).
    #[error("{0}")]
    Config(#[from] ConfigError),
    /// The payload failed its offline checks; the findings are already printed (exit 2).
    #[error("{0}")]
    Invalid(String),
    /// The local store cannot be used by a command that needs it (`history`) (exit 1).
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
    /// Everything was already said on stdout or stderr; only the exit status is left.
    #[error("")]
    Reported(u8),
}

impl Failure {
    pub fn exit_status(&self) -> u8 {
        match self {
            Failure::Api(_) | Failure::Output(_) | Failure::Sandbox(_) | Failure::Store(_) => 1,
            Failure::Usage(_) | Failure::Config(_) | Failure::Invalid(_) => 2,
            Failure::Reported(code) => *code,
        }
    }

    /// Tells the user what went wrong on stderr, and returns the exit status.
    pub fn report(&self) -> ExitCode {
        if let Failure::Output(e) = self
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            // `appdeck list | head`: the reader had enough; that is not a failure.
            return ExitCode::SUCCESS;
        }
        if !matches!(self, Failure::Reported(_)) {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "appdeck: {}",
                crate::sanitize::multiline(&self.to_string())
            );
            if let Some(hint) = self.hint() {
                let _ = writeln!(err, "hint: {hint}");
            }
        }
        ExitCode::from(self.exit_status())
    }
}

impl Failure {
    /// The obvious next step, when there is one.
    fn hint(&self) -> Option<&'static str> {
        match self {
            Failure::Api(e) => e.hint(),
            // Most likely a first run: point at what works with no service at all.
            Failure::Config(ConfigError::MissingBaseUrl(_) | ConfigError::MissingToken(_)) => Some(
                "no service at hand? `appdeck --demo` opens the terminal UI on built-in demo \
                 data, and `appdeck sandbox` runs a local stand-in service and prints the two \
                 settings to paste",
            ),
            _ => None,
        }
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        match e {
            // A request that cannot even be built comes from a bad base URL: the user's to fix.
            ApiError::Invalid(message) => Failure::Usage(message),
            other => Failure::Api(other),
        }
    }
}

/// Runs one subcommand. `before` holds the flags given before its name; `demo` is the top-level
/// `--demo`, which belongs to the terminal UI.
pub async fn run(command: Command, before: &GlobalArgs, demo: bool) -> ExitCode {
    let global = match command.merge_flags(before) {
        Ok(global) => global,
        Err(message) => return Failure::Usage(message).report(),
    };
    let global = &global;
    let result = match command {
        // The demo's types are known without a sandbox: `appdeck --demo types`.
        Command::Types(args) => types::run(&args, global, demo, &mut crate::cli::stdout::out()),
        _ if demo => Err(Failure::Usage(
            "--demo opens the terminal UI and takes no subcommand but `types`".to_owned(),
        )),
        command => dispatch(command, global).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

async fn dispatch(command: Command, global: &GlobalArgs) -> Result<(), Failure> {
    match command {
        Command::List(args) => {
            let configured = configured(global)?;
            let client = client(&configured.settings, global)?;
            let retries = args.retries.unwrap_or(configured.retries);
            let width = table::output_width();
            // One lock for the whole listing, written in large blocks.
            let mut out = std::io::BufWriter::with_capacity(1 << 16, crate::cli::stdout::out());
            // `--jq` past its memory bound ends the command: what is buffered goes out first.
            let kept = shape::memory::Kept::new(&mut out);
            // Not locked: the fetching task says its retries on stderr meanwhile.
            let mut err = std::io::stderr();
            let listed = list::run(&client, &args, retries, width, &mut out, &mut err).await;
            drop(kept);
            listed
        }
        Command::Report(args) => match (&args.each, &args.file) {
            (Some(lines), _) => each::run(global, &args, lines).await,
            (None, Some(file)) => {
                let guard = send::Guard {
                    diff: args.diff,
                    ..send::Guard::default()
                };
                send::run(global, file, &args.send, Operation::OperationsReport, guard).await
            }
            (None, None) => Err(Failure::Usage(
                "give a report FILE, or --each FILE".to_owned(),
            )),
        },
        Command::Connect(args) => {
            send::run(
                global,
                &args.file,
                &args.send,
                Operation::VersionConnect,
                send::Guard {
                    allow_breaking: args.allow_breaking,
                    ..send::Guard::default()
                },
            )
            .await
        }
        Command::Api(args) => api::run(global, &args).await,
        Command::Validate(args) => {
            validate::run(&args, &global.types, &mut crate::cli::stdout::out())
        }
        Command::Types(args) => types::run(&args, global, false, &mut crate::cli::stdout::out()),
        Command::Completions(args) => {
            generate::completions(args.shell, &mut crate::cli::stdout::out())
        }
        Command::Man => generate::man_page(&mut crate::cli::stdout::out()),
        Command::CompleteNames(args) => {
            generate::names(args.kind, global, &mut crate::cli::stdout::out())
        }
        Command::Sandbox(args) => sandbox::run(args, global.token_file.as_deref()).await,
        Command::Config(which) => config_cmd::run(which, global, &mut crate::cli::stdout::out()),
        Command::Diff(args) => diff::run(&args, &mut crate::cli::stdout::out()),
        Command::Keys(args) => keys::run(&args, global, &mut crate::cli::stdout::out()),
        Command::History(args) => {
            history::run(&args, table::output_width(), &mut crate::cli::stdout::out())
        }
        Command::Cache(args) => cache::run(
            args.command.as_ref(),
            table::output_width(),
            &mut crate::cli::stdout::out(),
        ),
        Command::Infer(args) => {
            let client = connect(global)?;
            infer::run(
                &client,
                &args,
                &mut crate::cli::stdout::out(),
                &mut std::io::stderr().lock(),
            )
            .await
        }
    }
}

/// The client's settings and where they came from, for the terminal UI's status bar.
#[derive(Debug)]
pub struct Configured {
    pub settings: ClientSettings,
    /// What supplied the base URL: the profile's name when a profile did, else `env` or `flags`.
    pub origin: String,
    /// What to fix that does not stop appdeck (a token file readable by others, unknown keys).
    pub warnings: Vec<String>,
    /// Why writes are refused, when the profile or `--read-only` says so.
    pub read_only: Option<config::ReadOnly>,
    /// How many times a read retries a failed page, unless the command's `--retries` says.
    pub retries: u32,
}

/// The client's settings from flags, environment and config file, with what supplied the base
/// URL, the read-only flag and the warnings about them (shared secrets, unknown keys), which the
/// caller shows: a command on stderr, the terminal UI on its screen too. One place for this
/// logic. The base URL is checked here, so that a URL without a scheme is a configuration error
/// (exit 2) before the terminal UI takes the screen or a payload is read.
pub fn client_settings(global: &GlobalArgs) -> Result<Configured, Failure> {
    configured_by(&config::load(&global.flags())?)
}

/// [`client_settings`] from settings already resolved (the terminal UI reads its config once).
pub fn configured_by(loaded: &config::Settings) -> Result<Configured, Failure> {
    let (settings, warnings) = loaded.client_settings()?;
    crate::api::client::check_base_url(&settings.base_url)?;
    let origin = match loaded.base_url.as_ref().map(|u| &u.source) {
        Some(config::Source::Profile(name)) => name.clone(),
        Some(config::Source::Env(_)) => "env".to_owned(),
        Some(config::Source::Flag(_)) => "flags".to_owned(),
        Some(config::Source::ConfigDefault | config::Source::Default) | None => {
            "default".to_owned()
        }
    };
    Ok(Configured {
        settings,
        origin,
        warnings,
        read_only: loaded.write_refusal(),
        retries: loaded.retries.value,
    })
}

/// [`client_settings`] for a command: the warnings go to stderr.
pub fn configured(global: &GlobalArgs) -> Result<Configured, Failure> {
    let configured = client_settings(global)?;
    warn(&configured.warnings);
    Ok(configured)
}

/// [`configured`]'s client settings alone.
pub fn command_settings(global: &GlobalArgs) -> Result<ClientSettings, Failure> {
    Ok(configured(global)?.settings)
}

/// Builds the client from the configuration.
fn connect(global: &GlobalArgs) -> Result<Client, Failure> {
    client(&command_settings(global)?, global)
}

/// The client for `settings`, tracing as `-v` says: every command that talks to the service
/// builds its client here.
fn client(settings: &ClientSettings, global: &GlobalArgs) -> Result<Client, Failure> {
    Ok(Client::new(settings)?.with_trace(global.trace))
}

/// Opens the local store, or says on stderr why it cannot be used and returns `None`: a command
/// goes on without it.
fn open_store() -> Option<crate::store::Store> {
    let path = match config::Env::from_process() {
        Ok(env) => config::store_path(&env)?,
        Err(e) => {
            warn(&[format!("{e}; going on without the local store")]);
            return None;
        }
    };
    match crate::store::Store::open(&path.value) {
        Ok(store) => Some(store),
        Err(e) => {
            warn(&[format!("{e}; going on without it")]);
            None
        }
    }
}

/// Prints warnings that do not stop the command.
pub fn warn(warnings: &[String]) {
    let mut err = std::io::stderr().lock();
    for warning in warnings {
        let _ = err.write_all(warning_line(warning).as_bytes());
    }
}

/// A warning as every command words it on stderr, with its line break.
pub fn warning_line(warning: &str) -> String {
    format!("appdeck: warning: {warning}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_names_what_supplied_the_base_url() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(
            &config,
            "[profiles.staging]\nbase_url = \"http://127.0.0.1:9/api/v1\"\ntoken = \"t\"\n",
        )
        .unwrap();
        let global = GlobalArgs {
            profile: Some("staging".into()),
            config: Some(config),
            ..GlobalArgs::default()
        };
        if std::env::var_os(config::ENV_BASE_URL).is_some() {
            return; // the environment would supply the base URL
        }
        let configured = client_settings(&global).unwrap();
        assert_eq!(configured.origin, "staging");
        assert_eq!(configured.settings.base_url, "http://127.0.0.1:9/api/v1");

        // The profile is selected, but a flag supplies the base URL: the profile is not named.
        let global = GlobalArgs {
            base_url: Some("http://127.0.0.1:8/api/v1".into()),
            ..global
        };
        let configured = client_settings(&global).unwrap();
        assert_eq!(configured.origin, "flags");
        assert_eq!(configured.settings.base_url, "http://127.0.0.1:8/api/v1");
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_readable_by_others_is_a_warning_handed_back() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let token = dir.path().join("token");
        std::fs::write(&token, "t").unwrap();
        std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(&config, "").unwrap();
        let global = GlobalArgs {
            base_url: Some("http://127.0.0.1:9/api/v1".into()),
            token_file: Some(token),
            config: Some(config),
            ..GlobalArgs::default()
        };
        let configured = client_settings(&global).unwrap();
        assert!(
            configured.warnings.iter().any(|w| w.contains("chmod 600")),
            "{:?}",
            configured.warnings
        );
    }
}
