//! The appdeck binary: parses the arguments, sets up logging to a file, starts the async runtime,
//! and hands over to the library (the terminal UI, or one of the commands for scripts).

mod cli;

// The crates' modules under the names the CLI's files use (`crate::api`...).
use appdeck_core::{
    answer_words, api, bounded_read, catalog, changes, config, diff, explain, infer, jq, json_text,
    log_file, order, out, sanitize, signals, text, validate,
};
use appdeck_sandbox as sandbox;
use appdeck_store as store;
use appdeck_tui as tui;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::api::{ClientSettings, Token};
use crate::cli::args::{Cli, Command, GlobalArgs};
use crate::config::ReadOnly;
use crate::log_file::{DropOnError, LogHealth, RotatingFile};
use crate::sandbox::{Sandbox, SandboxOptions};
use crate::tui::Keeping;
use crate::tui::LaunchOptions;
use crate::tui::Session;
use crate::tui::TypeSources;
use crate::tui::{ProfileSwitcher, host_of};

/// How long quitting may wait for background work (a slow request, the demo sandbox).
const SHUTDOWN_GRACE: Duration = Duration::from_millis(300);

fn main() -> ExitCode {
    let started = Instant::now();
    // A `:where` worker the TUI started (src/jq/worker): no arguments, no runtime, no logging.
    if std::env::args_os().nth(1).as_deref() == Some(crate::jq::worker::ARG.as_ref()) {
        return crate::jq::on_large_stack(crate::jq::worker::serve).unwrap_or(ExitCode::from(1));
    }
    two_malloc_arenas();
    let mut cli = crate::cli::args::parse();
    let global = cli.global();
    // The TUI and the sandbox run for a while and have no other place to report to; a one-shot
    // command says what it has to say on stdout and stderr.
    let log = LogHealth::default();
    if matches!(cli.command, None | Some(Command::Sandbox(_))) {
        init_logging(&log);
    }
    // The TUI's configuration is read, and so the read of its kept rows begun, before the
    // runtime is built (after logging, which the read's warnings go to): `appdeck --offline`'s
    // first rows came 0.10 ms sooner (5.06 to 4.96 ms from launch, medians of 41 runs side by
    // side, both orders, run at real-time priority on a load of 4.7; benches/tui_startup.sh).
    let run = match cli.command.take() {
        None => match TuiStart::prepare(&cli, &global) {
            Ok(start) => Run::Tui(start),
            Err(code) => return code,
        },
        Some(command) => Run::Command(command),
    };
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(2).enable_all();
    if matches!(run, Run::Tui(_)) {
        // A blocking thread (a job, the store) otherwise waits 10 s for more work, then wakes
        // an idle TUI to retire: it retires as soon as its work is done instead. A job starts a
        // thread (some 30 µs), next to milliseconds of work and a frame.
        builder.thread_keep_alive(Duration::ZERO);
    }
    let runtime = match builder.build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("appdeck: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let code = match run {
        Run::Tui(start) => {
            crate::jq::worker::enable();
            runtime.block_on(open_tui(start, &cli, &global, started, log))
        }
        // The terminal UI's own flags: a command given one would ignore it.
        Run::Command(command) if cli.page_size.is_some() || cli.offline => {
            let (flag, instead) = match (&command, cli.offline) {
                (_, true) => ("--offline", ""),
                (Command::List(_), false) => ("--page-size", ": it takes --limit"),
                (_, false) => ("--page-size", ""),
            };
            crate::cli::Failure::Usage(format!(
                "`appdeck {}` does not take {flag}, the terminal UI's flag{instead}",
                command.name()
            ))
            .report()
        }
        // On a large stack: `--jq` runs jaq here, which goes a call deeper for each term of a
        // long chain (see crate::jq::STACK_BYTES).
        Run::Command(command) => crate::jq::on_large_stack(|| {
            runtime.block_on(crate::cli::run(command, &global, cli.demo))
        })
        .unwrap_or_else(|e| {
            eprintln!("appdeck: cannot start its main thread: {e}");
            ExitCode::from(1)
        }),
    };
    // `q` quits at once: requests still in flight are dropped, not awaited.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    code
}

/// What this run of the binary is: the terminal UI (its configuration read) or a command.
enum Run {
    Tui(TuiStart),
    Command(Command),
}

/// glibc's malloc gives each thread that allocates its own arena (up to 8 per core), each keeping
/// the memory freed into it: with the runtime's threads, 0.4 to 1 MB more at start (benches/
/// memory.sh), and pages decoded on one thread and dropped on another spread over several.
/// appdeck allocates from few threads at once, so they lose little by sharing two. Two, not one:
/// at start the kept rows' read and the UI thread allocate at once, and on one arena they waited
/// on its lock; the first rows came 0.35 to 0.45 ms later (`--offline` 4.59-4.69 against 4.25
/// ms, service down 4.85 against 4.40, live 5.10 against 4.65; medians of 31 to 41 runs side by
/// side). The second arena holds 0.1-0.2 MB more at start and 0.3-0.4 MB more with 100,000 rows
/// (memory.sh 100000: 2.9-3.0 against 2.8 MB, 10.1 against 9.7-9.8 MB; every arena: 3.3, 10.4).
fn two_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any other thread exists; mallopt only sets a tunable.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// What the terminal UI takes from its configuration, all from one reading of the config file.
struct TuiStart {
    /// The look and the keys (from the config file even under `--demo`).
    ui: crate::tui::UiSettings,
    /// The configured service; `None` under `--demo`, whose sandbox is started later.
    service: Option<Service>,
    /// The local store's file; `None` without a data directory.
    store_path: Option<std::path::PathBuf>,
    /// The kept rows the list opens on, being read since the configuration was.
    kept_at_start: crate::tui::EarlyRead,
}

/// The configured service, as the config file read once says.
struct Service {
    configured: crate::cli::Configured,
    /// The profiles `:profile` switches among.
    profile_names: Vec<String>,
    /// The selected profile's `types` files.
    type_files: Vec<std::path::PathBuf>,
    keep: Keeping,
}

impl TuiStart {
    /// Reads the configuration; a mistake in it is said (and its exit code returned) before the
    /// terminal is taken over.
    fn prepare(cli: &Cli, global: &GlobalArgs) -> Result<TuiStart, ExitCode> {
        let inputs =
            crate::config::read(&global.flags()).map_err(|e| cli::Failure::from(e).report())?;
        let ui = crate::tui::ui_settings(inputs.text.as_ref())
            .map_err(|e| cli::Failure::from(e).report())?;
        let store_path = crate::config::store_path(&inputs.env).map(|path| path.value);
        let service = match cli.demo {
            true => None,
            false => {
                let service = Service::of(global, &inputs, store_path.clone())
                    .map_err(|failure| failure.report())?;
                Some(service)
            }
        };
        // After the configuration's checks: their errors are the more useful.
        if let Some(refused) = needs_terminal() {
            return Err(refused);
        }
        if let Some(service) = &service {
            // On stderr too: it stays readable once the TUI has left the screen.
            crate::cli::warn(&service.configured.warnings);
        }
        // Under --demo nothing is kept: its sandbox's address changes every run.
        let kept_at_start =
            crate::tui::EarlyRead::at_start(service.as_ref().map_or(&Keeping::Never, |s| &s.keep));
        Ok(TuiStart {
            ui,
            service,
            store_path,
            kept_at_start,
        })
    }
}

impl Service {
    /// What `inputs` (the environment and config file as read) say of the service, its
    /// profiles and what is kept of its listings.
    fn of(
        global: &GlobalArgs,
        inputs: &crate::config::Inputs,
        store_path: Option<std::path::PathBuf>,
    ) -> Result<Service, cli::Failure> {
        let loaded = inputs.resolve(&global.flags())?;
        let configured = crate::cli::configured_by(&loaded)?;
        let keep = Keeping::of(&loaded, store_path, &configured.settings.base_url);
        Ok(Service {
            configured,
            profile_names: loaded.profile_names,
            type_files: loaded.types,
            keep,
        })
    }
}

/// `appdeck` (configured service) or `appdeck --demo` (an in-process sandbox with demo data).
async fn open_tui(
    start: TuiStart,
    cli: &Cli,
    global: &GlobalArgs,
    started: Instant,
    log: LogHealth,
) -> ExitCode {
    let TuiStart {
        ui,
        service,
        store_path,
        kept_at_start,
    } = start;
    let mut sandbox = None;
    let (settings, origin, warnings, read_only, service) = match service {
        Some(Service {
            configured,
            profile_names,
            type_files,
            keep,
        }) => (
            configured.settings,
            configured.origin,
            configured.warnings,
            configured.read_only,
            Some((profile_names, type_files, keep)),
        ),
        None => match Sandbox::start_early(SandboxOptions::default()).await {
            Ok(demo) => {
                let settings = ClientSettings::new(demo.base_url(), Token::new(demo.token()));
                sandbox = Some(demo);
                let read_only = global.read_only.then_some(ReadOnly::Flag(None));
                let origin = "demo (built-in sandbox)".to_owned();
                (settings, origin, Vec::new(), read_only, None)
            }
            Err(e) => {
                eprintln!("appdeck: cannot start the demo sandbox: {e:#}");
                return ExitCode::from(1);
            }
        },
    };
    let session = Session {
        origin,
        host: host_of(&settings.base_url),
        warnings,
    };
    let (profiles, type_files, keep) = match service {
        Some((names, type_files, keep)) => {
            // `:profile NAME` switches among the config file's profiles (not under --demo).
            let switcher = ProfileSwitcher {
                flags: global.flags(),
                type_files: global.types.clone(),
            };
            (Some((names, switcher)), type_files, keep)
        }
        // Under --demo its sandbox's address changes every run: nothing to show next time.
        None => (None, Vec::new(), Keeping::Never),
    };
    let types = type_sources(
        cli,
        global,
        type_files,
        store_path.clone(),
        &settings.base_url,
    );
    let drafts = draft_place(cli, store_path.clone(), &settings.base_url);
    let options = LaunchOptions {
        settings,
        session,
        page_size: cli.page_size,
        started,
        types,
        // The demo's types at once; every known type replaces them once loaded (after the first frame).
        known_types: cli
            .demo
            .then(|| serde_json::from_str(crate::catalog::DEMO_CONNECT).ok())
            .flatten(),
        read_only,
        theme: crate::tui::Theme::from_env(&ui.theme),
        keymap: ui.keys,
        openers: crate::tui::choose_openers(
            ui.opener.as_deref(),
            std::env::var("BROWSER").ok().as_deref(),
        ),
        profiles,
        drafts,
        // Sends are recorded under --demo too: the history says where each one went.
        store_path,
        keep,
        kept_at_start,
        offline: cli.offline,
        log,
    };
    let result = crate::tui::launch(options).await;
    if let Some(sandbox) = sandbox {
        sandbox.shutdown().await;
    }
    match result {
        Ok(None) => ExitCode::SUCCESS,
        // 128 + the signal's number, as for a process the signal had killed.
        Ok(Some(signal)) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        Err(e) => {
            tracing::error!("TUI failed: {e:#}");
            eprintln!("appdeck: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Without a terminal the UI has nowhere to draw ("No such device or address" helped nobody):
/// the refusal to return, naming what works without one.
fn needs_terminal() -> Option<ExitCode> {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return None;
    }
    Some(
        crate::cli::Failure::Usage(
            "the terminal UI needs a terminal, and stdout is not one; for scripts, `appdeck list` \
             lists the resources (`appdeck --help` shows every command)"
                .to_owned(),
        )
        .report(),
    )
}

/// Where the TUI finds the known types: `--types` files; the profile's `types` and the connects
/// recorded in the store for this base URL, except under `--demo`, which has the demo's payload.
/// Nothing is read here: the store is opened off the UI thread, after the first frame is drawn.
fn type_sources(
    cli: &Cli,
    global: &GlobalArgs,
    profile_types: Vec<std::path::PathBuf>,
    store_path: Option<std::path::PathBuf>,
    base_url: &str,
) -> TypeSources {
    let mut files = global.types.clone();
    files.extend(profile_types);
    TypeSources {
        files,
        store: store_path
            .filter(|_| !cli.demo)
            .map(|path| (path, base_url.to_owned())),
        demo: cli.demo,
    }
}

/// Where the composer keeps its drafts: the store, under the base URL; under `--demo`, under
/// `demo`, since the demo's port changes with every run and its resources do not.
fn draft_place(
    cli: &Cli,
    store_path: Option<std::path::PathBuf>,
    base_url: &str,
) -> Option<crate::tui::DraftPlace> {
    Some(crate::tui::DraftPlace {
        store: store_path?,
        base_url: if cli.demo { "demo" } else { base_url }.to_owned(),
    })
}

/// Logs go to a file (its path is in `--help`), never to the screen: the TUI owns the terminal.
/// `APPDECK_LOG` sets the filter (default `appdeck=info`; per-request lines are `debug`). The file
/// is private and rotated by size (`APPDECK_LOG_FILE_KIB` per file, 3 older files kept), so it can
/// never fill a disk. A file that cannot be opened or written (a full disk) drops the lines and
/// tells `health`, for the TUI's status bar; nothing about it is ever printed over the screen.
fn init_logging(health: &LogHealth) {
    let Some(path) = crate::config::log_path() else {
        return;
    };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let max_bytes = std::env::var("APPDECK_LOG_FILE_KIB")
        .ok()
        .and_then(|kib| kib.trim().parse::<u64>().ok())
        .filter(|kib| *kib > 0)
        .map_or(RotatingFile::DEFAULT_MAX_BYTES, |kib| {
            kib.saturating_mul(1024)
        });
    let file = match RotatingFile::open(&path, max_bytes, RotatingFile::DEFAULT_KEEP) {
        Ok(file) => file,
        Err(e) => {
            health.fail(&format!("{}: {e}", path.display()));
            return;
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("APPDECK_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("appdeck=info"));
    let writer = DropOnError::new(file, health.clone());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(writer))
        .with_ansi(false)
        .log_internal_errors(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything the terminal UI takes from its configuration comes from the one reading: the
    /// service, the profiles `:profile` offers, the profile's types and where listings are kept
    /// are those of the text read, even when the file on disk says otherwise by then.
    #[test]
    fn the_service_comes_from_the_config_as_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "default_profile = \"other\"\n[profiles.other]\n\
             base_url = \"http://127.0.0.1:7/api\"\ntoken = \"o\"\n",
        )
        .unwrap();
        let read = "default_profile = \"prod\"\n\
            [profiles.prod]\nbase_url = \"http://127.0.0.1:9/api/v1\"\ntoken = \"t\"\n\
            keep_listings = false\ntypes = [\"prod.json\"]\n\
            [profiles.staging]\nbase_url = \"http://127.0.0.1:8/api/v1\"\ntoken = \"s\"\n";
        let inputs = crate::config::Inputs {
            env: crate::config::Env::default(),
            path: Some(crate::config::Sourced {
                value: path.clone(),
                source: crate::config::Source::Flag("--config"),
            }),
            text: Some(crate::config::ConfigText {
                path: path.clone(),
                text: read.to_owned(),
                shared: false,
            }),
        };
        let global = GlobalArgs {
            config: Some(path),
            ..GlobalArgs::default()
        };
        let store = dir.path().join("appdeck.db");
        let service = Service::of(&global, &inputs, Some(store)).unwrap();
        assert_eq!(
            (
                service.configured.settings.base_url.as_str(),
                service.configured.origin.as_str()
            ),
            ("http://127.0.0.1:9/api/v1", "prod")
        );
        assert_eq!(service.profile_names, ["prod", "staging"]);
        assert_eq!(service.type_files, [dir.path().join("prod.json")]);
        assert!(
            matches!(&service.keep, Keeping::Off(place)
                if place.profile.as_deref() == Some("prod")
                    && place.base_url == "http://127.0.0.1:9/api/v1"),
            "{:?}",
            service.keep
        );
    }
}
