//! The command line. Connection flags have no clap defaults and no clap `env`, so that the config
//! module can tell a flag from an environment variable from a default (`config show`).
//!
//! Each command offers the flags that apply to it, under a heading: [`ConnectionArgs`] on the
//! commands that connect, [`ProfileArgs`] or [`ConfigFileArg`] where only the config file is read.
//! The terminal UI's flags may also come before a command's name (`appdeck --profile prod list`);
//! [`Command::merge_flags`] takes those the command offers and refuses the others.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum, ValueHint};

use crate::config;
use crate::sandbox::Fault;

/// `appdeck --version`: the package version, then the commit and the build date when built from
/// a git checkout (set by build.rs; empty from a source tarball).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("APPDECK_BUILD_INFO"));

/// The help headings the shared flags are listed under.
const CONNECTION: &str = "Connection";
const CONFIGURATION: &str = "Configuration";
const EACH: &str = "Many reports (--each)";

/// A fast, safe terminal UI explorer and scriptable CLI for the app-integration service's HTTP API.
///
/// Without a subcommand, appdeck opens the terminal UI.
#[derive(Debug, Parser)]
#[command(name = "appdeck", version = VERSION, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub known_types: TypesFileArgs,
    #[command(flatten)]
    pub write: WriteArgs,
    /// Open the terminal UI against a built-in local sandbox with demo data (no service needed).
    #[arg(long)]
    pub demo: bool,
    /// Open the terminal UI on the listing kept from the last run, without asking the service
    /// (`r` asks it)
    #[arg(long, conflicts_with = "demo")]
    pub offline: bool,
    /// Rows per page the terminal UI asks for (the server's default when not given)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=500))]
    pub page_size: Option<u32>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The flags given before any command's name: the terminal UI's.
    pub fn global(&self) -> GlobalArgs {
        let mut global = GlobalArgs::default();
        self.connection.apply(&mut global);
        self.known_types.apply(&mut global);
        self.write.apply(&mut global);
        global
    }
}

/// The config file and the profile in it.
#[derive(Clone, Debug, Default, Args)]
pub struct ProfileArgs {
    /// Use this profile of the config file [env: APPDECK_PROFILE]
    #[arg(long, value_name = "NAME", value_hint = ValueHint::Other, help_heading = CONFIGURATION)]
    pub profile: Option<String>,
    #[command(flatten)]
    pub file: ConfigFileArg,
}

/// The config file alone, for the commands that read nothing else of it.
#[derive(Clone, Debug, Default, Args)]
pub struct ConfigFileArg {
    /// Use this config file instead of the default one [env: APPDECK_CONFIG]
    #[arg(long, value_name = "PATH", help_heading = CONFIGURATION)]
    pub config: Option<PathBuf>,
}

/// How to reach the service: on the commands that connect to it, and the terminal UI.
#[derive(Clone, Debug, Default, Args)]
pub struct ConnectionArgs {
    /// The service's API root, ending in /api/v1 [env: APPDECK_BASE_URL]
    #[arg(long, value_name = "URL", value_hint = ValueHint::Url, help_heading = CONNECTION)]
    pub base_url: Option<String>,
    /// Read the bearer token from this file (there is no flag taking the token itself)
    #[arg(long, value_name = "PATH", help_heading = CONNECTION)]
    pub token_file: Option<PathBuf>,
    /// Give up on a request after this many seconds [default: 30]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, value_hint = ValueHint::Other, help_heading = CONNECTION)]
    pub timeout: Option<Duration>,
    /// Give up connecting after this many seconds [default: 10]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, value_hint = ValueHint::Other, help_heading = CONNECTION)]
    pub connect_timeout: Option<Duration>,
    #[command(flatten)]
    pub profile: ProfileArgs,
}

/// Connect payload files whose resource types appdeck should know.
#[derive(Clone, Debug, Default, Args)]
pub struct TypesFileArgs {
    /// A connect payload file whose resource types appdeck should know (repeatable)
    #[arg(long = "types", value_name = "FILE", help_heading = CONFIGURATION)]
    pub types: Vec<PathBuf>,
}

/// `-v` / `--trace`, on the commands that talk to the service (not the terminal UI: stderr is its
/// screen).
#[derive(Clone, Debug, Default, Args)]
pub struct TraceArgs {
    /// Print each request and answer on stderr: method, URL, status, time, sizes, headers (the
    /// token as Bearer ••••) and bodies, cut at 2,000 characters (-vv: whole)
    #[arg(short = 'v', long = "trace", action = clap::ArgAction::Count, help_heading = CONNECTION)]
    pub level: u8,
}

impl TraceArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        global.trace = global.trace.max(self.level);
    }
}

/// `--read-only`, on the commands that write and the terminal UI.
#[derive(Clone, Debug, Default, Args)]
pub struct WriteArgs {
    /// Refuse every write (report, connect), whatever the profile says; lists still work
    #[arg(long, help_heading = CONNECTION)]
    pub read_only: bool,
}

/// What `appdeck types` reads: the types files, the profile's `types`, and the connects sent to
/// the base URL.
#[derive(Clone, Debug, Default, Args)]
pub struct CatalogArgs {
    /// The service whose recorded connects count (they are kept per base URL) [env:
    /// APPDECK_BASE_URL]
    #[arg(long, value_name = "URL", help_heading = CONFIGURATION)]
    pub base_url: Option<String>,
    #[command(flatten)]
    pub known_types: TypesFileArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
}

/// Keeps what was given: a flag after the command's name wins over one before it.
fn given<T: Clone>(slot: &mut Option<T>, flag: &Option<T>) {
    if flag.is_some() {
        slot.clone_from(flag);
    }
}

impl ConfigFileArg {
    fn apply(&self, global: &mut GlobalArgs) {
        given(&mut global.config, &self.config);
    }
}

impl ProfileArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        given(&mut global.profile, &self.profile);
        self.file.apply(global);
    }
}

impl ConnectionArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        given(&mut global.base_url, &self.base_url);
        given(&mut global.token_file, &self.token_file);
        given(&mut global.timeout, &self.timeout);
        given(&mut global.connect_timeout, &self.connect_timeout);
        self.profile.apply(global);
    }
}

impl TypesFileArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        global.types.extend(self.types.iter().cloned());
    }
}

impl WriteArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        global.read_only |= self.read_only;
    }
}

impl CatalogArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        given(&mut global.base_url, &self.base_url);
        self.known_types.apply(global);
        self.profile.apply(global);
    }
}

/// The flags of [`ConnectionArgs`], by name.
const CONNECTION_FLAGS: &[&str] = &[
    "--base-url",
    "--token-file",
    "--timeout",
    "--connect-timeout",
    "--profile",
    "--config",
];
const WRITE_FLAGS: &[&str] = &[
    "--base-url",
    "--token-file",
    "--timeout",
    "--connect-timeout",
    "--profile",
    "--config",
    "--read-only",
];
const CATALOG_FLAGS: &[&str] = &["--base-url", "--types", "--profile", "--config"];

/// The flags a command runs with, wherever on the command line they were given: how to reach the
/// service, the config file, the known types and `--read-only`.
#[derive(Clone, Debug, Default)]
pub struct GlobalArgs {
    pub base_url: Option<String>,
    pub token_file: Option<PathBuf>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    pub timeout: Option<Duration>,
    pub connect_timeout: Option<Duration>,
    pub types: Vec<PathBuf>,
    pub read_only: bool,
    /// `-v` (1) or `-vv` (2): the requests and answers on stderr.
    pub trace: u8,
}

impl GlobalArgs {
    /// The flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--base-url", self.base_url.is_some()),
            ("--token-file", self.token_file.is_some()),
            ("--profile", self.profile.is_some()),
            ("--config", self.config.is_some()),
            ("--timeout", self.timeout.is_some()),
            ("--connect-timeout", self.connect_timeout.is_some()),
            ("--types", !self.types.is_empty()),
            ("--read-only", self.read_only),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    pub fn flags(&self) -> config::Flags {
        config::Flags {
            base_url: self.base_url.clone(),
            token_file: self.token_file.clone(),
            profile: self.profile.clone(),
            config: self.config.clone(),
            request_timeout: self.timeout,
            connect_timeout: self.connect_timeout,
            read_only: self.read_only,
        }
    }
}

impl Command {
    /// The command's name, as typed.
    pub fn name(&self) -> &'static str {
        match self {
            Command::List(_) => "list",
            Command::Report(_) => "report",
            Command::Connect(_) => "connect",
            Command::Validate(_) => "validate",
            Command::Sandbox(_) => "sandbox",
            Command::Types(_) => "types",
            Command::Config(_) => "config",
            Command::Diff(_) => "diff",
            Command::Infer(_) => "infer",
            Command::History(_) => "history",
            Command::Cache(_) => "cache",
            Command::Keys(_) => "keys",
            Command::Api(_) => "api",
            Command::Completions(_) => "completions",
            Command::Man => "man",
            Command::CompleteNames(_) => "complete-names",
        }
    }

    /// The shared flags this command takes (before or after its name).
    fn takes(&self) -> &'static [&'static str] {
        match self {
            Command::List(_) | Command::Infer(_) => CONNECTION_FLAGS,
            Command::Report(_) | Command::Connect(_) | Command::Api(_) => WRITE_FLAGS,
            Command::Config(ConfigCommand::Show(_)) => WRITE_FLAGS,
            Command::Config(ConfigCommand::Path(_)) | Command::Keys(_) => &["--config"],
            Command::Types(_) => CATALOG_FLAGS,
            Command::Validate(_) => &["--types"],
            Command::Sandbox(_) => &["--token-file"],
            Command::Diff(_)
            | Command::History(_)
            | Command::Cache(_)
            | Command::Completions(_)
            | Command::Man
            | Command::CompleteNames(_) => &[],
        }
    }

    /// The flags the command runs with: those given before its name (`before`), which it must
    /// take, then its own, which win. A flag it does not take is a usage error naming it, rather
    /// than something silently ignored.
    pub fn merge_flags(&self, before: &GlobalArgs) -> Result<GlobalArgs, String> {
        let stray: Vec<&str> = before
            .given()
            .into_iter()
            .filter(|flag| !self.takes().contains(flag))
            .collect();
        if !stray.is_empty() {
            return Err(format!(
                "`appdeck {}` does not take {} (`appdeck {} --help` lists what it takes)",
                self.name(),
                stray.join(", "),
                self.name()
            ));
        }
        let mut global = before.clone();
        match self {
            Command::List(args) => {
                args.connection.apply(&mut global);
                args.trace.apply(&mut global);
            }
            Command::Infer(args) => {
                args.connection.apply(&mut global);
                args.trace.apply(&mut global);
            }
            Command::Report(args) => args.send.apply(&mut global),
            Command::Connect(args) => args.send.apply(&mut global),
            Command::Api(args) => {
                args.connection.apply(&mut global);
                args.write.apply(&mut global);
                args.trace.apply(&mut global);
            }
            Command::Config(ConfigCommand::Show(args)) => {
                args.connection.apply(&mut global);
                args.write.apply(&mut global);
            }
            Command::Config(ConfigCommand::Path(args)) => args.file.apply(&mut global),
            Command::Keys(args) => args.file.apply(&mut global),
            Command::Types(args) => {
                args.catalog.apply(&mut global);
                if let Some(TypesCommand::Show(show)) = &args.command {
                    show.catalog.apply(&mut global);
                }
            }
            Command::Validate(args) => args.known_types.apply(&mut global),
            Command::Sandbox(args) => given(&mut global.token_file, &args.token_file),
            Command::Diff(_)
            | Command::History(_)
            | Command::Cache(_)
            | Command::Completions(_)
            | Command::Man
            | Command::CompleteNames(_) => {}
        }
        Ok(global)
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List resources: the first page by default, or more with --pages or --all
    #[command(after_help = LIST_EXAMPLES)]
    List(ListArgs),
    /// Check a payload, then send it as a task report (apps.operations.report); --each sends
    /// one a line
    #[command(after_help = REPORT_EXAMPLES)]
    Report(ReportArgs),
    /// Check a payload, then send it as an app version and its types (apps.version.connect)
    #[command(after_help = "Example:\n  appdeck connect assets/examples/connect.json")]
    Connect(ConnectArgs),
    /// Check a report or connect payload offline (the kind is told from its fields)
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// Run the local stand-in for the service, for demos, tests and trying an integration
    #[command(after_help = SANDBOX_EXAMPLES)]
    Sandbox(SandboxArgs),
    /// List the resource types appdeck knows, or show one with its schemas (types show TYPE)
    #[command(after_help = TYPES_EXAMPLES)]
    Types(TypesArgs),
    /// Show where the configuration comes from
    #[command(subcommand, after_help = CONFIG_EXAMPLES)]
    Config(ConfigCommand),
    /// Compare two connect payloads and say which changes break the old version's users
    #[command(after_help = DIFF_HELP)]
    Diff(DiffArgs),
    /// Infer a connect payload's resource types from the resources the service lists
    #[command(after_help = INFER_HELP)]
    Infer(InferArgs),
    /// List the reports and connects sent, newest first, or show one in full (history show ID)
    #[command(after_help = HISTORY_EXAMPLES)]
    History(HistoryArgs),
    /// Show the listings the terminal UI keeps to show at its next start, or erase them
    /// (cache clear)
    #[command(after_help = CACHE_HELP)]
    Cache(CacheArgs),
    /// List the terminal UI's actions, their keys now (with the config file's [keys]) and panes
    #[command(after_help = KEYS_HELP)]
    Keys(KeysArgs),
    /// Post a JSON body to any operation of the service and print the answer as it came
    #[command(after_help = API_HELP)]
    Api(ApiArgs),
    /// Print a shell completion script, generated from these commands and flags
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), generated from these commands and flags
    #[command(after_help = "Example:\n  appdeck man > ~/.local/share/man/man1/appdeck.1")]
    Man,
    /// The names completion offers, one a line (the completion scripts call it)
    #[command(name = "complete-names", hide = true)]
    CompleteNames(CompleteNamesArgs),
}

/// What `complete-names` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NameKind {
    /// The resource types appdeck knows (as `appdeck types` lists them)
    Types,
    /// The config file's profiles
    Profiles,
    /// The operations of the spec
    Operations,
}

#[derive(Clone, Debug, Args)]
pub struct CompleteNamesArgs {
    #[arg(value_enum)]
    pub kind: NameKind,
}

const REPORT_EXAMPLES: &str = "Examples:
  appdeck report assets/examples/report.json
  appdeck report --each reports.ndjson -j 8 -o ndjson > results.ndjson
  jq -c '.[]' reports.json | appdeck report --each - --jq 'select(.error) | .line'

With --each, each line is checked as `appdeck report FILE` checks a file; a line that fails is
reported and skipped (sent with --force), a blank line is skipped, and the run goes on past
failures. Each result is one line on stdout (text, or with -o ndjson an object with line,
task_id, http_status, status, error and answer), a summary goes to stderr, and a progress bar too
when stderr is a terminal. Every send is recorded in the history. Exit status 1 when any line was
skipped, refused or not answered.";

const API_HELP: &str = "Examples:
  appdeck api resources.list '{\"limit\": 2}'
  appdeck api resources.list --jq '.resources[].id'
  appdeck api resources.list -F limit=500 -f type=repository --paginate --jq '.resources[].id'
  appdeck api apps.operations.report @report.json
  appdeck api apps.operations.report --input report.json -H 'X-Request-Id: 42'
  echo '{}' | appdeck api some.other.operation -

The request is POST {base_url}/OPERATION with the profile's token; the body (default {}) must be
JSON and is sent as written. A 2xx answer is printed as it came (numbers and key order
unchanged); any other status goes to stderr with the body, and the exit status is 1; --jq failing
on an answer is said on stderr, the pages after it printed, and the exit status is 5. It is never
retried (it may be a write), not recorded in the history, and under --read-only or a read-only
profile only resources.list is allowed. OPERATION is one name: `/`, `?`, `#`, `%`, `\\` and `..`
are refused.";

#[derive(Clone, Debug, Args)]
pub struct ApiArgs {
    /// The operation: resources.list, apps.operations.report, apps.version.connect, or one the
    /// spec does not show
    #[arg(value_name = "OPERATION", value_parser = super::api::parse_operation,
          value_hint = ValueHint::Other)]
    pub operation: String,
    /// The JSON body as text, @FILE to read it from a file, or - for stdin [default: {}]
    #[arg(value_name = "BODY|@FILE|-")]
    pub body: Option<String>,
    /// Read the body from this file, or - for stdin (as BODY's @FILE)
    #[arg(long, value_name = "FILE|-", conflicts_with = "body")]
    pub input: Option<PathBuf>,
    /// Add a string field to the body: KEY=VALUE, the value as text (repeatable)
    #[arg(short = 'f', long = "raw-field", value_name = "KEY=VALUE")]
    pub raw_fields: Vec<String>,
    /// Add a field to the body: KEY=VALUE, where true, false, null and numbers are JSON, @FILE
    /// is the file's text, and anything else a string (repeatable)
    #[arg(short = 'F', long = "field", value_name = "KEY=VALUE")]
    pub fields: Vec<String>,
    /// Add a request header: 'NAME: VALUE' (repeatable; not Authorization, Host or Content-Length)
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Follow the answers' `next` cursor: post again with "next": CURSOR in the body until an
    /// answer has none, printing each answer (--jq runs on each)
    #[arg(long)]
    pub paginate: bool,
    /// Run this jq expression (jaq) on the answer instead; a string result prints raw
    #[arg(long, value_name = "EXPR")]
    pub jq: Option<String>,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub write: WriteArgs,
    #[command(flatten)]
    pub trace: TraceArgs,
}

const KEYS_HELP: &str = "Remap keys in config.toml, for every pane or for one:
  [keys]
  quit = [\"x\"]
  [keys.browser]
  open = [\"l\", \"Enter\"]

A key is one character as typed (x, G, ?), a name (Enter, Esc, Tab, BackTab, Space, Backspace,
Delete, Insert, Up, Down, Left, Right, PgUp, PgDn, Home, End, F1 to F12; any case), or ctrl- and a
letter (ctrl-f). An unknown action or pane, a key that is not one, an empty list, or a key bound
twice in one pane is an error naming the file and the line.";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum KeysOutput {
    /// Aligned columns
    #[default]
    Table,
    /// One JSON array: action, keys, default_keys, remapped, panes, description
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct KeysArgs {
    /// Output format: table or json
    #[arg(long, short = 'o', value_enum, default_value_t = KeysOutput::Table)]
    pub output: KeysOutput,
    #[command(flatten)]
    pub file: ConfigFileArg,
}

const DIFF_HELP: &str = "Exit status:
  0  nothing breaks (changes that break nobody may be listed)
  2  bad input: unreadable, not JSON, or not a valid connect payload
  3  something breaks, or may break (a change whose effect appdeck cannot tell)

Inputs (property_json_schema, create_input_schema, update_input_schema, action input_json_schema)
break when the new schema rejects something the old accepted; outputs (action output_json_schema)
break when it accepts something the old ruled out. Removing a type or an action, or turning a
capability from true to false, breaks. Breaking changes are listed first.

Example:
  appdeck diff old.json new.json || echo \"review the breaking changes\"";

const INFER_HELP: &str = "Examples:
  appdeck infer > connect.json
  appdeck infer --type repository --limit 500 --app-id acme --version 1.0.0

The payload goes to stdout, a summary of what was sampled to stderr. Review it, then check it with
`appdeck validate` and send it with `appdeck connect`.";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DiffOutput {
    /// One line per change, breaking ones first
    #[default]
    Text,
    /// `{"breaking": bool, "changes": [...]}`
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct DiffArgs {
    /// The connect payload of the old version, or - for stdin
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The connect payload of the new version, or - for stdin
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// Output format: text or json
    #[arg(long, short = 'o', value_enum, default_value_t = DiffOutput::Text)]
    pub output: DiffOutput,
}

#[derive(Clone, Debug, Args)]
pub struct InferArgs {
    /// Only resources of this type
    #[arg(long = "type", short = 't', value_name = "TYPE", value_parser = parse_type_name, value_hint = ValueHint::Other)]
    pub resource_type: Option<String>,
    /// Sample at most this many resources [default: all]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: Option<u32>,
    /// The payload's app_id (the default is a placeholder: validate and connect refuse it)
    #[arg(long, value_name = "ID", default_value = crate::validate::PLACEHOLDER_APP_ID)]
    pub app_id: String,
    /// The payload's version (the default is a placeholder: validate and connect refuse it)
    #[arg(long, value_name = "VERSION", default_value = crate::validate::PLACEHOLDER_VERSION)]
    pub version: String,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub trace: TraceArgs,
}

const HISTORY_EXAMPLES: &str = "Examples:
  appdeck history
  appdeck history --kind report --limit 5
  appdeck history -o ndjson | jq -r 'select(.http_status != 200) | .id'
  appdeck history show 12

Every report and connect sent from the terminal UI or with `appdeck report` / `appdeck connect` is
recorded in the local store, whatever the answer (a refusal, a network failure), with the body
(never the token), the answer, the HTTP status and the time taken. history works offline: the
connection flags do not apply and are refused. `history show` exits 2 for an unknown id.";

pub(super) const CACHE_HELP: &str = "The terminal UI keeps the last listing it showed for each base
URL, profile and type filter in the local store (at most 20 listings, each its first 1,000 rows
or 2 MiB), and shows it at the next start, marked as kept, until the service answers. It holds
the rows the service sent, never the token. `keep_listings = false` in a profile turns keeping
off and forgets what was kept for it.

Examples:
  appdeck cache           # what is kept, where, and how big
  appdeck cache clear     # erase every kept listing";

#[derive(Clone, Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub command: Option<CacheCommand>,
}

#[derive(Clone, Debug, Subcommand)]
pub enum CacheCommand {
    /// Erase every kept listing (overwritten in the file, not only unlinked)
    Clear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HistoryKind {
    /// Task reports (apps.operations.report)
    Report,
    /// App versions (apps.version.connect)
    Connect,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HistoryOutput {
    /// Columns fitted to the terminal, safe to print
    #[default]
    Table,
    /// One JSON array, each send with its body and answer
    Json,
    /// One send per line
    Ndjson,
}

#[derive(Clone, Debug, Args)]
pub struct HistoryArgs {
    #[command(subcommand)]
    pub command: Option<HistoryCommand>,
    /// Only sends of this kind
    #[arg(long, value_enum)]
    pub kind: Option<HistoryKind>,
    /// List at most this many, the newest
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,
    /// Output format: table, json or ndjson
    #[arg(long, short = 'o', value_enum, default_value_t = HistoryOutput::Table)]
    pub output: HistoryOutput,
    /// Run this jq expression (jaq) on the JSON (the array, or the send of `history show`)
    /// instead; a string result prints raw
    #[arg(long, value_name = "EXPR", global = true)]
    pub jq: Option<String>,
}

#[derive(Clone, Debug, Subcommand)]
pub enum HistoryCommand {
    /// Show one send in full: the request and the answer
    #[command(after_help = HISTORY_SHOW_EXAMPLES)]
    Show(HistoryShowArgs),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum EntryOutput {
    /// The request and the answer, the bodies as pretty JSON
    #[default]
    Text,
    /// One JSON object, the bodies as they were sent and received
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct HistoryShowArgs {
    /// The send's id, as `appdeck history` lists it
    #[arg(value_name = "ID")]
    pub id: i64,
    /// Output format: text or json
    #[arg(long, short = 'o', value_enum, default_value_t = EntryOutput::Text)]
    pub output: EntryOutput,
}

const COMPLETIONS_EXAMPLES: &str = "Examples:
  appdeck completions bash > ~/.local/share/bash-completion/completions/appdeck
  appdeck completions zsh > ~/.zfunc/_appdeck      # with fpath+=~/.zfunc before compinit
  appdeck completions fish > ~/.config/fish/completions/appdeck.fish";

#[derive(Clone, Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

const TYPES_EXAMPLES: &str = "Examples:
  appdeck types --types connect.json
  appdeck types show repository --types connect.json
  appdeck --demo types show repository
  appdeck types -o json | jq -r '.[].type'

The types come from connect payloads: those `appdeck connect` sent successfully to the configured
base URL (recorded in the local store), files given with --types or a profile's `types`, and under
--demo the demo's payload. The service itself cannot list them.";

const LIST_EXAMPLES: &str = "Examples:
  appdeck list
  appdeck list --type repository --all --output ndjson | jq -r .id
  appdeck list --pages 3 --limit 100

The table goes to stdout; a footer with the row count and whether more pages exist goes to stderr.
Rows marked ! are malformed or have fields of an unexpected type; json and ndjson give them raw.";

const VALIDATE_EXAMPLES: &str = "Examples:
  appdeck validate report.json
  appdeck validate report.json --types connect.json
  appdeck validate payloads/*.json -o json | jq -r '.[] | select(.valid | not) | .file'
  cat connect.json | appdeck validate -

validate works offline: it takes no connection flags.";

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
    /// Comma-separated values (RFC 4180 quoting), the columns of --columns or the table's
    Csv,
    /// Tab-separated values (tab, newline, carriage return and backslash escaped)
    Tsv,
}

#[derive(Clone, Debug, Args)]
pub struct ListArgs {
    /// Only resources of this type
    #[arg(long = "type", short = 't', value_name = "TYPE", value_parser = parse_type_name, value_hint = ValueHint::Other)]
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
    /// Output format: table, json, ndjson, csv or tsv [default: table; with --jq or --watch:
    /// ndjson, the only one they write]
    #[arg(long, short = 'o', value_enum)]
    pub output: Option<ListOutput>,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// Run this jq expression (jaq) on each resource instead; a string result prints raw
    #[arg(long, value_name = "EXPR", conflicts_with_all = ["columns", "no_headers"])]
    pub jq: Option<String>,
    /// Run --jq once, on one array of every resource listed (as jq -s and gh's --jq see one
    /// document); the listing is held in memory until its end
    #[arg(long, requires = "jq", conflicts_with = "watch")]
    pub slurp: bool,
    /// The table's, csv's or tsv's columns, by path: id,name,properties.stars; or the default
    /// ones with some added or removed, as the TUI's :columns: +properties.stars,-external_id
    #[arg(long, value_name = "PATHS", allow_hyphen_values = true)]
    pub columns: Option<String>,
    /// Leave out the header line of table, csv and tsv
    #[arg(long)]
    pub no_headers: bool,
    /// Only the resources this jq expression is true of (as the TUI's :where); a resource it
    /// fails on is left out, said on stderr, and the exit status is 5
    #[arg(long = "where", value_name = "EXPR")]
    pub where_: Option<String>,
    /// Sort by this column (a path: id, properties.stars; name is the TUI's NAME column, the
    /// display_name else the name; :desc to reverse) in the TUI's order: numbers by value, res_2
    /// before res_10, missing values last. Every page is read before the first line is written
    #[arg(long, value_name = "COLUMN")]
    pub sort: Option<String>,
    /// Start from this cursor: the one a failed listing printed, to resume it
    #[arg(long, value_name = "CURSOR", value_parser = parse_cursor)]
    pub from: Option<String>,
    /// Stop after this many resources
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_items: Option<u64>,
    /// Retry a page this many times on 429, 502, 503, 504, a failed connection or a time-out
    /// (0: never, at most 100 as the profile's `retries`) [default: 3]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=crate::config::MAX_RETRIES))]
    pub retries: Option<u32>,
    /// At most this many requests a second
    #[arg(long, value_name = "N", value_parser = parse_rate)]
    pub rate: Option<f64>,
    /// List every page again SECS seconds after each look [default: 2] and print what changed
    /// as NDJSON events ({"event":"added"|"changed"|"removed","resource":{...}}), the first look
    /// adding everything, until ctrl-c (exit 0); --jq runs on each event
    #[arg(
        long,
        value_name = "SECS",
        num_args = 0..=1,
        default_missing_value = "2",
        value_parser = parse_watch_interval,
        conflicts_with_all = ["all", "pages", "from", "max_items", "columns", "no_headers", "sort", "where_"]
    )]
    pub watch: Option<Duration>,
    #[command(flatten)]
    pub trace: TraceArgs,
}

impl ListArgs {
    /// The output format, `-o`'s or the table.
    pub fn output(&self) -> ListOutput {
        self.output.unwrap_or_default()
    }

    /// `-o` given with a flag whose output is NDJSON whatever it says (`--jq`, `--watch`): a
    /// usage error unless it says ndjson, since a flag is never silently ignored.
    pub fn refuse_output_beside(&self, flag: &str) -> Result<(), String> {
        match self.output {
            None | Some(ListOutput::Ndjson) => Ok(()),
            Some(other) => Err(format!(
                "{flag} writes one JSON value a line (ndjson); -o {} would be ignored, so it is \
                 refused (leave -o out, or use -o ndjson)",
                other
                    .to_possible_value()
                    .map_or_else(String::new, |v| v.get_name().to_owned())
            )),
        }
    }
}

/// `--watch`'s interval: seconds above 0, at most a day.
fn parse_watch_interval(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(config::seconds)
        .ok_or_else(|| "expected a number of seconds above 0 and at most a day".to_owned())
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|r| r.is_finite() && *r > 0.0)
        .ok_or_else(|| "expected a number of requests a second above 0".to_owned())
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AnswerOutput {
    /// `key: value` lines (with --each: a line per result)
    #[default]
    Text,
    /// The answer's JSON as it came, indented (with --each: one array of the results)
    Json,
    /// The answer's JSON on one line (with --each: one result a line)
    Ndjson,
}

/// What `report` and `connect` share: how the answer is printed, `--curl`, the connection.
#[derive(Clone, Debug, Args)]
pub struct SendArgs {
    /// Output format of the answer: text, json or ndjson (with --each: of each result)
    #[arg(long, short = 'o', value_enum, default_value_t = AnswerOutput::Text)]
    pub output: AnswerOutput,
    /// Run this jq expression (jaq) on the answer (with --each: on each result) instead; a
    /// string result prints raw
    #[arg(long, value_name = "EXPR")]
    pub jq: Option<String>,
    /// Print the request as a curl command (the token read from $APPDECK_TOKEN) instead of
    /// sending it, after the same checks (and with the same exit status) as a send
    #[arg(long)]
    pub curl: bool,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub write: WriteArgs,
    #[command(flatten)]
    pub trace: TraceArgs,
}

impl SendArgs {
    fn apply(&self, global: &mut GlobalArgs) {
        self.connection.apply(global);
        self.write.apply(global);
        self.trace.apply(global);
    }
}

/// `appdeck report FILE`, or `appdeck report --each FILE`: many reports, one a line.
#[derive(Clone, Debug, Args)]
pub struct ReportArgs {
    /// The JSON payload, or - for stdin
    #[arg(value_name = "FILE|-", required_unless_present = "each")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub send: SendArgs,
    /// Send each line of this NDJSON file (or - for stdin) as a report, one result a line
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["file", "curl"],
          help_heading = EACH)]
    pub each: Option<PathBuf>,
    /// Find the resource in the listing before sending, and again once the report was taken,
    /// and print what changed, value by value (with -o json: {"answer", "diff"})
    #[arg(long, conflicts_with_all = ["each", "curl", "jq"])]
    pub diff: bool,
    // The flags of --each also conflict with FILE: clap takes `requires = "each"` as met when
    // --each is left out for a conflicting FILE, and `report FILE --force` ran without a word.
    /// With --each: send this many at a time [default: 4]
    #[arg(long, short = 'j', value_name = "N", requires = "each", conflicts_with = "file",
          help_heading = EACH, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// With --each: at most this many requests a second
    #[arg(long, value_name = "N", value_parser = parse_rate, requires = "each",
          conflicts_with = "file", allow_negative_numbers = true, help_heading = EACH)]
    pub rate: Option<f64>,
    /// With --each: send a line that fails the checks all the same (a line that is not JSON
    /// never is)
    #[arg(long, requires = "each", conflicts_with = "file", help_heading = EACH)]
    pub force: bool,
}

/// `appdeck connect FILE`: a send, guarded against breaking the version the service has now.
#[derive(Clone, Debug, Args)]
pub struct ConnectArgs {
    /// The JSON payload, or - for stdin
    #[arg(value_name = "FILE|-")]
    pub file: PathBuf,
    #[command(flatten)]
    pub send: SendArgs,
    /// Send even when a change breaks the version of the same app this service last accepted
    /// from appdeck (see `appdeck diff`)
    #[arg(long)]
    pub allow_breaking: bool,
}

/// `appdeck validate FILE`, with `--types CONNECT_FILE` (whose types' `property_json_schema` a
/// report's resource must satisfy).
#[derive(Clone, Debug, Args)]
pub struct ValidateArgs {
    /// The JSON payloads, or - for stdin (each checked on its own)
    #[arg(value_name = "FILE|-", required = true, num_args = 1.., value_hint = ValueHint::FilePath)]
    pub files: Vec<PathBuf>,
    /// Output format: text, or json (one array, an object per file)
    #[arg(long, short = 'o', value_enum, default_value_t = ValidateOutput::Text)]
    pub output: ValidateOutput,
    #[command(flatten)]
    pub known_types: TypesFileArgs,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ValidateOutput {
    /// The kind, each finding with its JSON pointer, and a verdict
    #[default]
    Text,
    /// `[{"file", "kind", "valid", "findings": [{"severity", "pointer", "message"}]}]`
    Json,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TypesOutput {
    /// Aligned columns, safe to print
    #[default]
    Table,
    /// One JSON array
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct TypesArgs {
    #[command(subcommand)]
    pub command: Option<TypesCommand>,
    /// Output format: table or json
    #[arg(long, short = 'o', value_enum, default_value_t = TypesOutput::Table)]
    pub output: TypesOutput,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// Run this jq expression (jaq) on the JSON (the array, or the object of `types show`)
    /// instead; a string result prints raw
    #[arg(long, value_name = "EXPR", global = true)]
    pub jq: Option<String>,
}

#[derive(Clone, Debug, Subcommand)]
pub enum TypesCommand {
    /// Show a type: its capabilities, actions, instructions and the explain tree of each schema
    #[command(after_help = TYPES_SHOW_EXAMPLES)]
    Show(TypesShowArgs),
}

#[derive(Clone, Debug, Args)]
pub struct TypesShowArgs {
    /// The type's name, as in `appdeck types`
    #[arg(value_name = "TYPE")]
    pub type_name: String,
    /// Show the definition of this app version instead of the newest one
    #[arg(long, value_name = "VERSION")]
    pub app_version: Option<String>,
    /// Output format: text or json
    #[arg(long, short = 'o', value_enum, default_value_t = ShowOutput::Text)]
    pub output: ShowOutput,
    #[command(flatten)]
    pub catalog: CatalogArgs,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ShowOutput {
    /// Plain text: the type, its actions, instructions and the explain tree of each schema
    #[default]
    Text,
    /// The definition as registered, with the explain tree of each schema
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on (port 0 picks a free one)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// A token the sandbox accepts (repeatable; visible in `ps`: prefer --token-file or
    /// APPDECK_SANDBOX_TOKEN); a random one when none is given
    #[arg(long = "token", value_name = "TOKEN", value_parser = parse_token, value_hint = ValueHint::Other)]
    pub tokens: Vec<String>,
    /// Read a token the sandbox accepts from this file
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Start with no resources instead of the demo data
    #[arg(long)]
    pub empty: bool,
    /// Add this many generated resources (at most 5,000,000: about 1 KiB of memory each)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_generate,
          value_hint = ValueHint::Other)]
    pub generate: usize,
    /// Misbehave on purpose: slow:<millis>, status:<code> and not-json apply to all three
    /// operations; repeat-cursor, empty-pages, malformed-item, nulls and spaced to
    /// resources.list pages
    #[arg(long, value_name = "SPEC", value_parser = FaultParser, hide_possible_values = true)]
    pub fault: Option<Fault>,
    /// Seconds a client has to send a request's headers (from connecting or from its previous
    /// answer: an idle keep-alive connection is closed after this long)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds,
          default_value = "5")]
    pub header_timeout: Duration,
    /// Seconds a client has to send a request's body (408 past it)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds,
          default_value = "10")]
    pub body_timeout: Duration,
    /// Connections open at once; more are closed on arrival
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Seconds a report may spend checking its properties against its type's schema
    #[arg(long, value_name = "SECS", value_parser = parse_seconds,
          default_value = "2")]
    pub check_timeout: Duration,
}

#[derive(Clone, Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the path of the config file in use
    Path(ConfigPathArgs),
    /// Print the effective settings and where each comes from (the token masked)
    Show(ConfigShowArgs),
}

#[derive(Clone, Debug, Args)]
pub struct ConfigPathArgs {
    #[command(flatten)]
    pub file: ConfigFileArg,
}

#[derive(Clone, Debug, Args)]
pub struct ConfigShowArgs {
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub write: WriteArgs,
}

const CONFIG_EXAMPLES: &str = "Examples:
  appdeck config path                  # the config file in use (or that would be)
  appdeck config show                  # every setting and where it comes from
  appdeck config show --profile prod   # what a profile gives, checked

`config show` exits 2 when the base URL or the token is missing or unusable, or a types file
cannot be used.";

const TYPES_SHOW_EXAMPLES: &str = "Examples:
  appdeck types show repository --types connect.json
  appdeck types show repository --app-version 1.4.0
  appdeck --demo types show repository -o json | jq -r '.schemas[].name'";

const HISTORY_SHOW_EXAMPLES: &str = "Examples:
  appdeck history show 12
  appdeck history show 12 -o json | jq .answer";

fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(config::seconds)
        .ok_or_else(|| "expected a number of seconds above 0 and at most 86400".to_owned())
}

/// A `--type` filter: an empty one would ask the service for a type named "".
fn parse_type_name(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("a type name must not be empty: leave --type out for every type".to_owned());
    }
    Ok(text.to_owned())
}

/// A `--from` cursor: an empty one (a resume loop's unset variable) would list from the start
/// and append the whole listing a second time.
fn parse_cursor(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err(
            "a cursor must not be empty: leave --from out to list from the start".to_owned(),
        );
    }
    Ok(text.to_owned())
}

/// A sandbox token: an empty one would make `Authorization: Bearer ` a valid login.
pub(super) fn parse_token(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("a token must not be empty".to_owned());
    }
    Ok(text.to_owned())
}

/// A count of generated resources, refused past what memory allows (naming what it would need).
fn parse_generate(text: &str) -> Result<usize, String> {
    let count = text
        .trim()
        .parse::<usize>()
        .map_err(|_| "expected a whole number of resources".to_owned())?;
    match crate::sandbox::refuse_generate(count) {
        Some(refusal) => Err(refusal),
        None => Ok(count),
    }
}

fn parse_fault(text: &str) -> Result<Fault, String> {
    text.parse::<Fault>().map_err(|e| e.to_string())
}

/// `--fault`'s parser: [`parse_fault`] (and its wording of a bad value), and the faults as
/// possible values for completion (`slow` and `status` with a value to edit). The help lists the
/// forms in words already, so clap's list of them is hidden there.
#[derive(Clone, Copy, Debug)]
struct FaultParser;

impl clap::builder::TypedValueParser for FaultParser {
    type Value = Fault;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Fault, clap::Error> {
        let parse: fn(&str) -> Result<Fault, String> = parse_fault;
        parse.parse_ref(command, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let faults = [
            "not-json",
            "repeat-cursor",
            "empty-pages",
            "malformed-item",
            "nulls",
            "spaced",
            "slow:1000",
            "status:503",
        ];
        Some(Box::new(
            faults.into_iter().map(clap::builder::PossibleValue::new),
        ))
    }
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
    after_help_with(
        &shown(config::default_config_path()),
        &shown(
            config::Env::from_process()
                .ok()
                .and_then(|env| config::store_path(&env))
                .map(|p| p.value),
        ),
        &shown(config::log_path()),
    )
}

/// [`after_help`] with the Linux paths written generically, for the manual page: it is read on
/// other machines than the one that generated it.
pub fn after_help_generic() -> String {
    after_help_with(
        "~/.config/appdeck/config.toml (Linux; `appdeck config path` prints it)",
        "~/.local/share/appdeck/appdeck.db (Linux; or in APPDECK_DATA_DIR)",
        "~/.local/state/appdeck/appdeck.log (Linux; `appdeck --help` prints it)",
    )
}

fn after_help_with(config_file: &str, store: &str, log: &str) -> String {
    format!(
        "Exit status:
  0  success
  1  API or network error (the service refused, failed or did not answer in time)
  2  usage, configuration or validation error
  3  appdeck diff: a change breaks the old version's users
  5  list --jq failed on some resources, or api --jq on some answer (each said on stderr, the
     others written)

Configuration (flags beat the environment, which beats the profile):
  APPDECK_BASE_URL  the service's API root, ending in /api/v1
  APPDECK_TOKEN     the bearer token (or --token-file, or a profile's token_file)
  APPDECK_PROFILE   the profile of the config file to use
  APPDECK_CONFIG    the config file to use
  APPDECK_SANDBOX_TOKEN  the token `appdeck sandbox` accepts (instead of --token)
  APPDECK_DATA_DIR  the directory of the local store

Files:
  config  {config_file}
  store   {store} (connects and reports sent; never the token)
  log     {log} (written by the terminal UI and the sandbox)"
    )
}

/// The full command with its run-time help, for parsing and for printing help.
pub fn command() -> clap::Command {
    Cli::command().after_help(after_help())
}

/// Parses the process's arguments; on a usage error it is printed as appdeck's errors are
/// (`appdeck: ...`) and the process exits with status 2.
pub fn parse() -> Cli {
    let matches = command()
        .try_get_matches()
        .unwrap_or_else(|e| exit_with(&e));
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_with(&e))
}

fn exit_with(error: &clap::Error) -> ! {
    if !error.use_stderr() {
        error.exit(); // --help and --version
    }
    eprint!("{}", usage_error_text(error));
    std::process::exit(error.exit_code())
}

/// clap's error with `appdeck:` in place of its `error:`, like every other error appdeck prints.
fn usage_error_text(error: &clap::Error) -> String {
    let text = error.render().to_string();
    match text.strip_prefix("error: ") {
        Some(rest) => format!("appdeck: {rest}"),
        None => format!("appdeck: {text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_well_formed() {
        command().debug_assert();
    }

    fn merged(args: &[&str]) -> Result<GlobalArgs, String> {
        let cli = Cli::try_parse_from(args).unwrap();
        cli.command.as_ref().unwrap().merge_flags(&cli.global())
    }

    #[test]
    fn connection_flags_work_before_and_after_the_commands_that_connect() {
        let cli = Cli::try_parse_from(["appdeck", "list", "--timeout", "1.5", "--all"]).unwrap();
        assert!(matches!(
            cli.command,
            Some(Command::List(ListArgs { all: true, .. }))
        ));
        let global = merged(&["appdeck", "list", "--timeout", "1.5"]).unwrap();
        assert_eq!(global.timeout, Some(Duration::from_millis(1500)));
        let global = merged(&["appdeck", "--profile", "a", "list", "--profile", "b"]).unwrap();
        assert_eq!(global.profile.as_deref(), Some("b"), "the later one wins");
        let global = merged(&[
            "appdeck", "--types", "a.json", "types", "show", "t", "--types", "b.json",
        ])
        .unwrap();
        assert_eq!(
            global.types,
            [PathBuf::from("a.json"), PathBuf::from("b.json")]
        );
    }

    /// Issue 20 item 13: each flag only where it applies; before the name, refused by name.
    #[test]
    fn a_command_is_offered_only_the_flags_that_apply_to_it() {
        for args in [
            &["appdeck", "validate", "r.json", "--timeout", "3"][..],
            &["appdeck", "diff", "a", "b", "--base-url", "http://x/api/v1"],
            &["appdeck", "sandbox", "--base-url", "http://x/api/v1"],
            &["appdeck", "history", "--profile", "p"],
            &["appdeck", "keys", "--token-file", "t"],
            &["appdeck", "list", "--read-only"],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{args:?}");
        }
        let refused = merged(&["appdeck", "--base-url", "http://x/api/v1", "diff", "a", "b"]);
        assert_eq!(
            refused.unwrap_err(),
            "`appdeck diff` does not take --base-url (`appdeck diff --help` lists what it takes)"
        );
        assert!(merged(&["appdeck", "--timeout", "2", "validate", "r.json"]).is_err());
        assert!(
            merged(&["appdeck", "--read-only", "report", "r.json"])
                .unwrap()
                .read_only
        );
        let sandbox = merged(&["appdeck", "sandbox", "--token-file", "t"]).unwrap();
        assert_eq!(sandbox.token_file, Some(PathBuf::from("t")));

        let help = |args: &[&str]| {
            let mut command = command();
            let mut found = &mut command;
            for name in args {
                found = found.find_subcommand_mut(name).unwrap();
            }
            found.render_help().to_string()
        };
        let sandbox = help(&["sandbox"]);
        for client_flag in [
            "--base-url",
            "--timeout",
            "--profile",
            "--read-only",
            "--types",
        ] {
            assert!(!sandbox.contains(client_flag), "{client_flag} in {sandbox}");
        }
        let list = help(&["list"]);
        assert!(
            list.contains("Connection:") && list.contains("--base-url"),
            "{list}"
        );
        assert!(
            list.contains("-o, --output <OUTPUT>  Output format"),
            "{list}"
        );
        assert!(!help(&["diff"]).contains("--base-url"));
        assert!(!help(&["validate"]).contains("--timeout"));
        for examples in [&["config"][..], &["types", "show"], &["history", "show"]] {
            assert!(help(examples).contains("Examples:"), "{examples:?}");
        }
    }

    /// Issue 20 item 13: clap's errors read like appdeck's; empty filters and tokens are usage
    /// errors.
    #[test]
    fn usage_errors_start_with_appdeck_and_refuse_empty_values() {
        let err = Cli::try_parse_from(["appdeck", "lst"]).unwrap_err();
        let text = usage_error_text(&err);
        assert!(
            text.starts_with("appdeck: unrecognized subcommand 'lst'"),
            "{text}"
        );
        for args in [
            &["appdeck", "sandbox", "--token", ""][..],
            &["appdeck", "list", "-t", ""],
            &["appdeck", "infer", "--type", " "],
            &["appdeck", "list", "--from", ""],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{args:?}");
            assert!(
                usage_error_text(&err).contains("must not be empty"),
                "{err}"
            );
        }
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

    /// The flags of `report --each` are refused with a single payload, where they would do
    /// nothing; a negative rate is refused as a rate, not taken for an unknown flag.
    #[test]
    fn the_flags_of_each_are_refused_without_it() {
        for flag in [&["--force"][..], &["-j", "2"], &["--rate", "2"]] {
            let args = [&["appdeck", "report", "r.json"][..], flag].concat();
            let err = Cli::try_parse_from(&args).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{args:?}");
            assert!(
                usage_error_text(&err).contains("cannot be used with"),
                "{err}"
            );
        }
        let each = ["appdeck", "report", "--each", "r.ndjson"];
        let force =
            Cli::try_parse_from([&each[..], &["--force", "-j", "2", "--rate", "2"]].concat());
        assert!(force.is_ok(), "{force:?}");
        let err = Cli::try_parse_from([&each[..], &["--rate", "-1"]].concat()).unwrap_err();
        assert!(usage_error_text(&err).contains("above 0"), "{err}");
    }

    /// Every `-o` says in its description each value clap accepts (`list -o` named three of
    /// five).
    #[test]
    fn each_output_description_names_every_value() {
        fn check(command: &clap::Command, path: &str) -> usize {
            let mut checked = 0;
            for arg in command.get_arguments().filter(|a| a.get_id() == "output") {
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                let words: Vec<&str> = help.split(|c: char| !c.is_ascii_alphanumeric()).collect();
                for value in arg.get_possible_values() {
                    assert!(
                        words.contains(&value.get_name()),
                        "`{path} -o {}` is accepted, but its description is {help:?}",
                        value.get_name()
                    );
                }
                checked += 1;
            }
            checked
                + command
                    .get_subcommands()
                    .map(|sub| check(sub, &format!("{path} {}", sub.get_name())))
                    .sum::<usize>()
        }
        let mut command = command();
        command.build();
        assert!(check(&command, "appdeck") >= 9, "every -o was seen");
    }

    #[test]
    fn help_documents_exit_codes_and_the_log() {
        let help = command().render_long_help().to_string();
        assert!(help.contains("Exit status"));
        assert!(help.contains("APPDECK_TOKEN"));
        assert!(help.contains("appdeck.log") || help.contains("no home directory"));
    }
}
