//! `:profile` through `App::update`: it cancels what is in flight, asks the runtime to switch,
//! and once switched the status bar, the composers' base URL, the read-only flag, the list and
//! the known types follow the new profile.

use crate::app::Delivery;
use crate::app::harness::press;
use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::json;

use crate::api::{Exchange, ListResponse, Operation, Reply};
use crate::app::{Action, App, Command, Notice, ProfileSwitch, RequestId, Session};
use crate::config::ReadOnly;

/// Types `:line` and returns the commands of the Enter that runs it.
fn run_line(app: &mut App, line: &str) -> Vec<Command> {
    press(app, KeyCode::Char(':'));
    for c in line.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter)
}

fn list_request(commands: &[Command]) -> Option<RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, call } if call.operation == Operation::ResourcesList => Some(*id),
        _ => None,
    })
}

fn page(names: &[&str]) -> Box<Exchange> {
    let rows: Vec<_> = names
        .iter()
        .map(|n| json!({"id": n, "type": "team", "name": n}))
        .collect();
    let page = ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap();
    Box::new(Exchange::local(Ok(Reply::page(page))))
}

/// An app on profile `dev` whose first page is still in flight; returns its request id.
fn starting() -> (App, RequestId) {
    let session = Session {
        origin: "dev".into(),
        host: "dev.example:8080".into(),
        warnings: Vec::new(),
    };
    let (mut app, commands) = App::new(session, Rect::new(0, 0, 100, 30), None);
    app.profiles = vec!["dev".into(), "prod".into()];
    let id = list_request(&commands).expect("the first page");
    (app, id)
}

/// The profile the last command asks to switch to, if it does.
fn switch_asked(commands: &[Command]) -> Option<&str> {
    match commands.last() {
        Some(Command::SwitchProfile { name, .. }) => Some(name),
        _ => None,
    }
}

fn names(app: &App) -> Vec<String> {
    app.browser
        .rows()
        .iter()
        .filter_map(|r| r.id().map(|id| id.to_string()))
        .collect()
}

#[test]
fn profile_cancels_what_is_in_flight_then_the_list_follows_the_new_service() {
    let (mut app, first) = starting();
    let commands = run_line(&mut app, "profile prod");
    assert!(
        commands.contains(&Command::Cancel(first)),
        "the page in flight is cancelled: {commands:?}"
    );
    assert_eq!(switch_asked(&commands), Some("prod"), "{commands:?}");
    assert!(
        list_request(&commands).is_none(),
        "nothing asked of the old service"
    );

    // The cancelled page arriving late is dropped: it belongs to the old service.
    app.update(Action::reply(first, page(&["old-row"])));
    assert!(names(&app).is_empty(), "{:?}", names(&app));

    let commands = app.update(Action::reply(
        RequestId(1),
        Delivery::ProfileSwitched(Ok(Box::new(ProfileSwitch {
            session: Session {
                origin: "prod".into(),
                host: "prod.example".into(),
                warnings: Vec::new(),
            },
            base_url: "https://prod.example/api/v1".into(),
            read_only: Some(ReadOnly::Profile("prod".into())),
        }))),
    ));
    assert_eq!(app.session.origin, "prod");
    assert_eq!(app.report.base_url, "https://prod.example/api/v1");
    assert_eq!(app.read_only, Some(ReadOnly::Profile("prod".into())));
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::LoadTypes { .. })),
        "the known types load again for the new base URL: {commands:?}"
    );
    let reload = list_request(&commands).expect("the list reloads");
    app.update(Action::reply(reload, page(&["prod-row"])));
    assert_eq!(names(&app), vec!["prod-row"]);
}

#[test]
fn profile_closes_open_screens_and_cancels_their_requests_too() {
    let (mut app, first) = starting();
    app.update(Action::reply(first, page(&["a", "b"])));
    let opened = press(&mut app, KeyCode::Enter);
    assert!(app.stack.top().is_some(), "a resource is open");
    let commands = run_line(&mut app, "profile prod");
    assert!(app.stack.top().is_none(), "back on the list");
    for asked in opened.iter().filter_map(Command::request_id) {
        assert!(
            commands.contains(&Command::Cancel(asked)),
            "{asked:?} cancelled: {commands:?}"
        );
    }
}

/// The config file is read again for a name the start did not know; still unknown, the profiles
/// it defines are named.
fn profile_looked_up(app: &mut App, line: &str, names: &[&str]) -> Vec<Command> {
    let commands = run_line(app, line);
    let [Command::ReadProfiles { id }] = commands.as_slice() else {
        panic!("the config file read again: {commands:?}");
    };
    let names = names.iter().map(|n| n.to_string()).collect();
    app.update(Action::reply(*id, Delivery::ProfileNames(Ok(names))))
}

#[test]
fn an_unknown_profile_names_the_known_ones_and_profile_alone_lists_them() {
    let (mut app, _) = starting();
    let commands = profile_looked_up(&mut app, "profile staging", &["dev", "prod"]);
    assert!(commands.is_empty(), "{commands:?}");
    let Some(Notice::Error(message)) = &app.notice else {
        panic!("{:?}", app.notice);
    };
    assert_eq!(
        message,
        "unknown profile \"staging\"; the profiles: dev, prod"
    );
    assert_eq!(app.session.origin, "dev");

    run_line(&mut app, "profile");
    assert_eq!(
        app.notice,
        Some(Notice::Info("the profiles: dev, prod (now: dev)".into()))
    );
}

/// A profile added to the config file while appdeck runs can be switched to (`:profile` said
/// "unknown profile", the file being read only at the start).
#[test]
fn a_profile_added_to_the_config_file_since_the_start_is_switched_to() {
    let (mut app, _) = starting();
    let commands = profile_looked_up(&mut app, "profile staging", &["dev", "prod", "staging"]);
    assert_eq!(switch_asked(&commands), Some("staging"));
    assert_eq!(app.profiles, ["dev", "prod", "staging"]);
    // A name known already goes at once.
    let (mut app, _) = starting();
    assert_eq!(
        switch_asked(&run_line(&mut app, "profile prod")),
        Some("prod")
    );
}

#[test]
fn tab_completes_profile_names() {
    let (mut app, _) = starting();
    press(&mut app, KeyCode::Char(':'));
    for c in "profile p".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Tab);
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(switch_asked(&commands), Some("prod"));
}

fn switched_to_prod() -> Action {
    Action::reply(
        RequestId(1),
        Delivery::ProfileSwitched(Ok(Box::new(ProfileSwitch {
            session: Session {
                origin: "prod".into(),
                host: "prod.example".into(),
                warnings: Vec::new(),
            },
            base_url: "https://prod.example/api/v1".into(),
            read_only: None,
        }))),
    )
}

#[test]
fn a_composers_pending_draft_is_saved_before_the_switch_is_asked_for() {
    let (mut app, first) = starting();
    app.update(Action::reply(first, page(&["a"])));
    press(&mut app, KeyCode::Char('R'));
    assert!(app.stack.top().is_some(), "the composer is open");
    // Space toggles the status: a change not saved yet.
    press(&mut app, KeyCode::Char(' '));
    let commands = run_line(&mut app, "profile prod");
    let save = commands
        .iter()
        .position(|c| matches!(c, Command::SaveDraft { slot, .. } if slot.subject.subject == "a"))
        .unwrap_or_else(|| panic!("the pending draft is saved: {commands:?}"));
    let switch = commands
        .iter()
        .position(|c| matches!(c, Command::SwitchProfile { name, .. } if name == "prod"))
        .expect("the switch is asked for");
    // The runtime runs commands in order: the save is keyed under the old base URL before the
    // drafts follow the new one (tui::drafts::Drafts::follow).
    assert!(save < switch, "{commands:?}");
}

#[test]
fn known_types_asked_of_the_old_profile_do_not_overwrite_the_new_ones() {
    let (mut app, _) = starting();
    let old_load = RequestId(2);
    let commands = app.update(switched_to_prod());
    let new_load = commands
        .iter()
        .find_map(|c| match c {
            Command::LoadTypes { id } => Some(*id),
            _ => None,
        })
        .expect("the types load again");
    assert!(old_load < new_load);
    let types = |name: &str| {
        std::sync::Arc::new(crate::app::KnownTypes {
            catalog: Default::default(),
            problems: vec![name.to_owned()],
        })
    };
    app.update(Action::reply(new_load, Delivery::Types(types("prod"))));
    app.update(Action::reply(old_load, Delivery::Types(types("dev, late"))));
    assert_eq!(app.known_types.as_ref().unwrap().problems, ["prod"]);
}

#[test]
fn a_failed_switch_reloads_the_list_from_the_service_still_in_use() {
    let (mut app, first) = starting();
    app.update(Action::reply(first, page(&["a"])));
    run_line(&mut app, "profile prod");
    let failed = Err("cannot switch to profile \"prod\": no base URL".into());
    let commands = app.update(Action::reply(
        RequestId(1),
        Delivery::ProfileSwitched(failed),
    ));
    let reload = list_request(&commands).expect("the list loads again");
    let Some(Notice::Error(text)) = &app.notice else {
        panic!("an error notice: {:?}", app.notice);
    };
    assert!(
        text.contains("no base URL; still on profile dev (dev.example:8080)"),
        "{text}"
    );
    app.update(Action::reply(reload, page(&["a", "b"])));
    assert_eq!(names(&app), vec!["a", "b"]);
    assert_eq!(app.session.origin, "dev");
}
