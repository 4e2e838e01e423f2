//! The event loop: terminal events and background results become actions, `update` turns them
//! into commands, and the screen is drawn once the queue is empty — never on a timer, so an idle
//! appdeck does not wake up. Generic over the backend and the input stream, so tests drive it
//! with a `TestBackend` and scripted events.

use crate::app::Toward;
use std::io;
use std::task::Poll;

use crossterm::event::{Event, MouseButton, MouseEventKind};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::drafts::{DraftPlace, Drafts};
use super::effects::Effects;
use super::executor::Executor;
use super::profiles::Switched;
use super::startup::StartupClock;
use super::suspend::Console;
use crate::api::Client;
use crate::app::keymap::action_for;
use crate::app::{Action, App, Command, Delivery, Notice, RequestId};
use crate::ui::theme::Theme;

pub struct EventLoop<B: Backend, E> {
    pub terminal: Terminal<B>,
    pub app: App,
    /// The terminal's input; `None` while the terminal is lent to the external editor.
    events: Option<E>,
    actions: UnboundedReceiver<Action>,
    sender: UnboundedSender<Action>,
    executor: Executor,
    effects: Box<dyn Effects>,
    /// Lends the terminal to `$EDITOR` and to the shell (`^z`); without one (tests), `e` and `^z`
    /// say they cannot.
    console: Option<Box<dyn Console<E>>>,
    /// The external editor running, with the terminal lent to it.
    editor: Option<(RequestId, tokio::task::JoinHandle<Result<String, String>>)>,
    drafts: Drafts,
    /// The list's last listing, kept for the next start (`None` once appdeck is quitting).
    listing_keeper: Option<super::listing_keeper::ListingKeeper>,
    /// Whether state changed since the last frame.
    dirty: bool,
    /// Whether the actions applied since the last frame were pages and nothing else.
    pages_only: bool,
    /// Holds back frames for pages alone (see [`super::frame_pace`]).
    pace: super::frame_pace::FramePace,
    /// What to say once the terminal is handed back: where the texts the store did not take
    /// were kept as appdeck quit.
    pub kept: Vec<String>,
    /// Frames drawn so far (tests and benchmarks check that idle means no frames).
    pub frames: u64,
    startup: Option<StartupClock>,
    /// How to draw: with colour or not (`NO_COLOR`), chosen once by the caller.
    pub theme: Theme,
    /// How to switch profiles (`:profile`); `None` where there are none to switch to (`--demo`).
    pub profiles: Option<super::profiles::ProfileSwitcher>,
    /// The profile being resolved off the UI thread (it reads the config and a token file); a
    /// newer `:profile` replaces it, and the older answer is never applied.
    switching: Option<ProfileResolution>,
}

/// What is left to do once `update` has run on an action: run the commands it returned, drop
/// the pages read ahead for a reply, give a page's memory back.
#[must_use]
pub(crate) struct Applied {
    commands: Vec<Command>,
    replied: Option<RequestId>,
    give_back: bool,
}

/// A `:profile NAME` whose config and token file are being read on a blocking thread.
type ProfileResolution = (
    RequestId,
    String,
    tokio::task::JoinHandle<Result<Switched, String>>,
);

impl<B, E> EventLoop<B, E>
where
    B: Backend,
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    /// Sets the loop up and runs the app's first commands (the first page request).
    pub fn new(
        terminal: Terminal<B>,
        app: App,
        initial: Vec<Command>,
        events: E,
        client: Client,
        effects: Box<dyn Effects>,
    ) -> Self {
        let (sender, actions) = unbounded_channel();
        let executor = Executor::new(client, sender.clone());
        let drafts = Drafts::new(None, sender.clone());
        let listing_keeper = Some(super::listing_keeper::ListingKeeper::new(sender.clone()));
        let mut event_loop = EventLoop {
            terminal,
            app,
            events: Some(events),
            actions,
            sender,
            executor,
            effects,
            console: None,
            editor: None,
            drafts,
            listing_keeper,
            dirty: true,
            pages_only: false,
            pace: Default::default(),
            kept: Vec::new(),
            frames: 0,
            startup: None,
            theme: Theme::default(),
            profiles: None,
            switching: None,
        };
        event_loop.execute(initial);
        event_loop
    }

    /// Logs the startup milestones, counted from `started`.
    pub(crate) fn time_startup(&mut self, started: std::time::Instant) {
        self.startup = Some(StartupClock::new(started));
    }

    /// Where the known types come from (`--types` files, the store, the demo).
    pub(crate) fn know_types(&mut self, sources: super::known_types::TypeSources) {
        self.executor.know_types(sources);
    }

    /// Where the composer's drafts are kept (none: they are not, and saves say so).
    pub fn keep_drafts(&mut self, place: Option<DraftPlace>) {
        self.drafts = Drafts::new(place, self.sender.clone());
    }

    /// Hands over the keeper of listings, to let it finish as appdeck quits.
    pub(crate) fn stop_keeping(&mut self) -> Option<super::listing_keeper::ListingKeeper> {
        self.listing_keeper.take()
    }

    /// For which service and profile the list's last listing is kept (if at all).
    pub(crate) fn keep_listings(&mut self, keeping: super::listing_keeper::Keeping) {
        if let Some(keeper) = &self.listing_keeper {
            keeper.follow(keeping);
        }
    }

    /// How to lend the terminal to `$EDITOR` and take it back.
    pub(crate) fn lend_terminal_with(&mut self, console: Box<dyn Console<E>>) {
        self.console = Some(console);
    }

    /// The store that keeps the history of sends (`None`: no data directory).
    pub(crate) fn keep_history(&mut self, store_path: Option<std::path::PathBuf>) {
        self.executor.keep_history(store_path);
    }

    /// A sender for actions from outside the loop (signal handlers).
    pub(crate) fn sender(&self) -> UnboundedSender<Action> {
        self.sender.clone()
    }

    /// Runs until the app quits or the input ends.
    pub(crate) async fn run(&mut self) -> io::Result<()> {
        self.draw()?;
        while self.step().await? {}
        Ok(())
    }

    /// Waits for the next event or result, applies it and everything else already queued, then
    /// draws if anything changed. Returns false once the app should stop.
    pub async fn step(&mut self) -> io::Result<bool> {
        if let Some((id, editor)) = self.editor.take() {
            // The terminal is the editor's: nothing is read or drawn until it exits.
            let result = editor
                .await
                .unwrap_or_else(|e| Err(format!("the editor could not run: {e}")));
            self.take_terminal_back()?;
            self.apply(Action::reply(id, Delivery::Edited(result)));
        } else {
            // The only timers: the earliest deadline a pane asked for (a draft to save), and the
            // frame held back while pages stream in.
            let deadline = self.app.wake_at().map(tokio::time::Instant::from_std);
            let frame_due = self.pace.due().filter(|_| self.dirty);
            let first = tokio::select! {
                event = next_event(&mut self.events) => match event {
                    Some(event) => Some(self.map_event(event?)),
                    None => return Ok(false),
                },
                Some(action) = self.actions.recv() => Some(Some(action)),
                () = sleep_until(deadline) => Some(Some(Action::Tick)),
                // Nothing to apply: the frame held back is drawn below.
                () = sleep_until(frame_due) => None,
                resolved = profile_resolved(&mut self.switching) => {
                    let (id, name) = self
                        .switching
                        .take()
                        .map(|(id, name, _)| (id, name))
                        .unwrap_or((RequestId(0), String::new()));
                    Some(Some(self.profile_resolved(id, &name, resolved)))
                }
            };
            if let Some(Some(action)) = first {
                self.apply(action);
            }
        }
        // Drain what is already waiting, so a burst of keys or results costs one frame.
        while !self.app.should_quit && self.editor.is_none() {
            if let Ok(action) = self.actions.try_recv() {
                self.apply(action);
                continue;
            }
            match self.ready_event().await {
                Some(Some(event)) => {
                    if let Some(action) = self.map_event(event?) {
                        self.apply(action);
                    }
                }
                Some(None) => return Ok(false),
                None => break,
            }
        }
        if self.app.should_quit {
            return Ok(false);
        }
        if self.editor.is_none()
            && self
                .pace
                .draw_now(tokio::time::Instant::now(), self.paced())
        {
            self.draw()?;
        }
        Ok(true)
    }

    /// Lends the terminal to the external editor on `text`; its result comes back through
    /// [`Self::step`], which waits for it before anything else.
    fn edit_externally(&mut self, id: RequestId, text: String) {
        if let Err(why) = self.lend_terminal() {
            let _ = (self.sender).send(Action::reply(id, Delivery::Edited(Err(why))));
            return;
        }
        let editor = tokio::task::spawn_blocking(move || super::external_editor::edit(&text));
        self.editor = Some((id, editor));
    }

    /// `^z`: the terminal goes back to the shell as for `$EDITOR`, the process stops until the
    /// shell continues it (`fg`), then the terminal is taken back and drawn anew. The app's
    /// state is untouched; background work stops with the process and goes on after.
    fn suspend(&mut self) {
        let say = |sender: &UnboundedSender<Action>, text: String| {
            let _ = sender.send(Action::Notice(Notice::Error(text)));
        };
        if let Err(why) = self.lend_terminal() {
            say(&self.sender, format!("cannot suspend: {why}"));
            return;
        }
        let stopped = self.console.as_mut().map(|console| console.stop());
        if let Err(e) = self.take_terminal_back() {
            tracing::error!("the terminal could not be taken back: {e}");
        }
        if let Some(Err(e)) = stopped {
            say(&self.sender, format!("cannot suspend: {e}"));
        }
    }

    /// Hands the terminal over (to `$EDITOR`, or to the shell): input is no longer read and the
    /// terminal is in the shell's modes until [`Self::take_terminal_back`]. When it cannot be,
    /// the terminal is taken back at once and the error says why.
    fn lend_terminal(&mut self) -> Result<(), String> {
        const NONE: &str = "no terminal to lend here";
        let Some(console) = self.console.as_mut() else {
            return Err(NONE.to_owned());
        };
        let Some(events) = self.events.take() else {
            return Err(NONE.to_owned());
        };
        if let Err(e) = console.release(events) {
            // Whatever state it was left in, take it back.
            if let Err(e) = self.take_terminal_back() {
                tracing::error!("the terminal could not be taken back: {e}");
            }
            return Err(format!("the terminal could not be handed over: {e}"));
        }
        Ok(())
    }

    /// After the editor or a suspend: raw mode and the alternate screen again, new input, a whole
    /// new frame (the editor or the shell drew over everything), and the size, which may have
    /// changed meanwhile.
    fn take_terminal_back(&mut self) -> io::Result<()> {
        if let Some(console) = self.console.as_mut() {
            self.events = Some(console.reclaim()?);
        }
        // `resize` to the current size clears the screen and forgets the last frame, without
        // the cursor-position query `clear` makes (its answer would be read as input).
        let size = self
            .terminal
            .size()
            .map_err(|e| io::Error::other(e.to_string()))?;
        let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        self.terminal
            .resize(area)
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.dirty = true;
        if area != self.app.size {
            self.apply(Action::Resize {
                width: size.width,
                height: size.height,
            });
        }
        Ok(())
    }

    /// The next terminal event if one is ready now, without waiting. Polled with this task's
    /// real waker: a no-op waker (`now_or_never`) would be kept by crossterm's `EventStream`
    /// as the one to wake on the next key, and the loop would never hear of that key.
    async fn ready_event(&mut self) -> Option<Option<io::Result<Event>>> {
        let events = self.events.as_mut()?;
        std::future::poll_fn(|cx| match events.poll_next_unpin(cx) {
            Poll::Ready(event) => Poll::Ready(Some(event)),
            Poll::Pending => Poll::Ready(None),
        })
        .await
    }

    /// Draws a frame if state changed since the last one.
    pub fn draw(&mut self) -> io::Result<()> {
        if self.dirty {
            let app = &self.app;
            let theme = &self.theme;
            self.terminal
                .draw(|frame| crate::ui::render(frame, app, theme, chrono::Utc::now()))
                .map_err(|e| io::Error::other(e.to_string()))?;
            self.dirty = false;
            self.frames += 1;
            self.pace.drawn(tokio::time::Instant::now(), self.paced());
            if let Some(clock) = &mut self.startup {
                clock.after_draw(&self.app);
            }
        }
        Ok(())
    }

    /// Whether the next frame may be held back: it would show pages alone, taken under `L`
    /// (the last page ends `L`, and its frame is drawn at once).
    fn paced(&self) -> bool {
        self.pages_only && self.app.loading_all()
    }

    /// Applies `action` now, before the loop runs (the kept rows read at start, for the first
    /// frame); what it asks for (the store's columns for the type) is run, and the memory its
    /// page leaves free given back, once that frame is out ([`Self::finish`]). Done at once, the
    /// store opened for the columns and the heap trimmed took the CPU from the frame: on two
    /// cores, `appdeck --offline`'s first rows came 0.55 ms later (3.57 against 3.01 ms after
    /// `main`, medians of 101 runs side by side, load 1.0).
    pub(crate) fn apply_now(&mut self, action: Action) -> Applied {
        self.update_with(action)
    }

    /// Runs what [`Self::apply_now`] left.
    pub(crate) fn finish(&mut self, applied: Applied) {
        let Applied {
            commands,
            replied,
            give_back,
        } = applied;
        self.execute(commands);
        if let Some(id) = replied {
            self.executor.forget_ahead(id);
        }
        if give_back {
            // `update` took the page's rows and dropped the page: what its text took goes back
            // to the system, not to sit free under the rows that stay (`update` itself makes no
            // allocator call). Not while the next page is on its way, which reuses it: under
            // `L`, once at the end.
            crate::freed_memory::give_back();
        }
    }

    fn apply(&mut self, action: Action) {
        let applied = self.update_with(action);
        self.finish(applied);
    }

    /// `update` on `action`, and what is left to do after it.
    fn update_with(&mut self, action: Action) -> Applied {
        let replied = match &action {
            Action::Reply { id, delivery } => {
                self.executor.replied(*id, delivery);
                Some(*id)
            }
            _ => None,
        };
        self.app.now = std::time::Instant::now();
        if let (Action::Tick, Some(due)) = (&action, self.app.wake_at()) {
            // The timer said the deadline has come: it has, whatever the clocks' rounding (or a
            // test's paused clock) says.
            self.app.now = self.app.now.max(due);
        }
        let a_page = is_page(&action);
        let commands = self.app.update(action);
        self.pages_only = (self.pages_only || !self.dirty) && a_page;
        self.dirty = true;
        Applied {
            commands,
            replied,
            give_back: a_page && !self.executor.page_in_flight(),
        }
    }

    /// Runs commands (the app's first ones, when they had to wait for [`Self::know_types`]).
    pub(crate) fn execute(&mut self, commands: Vec<Command>) {
        let mut commands = commands.into_iter().peekable();
        while let Some(command) = commands.next() {
            // A composer's send comes right after its draft's mark, and waits for it: a store
            // that cannot take the mark holds it back, and the user is asked first.
            if let Command::DraftSending { slot, body } = command {
                match commands.next_if(|c| matches!(c, Command::Api { .. })) {
                    Some(Command::Api { id, call }) => {
                        let (marked, gate) = tokio::sync::oneshot::channel();
                        self.drafts.sending(slot, body, Some(marked));
                        self.executor.call_after(id, call, Some(gate));
                    }
                    _ => self.drafts.sending(slot, body, None),
                }
                continue;
            }
            match command {
                Command::Api { id, call }
                    if commands.next_if(|c| *c == Command::ReadAhead(id)).is_some() =>
                {
                    self.executor.call_reading_ahead(id, call);
                }
                Command::Api { id, call } => self.executor.call(id, call),
                // Taken with its request, just above.
                Command::ReadAhead(_) => {}
                Command::Cancel(id) => self.executor.cancel(id),
                Command::OpenUrl(url) => self.effects.open_url(url, self.sender.clone()),
                Command::Run { id, job } => self.executor.run(id, job),
                Command::LoadTypes { id } => self.executor.load_types(id),
                Command::ReadFile { id, path, opens } => self.executor.read_file(id, path, opens),
                Command::RecordAppVersion {
                    id,
                    base_url,
                    payload,
                } => self.executor.record_app_version(id, base_url, payload),
                Command::SwitchProfile { id, name } => self.switch_profile(id, &name),
                Command::ReadProfiles { id } => self.read_profiles(id),
                Command::EditExternally { id, text } => self.edit_externally(id, text),
                Command::Suspend => self.suspend(),
                Command::LoadDraft { id, subject } => self.drafts.load(id, subject),
                Command::SaveDraft { id, slot, body } => self.drafts.save(id, slot, body),
                Command::RemoveDraft(slot) => self.drafts.remove(slot, false),
                Command::DraftSending { slot, body } => self.drafts.sending(slot, body, None),
                Command::DraftSent(slot) => self.drafts.remove(slot, true),
                Command::LoadHistory { id, limit } => self.executor.load_history(id, limit),
                Command::LoadReportsAbout { id, about, limit } => {
                    self.executor.load_reports_about(id, about, limit)
                }
                Command::ListDrafts { id } => self.drafts.list(id),
                Command::RecordSend { id, sent } => self.executor.record_send(id, sent),
                Command::KeepUnsaved(work) => {
                    // appdeck is quitting: written now, before the loop ends.
                    let mut dirs: Vec<std::path::PathBuf> = self.drafts.dir().into_iter().collect();
                    dirs.push(std::env::temp_dir());
                    self.kept.push(super::kept::keep(&work, &dirs));
                }
                Command::LoadColumns { id, type_key } => self.executor.load_columns(id, type_key),
                Command::LoadKeptListing { id, type_filter } => {
                    if let Some(keeper) = &self.listing_keeper {
                        keeper.load(id, type_filter);
                    }
                }
                Command::KeepListing {
                    type_filter,
                    rows,
                    from_start,
                } => {
                    if let Some(keeper) = &self.listing_keeper {
                        keeper.keep(type_filter, rows, from_start);
                    }
                }
                Command::WriteBodies(bodies) => self.executor.write_bodies(bodies),
                Command::SaveColumns { type_key, spec } => {
                    self.executor.save_columns(type_key, spec)
                }
                Command::Copy(text) => {
                    if let Err(e) = self.effects.copy(&text) {
                        let notice = Notice::Error(format!("could not copy: {e}"));
                        let _ = self.sender.send(Action::Notice(notice));
                    }
                }
            }
        }
    }

    /// `:profile NAME`: resolved on a blocking thread, since it reads the config file and a
    /// token file (bounded reads, but a slow disk must not freeze the keys either).
    fn switch_profile(&mut self, id: RequestId, name: &str) {
        let Some(switcher) = self.profiles.clone() else {
            let _ = self.sender.send(Action::Notice(Notice::Error(
                "no profile to switch to here (--demo has its own sandbox)".to_owned(),
            )));
            return;
        };
        let owned = name.to_owned();
        let resolving = tokio::task::spawn_blocking(move || switcher.resolve(&owned));
        self.switching = Some((id, name.to_owned(), resolving));
    }

    /// The config file's profile names as they are now, read on a blocking thread (none under
    /// `--demo`, which has no profile to switch to).
    fn read_profiles(&self, id: RequestId) {
        let sender = self.sender.clone();
        let Some(switcher) = self.profiles.clone() else {
            let _ = sender.send(Action::reply(id, Delivery::ProfileNames(Ok(Vec::new()))));
            return;
        };
        tokio::task::spawn_blocking(move || {
            let names = switcher.profile_names().map_err(|e| e.to_string());
            let _ = sender.send(Action::reply(id, Delivery::ProfileNames(names)));
        });
    }

    /// The client and the known types' sources follow the resolved profile, then the app hears
    /// of it; or it hears why not, and keeps the service it had.
    fn profile_resolved(
        &mut self,
        id: RequestId,
        name: &str,
        resolved: Result<Switched, String>,
    ) -> Action {
        match resolved {
            Ok(switched) => {
                tracing::info!(profile = name, "switched profile");
                self.executor.set_client(switched.client);
                self.executor.know_types(switched.types);
                // Saves asked for before this point (the closing composer's) keep the old base URL.
                self.drafts.follow(&switched.switch.base_url);
                if let Some(keeper) = &self.listing_keeper {
                    keeper.follow(switched.keep);
                }
                Action::reply(id, Delivery::ProfileSwitched(Ok(Box::new(switched.switch))))
            }
            // The old service stays in use; the app reloads what the switch had cancelled.
            Err(message) => Action::reply(id, Delivery::ProfileSwitched(Err(message))),
        }
    }

    /// Turns a terminal event into an action; `None` for events that change nothing (so they
    /// cause no redraw).
    fn map_event(&self, event: Event) -> Option<Action> {
        tracing::trace!(?event, "terminal event");
        match event {
            Event::Key(key) => action_for(self.app.focus(), key),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::ScrollUp => Some(Action::Scroll(Toward::Previous)),
                MouseEventKind::ScrollDown => Some(Action::Scroll(Toward::Next)),
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
                    column: mouse.column,
                    row: mouse.row,
                }),
                _ => None,
            },
            Event::Resize(width, height) => Some(Action::Resize { width, height }),
            Event::Paste(text) if self.app.focus().is_typing() => Some(Action::InsertText(text)),
            _ => None,
        }
    }

    /// Background requests the loop still waits for.
    pub fn in_flight(&self) -> usize {
        self.executor.in_flight()
    }

    /// Background request tasks that still exist (a cancelled one is gone once really aborted).
    pub fn requests_alive(&self) -> usize {
        self.executor.alive()
    }
}

/// The next terminal event; never, while the terminal is lent out.
async fn next_event<E>(events: &mut Option<E>) -> Option<io::Result<Event>>
where
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    match events {
        Some(events) => events.next().await,
        None => std::future::pending().await,
    }
}

/// The answer of the profile being resolved; never, when none is.
async fn profile_resolved(switching: &mut Option<ProfileResolution>) -> Result<Switched, String> {
    match switching {
        Some((_, _, resolving)) => resolving
            .await
            .unwrap_or_else(|e| Err(format!("the profile could not be read: {e}"))),
        None => std::future::pending().await,
    }
}

/// Sleeps until `deadline`; for ever without one.
async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Whether `action` brings a page of a listing (the list's, a look's, a reload's).
fn is_page(action: &Action) -> bool {
    matches!(action, Action::Reply { delivery: Delivery::Api(reply), .. }
        if matches!(reply.result, Ok(crate::api::Reply::Page(_))))
}

#[cfg(test)]
mod tests {
    use super::super::frame_pace::PAGE_FRAME_GAP;
    use super::*;
    use crate::api::{ClientSettings, Exchange, ListResponse, Reply, Token};
    use crate::app::Session;
    use ratatui::backend::TestBackend;
    use ratatui::layout::Rect;
    use serde_json::json;
    use std::time::Duration;

    type Loop = EventLoop<TestBackend, futures_util::stream::Pending<io::Result<Event>>>;

    /// The list's page `number` of 10 rows, naming the next.
    fn page(number: usize) -> Box<Exchange> {
        let rows: Vec<_> = (0..10)
            .map(|i| json!({"id": format!("r{number}-{i}"), "type": "repo", "name": "row"}))
            .collect();
        let next = format!("c{}", number + 1);
        let page = ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap();
        Box::new(Exchange::local(Ok(Reply::page(page))))
    }

    /// Answers the list's page request in flight with page `number`, and runs one step.
    async fn take_page(event_loop: &mut Loop, number: usize) {
        let id = event_loop
            .app
            .browser
            .in_flight()
            .expect("a page asked for");
        let _ = event_loop.sender.send(Action::reply(id, page(number)));
        assert!(event_loop.step().await.unwrap());
    }

    fn screen(event_loop: &Loop) -> String {
        event_loop.terminal.backend().to_string()
    }

    /// `L`: a frame for pages alone within [`PAGE_FRAME_GAP`] of the last is held back, and drawn by its deadline with nothing else coming (tokio's clock
    /// paused: it moves only while the loop waits). A key meanwhile is drawn at once.
    #[tokio::test]
    async fn under_load_all_a_frame_held_back_is_drawn_by_its_deadline() {
        // A server that takes requests and never answers: the test answers in their place.
        let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let settings = ClientSettings::new(
            format!("http://{}", silent.local_addr().unwrap()),
            Token::new("t"),
        );
        let size = Rect::new(0, 0, 100, 30);
        let session = Session {
            origin: "test".into(),
            host: "test".into(),
            warnings: Vec::new(),
        };
        let (app, initial) = App::new(session, size, Some(10));
        let terminal = Terminal::new(TestBackend::new(size.width, size.height)).unwrap();
        let mut event_loop: Loop = EventLoop::new(
            terminal,
            app,
            initial,
            futures_util::stream::pending(),
            Client::new(&settings).unwrap(),
            Box::new(crate::RecordedEffects::default()),
        );
        event_loop.draw().unwrap();
        // The known types, loaded from the start: then nothing comes but what the test sends.
        let settled = tokio::time::timeout(Duration::from_secs(10), async {
            while event_loop.app.known_types.is_none() {
                assert!(event_loop.step().await.unwrap());
            }
        });
        assert!(settled.await.is_ok(), "the known types never came");
        tokio::time::pause();
        take_page(&mut event_loop, 1).await;
        let _ = event_loop.sender.send(Action::LoadAll);
        assert!(event_loop.step().await.unwrap());
        while event_loop.app.browser.rows().len() < 40 {
            let number = event_loop.app.browser.rows().len() / 10 + 1;
            take_page(&mut event_loop, number).await;
        }
        // Pages 2 to 4 came within one instant: the first was drawn, the others held back.
        assert!(!screen(&event_loop).contains("40 loaded"));
        let (frames, paused) = (event_loop.frames, tokio::time::Instant::now());
        let waited = tokio::time::timeout(Duration::from_secs(3600), event_loop.step()).await;
        assert!(waited.is_ok(), "the frame held back was never drawn");
        assert!(
            // The timer's own rounding (a millisecond) aside.
            paused.elapsed() < PAGE_FRAME_GAP * 2,
            "drawn after {:?}",
            paused.elapsed()
        );
        assert_eq!(event_loop.frames, frames + 1);
        assert!(
            screen(&event_loop).contains("40 loaded"),
            "{}",
            screen(&event_loop)
        );
        // A page held back again, then a key: drawn at once, the page with it.
        take_page(&mut event_loop, 5).await;
        assert!(!screen(&event_loop).contains("50 loaded"));
        let _ = event_loop.sender.send(Action::Move(crate::app::Move::Down));
        assert!(event_loop.step().await.unwrap());
        assert!(screen(&event_loop).contains("50 loaded"));
        tokio::time::resume();
    }
}
