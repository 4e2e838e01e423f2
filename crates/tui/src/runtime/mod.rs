//! The terminal UI's runtime: sets the terminal up, runs the event loop over the real terminal's
//! events, and hands the terminal back on every way out.

pub(crate) mod columns_keeper;
pub(crate) mod drafts;
pub(crate) mod effects;
pub(crate) mod event_loop;
pub(crate) mod executor;
pub(crate) mod external_editor;
pub(crate) mod frame_pace;
pub(crate) mod kept;
pub(crate) mod known_types;
pub(crate) mod listing_keeper;
pub(crate) mod opener;
pub(crate) mod profiles;
pub(crate) mod startup;
pub(crate) mod suspend;
pub(crate) mod terminal;
pub(crate) mod terminal_gone;

use ratatui::layout::Rect;

use crate::api::{Client, ClientSettings};
use crate::app::panes::report::ReportContext;
use crate::app::{Action, App, Command, Delivery, Notice, Session};
use crate::signals::StopSignals;
use effects::TerminalEffects;
use event_loop::EventLoop;
use terminal::TerminalGuard;

/// How long the first frame waits for the kept rows read at start, so that it shows them
/// rather than an empty list a few milliseconds before them. The read is of a local file (under
/// 1 ms warm); a slow disk delays the rows, never the first frame by more than this.
const KEPT_ROWS_WAIT: std::time::Duration = std::time::Duration::from_millis(50);

/// How long quitting waits for the list's last pages to be kept (a fresh store is made and
/// written in some 0.1 s): a store another process holds locked must not hold the shell back.
const KEEPING_AT_QUIT: std::time::Duration = std::time::Duration::from_secs(2);

/// What the TUI needs to start.
pub struct LaunchOptions {
    pub settings: ClientSettings,
    pub session: Session,
    /// Rows per page to ask for (`None`: the server's default).
    pub page_size: Option<u32>,
    /// When the process started, for the startup milestones in the log.
    pub started: std::time::Instant,
    /// Where the known resource types come from (the store, `--types`, the demo).
    pub types: known_types::TypeSources,
    /// Resource types the report composer checks against, as a version-connect payload.
    pub known_types: Option<serde_json::Value>,
    /// Why writes are refused (a read-only profile, `--read-only`), if they are.
    pub read_only: Option<crate::config::ReadOnly>,
    /// The colours: the config file's theme, or none under `NO_COLOR`.
    pub theme: crate::ui::theme::Theme,
    /// The keys in effect: the defaults with the config file's `[keys]`.
    pub keymap: crate::app::keymap::Keymap,
    /// The config file's profiles and how to switch to one (`:profile`); `None` under `--demo`.
    pub profiles: Option<(Vec<String>, profiles::ProfileSwitcher)>,
    /// Where the composer's drafts are kept; `None` without a data directory.
    pub drafts: Option<drafts::DraftPlace>,
    /// The local store's file, where sends are recorded (the history); `None` without a data
    /// directory.
    pub store_path: Option<std::path::PathBuf>,
    /// What the last listing is kept for (the service and profile), or why not.
    pub keep: listing_keeper::Keeping,
    /// The read of the kept listing the list opens on, begun by the caller as early as it can
    /// ([`listing_keeper::EarlyRead::at_start`], with `keep`).
    pub kept_at_start: listing_keeper::EarlyRead,
    /// `--offline`: open on the kept listing without asking the service.
    pub offline: bool,
    /// What `o` opens links with, in order: the config's `opener`, `$BROWSER`, the platform's.
    pub openers: Vec<opener::Opener>,
    /// Whether the log file can be written: its first failure is said once in the status bar.
    pub log: crate::log_file::LogHealth,
}

/// Runs the TUI until the user quits, or a signal stops it: then its number comes back, for an
/// exit status of 128 + that number, as a shell expects. Must be called inside a tokio runtime.
pub async fn launch(options: LaunchOptions) -> anyhow::Result<Option<i32>> {
    // The kept rows are being read while the client and the terminal are set up.
    let early_kept = options.kept_at_start;
    let client = Client::new(&options.settings)?;
    // Listen for signals before the terminal goes raw, so none can arrive unheard in between;
    // they quit like `q`, so the terminal is restored on the way out.
    let signals = StopSignals::listen();
    let (guard, terminal) = TerminalGuard::enter()?;
    let size = terminal.size()?;
    let area = Rect::new(0, 0, size.width, size.height);
    let (mut app, mut initial) = App::new(options.session, area, options.page_size);
    let (ask_kept, unasked) = app.open_kept(options.offline);
    initial.retain(|c| !matches!(c, Command::Api { id, .. } if Some(*id) == unasked));
    // The read begun above answers the list's ask, when it asks for what was read (no filter).
    let early_kept = match ask_kept {
        Command::LoadKeptListing {
            id,
            type_filter: None,
        } => Some((id, early_kept)),
        ask => {
            initial.push(ask);
            None
        }
    };
    app.read_only = options.read_only;
    app.keymap = options.keymap;
    let switcher = options.profiles.map(|(names, switcher)| {
        app.profiles = names;
        switcher
    });
    app.report = std::sync::Arc::new(ReportContext {
        base_url: options.settings.base_url.clone(),
        types: options.known_types.map(std::sync::Arc::new),
        // The catalog's, as written, once it loads.
        types_text: None,
        run_tag: chrono::Utc::now().format("%Y%m%d-%H%M%S").to_string(),
    });
    let events = crossterm::event::EventStream::new();
    let effects = Box::new(TerminalEffects {
        openers: options.openers,
    });
    let mut event_loop = EventLoop::new(terminal, app, Vec::new(), events, client, effects);
    event_loop.theme = options.theme;
    event_loop.profiles = switcher;
    // The known types (the store, files) load in the background once the first frame is out,
    // so they never slow the start; the first page is asked for at once.
    event_loop.know_types(options.types);
    event_loop.keep_drafts(options.drafts);
    event_loop.lend_terminal_with(Box::new(suspend::TerminalConsole));
    event_loop.keep_history(options.store_path);
    event_loop.keep_listings(options.keep);
    let (load_types, first): (Vec<_>, Vec<_>) = initial
        .into_iter()
        .partition(|c| matches!(c, Command::LoadTypes { .. }));
    // The clock starts before the first frame, whose time it logs.
    event_loop.time_startup(options.started);
    event_loop.execute(first);
    let mut applied = None;
    let early_kept = match early_kept {
        Some((id, mut early)) => {
            match early.first_within(KEPT_ROWS_WAIT).await {
                Some(kept) => {
                    let reply = Action::reply(id, Delivery::KeptListing(kept));
                    applied = Some(event_loop.apply_now(reply));
                }
                None => tracing::info!(
                    "the kept rows were not read within {KEPT_ROWS_WAIT:?}: the first frame goes \
                     without them"
                ),
            }
            Some((id, early))
        }
        None => None,
    };
    event_loop.draw()?;
    if let Some(applied) = applied {
        event_loop.finish(applied);
    }
    // What the first frame did not wait for: the rest of the kept rows, or all of them.
    if let Some((id, early)) = early_kept {
        early.send(id, event_loop.sender());
    }
    event_loop.execute(load_types);
    let sender = event_loop.sender();
    // Kept before the quit is sent, so it is there once the loop has stopped.
    let stopped_by = std::sync::Arc::new(std::sync::OnceLock::new());
    let signals = tokio::spawn({
        let stopped_by = stopped_by.clone();
        async move {
            let signal = signals.received().await;
            tracing::info!(signal, "signal received, quitting");
            let _ = stopped_by.set(signal);
            let _ = sender.send(Action::ForceQuit);
        }
    });
    // A terminal hung up with no signal sent (appdeck has no controlling terminal) quits as a
    // hangup does, and says so once the terminal is handed back.
    let gone = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    terminal_gone::watch({
        let (gone, stopped_by, sender) = (gone.clone(), stopped_by.clone(), event_loop.sender());
        move || {
            tracing::info!("the terminal was hung up, quitting");
            gone.store(true, std::sync::atomic::Ordering::SeqCst);
            let _ = stopped_by.set(libc::SIGHUP);
            let _ = sender.send(Action::ForceQuit);
        }
    });
    // The log never writes on the screen; when it cannot be written, the status bar says so once.
    let log = options.log;
    let sender = event_loop.sender();
    let log_failed = tokio::spawn(async move {
        let why = log.failed().await;
        let notice = format!("the log file cannot be written ({why}); its lines are dropped");
        let _ = sender.send(Action::Notice(Notice::Error(notice)));
    });
    let result = event_loop.run().await;
    let kept = std::mem::take(&mut event_loop.kept);
    // `q` or a signal: an export's job is not waited for, so its hidden file goes now.
    let removed = appdeck_listing::remove_unfinished();
    if removed > 0 {
        tracing::info!(removed, "removed the files of unfinished exports");
    }
    signals.abort();
    log_failed.abort();
    let keeper = event_loop.stop_keeping();
    drop(event_loop);
    drop(guard);
    // Once the terminal is back: the user has the shell while the last pages are kept.
    let listing_kept = match keeper {
        // A blocking wait: off the runtime's threads.
        Some(keeper) => tokio::task::spawn_blocking(move || keeper.finish(KEEPING_AT_QUIT))
            .await
            .unwrap_or(false),
        None => true,
    };
    tracing::info!("TUI closed");
    // Once the terminal is back, where the texts the store did not take are.
    for line in kept {
        eprintln!("appdeck: {line}");
    }
    if !listing_kept {
        eprintln!(
            "appdeck: the list shown was still being kept after {KEEPING_AT_QUIT:?} (the store \
             was busy): the next start may not show it"
        );
    }
    if gone.load(std::sync::atomic::Ordering::SeqCst) {
        eprintln!("appdeck: the terminal went away (its other end closed); quit as on a hangup");
    }
    result?;
    Ok(stopped_by.get().copied())
}
