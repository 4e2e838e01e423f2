//! The detail view driven through `App::update` as the event loop drives it: reading a value in
//! full (`v`, `Enter` on a leaf), wrapping the raw JSON (`w`), the raw JSON of the whole
//! resource (`a`), and `y` in the raw JSON.

use crate::app::Toward;
use crate::app::action::Move;
use crate::app::harness::api_request;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::raw::RawSource;
use super::{Detail, DetailPart};
use crate::api::{Exchange, ListResponse, Reply};
use crate::app::overlay::Overlay;
use crate::app::overlay::value::ValuePopup;
use crate::app::pane::Screen;
use crate::app::{Action, App, Command, Session};

/// An app of `size` with the detail of `resource` open.
fn open(resource: Value, size: (u16, u16)) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, size.0, size.1), None);
    let id = api_request(&commands).unwrap();
    let page = ListResponse::from_value(json!({ "resources": [resource] })).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    app.update(Action::Open);
    assert!(detail(&app).is_some(), "the detail is open");
    app
}

fn detail(app: &App) -> Option<&Detail> {
    match app.stack.top() {
        Some(Screen::Detail(d)) => Some(d),
        _ => None,
    }
}

fn popup(app: &App) -> Option<&ValuePopup> {
    match &app.overlay {
        Some(Overlay::Value(p)) => Some(p),
        _ => None,
    }
}

/// Focuses `pane` and puts its cursor on the first line containing `text`.
fn select(app: &mut App, pane: DetailPart, text: &str) {
    while detail(app).unwrap().focus != pane {
        app.update(Action::Pane(Toward::Next));
    }
    app.update(Action::Move(Move::Top));
    for _ in 0..200 {
        let d = detail(app).unwrap();
        let at = d.cursor(pane).selected;
        let line = match pane {
            DetailPart::Tree => d.tree.lines()[at].label.clone(),
            DetailPart::Raw => d.raw().lines()[at].clone(),
            DetailPart::Fields => d.fields[at].label.clone(),
        };
        if line.contains(text) {
            return;
        }
        app.update(Action::Move(Move::Down));
    }
    panic!("no line with {text}");
}

fn long() -> String {
    format!("start {} end", "lorem ipsum ".repeat(200))
}

fn resource() -> Value {
    json!({
        "id": "r1", "type": "repository", "display_name": "Alpha",
        "properties": {"description": long(), "owner": {"name": "Zoë", "team": "core"},
                        "evil": "\u{1b}]0;pwned\u{7}"},
        "x_extra": 1
    })
}

#[test]
fn enter_on_a_leaf_of_the_tree_shows_the_value_whole_and_y_copies_it() {
    let mut app = open(resource(), (80, 24));
    select(&mut app, DetailPart::Tree, "description");
    app.update(Action::Open);
    let p = popup(&app).expect("Enter on a leaf opens the value");
    assert_eq!(p.title, "properties/description");
    let rows: Vec<&str> = (0..p.row_count()).filter_map(|r| p.row(r)).collect();
    assert_eq!(rows.concat(), long(), "every character, wrapped");
    // It scrolls to the end, and y copies the value as it came.
    app.update(Action::Move(Move::Bottom));
    let p = popup(&app).unwrap();
    assert!(p.scroll > 0 && p.row(p.row_count() - 1).unwrap().ends_with(" end"));
    assert_eq!(app.update(Action::Copy), vec![Command::Copy(long())]);
    assert!(popup(&app).is_some(), "y leaves the popup open");
    app.update(Action::Back);
    assert!(
        popup(&app).is_none() && detail(&app).is_some(),
        "Esc closes it only"
    );
}

#[test]
fn enter_on_a_node_still_folds_it_and_v_shows_it_as_pretty_json() {
    let mut app = open(resource(), (80, 24));
    select(&mut app, DetailPart::Tree, "owner");
    let before = detail(&app).unwrap().tree.lines().len();
    app.update(Action::Open);
    assert!(popup(&app).is_none());
    assert!(
        detail(&app).unwrap().tree.lines().len() < before,
        "collapsed"
    );
    app.update(Action::ShowValue);
    let p = popup(&app).unwrap();
    assert_eq!(p.title, "properties/owner");
    assert_eq!(
        p.text,
        serde_json::to_string_pretty(&json!({"name": "Zoë", "team": "core"})).unwrap()
    );
}

#[test]
fn server_text_in_the_popup_is_neutralised() {
    let mut app = open(resource(), (80, 24));
    select(&mut app, DetailPart::Tree, "evil");
    app.update(Action::ShowValue);
    let p = popup(&app).unwrap();
    let rows: Vec<&str> = (0..p.row_count()).filter_map(|r| p.row(r)).collect();
    assert!(
        rows.iter().all(|r| !r.chars().any(char::is_control)),
        "{rows:?}"
    );
}

#[test]
fn y_and_v_in_the_raw_json_reach_the_value_a_line_belongs_to_never_a_lone_brace() {
    let mut app = open(resource(), (120, 40));
    // The line closing `owner`.
    select(&mut app, DetailPart::Raw, "\"team\"");
    app.update(Action::Move(Move::Down));
    assert_eq!(
        detail(&app).unwrap().raw().lines()[detail(&app).unwrap().cursor(DetailPart::Raw).selected]
            .trim(),
        "},"
    );
    let owner = json!({"name": "Zoë", "team": "core"}).to_string();
    assert_eq!(app.update(Action::Copy), vec![Command::Copy(owner.clone())]);
    // The line opening it gives the same; a scalar's line gives the scalar as it came.
    select(&mut app, DetailPart::Raw, "\"owner\"");
    assert_eq!(app.update(Action::Copy), vec![Command::Copy(owner)]);
    select(&mut app, DetailPart::Raw, "\"description\"");
    assert_eq!(app.update(Action::Copy), vec![Command::Copy(long())]);
    app.update(Action::Open);
    assert_eq!(popup(&app).unwrap().title, "properties/description");
}

#[test]
fn w_wraps_the_raw_json_and_the_selected_line_stays_in_view() {
    let many: serde_json::Map<String, Value> = (0..30)
        .map(|i| {
            (
                format!("k{i:02}"),
                json!(format!("{i} {}", "word ".repeat(30))),
            )
        })
        .collect();
    let mut app = open(json!({"id": "w", "properties": many}), (120, 40));
    select(&mut app, DetailPart::Raw, "k00");
    let body = crate::app::layout::screen(app.size).body;
    let height = detail(&app).unwrap().pane_height(DetailPart::Raw, body);
    app.update(Action::ToggleWrap);
    assert!(detail(&app).unwrap().raw_wrap);
    // Each value line wraps to three rows or so: going down a few lines scrolls already.
    for _ in 0..height / 2 {
        app.update(Action::Move(Move::Down));
    }
    let d = detail(&app).unwrap();
    let cursor = d.cursor(DetailPart::Raw);
    let width = d.raw_text_width(body);
    let above: usize = (cursor.offset..cursor.selected)
        .map(|l| d.raw_rows(l, width, height))
        .sum();
    assert!(cursor.offset > 0, "scrolled: {cursor:?}");
    assert!(above < height, "the selected line's first row is in view");
    app.update(Action::ToggleWrap);
    assert!(!detail(&app).unwrap().raw_wrap, "w again cuts");
}

#[test]
fn a_switches_the_raw_json_to_the_whole_resource_on_the_same_value() {
    let mut app = open(resource(), (120, 40));
    select(&mut app, DetailPart::Raw, "\"team\"");
    app.update(Action::ToggleRawSource);
    let d = detail(&app).unwrap();
    assert_eq!(
        (d.focus, d.raw_source),
        (DetailPart::Raw, RawSource::Resource)
    );
    let at = d.cursor(DetailPart::Raw).selected;
    assert_eq!(d.raw().pointer(at), Some("/properties/owner/team"));
    assert!(d.raw().lines().iter().any(|l| l.contains("\"x_extra\": 1")));
    assert!(
        d.raw()
            .lines()
            .iter()
            .any(|l| l.contains("\"display_name\""))
    );
    // From a field outside the properties, back to the top of the properties.
    select(&mut app, DetailPart::Raw, "\"x_extra\"");
    assert_eq!(app.update(Action::Copy), vec![Command::Copy("1".into())]);
    app.update(Action::ToggleRawSource);
    let d = detail(&app).unwrap();
    assert_eq!(d.raw_source, RawSource::Properties);
    assert_eq!(d.cursor(DetailPart::Raw).selected, 0);
}

#[test]
fn v_on_a_field_shows_it_whole_and_on_a_heading_says_there_is_nothing() {
    let url = format!("https://example.com/{}", "segment/".repeat(60));
    let mut app = open(json!({"id": "u", "external_url": url}), (80, 24));
    select(&mut app, DetailPart::Fields, "external_url");
    app.update(Action::ShowValue);
    assert_eq!(popup(&app).unwrap().text, url);
}

/// Issue 20 item 8: one key is "1 key" (it said "1 keys").
#[test]
fn properties_with_one_key_say_1_key() {
    let app = open(json!({"id": "r1", "properties": {"only": 1}}), (120, 40));
    let line = detail(&app)
        .unwrap()
        .fields
        .iter()
        .find(|l| l.label == "properties")
        .expect("the properties line");
    assert!(line.value.starts_with("1 key ("), "{}", line.value);
}

/// Issue 20 item 8: a malformed item has no properties: its raw JSON pane says it shows the item
/// as it came (it said "properties"); a resource's says which of the two it shows.
#[test]
fn the_raw_pane_of_a_malformed_item_says_it_is_the_item() {
    let app = open(json!([1, 2]), (120, 40));
    assert_eq!(detail(&app).unwrap().raw_label(), "the item as it came");
    let mut app = open(json!({"id": "r1", "properties": {"a": 1}}), (120, 40));
    assert_eq!(detail(&app).unwrap().raw_label(), "properties");
    app.update(Action::ToggleRawSource);
    assert_eq!(detail(&app).unwrap().raw_label(), "whole resource");
}

/// Issue 37 item 3: a resource's detail asks the history for the reports sent about it, lists
/// them at the end of its fields, and `Enter` on one shows that send in full; `Esc` comes back.
#[test]
fn the_reports_sent_about_the_resource_are_listed_and_enter_shows_one() {
    use crate::app::Delivery;
    use crate::store::{HistoryEntry, SendKind, Sent};

    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let id = api_request(&commands).unwrap();
    let page = ListResponse::from_value(json!({ "resources": [resource()] })).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    let opened = app.update(Action::Open);
    let asked = opened.iter().find_map(|c| match c {
        Command::LoadReportsAbout { id, about, .. } => Some((*id, about.clone())),
        _ => None,
    });
    let (asked, about) = asked.expect("the detail asks for the reports about it");
    // The report that created it is found by its type and external id (tester's item 14).
    let created_as = (about.resource_type.as_deref(), about.external_id.as_deref());
    assert_eq!(
        (about.id.as_str(), created_as),
        ("r1", (Some("repository"), None))
    );

    let sent = Sent {
        sent_at: chrono::Utc::now() - chrono::Duration::hours(3),
        base_url: "http://127.0.0.1:9/api/v1".into(),
        kind: SendKind::Report,
        body: r#"{"task_id":"t-7","status":"error","message":"disk full","response":{"response_type":"resource","resource":{"id":"r1"}}}"#.into(),
        answer: Some(r#"{"status":"ok"}"#.into()),
        http_status: Some(200),
        duration: None,
        error: None,
        resource_before: None,
        resource_after: None,
    };
    let at = sent.sent_at;
    app.update(Action::reply(
        asked,
        Delivery::History(Box::new(Ok(vec![HistoryEntry { id: 7, sent }]))),
    ));
    let fields = &detail(&app).unwrap().fields;
    let heading = fields.iter().find(|f| f.label == "Reports sent").unwrap();
    assert!(heading.value.starts_with('1'), "{heading:?}");
    let report = fields.last().unwrap();
    assert!(
        report
            .value
            .starts_with("error · disk full → HTTP 200 ok · task t-7"),
        "{report:?}"
    );
    // When, to the second and whole in the label's room (it was cut to `2026-12-03 02:…`, and
    // two reports in one minute looked alike).
    assert_eq!(report.label, at.format("%m-%d %H:%M:%S").to_string());
    assert!(report.label.chars().count() < super::LABEL_WIDTH);

    app.update(Action::Move(Move::Bottom));
    app.update(Action::Open);
    let Some(Screen::History(view)) = app.stack.top() else {
        panic!("Enter shows the send");
    };
    assert_eq!(view.current().map(|e| e.id), Some(7));
    assert!(view.shown.is_some(), "in full");
    app.update(Action::Back);
    assert!(detail(&app).is_some(), "Esc goes back to the detail");
}
