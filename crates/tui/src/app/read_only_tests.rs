//! A read-only profile through `App::update`: the composer opens and checks, the send is refused
//! with a message naming the profile, and reads (`resources.list`) go on.

use crate::app::harness::{key, press};
use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::json;

use crate::api::{Exchange, ListResponse, Operation, Reply};
use crate::app::pane::Screen;
use crate::app::panes::report::Phase;
use crate::app::{Action, App, Command, Notice, Session};
use crate::config::ReadOnly;

/// An app over one row, read-only as `read_only` says, with a report under review.
fn reviewing(read_only: Option<ReadOnly>) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.read_only = read_only;
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("the first page is asked for, read-only or not");
    let page = ListResponse::from_value(json!({"resources": [
        {"id": "r1", "type": "team", "external_id": "x1", "name": "one"}
    ], "next": null}))
    .expect("page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    key(&mut app, 'R');
    key(&mut app, 's');
    assert!(
        matches!(
            app.stack.top(),
            Some(Screen::Report(c)) if matches!(c.phase, Phase::Review { .. })
        ),
        "the composer opens and reviews under a read-only profile too"
    );
    app
}

fn writes(commands: &[Command]) -> usize {
    commands
        .iter()
        .filter(|c| matches!(c, Command::Api { call, .. } if call.operation != Operation::ResourcesList))
        .count()
}

#[test]
fn a_read_only_profile_refuses_the_send_and_names_the_profile() {
    let mut app = reviewing(Some(ReadOnly::Profile("prod".into())));
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(writes(&commands), 0, "{commands:?}");
    let Some(Notice::Error(message)) = &app.notice else {
        panic!("no refusal: {:?}", app.notice);
    };
    assert!(message.contains("\"prod\""), "{message}");
    assert!(message.contains("read-only"), "{message}");
    assert!(message.contains("not sent"), "{message}");
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer stays open");
    };
    assert!(
        matches!(composer.phase, Phase::Review { .. }),
        "the report is left under review, as it was: {:?}",
        composer.phase
    );

    // Reads are never refused: a reload still asks for the list.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    let reload = key(&mut app, 'r');
    assert!(
        reload.iter().any(|c| matches!(c,
            Command::Api { call, .. } if call.operation == Operation::ResourcesList)),
        "{reload:?}"
    );
}

#[test]
fn without_read_only_the_same_keys_send() {
    let mut app = reviewing(None);
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(writes(&commands), 1, "{commands:?}");
}
