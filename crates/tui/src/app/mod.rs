//! The TUI's state and its one mutator, [`App::update`]: pure, no I/O, no async. Everything that
//! touches the outside world is returned as a [`Command`] for the runtime (`crate::runtime`) to run.
//!
//! `update` tries the overlay (`overlay/`), then the pane on top of the stack (`panes/`, through
//! [`pane::Screen`]), then the global keys (`global.rs`). Results of background work are routed by
//! request id to the pane that asked (`stack.rs`). Nothing here imports the renderer (`ui/`).

pub(crate) mod action;
pub(crate) mod export;
#[cfg(any(test, feature = "test-harness"))]
// Public for the tests of the binary (through the feature); this crate's own tests need no more.
#[cfg_attr(not(feature = "test-harness"), allow(unreachable_pub))]
pub mod harness;
// The jobs moved to the core, which the list engine shares; the app's files still name them here.
pub(crate) use appdeck_core::job;
pub(crate) mod keymap;
pub(crate) mod known_types;
pub(crate) mod layout;
pub(crate) mod loadable;
pub(crate) mod overlay;
pub(crate) mod pane;
pub(crate) mod panes;
pub(crate) mod settings;
pub(crate) mod stack;
pub(crate) mod widgets;

mod compose;
mod global;

use ratatui::layout::Rect;

pub use action::{
    Action, ApiReply, Command, Delivery, DraftSubject, Move, Notice, RequestId, StoredDraft,
    Toward, UnsentDraft, View,
};
pub(crate) use action::{ApiCall, Body, DraftSlot, KeptListing, OpenAs, ProfileSwitch};
pub use known_types::KnownTypes;
pub(crate) use loadable::Loadable;

use action::RequestIds;
use keymap::Focus;
use overlay::{ErrorReport, Overlay};
use pane::{Ctx, News, Outcome, Pane, Screen};
use panes::browser::Browser;
use stack::{ScreenId, Stack};

/// What the status bar says about where appdeck is connected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    /// What supplied the base URL: a profile's name, `env` or `flags` (`demo` under `--demo`).
    pub origin: String,
    /// Host and port of the base URL (never the token).
    pub host: String,
    /// Settings to fix that did not stop appdeck (a token file readable by others): shown on
    /// the first frame, since stderr is hidden behind the TUI's screen.
    pub warnings: Vec<String>,
}

/// What the status bar said before an action, to tell what the action made it say.
struct Said {
    notice: Option<Notice>,
    last_error: Option<ErrorReport>,
    problem: Option<String>,
}

#[derive(Clone, Debug)]
pub struct App {
    pub session: Session,
    /// The terminal's size, for viewport heights and click positions.
    pub size: Rect,
    /// The resource list: the bottom of the navigation stack, always there, so its listing
    /// survives whatever is opened above it.
    pub browser: Browser,
    /// The screens opened above the list.
    pub stack: Stack,
    pub overlay: Option<Overlay>,
    /// What the last key did, in a few words (copied, refused, cancelled...); the next key
    /// clears it.
    pub notice: Option<Notice>,
    /// Which pane's work said the notice, while it is the one said: that work's end takes it
    /// back, never a notice another action said since (see [`pane::Topic`]).
    notice_about: Option<pane::NoticeAbout>,
    /// The last error in full, for `!`.
    pub last_error: Option<ErrorReport>,
    /// The `:` commands run so far, for Up/Down on the command line.
    pub command_history: overlay::command_line::History,
    pub should_quit: bool,
    /// The resource types appdeck knows, once the runtime has loaded them (see
    /// [`Command::LoadTypes`]); the types view opens on them at once.
    pub known_types: Option<std::sync::Arc<KnownTypes>>,
    /// Where reports are sent and the types they are checked against, for the composer.
    pub report: std::sync::Arc<panes::report::ReportContext>,
    /// Why writes are refused (a read-only profile, `--read-only`); `None` when they are not.
    pub read_only: Option<crate::config::ReadOnly>,
    /// The profiles of the config file, for `:profile` and its completion.
    pub profiles: Vec<String>,
    /// `:profile NAME` with a name not in `profiles`, waiting for the config file to be read
    /// again ([`Command::ReadProfiles`]).
    profile_asked: Option<(RequestId, String)>,
    /// The keys in effect (the defaults with the config file's `[keys]`): the dispatch, the
    /// help and the footer all read it.
    pub keymap: keymap::Keymap,
    /// When the action being applied arrived (the event loop sets it before each one; tests set
    /// it by hand): the only clock `update` reads.
    pub now: std::time::Instant,
    ids: RequestIds,
    /// Known types loaded for requests older than this are dropped: they were asked of the
    /// profile in use before the last `:profile` switch.
    types_since: RequestId,
}

impl App {
    /// A new app showing the first page of resources; the returned commands fetch it.
    pub fn new(session: Session, size: Rect, page_size: Option<u32>) -> (App, Vec<Command>) {
        let mut app = App {
            session,
            size,
            browser: Browser::new(page_size),
            stack: Stack::default(),
            overlay: None,
            notice: None,
            notice_about: None,
            last_error: None,
            command_history: Default::default(),
            should_quit: false,
            known_types: None,
            report: Default::default(),
            read_only: None,
            profiles: Vec::new(),
            profile_asked: None,
            keymap: keymap::Keymap::default(),
            now: std::time::Instant::now(),
            ids: RequestIds::default(),
            types_since: RequestId(0),
        };
        if !app.session.warnings.is_empty() {
            let warnings = app.session.warnings.join("; ");
            app.notice = Some(Notice::Error(format!("warning: {warnings}")));
            app.last_error = Some(ErrorReport::new(
                "reading the configuration",
                &warnings,
                None,
            ));
        }
        let first = vec![app.browser.start(&mut app.ids)];
        app.stack.claim(ScreenId::BROWSER, &first);
        // The known types load in the background from the start (the store is opened off the UI
        // thread), so that `2` shows them at once; nobody waits for them, so no screen claims it.
        let load = Command::LoadTypes {
            id: app.ids.issue(),
        };
        (app, first.into_iter().chain([load]).collect())
    }

    /// Asks the store for the listing kept from the last run, shown until the first live page
    /// comes (the runtime answers "none" when keeping is off). `offline`: the live page is not
    /// asked for at all: returns the request among [`App::new`]'s commands not to make.
    pub(crate) fn open_kept(&mut self, offline: bool) -> (Command, Option<RequestId>) {
        let unasked = offline.then(|| self.browser.in_flight()).flatten();
        let ask = self.browser.ask_kept(&mut self.ids, offline);
        self.stack
            .claim(ScreenId::BROWSER, std::slice::from_ref(&ask));
        (ask, unasked)
    }

    /// The pane on top of the stack.
    pub(crate) fn top_pane(&self) -> &dyn Pane {
        match self.stack.top() {
            Some(screen) => screen.pane(),
            None => &self.browser,
        }
    }

    /// The panes from the top of the stack down to the list.
    fn panes_top_down(&self) -> impl Iterator<Item = &dyn Pane> {
        let above = self.stack.layers().iter().rev().map(|l| l.screen.pane());
        above.chain(std::iter::once(&self.browser as &dyn Pane))
    }

    /// Where the keyboard goes now: whose keys, and whether a text input takes the typing.
    pub fn focus(&self) -> Focus {
        match &self.overlay {
            Some(overlay) => overlay.focus(&self.keymap),
            None => {
                let pane = self.top_pane();
                self.keymap.focus(pane.keys(), pane.input_mode())
            }
        }
    }

    /// What is in flight, for the status bar: the top pane's work first, then work going on
    /// below it (the list still loading pages while a resource is open).
    pub(crate) fn activity(&self) -> Option<String> {
        self.panes_top_down().find_map(|p| p.activity())
    }

    /// What is wrong now, for the status bar, asked the same way.
    pub(crate) fn problem(&self) -> Option<String> {
        self.panes_top_down().find_map(|p| p.problem())
    }

    /// The area the panes are drawn in.
    pub(crate) fn body(&self) -> Rect {
        layout::screen(self.size).body
    }

    /// Applies one action; returns the I/O it calls for.
    pub fn update(&mut self, action: Action) -> Vec<Command> {
        let before = Said {
            notice: self.notice.clone(),
            last_error: self.last_error.clone(),
            problem: self.problem(),
        };
        let commands = self.apply_action(action);
        self.keep_for_bang(before);
        commands
    }

    /// A warning or an error the status bar now says (a notice, or a problem such as "draft not
    /// saved"), which may be cut to the terminal's width, becomes what `!` shows whole, unless
    /// the action kept a fuller account of it (an API error with its exchange).
    fn keep_for_bang(&mut self, before: Said) {
        if self.last_error != before.last_error {
            return;
        }
        let said = match &self.notice {
            Some(Notice::Error(text)) if self.notice != before.notice => Some(text.clone()),
            _ => self
                .problem()
                .filter(|p| Some(p) != before.problem.as_ref()),
        };
        if let Some(text) = said {
            let place = format!("in the {}", self.top_pane().keys().name);
            self.last_error = Some(ErrorReport::new(&place, &text, None));
        }
    }

    fn apply_action(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::ForceQuit => self.quit_now(),
            // Nothing changes: appdeck comes back as it was, popup, input and draft included.
            Action::Suspend => vec![Command::Suspend],
            Action::Resize { width, height } => {
                self.size = Rect::new(0, 0, width, height);
                if let Some(Overlay::Value(popup)) = &mut self.overlay {
                    popup.resize(layout::screen(self.size).body);
                }
                let mut screens = vec![ScreenId::BROWSER];
                screens.extend(self.stack.layers().iter().map(|l| l.id));
                let mut commands = Vec::new();
                for screen in screens {
                    let outcome = self
                        .with_pane(screen, |pane, cx| Outcome::Handled(pane.resized(cx)))
                        .unwrap_or_else(Outcome::done);
                    commands.extend(self.apply(screen, outcome));
                }
                commands
            }
            Action::Reply { id, delivery } => self.answered(id, delivery),
            Action::Tick => self.tick(),
            Action::Notice(notice) => {
                if let Notice::Error(message) = &notice {
                    self.last_error = Some(ErrorReport::new("running a command", message, None));
                }
                self.notice = Some(notice);
                Vec::new()
            }
            action => {
                // A key or a click: what the previous one did is old news.
                self.notice = None;
                match self.overlay.take() {
                    Some(overlay) => self.update_overlay(overlay, action),
                    None => {
                        let top = self.stack.top_id();
                        let outcome = self
                            .with_pane(top, |pane, cx| pane.update(action, cx))
                            .unwrap_or_else(Outcome::done);
                        self.apply(top, outcome)
                    }
                }
            }
        }
    }

    /// `q`, `:quit`: quits, unless a draft the store did not take would be lost; then asks
    /// first, in a popup that says it whole (the status bar cut it).
    fn quit(&mut self) -> Vec<Command> {
        let unsaved = self.unsaved_work();
        if !unsaved.is_empty() {
            self.overlay = Some(Overlay::Quit(overlay::QuitAsk { unsaved }));
            return Vec::new();
        }
        self.quit_now()
    }

    /// What the open screens would lose, top first.
    fn unsaved_work(&self) -> Vec<pane::UnsavedWork> {
        self.panes_top_down()
            .filter_map(|p| p.unsaved_work())
            .collect()
    }

    /// Quits, after every open screen has said what it still owes (a draft to save); a text the
    /// store did not take goes to a file (`q` asked first; `^c` and signals do not ask).
    fn quit_now(&mut self) -> Vec<Command> {
        self.should_quit = true;
        let kept = self.unsaved_work().into_iter().map(Command::KeepUnsaved);
        let mut commands: Vec<Command> = kept.collect();
        commands.extend(self.owed_by_screens());
        commands
    }

    /// What every open screen still owes before it closes (a draft to save), asked of each.
    fn owed_by_screens(&mut self) -> Vec<Command> {
        let screens: Vec<ScreenId> = self.stack.layers().iter().map(|l| l.id).collect();
        screens
            .into_iter()
            .filter_map(|screen| self.with_pane(screen, |pane, cx| pane.closing(cx)))
            .flatten()
            .collect()
    }

    /// Whether the list is loading every page (`L`): the loop paces the frames of its pages.
    pub fn loading_all(&self) -> bool {
        self.browser.loading_all()
    }

    /// The earliest deadline a screen asked for ([`Pane::wake_at`]); `None` when nothing is
    /// pending, and then the event loop sleeps until an event.
    pub fn wake_at(&self) -> Option<std::time::Instant> {
        self.panes_top_down().filter_map(|p| p.wake_at()).min()
    }

    /// Calls [`Pane::tick`] on every screen whose deadline has come, the list's included.
    fn tick(&mut self) -> Vec<Command> {
        let now = self.now;
        let due = |pane: &dyn Pane| pane.wake_at().is_some_and(|at| at <= now);
        let list = due(&self.browser).then_some(ScreenId::BROWSER);
        let due: Vec<ScreenId> = list
            .into_iter()
            .chain(
                self.stack
                    .layers()
                    .iter()
                    .filter(|l| due(l.screen.pane()))
                    .map(|l| l.id),
            )
            .collect();
        let mut commands = Vec::new();
        for screen in due {
            let outcome = self
                .with_pane(screen, |pane, cx| Outcome::Handled(pane.tick(cx)))
                .unwrap_or_else(Outcome::done);
            commands.extend(self.apply(screen, outcome));
        }
        commands
    }

    /// Closes the top screen, after it has said what it still owes ([`Pane::closing`]); returns
    /// that and the cancels of its requests.
    pub(crate) fn pop_screen(&mut self) -> Vec<Command> {
        let top = self.stack.top_id();
        if top == ScreenId::BROWSER {
            return Vec::new();
        }
        let mut commands = self
            .with_pane(top, |pane, cx| pane.closing(cx))
            .unwrap_or_default();
        let Some((closed, cancels)) = self.stack.close_top() else {
            return commands;
        };
        commands.extend(cancels);
        // A list over the resource list's rows gives it the pages it loaded (`L` there).
        if let Screen::Browser(list) = closed {
            let height = self.browser.table_height(self.body());
            if let Some(taken) = self.browser.back_from(*list, &mut self.ids, height) {
                commands.extend(self.browser_commands(taken));
                commands.extend(self.rows_loaded());
            }
        }
        commands
    }

    /// Composers opened from now on check a resource's properties against the newest known
    /// definition of its type (the store's connects, the `--types` files, the demo). With none
    /// known, the types they had stay.
    fn check_reports_against(&mut self, types: &KnownTypes) {
        if types.catalog.is_empty() {
            return;
        }
        let text = types.catalog.newest_as_payload();
        // The catalog writes it from JSON it read: it parses.
        let Ok(payload) = serde_json::from_str(&text) else {
            return;
        };
        self.report = std::sync::Arc::new(panes::report::ReportContext {
            types: Some(std::sync::Arc::new(payload)),
            types_text: Some(std::sync::Arc::from(text)),
            ..(*self.report).clone()
        });
    }

    /// A `--types` file (or a profile's) that is missing or not a connect payload, or a store
    /// that cannot be used, is said in the status bar and kept for `!` as soon as the known types
    /// are loaded (the CLI refuses such a file; here the rest still loads). Said once: a reload
    /// with the same problems stays quiet.
    fn warn_of_type_sources(&mut self, types: &KnownTypes) {
        let before = self.known_types.as_ref().map(|k| k.problems.as_slice());
        if types.problems.is_empty() || before == Some(types.problems.as_slice()) {
            return;
        }
        let problems = types.problems.join("; ");
        self.notice = Some(Notice::Error(format!(
            "warning: some known types were not loaded: {problems} (2 lists them)"
        )));
        self.last_error = Some(ErrorReport::new(
            "loading the known types",
            &problems,
            Some("the other types were loaded; 2 shows them and the problems".into()),
        ));
    }

    /// An answer: the app's own (news for every pane, a screen to open), else the pane's that
    /// asked.
    fn answered(&mut self, id: RequestId, delivery: Delivery) -> Vec<Command> {
        match delivery {
            // A load asked for before the last `:profile` switch is another service's types.
            Delivery::Types(_) if id < self.types_since => Vec::new(),
            Delivery::Types(types) => {
                self.check_reports_against(&types);
                self.warn_of_type_sources(&types);
                self.known_types = Some(types.clone());
                self.deliver(id, Delivery::Types(types))
            }
            Delivery::FileRead { path, opens, text } => match opens {
                OpenAs::Report => self.open_report_file(&path, text),
                OpenAs::Connect => self.open_connect_file(&path, text),
            },
            Delivery::VersionRecorded {
                payload,
                at,
                result,
            } => self.version_recorded(&payload, at, result),
            Delivery::SendRecorded(result) => self.send_recorded(result),
            Delivery::ProfileSwitched(Ok(switch)) => self.profile_switched(*switch),
            Delivery::ProfileSwitched(Err(why)) => self.profile_switch_failed(&why),
            Delivery::ProfileNames(names) => self.profile_names_read(id, names),
            delivery => self.deliver(id, delivery),
        }
    }

    /// Hands an answer to the pane that asked for it; a stale one (cancelled, or its pane
    /// closed) is dropped here.
    fn deliver(&mut self, id: RequestId, delivery: Delivery) -> Vec<Command> {
        // A job's progress leaves it waiting for its answer, and loads no rows.
        let ends = delivery.ends_request();
        let owner = if ends {
            self.stack.route(id)
        } else {
            self.stack.route_progress(id)
        };
        let Some(owner) = owner else {
            tracing::debug!(?id, "stale result dropped");
            return Vec::new();
        };
        let outcome = self
            .with_pane(owner, |pane, cx| pane.on_reply(id, delivery, cx))
            .unwrap_or_else(Outcome::done);
        let mut commands = self.apply(owner, outcome);
        // Only the list's answers that end a request add rows; after any other answer the
        // summary is the one the panes already have (or, while the first page loads, an equal
        // empty one: the list starts over only with no other screen open). Telling them again
        // changes nothing (the overview keeps an equal summary, the types view returns on equal
        // counts), so `||` for `&&` here is an equivalent mutant: see benches/mutants.toml.
        if owner == ScreenId::BROWSER && ends {
            commands.extend(self.rows_loaded());
        }
        commands
    }

    /// Tells every open pane, the list first, of `news`; they may ask for work.
    fn broadcast(&mut self, news: &News) -> Vec<Command> {
        let mut screens = vec![ScreenId::BROWSER];
        screens.extend(self.stack.layers().iter().map(|l| l.id));
        let mut commands = Vec::new();
        for screen in screens {
            let outcome = self
                .with_pane(screen, |pane, cx| {
                    Outcome::Handled(pane.on_broadcast(news, cx))
                })
                .unwrap_or_else(Outcome::done);
            commands.extend(self.apply(screen, outcome));
        }
        commands
    }

    /// Runs `f` on the pane of `screen` with the context it may use; `None` if it is closed.
    fn with_pane<R>(
        &mut self,
        screen: ScreenId,
        f: impl FnOnce(&mut dyn Pane, &mut Ctx) -> R,
    ) -> Option<R> {
        let mut cx = Ctx {
            body: layout::screen(self.size).body,
            ids: &mut self.ids,
            notice: &mut self.notice,
            screen,
            notice_about: &mut self.notice_about,
            last_error: &mut self.last_error,
            overlay: &mut self.overlay,
            read_only: self.read_only.as_ref(),
            now: self.now,
        };
        let pane: &mut dyn Pane = if screen == ScreenId::BROWSER {
            &mut self.browser
        } else {
            let layer = self
                .stack
                .layers_mut()
                .iter_mut()
                .find(|l| l.id == screen)?;
            layer.screen.pane_mut()
        };
        Some(f(pane, &mut cx))
    }

    /// Carries out what the pane of `screen` decided.
    fn apply(&mut self, screen: ScreenId, outcome: Outcome) -> Vec<Command> {
        match outcome {
            Outcome::Handled(commands) => {
                self.stack.claim(screen, &commands);
                commands
            }
            Outcome::NotMine(action) => self.update_global(action),
            // The commands are the opened screen's: what it asks for as it opens.
            Outcome::Push(opened, commands) => {
                let opened = self.stack.push(opened);
                self.stack.claim(opened, &commands);
                commands
            }
            Outcome::Pop if screen != ScreenId::BROWSER && screen == self.stack.top_id() => {
                self.pop_screen()
            }
            Outcome::Pop => Vec::new(),
            Outcome::Open(open) => self.open(open),
            Outcome::RefreshList(mut commands) => {
                self.stack.claim(screen, &commands);
                commands.extend(self.broadcast(&News::ResourceReported(None)));
                commands
            }
            Outcome::Tell(news, mut commands) => {
                self.stack.claim(screen, &commands);
                commands.extend(self.broadcast(&news));
                commands
            }
        }
    }

    /// Commands the app made for the list on its behalf (a new type filter, a reload).
    fn browser_commands(&mut self, commands: Vec<Command>) -> Vec<Command> {
        self.stack.claim(ScreenId::BROWSER, &commands);
        commands
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod read_only_tests;

#[cfg(test)]
mod watch_narrowed_tests;
#[cfg(test)]
mod watch_tests;

#[cfg(test)]
mod profile_tests;

#[cfg(test)]
mod keymap_tests;

#[cfg(test)]
mod exact_tests;

#[cfg(test)]
mod settings_tests;

#[cfg(test)]
mod kept_tests;
#[cfg(test)]
mod marks_tests;
#[cfg(test)]
mod notice_tests;
#[cfg(test)]
mod refetch_tests;
#[cfg(test)]
mod reload_tests;

#[cfg(test)]
mod warning_tests;

#[cfg(test)]
mod find_tests;
#[cfg(test)]
mod list_meets_tests;

#[cfg(test)]
mod sort_tests;

#[cfg(test)]
mod export_tests;

#[cfg(test)]
mod typing_tests;
