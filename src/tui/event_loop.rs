//! The event loop: terminal events and background results become actions, `update` turns them
//! into commands, and the screen is drawn once the queue is empty — never on a timer, so an idle
//! appdeck does not wake up. Generic over the backend and the input stream, so tests drive it
//! with a `TestBackend` and scripted events.

use std::io;
use std::task::Poll;

use crossterm::event::{Event, MouseButton, MouseEventKind};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::effects::Effects;
use super::executor::Executor;
use super::startup::StartupClock;
use crate::api::Client;
use crate::app::keymap::action_for;
use crate::app::{Action, App, Command, Notice};
use crate::ui::theme::Theme;

pub struct EventLoop<B: Backend, E> {
    pub terminal: Terminal<B>,
    pub app: App,
    events: E,
    actions: UnboundedReceiver<Action>,
    sender: UnboundedSender<Action>,
    executor: Executor,
    effects: Box<dyn Effects>,
    /// Whether state changed since the last frame.
    dirty: bool,
    /// Frames drawn so far (tests and benchmarks check that idle means no frames).
    pub frames: u64,
    startup: Option<StartupClock>,
    /// How to draw: with colour or not (`NO_COLOR`), chosen once by the caller.
    pub theme: Theme,
}

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
        let mut event_loop = EventLoop {
            terminal,
            app,
            events,
            actions,
            sender,
            executor,
            effects,
            dirty: true,
            frames: 0,
            startup: None,
            theme: Theme::default(),
        };
        event_loop.execute(initial);
        event_loop
    }

    /// Logs the startup milestones, counted from `started`.
    pub fn time_startup(&mut self, started: std::time::Instant) {
        self.startup = Some(StartupClock::new(started));
    }

    /// Where the known types come from (`--types` files, the store, the demo).
    pub fn know_types(&mut self, sources: super::known_types::TypeSources) {
        self.executor.know_types(sources);
    }

    /// The store that keeps the history of sends (`None`: no data directory).
    pub fn keep_history(&mut self, store_path: Option<std::path::PathBuf>) {
        self.executor.keep_history(store_path);
    }

    /// A sender for actions from outside the loop (signal handlers).
    pub fn sender(&self) -> UnboundedSender<Action> {
        self.sender.clone()
    }

    /// Runs until the app quits or the input ends.
    pub async fn run(&mut self) -> io::Result<()> {
        self.draw()?;
        while self.step().await? {}
        Ok(())
    }

    /// Waits for the next event or result, applies it and everything else already queued, then
    /// draws if anything changed. Returns false once the app should stop.
    pub async fn step(&mut self) -> io::Result<bool> {
        let first = tokio::select! {
            event = self.events.next() => match event {
                Some(event) => Some(self.map_event(event?)),
                None => return Ok(false),
            },
            Some(action) = self.actions.recv() => Some(Some(action)),
        };
        if let Some(Some(action)) = first {
            self.apply(action);
        }
        // Drain what is already waiting, so a burst of keys or results costs one frame.
        while !self.app.should_quit {
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
        self.draw()?;
        Ok(true)
    }

    /// The next terminal event if one is ready now, without waiting. Polled with this task's
    /// real waker: a no-op waker (`now_or_never`) would be kept by crossterm's `EventStream`
    /// as the one to wake on the next key, and the loop would never hear of that key.
    async fn ready_event(&mut self) -> Option<Option<io::Result<Event>>> {
        std::future::poll_fn(|cx| match self.events.poll_next_unpin(cx) {
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
            if let Some(clock) = &mut self.startup {
                clock.after_draw(&self.app);
            }
        }
        Ok(())
    }

    fn apply(&mut self, action: Action) {
        if let Action::ApiResult { id, .. } = &action {
            self.executor.finished(*id);
        }
        let commands = self.app.update(action);
        self.dirty = true;
        self.execute(commands);
    }

    /// Runs commands (the app's first ones, when they had to wait for [`Self::know_types`]).
    pub fn execute(&mut self, commands: Vec<Command>) {
        for command in commands {
            match command {
                Command::Api { id, call } => self.executor.call(id, call),
                Command::Cancel(id) => self.executor.cancel(id),
                Command::OpenUrl(url) => self.effects.open_url(url, self.sender.clone()),
                Command::OpenDetail { id, row } => self.executor.open_detail(id, row),
                Command::LoadTypes { id } => self.executor.load_types(id),
                Command::OpenType { id, request } => self.executor.open_type(id, request),
                Command::Check { id, job } => self.executor.check(id, job),
                Command::ReadReportFile(path) => self.executor.read_report_file(path),
                Command::LoadHistory { id, limit } => self.executor.load_history(id, limit),
                Command::RecordSend(sent) => self.executor.record_send(sent),
                Command::Copy(text) => {
                    if let Err(e) = self.effects.copy(&text) {
                        let notice = Notice::Error(format!("could not copy: {e}"));
                        let _ = self.sender.send(Action::Notice(notice));
                    }
                }
            }
        }
    }

    /// Turns a terminal event into an action; `None` for events that change nothing (so they
    /// cause no redraw).
    fn map_event(&self, event: Event) -> Option<Action> {
        tracing::trace!(?event, "terminal event");
        match event {
            Event::Key(key) => action_for(self.app.focus(), key),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::ScrollUp => Some(Action::ScrollUp),
                MouseEventKind::ScrollDown => Some(Action::ScrollDown),
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

    /// Background requests still running.
    pub fn in_flight(&self) -> usize {
        self.executor.in_flight()
    }
}
