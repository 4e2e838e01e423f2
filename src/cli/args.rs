//! The command line. Global connection flags have no clap defaults and no clap `env`, so that the
//! config module can tell a flag from an environment variable from a default (`config show`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::config;
use crate::sandbox::Fault;

/// A fast, safe terminal UI explorer and scriptable CLI for the app-integration service's HTTP API.
///
/// Without a subcommand, appdeck opens the terminal UI.
#[derive(Debug, Parser)]
#[command(name = "appdeck", version, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    /// Open the terminal UI against a built-in local sandbox with demo data (no service needed).
    #[arg(long)]
    pub demo: bool,
    /// Rows per page the terminal UI asks for (the server's default when not given)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=500))]
    pub page_size: Option<u32>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How to reach the service; accepted before or after the subcommand.
#[derive(Clone, Debug, Default, Args)]
pub struct GlobalArgs {
    /// The service's API root, ending in /api/v1 [env: APPDECK_BASE_URL]
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,
    /// Read the bearer token from this file (there is no flag taking the token itself)
    #[arg(long, global = true, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Use this profile of the config file [env: APPDECK_PROFILE]
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Use this config file instead of the default one [env: APPDECK_CONFIG]
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Give up on a request after this many seconds [default: 30]
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Give up connecting after this many seconds [default: 10]
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    pub connect_timeout: Option<Duration>,
}

impl GlobalArgs {
    pub fn flags(&self) -> config::Flags {
        config::Flags {
            base_url: self.base_url.clone(),
            token_file: self.token_file.clone(),
            profile: self.profile.clone(),
            config: self.config.clone(),
            request_timeout: self.timeout,
            connect_timeout: self.connect_timeout,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List resources: the first page by default, or more with --pages or --all
    #[command(after_help = LIST_EXAMPLES)]
    List(ListArgs),
    /// Check a payload, then send it as a task report (apps.operations.report)
    #[command(after_help = "Example:\n  appdeck report assets/examples/report.json")]
    Report(SendArgs),
    /// Check a payload, then send it as an app version and its types (apps.version.connect)
    #[command(after_help = "Example:\n  appdeck connect assets/examples/connect.json")]
    Connect(SendArgs),
    /// Check a report or connect payload offline (the kind is told from its fields)
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// Run the local stand-in for the service, for demos, tests and trying an integration
    #[command(after_help = SANDBOX_EXAMPLES)]
    Sandbox(SandboxArgs),
    /// Show where the configuration comes from
    #[command(subcommand)]
    Config(ConfigCommand),
}

const LIST_EXAMPLES: &str = "Examples:
  appdeck list
  appdeck list --type repository --all --output ndjson | jq -r .id
  appdeck list --pages 3 --limit 100

The table goes to stdout; a footer with the row count and whether more pages exist goes to stderr.
Rows marked ! are malformed or have fields of an unexpected type; json and ndjson give them raw.";

const VALIDATE_EXAMPLES: &str = "Examples:
  appdeck validate report.json
  appdeck validate report.json --types connect.json
  cat connect.json | appdeck validate -";

const SANDBOX_EXAMPLES: &str = "Examples:
  appdeck sandbox                       # demo data on 127.0.0.1:8080, random token
  appdeck sandbox --listen 127.0.0.1:0 --token dev --empty --generate 1000
  appdeck sandbox --fault slow:5000     # every answer 5 s late

It prints `export APPDECK_BASE_URL=...` and `export APPDECK_TOKEN=...` lines to paste into
another shell, then serves until ctrl-c or SIGTERM.";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ListOutput {
    /// Columns fitted to the terminal, safe to print
    #[default]
    Table,
    /// One JSON array
    Json,
    /// One resource per line, streamed as pages arrive
    Ndjson,
}

#[derive(Clone, Debug, Args)]
pub struct ListArgs {
    /// Only resources of this type
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    pub resource_type: Option<String>,
    /// Follow the cursors to the last page
    #[arg(long, conflicts_with = "pages")]
    pub all: bool,
    /// Fetch at most this many pages [default: 1]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub pages: Option<u32>,
    /// Ask for this many resources per page (the server may cap it)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: Option<u32>,
    #[arg(long, short = 'o', value_enum, default_value_t = ListOutput::Table)]
    pub output: ListOutput,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AnswerOutput {
    /// `key: value` lines
    #[default]
    Text,
    /// The answer's JSON as it came
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct SendArgs {
    /// The JSON payload, or - for stdin
    #[arg(value_name = "FILE|-")]
    pub file: PathBuf,
    #[arg(long, short = 'o', value_enum, default_value_t = AnswerOutput::Text)]
    pub output: AnswerOutput,
    /// Print the request as a curl command (the token read from $APPDECK_TOKEN) instead of
    /// sending it
    #[arg(long)]
    pub curl: bool,
}

#[derive(Clone, Debug, Args)]
pub struct ValidateArgs {
    /// The JSON payload, or - for stdin
    #[arg(value_name = "FILE|-")]
    pub file: PathBuf,
    /// A connect payload whose types' property_json_schema a report's resource must satisfy
    #[arg(long, value_name = "CONNECT_FILE")]
    pub types: Option<PathBuf>,
}

#[derive(Clone, Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on (port 0 picks a free one)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// A token the sandbox accepts (repeatable); a random one when none is given
    #[arg(long = "token", value_name = "TOKEN")]
    pub tokens: Vec<String>,
    /// Start with no resources instead of the demo data
    #[arg(long)]
    pub empty: bool,
    /// Add this many generated resources
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub generate: usize,
    /// Misbehave on purpose: not-json, repeat-cursor, malformed-item, slow:<millis>, status:<code>
    #[arg(long, value_name = "SPEC", value_parser = parse_fault)]
    pub fault: Option<Fault>,
}

#[derive(Clone, Copy, Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the path of the config file in use
    Path,
    /// Print the effective settings and where each comes from (the token masked)
    Show,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(config::seconds)
        .ok_or_else(|| "expected a number of seconds above 0 and at most 86400".to_owned())
}

fn parse_fault(text: &str) -> Result<Fault, String> {
    text.parse::<Fault>().map_err(|e| e.to_string())
}

/// The text under `appdeck --help`: exit codes, environment, and the files appdeck uses. Built at
/// run time because the paths depend on the platform and the user.
pub fn after_help() -> String {
    let shown = |p: Option<PathBuf>| {
        p.map_or_else(
            || "(no home directory)".to_owned(),
            |p| p.display().to_string(),
        )
    };
    format!(
        "Exit status:
  0  success
  1  API or network error (the service refused, failed or did not answer in time)
  2  usage, configuration or validation error

Configuration (flags beat the environment, which beats the profile):
  APPDECK_BASE_URL  the service's API root, ending in /api/v1
  APPDECK_TOKEN     the bearer token (or --token-file, or a profile's token_file)
  APPDECK_PROFILE   the profile of the config file to use
  APPDECK_CONFIG    the config file to use

Files:
  config  {}
  log     {} (written by the terminal UI and the sandbox)",
        shown(config::default_config_path()),
        shown(config::log_path()),
    )
}

/// The full command with its run-time help, for parsing and for printing help.
pub fn command() -> clap::Command {
    Cli::command().after_help(after_help())
}

/// Parses the process's arguments; on a usage error clap prints it and exits with status 2.
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn global_flags_work_after_the_subcommand() {
        let cli = Cli::try_parse_from(["appdeck", "list", "--timeout", "1.5", "--all"]).unwrap();
        assert_eq!(cli.global.timeout, Some(Duration::from_millis(1500)));
        assert!(matches!(
            cli.command,
            Some(Command::List(ListArgs { all: true, .. }))
        ));
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for args in [
            &["appdeck", "list", "--all", "--pages", "2"][..],
            &["appdeck", "list", "--pages", "0"],
            &["appdeck", "--timeout", "0", "list"],
            &["appdeck", "--token", "x", "list"],
            &["appdeck", "sandbox", "--fault", "sometimes"],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn help_documents_exit_codes_and_the_log() {
        let help = command().render_long_help().to_string();
        assert!(help.contains("Exit status"));
        assert!(help.contains("APPDECK_TOKEN"));
        assert!(help.contains("appdeck.log") || help.contains("no home directory"));
    }
}
