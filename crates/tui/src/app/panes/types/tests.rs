//! The types view driven through `App::update`, as the event loop would: keys in, state and
//! commands out.

use crate::app::Delivery;
use crate::app::harness::{api_request, press};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::{KnownTypes, TypesView};
use crate::api::{Exchange, ListResponse, Reply};
use crate::app::pane::Screen;
use crate::app::panes::type_detail::{OpenType, TypeDetail, TypePart};
use crate::app::{Action, App, Command, RequestId, Session};
use crate::catalog::{self, AppVersion, Catalog, Source};

/// The demo's types, and an older `repository` (1.0.0, from a file) and a `widget` type.
pub(crate) fn known() -> Arc<KnownTypes> {
    let older = json!({"app_id": "acme", "version": "1.0.0", "resources": [
        {"type": "repository", "display_name": "Repo (old)", "actions": []},
        {"type": "widget", "display_name": "Widget \u{1b}[31mred", "list_supported": true,
         "description": "desc \u{1b}]0;x\u{7}",
         "property_json_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    ]});
    let Value::Object(map) = older else { panic!() };
    let at = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let file = AppVersion::from_payload(map, Source::File("old.json".into()), Some(at));
    let mut demo = catalog::demo();
    demo.recorded_at = Some(at + chrono::Duration::days(1));
    Arc::new(KnownTypes {
        catalog: Catalog::from_versions(vec![file, demo]),
        problems: Vec::new(),
    })
}

fn chars(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// A 120x40 app whose list loaded 3 repositories, 1 incident and 2 `mystery` rows, and whose
/// known types have arrived.
fn app() -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let id = api_request(&commands).unwrap();
    let rows: Vec<Value> = [
        "repository",
        "repository",
        "incident",
        "mystery",
        "repository",
        "mystery",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| json!({"id": format!("r{i}"), "type": t}))
    .collect();
    let page = ListResponse::from_value(json!({"resources": rows})).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    app.update(Action::reply(RequestId(999), Delivery::Types(known())));
    app
}

fn view(app: &App) -> &TypesView {
    match app.stack.top() {
        Some(Screen::Types(view)) => view,
        _ => panic!("the types view is not on top"),
    }
}

pub(crate) fn detail(app: &App) -> &TypeDetail {
    match app.stack.top() {
        Some(Screen::TypeDetail(detail)) => detail,
        _ => panic!("no type detail on top"),
    }
}

#[test]
fn the_known_types_load_from_the_start_and_two_opens_the_view_at_once() {
    let (_, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::LoadTypes { .. }))
    );
    let mut app = app();
    assert!(
        press(&mut app, KeyCode::Char('2')).is_empty(),
        "nothing to wait for"
    );
    let v = view(&app);
    let names: Vec<&str> = v.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "dashboard",
            "deployment",
            "incident",
            "repository",
            "service_account",
            "widget",
            "mystery"
        ]
    );
    let row = |name: &str| v.rows.iter().find(|r| r.name == name).unwrap();
    assert_eq!(row("repository").loaded, 3);
    assert_eq!(row("incident").loaded, 1);
    assert_eq!(row("deployment").loaded, 0);
    assert_eq!(row("repository").app_version, "acme-devtools 1.4.0 +1");
    assert_eq!(row("repository").source, "demo");
    assert_eq!(row("repository").capabilities, "LRCUDH");
    assert_eq!(row("repository").actions, Some(2));
    assert_eq!(row("dashboard").capabilities, "LR----");
    assert_eq!(row("mystery").known, None);
    assert_eq!(row("mystery").display_name, catalog::NO_DEFINITION);
    assert_eq!(row("mystery").loaded, 2);
    assert!(
        !row("widget").display_name.contains('\u{1b}'),
        "payload text is neutralised"
    );
    // `2` again, or `:types`, does not stack a second view.
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(app.stack.layers().len(), 1);
    press(&mut app, KeyCode::Char('1'));
    assert!(app.stack.top().is_none(), "1 goes back to the list");
}

#[test]
fn before_the_types_arrive_the_view_asks_and_takes_its_answer() {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let commands = press(&mut app, KeyCode::Char('2'));
    let [Command::LoadTypes { id }] = commands.as_slice() else {
        panic!("expected a load, got {commands:?}")
    };
    assert!(view(&app).known.is_none());
    assert!(app.activity().unwrap().contains("loading the known types"));
    app.update(Action::reply(*id, Delivery::Types(known())));
    assert_eq!(view(&app).rows.len(), 6);
    assert!(app.known_types.is_some(), "kept for the next time");
}

#[test]
fn slash_filters_as_you_type_and_esc_clears_then_goes_back() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    press(&mut app, KeyCode::Char('/'));
    chars(&mut app, "dep");
    assert_eq!(view(&app).list.visible.len(), 1);
    assert_eq!(view(&app).selected().unwrap().name, "deployment");
    chars(&mut app, "zzz");
    assert!(view(&app).list.visible.is_empty());
    press(&mut app, KeyCode::Enter);
    assert!(!view(&app).list.filtering);
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        view(&app).list.visible.len(),
        7,
        "Esc clears the filter first"
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "then goes back to the list");
}

#[test]
fn enter_opens_a_type_and_b_lists_its_resources() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    chars(&mut app, "jjj"); // repository
    assert_eq!(view(&app).selected().unwrap().name, "repository");
    press(&mut app, KeyCode::Enter);
    let d = detail(&app);
    assert_eq!(d.title, "repository");
    assert_eq!(d.version, 0, "the newest definition first");
    assert_eq!(d.focus, TypePart::About);
    // `b` opens the type's resources over the type (issue 6): Esc comes back to it, and the
    // main list below is left as it was.
    let commands = press(&mut app, KeyCode::Char('b'));
    let Some(Screen::Browser(list)) = app.stack.top() else {
        panic!("a list of the type is pushed")
    };
    assert_eq!(list.type_filter.as_deref(), Some("repository"));
    assert_eq!(app.browser.type_filter, None, "the main list is untouched");
    assert_eq!(app.browser.rows().len(), 6);
    let listed = commands.iter().find_map(|c| match c {
        Command::Api { call, .. } => call.as_list_request(),
        _ => None,
    });
    assert_eq!(listed.unwrap().resource_type.as_deref(), Some("repository"));
    // Its page reaches it (not the main list), then Esc goes back to the type.
    let id = api_request(&commands).unwrap();
    let page = ListResponse::from_value(json!({"resources": [{"id": "x", "type": "repository"}]}))
        .unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    let Some(Screen::Browser(list)) = app.stack.top() else {
        panic!()
    };
    assert_eq!(list.rows().len(), 1);
    assert_eq!(app.browser.rows().len(), 6);
    press(&mut app, KeyCode::Esc);
    assert_eq!(detail(&app).title, "repository", "Esc is back on the type");
}

#[test]
fn a_name_without_definition_says_how_to_add_one() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    press(&mut app, KeyCode::Char('G'));
    assert_eq!(view(&app).selected().unwrap().name, "mystery");
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.stack.top(), Some(Screen::Types(_))),
        "nothing to open"
    );
    let Some(crate::app::Notice::Error(text)) = &app.notice else {
        panic!("expected a hint")
    };
    assert!(text.contains("--types FILE"), "{text}");
}

#[test]
fn esc_from_a_type_goes_back_to_the_types_and_two_returns_to_them() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.stack.top(), Some(Screen::TypeDetail(_))));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::Types(_))));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('2'));
    assert!(
        matches!(app.stack.top(), Some(Screen::Types(_))),
        "2 pops back to the view"
    );
    assert_eq!(app.stack.layers().len(), 1);
}

/// Issue 6: the count of loaded rows per type followed the list only when the view opened.
#[test]
fn the_counts_of_loaded_rows_follow_the_list_as_it_loads() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let first = api_request(&commands).unwrap();
    let page = |ids: std::ops::Range<usize>, t: &str, next: Option<&str>| {
        let rows: Vec<Value> = ids
            .map(|i| json!({"id": format!("r{i}"), "type": t}))
            .collect();
        Box::new(Exchange::local(Ok(Reply::page(
            ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap(),
        ))))
    };
    app.update(Action::reply(RequestId(999), Delivery::Types(known())));
    // The first page asks for the next one at once (the screen is not full).
    let more = app.update(Action::reply(first, page(0..2, "repository", Some("c2"))));
    let next = api_request(&more).expect("the next page is asked for");
    press(&mut app, KeyCode::Char('2'));
    let loaded = |app: &App, name: &str| {
        view(app)
            .rows
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.loaded)
    };
    assert_eq!(loaded(&app, "repository"), Some(2));
    assert_eq!(loaded(&app, "newcomer"), None);
    app.update(Action::reply(next, page(2..5, "newcomer", None)));
    assert_eq!(loaded(&app, "repository"), Some(2));
    assert_eq!(
        loaded(&app, "newcomer"),
        Some(3),
        "a type seen since is listed too"
    );
}

/// A 120x40 app on the types view, knowing one type `big` (300 KB of schema, laid out in the
/// background) in each of `versions`.
fn types_view_of_big(versions: &[&str]) -> App {
    let big = |version: &&str| {
        let payload = json!({"app_id": "acme", "version": version, "resources": [
            {"type": "big", "display_name": "Big", "property_json_schema": {
                "type": "object", "description": "d".repeat(300_000)}}
        ]});
        let Value::Object(map) = payload else {
            panic!()
        };
        AppVersion::from_payload(map, Source::File(format!("{version}.json").into()), None)
    };
    let known = Arc::new(KnownTypes {
        catalog: Catalog::from_versions(versions.iter().map(big).collect()),
        problems: Vec::new(),
    });
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    app.update(Action::reply(RequestId(999), Delivery::Types(known)));
    press(&mut app, KeyCode::Char('2'));
    app
}

/// The background layout `commands` ask for, done, as the runtime would deliver it.
fn laid_out(commands: Vec<Command>) -> Action {
    commands
        .into_iter()
        .find_map(|c| match c {
            Command::Run { id, job } if job.get::<OpenType>().is_some() => {
                Some(Action::reply(id, Delivery::Job(job.run())))
            }
            _ => None,
        })
        .expect("laid out in the background")
}

/// Issue 6: `v` on a large type laid its other version out on the UI thread.
#[test]
fn v_on_a_large_type_lays_the_other_version_out_in_the_background() {
    let mut app = types_view_of_big(&["1.0.0", "2.0.0"]);
    let opened = laid_out(press(&mut app, KeyCode::Enter));
    app.update(opened);
    assert_eq!(detail(&app).version, 0);
    let other = laid_out(press(&mut app, KeyCode::Char('v')));
    assert_eq!(detail(&app).version, 0, "nothing laid out on the UI thread");
    assert_eq!(
        app.activity().as_deref(),
        Some("opening the other version…")
    );
    app.update(other);
    assert_eq!(detail(&app).version, 1);
    assert!(detail(&app).opening.is_none());
    // Esc while it is being laid out cancels it; the answer is then dropped.
    let late = laid_out(press(&mut app, KeyCode::Char('v')));
    press(&mut app, KeyCode::Esc);
    app.update(late);
    assert_eq!(detail(&app).version, 1, "still the type, as it was");
}

/// The demo's types only (no `widget`): an answer to tell apart from `known()`.
fn demo_only() -> Arc<KnownTypes> {
    Arc::new(KnownTypes {
        catalog: Catalog::from_versions(vec![catalog::demo()]),
        problems: Vec::new(),
    })
}

fn names(app: &App) -> Vec<String> {
    view(app).rows.iter().map(|r| r.name.clone()).collect()
}

#[test]
fn r_twice_takes_the_answer_to_the_second_only() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    let load = |commands: Vec<Command>| match commands.as_slice() {
        [Command::LoadTypes { id }] => *id,
        other => panic!("expected a load, got {other:?}"),
    };
    let first = load(press(&mut app, KeyCode::Char('r')));
    let second = load(press(&mut app, KeyCode::Char('r')));
    app.update(Action::reply(first, Delivery::Types(demo_only())));
    assert!(
        names(&app).contains(&"widget".to_owned()),
        "{:?}",
        names(&app)
    );
    assert!(
        app.activity()
            .is_some_and(|a| a.contains("loading the known types")),
        "still waiting for the second: {:?}",
        app.activity()
    );
    app.update(Action::reply(second, Delivery::Types(demo_only())));
    assert!(!names(&app).contains(&"widget".to_owned()));
    assert_eq!(app.activity(), None);
}

/// A large type's layout that comes after `Esc` cancelled its opening is not shown.
#[test]
fn a_large_type_laid_out_after_esc_is_dropped() {
    let mut app = types_view_of_big(&["1.0.0"]);
    let late = laid_out(press(&mut app, KeyCode::Enter));
    assert_eq!(app.activity().as_deref(), Some("opening the type…"));
    press(&mut app, KeyCode::Esc);
    assert!(
        matches!(app.stack.top(), Some(Screen::Types(_))),
        "still open"
    );
    assert_ne!(app.activity().as_deref(), Some("opening the type…"));
    app.update(late);
    assert!(matches!(app.stack.top(), Some(Screen::Types(_))));
}

/// A large type laid out in the background takes back its "opening…" as it shows, and leaves a
/// notice another key said meanwhile (`y`'s copy).
#[test]
fn a_type_laid_out_takes_back_opening_but_not_another_keys_notice() {
    let status = crate::app::harness::status;
    let mut app = types_view_of_big(&["1.0.0", "2.0.0"]);
    let opened = laid_out(press(&mut app, KeyCode::Enter));
    assert!(status(&app).starts_with("opening a large type"));
    press(&mut app, KeyCode::Char('y'));
    let copied = status(&app);
    assert!(copied.starts_with("type name sent"), "{copied}");
    app.update(opened);
    assert_eq!(detail(&app).version, 0, "opened");
    assert_eq!(status(&app), copied, "the copy's notice stays");
    press(&mut app, KeyCode::Esc);
    let opened = laid_out(press(&mut app, KeyCode::Enter));
    app.update(opened);
    assert_eq!(detail(&app).version, 0, "opened");
    assert_eq!(status(&app), "", "'opening…' went with the opening");
}

#[test]
fn a_smaller_terminal_keeps_the_selected_type_in_view() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    press(&mut app, KeyCode::Char('G'));
    let selected = view(&app).list.cursor.selected;
    assert_eq!(
        (selected, view(&app).list.cursor.offset),
        (6, 0),
        "7 rows fit in 40 lines"
    );
    app.update(Action::Resize {
        width: 120,
        height: 9,
    });
    let v = view(&app);
    let height = v.list.height(crate::app::layout::screen(app.size).body);
    assert!(height < 7, "{height} rows shown");
    v.list.cursor.assert_shows(selected, height);
}

/// `R` on a list of one type opened over a type (`b`) writes a report about its row, as on the
/// main list (it said "no resource here to report on"); `Esc` comes back to that list.
#[test]
fn r_on_a_list_of_one_type_reports_on_its_row() {
    let mut app = app();
    press(&mut app, KeyCode::Char('2'));
    chars(&mut app, "jjj"); // repository
    let commands = press(&mut app, KeyCode::Char('b'));
    let id = api_request(&commands).unwrap();
    let page = ListResponse::from_value(
        json!({"resources": [{"id": "res_9", "type": "repository", "name": "nine"}]}),
    )
    .unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    press(&mut app, KeyCode::Char('R'));
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("no report opened: {:?}", app.notice);
    };
    assert!(composer.resource_text().contains("res_9"));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::Browser(_))));
}

/// Issue 20 item 7: a type the newest version of its app dropped was marked only at the end of
/// its APP VERSION cell, which a narrow screen cuts first, and not in its About pane. Its stage
/// now says `removed` (a word no screen cuts), its version says when, and so does its About.
#[test]
fn a_type_its_app_dropped_says_removed_in_its_row_and_its_about() {
    let version = |v: &str, types: Value, day: i64| {
        let Value::Object(map) = json!({"app_id": "acme", "version": v, "resources": types}) else {
            panic!()
        };
        let at = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z").unwrap();
        let at = at.with_timezone(&Utc) + chrono::Duration::days(day);
        AppVersion::from_payload(map, Source::File(format!("{v}.json").into()), Some(at))
    };
    let known = Arc::new(KnownTypes {
        catalog: Catalog::from_versions(vec![
            version("1.0.0", json!([{"type": "widget"}, {"type": "gadget"}]), 1),
            version("1.1.0", json!([{"type": "gadget"}]), 2),
        ]),
        problems: Vec::new(),
    });
    let mut app = app();
    app.update(Action::reply(RequestId(998), Delivery::Types(known)));
    app.update(Action::Resize {
        width: 80,
        height: 24,
    });
    press(&mut app, KeyCode::Char('2'));
    let row = |app: &App, name: &str| view(app).rows.iter().find(|r| r.name == name).cloned();
    let widget = row(&app, "widget").unwrap();
    assert_eq!(widget.stage, "removed");
    assert_eq!(widget.app_version, "acme 1.0.0, removed in 1.1.0");
    assert_ne!(row(&app, "gadget").unwrap().stage, "removed");
    // Drawn at 80 columns, the widget's line still says so.
    let screen = crate::app::harness::draw(&app, &crate::ui::theme::Theme::COLOR, Utc::now());
    let lines: Vec<String> = (0..24)
        .map(|y| crate::app::harness::line(&screen, y))
        .collect();
    let line = lines.iter().find(|l| l.contains("widget")).unwrap();
    assert!(line.contains("removed"), "{line}");
    chars(&mut app, "/widget");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let about = &detail(&app).about;
    let said = about.iter().find(|l| l.label == "removed").expect("said");
    assert!(said.text.starts_with("in 1.1.0"), "{}", said.text);
}
