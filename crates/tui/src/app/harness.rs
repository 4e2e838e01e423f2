//! The one test harness for the app, used by its unit tests and by the integration tests in
//! `tests/`: keys go in as the event loop sends them (through the keymap of whatever has the
//! focus), the commands they produce come back, and the screen is drawn on a `TestBackend` at
//! the app's size. A change to how keys reach `update` or how a frame is drawn is made here once.

use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::action::{Action, Delivery, RequestId};
use super::keymap::action_for;
use super::{App, Command, Notice};
use crate::ui::theme::Theme;

/// A key with modifiers, as the event loop maps it: `None` when nothing is bound to it where the
/// focus is (so a test can tell "unbound" from "bound, did nothing").
pub fn press_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Option<Vec<Command>> {
    action_for(app.focus(), KeyEvent::new(code, modifiers)).map(|action| app.update(action))
}

/// A key without modifiers; an unbound key gives no commands.
pub fn press(app: &mut App, code: KeyCode) -> Vec<Command> {
    press_with(app, code, KeyModifiers::NONE).unwrap_or_default()
}

/// The request id of the first API call among `commands` (a page asked for, a report sent).
pub fn api_request(commands: &[Command]) -> Option<super::RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, .. } => Some(*id),
        _ => None,
    })
}

/// A character key.
pub fn key(app: &mut App, c: char) -> Vec<Command> {
    press(app, KeyCode::Char(c))
}

/// `Ctrl` and a character.
pub fn ctrl(app: &mut App, c: char) -> Vec<Command> {
    press_with(app, KeyCode::Char(c), KeyModifiers::CONTROL).unwrap_or_default()
}

/// Each character of `text` typed as a key, as a person would (in an input, or as commands).
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, c);
    }
}

/// Types `text`, each key's background jobs run ([`settle`]): the `/` search answers by a job.
pub fn type_settled(app: &mut App, text: &str) {
    for c in text.chars() {
        key_settled(app, c);
    }
}

/// The id of the request for a page of the list among `commands`, if one was made.
pub fn page_request(commands: &[Command]) -> Option<RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, call } if call.as_list_request().is_some() => Some(*id),
        _ => None,
    })
}

/// Runs the background jobs `commands` ask for, as the executor would, and feeds their replies
/// back (and the jobs those ask for, and so on): every command seen, in order.
pub fn settle(app: &mut App, commands: Vec<Command>) -> Vec<Command> {
    let mut all = commands.clone();
    for command in commands {
        match command {
            Command::Run { id, job } => {
                let more = app.update(Action::reply(id, Delivery::Job(job.run())));
                all.extend(settle(app, more));
            }
            Command::WriteBodies(bodies) => bodies.write_due(),
            _ => {}
        }
    }
    all
}

/// Writes the rows' JSON `commands` hand to the runtime to write (as the executor would):
/// for benches whose memory is the process's as it runs.
pub fn write_bodies(commands: &[Command]) {
    for command in commands {
        if let Command::WriteBodies(bodies) = command {
            bodies.write_due();
        }
    }
}

/// A key, then its background jobs run ([`settle`]): for panes whose checks run as jobs.
pub fn press_settled(app: &mut App, code: KeyCode) -> Vec<Command> {
    let commands = press(app, code);
    settle(app, commands)
}

/// A character key, then its background jobs run ([`settle`]).
pub fn key_settled(app: &mut App, c: char) -> Vec<Command> {
    press_settled(app, KeyCode::Char(c))
}

/// The frame the app draws at its size with `theme`, "now" being `now` (for "3 hours ago").
pub fn draw(app: &App, theme: &Theme, now: DateTime<Utc>) -> TestBackend {
    let mut terminal =
        Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("a test terminal");
    terminal
        .draw(|frame| crate::ui::render(frame, app, theme, now))
        .expect("a frame");
    terminal.backend().clone()
}

/// Line `y` of a drawn frame, as text.
pub fn line(screen: &TestBackend, y: u16) -> String {
    let buffer = screen.buffer();
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

/// The background jobs among `commands`, to run when and in the order a test needs.
pub fn jobs(commands: &[Command]) -> Vec<(RequestId, super::job::Work)> {
    (commands.iter())
        .filter_map(|c| match c {
            Command::Run { id, job } => Some((*id, job.clone())),
            _ => None,
        })
        .collect()
}

/// Runs one job and hands its answer back (not the jobs that asks for: see [`settle`]).
pub fn answer(app: &mut App, (id, job): &(RequestId, super::job::Work)) -> Vec<Command> {
    app.update(Action::reply(*id, Delivery::Job(job.run())))
}

/// What the status bar says, whether news or an error.
pub fn status(app: &App) -> String {
    match &app.notice {
        Some(Notice::Info(text) | Notice::Error(text)) => text.clone(),
        None => String::new(),
    }
}

/// `R`: the report composer opens; what the status bar says as it does (a warning, if any).
pub fn report_opened(app: &mut App) -> String {
    key(app, 'R');
    assert!(
        matches!(app.stack.top(), Some(super::pane::Screen::Report(_))),
        "the composer opens"
    );
    status(app)
}
