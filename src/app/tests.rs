//! `App::update` as the event loop drives it: actions in, state and commands out. No I/O.

use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::detail::{DetailPane, FieldKind};
use super::keymap::{Context, action_for};
use super::*;
use crate::api::{ApiError, ListRequest, ListResponse};

fn page(count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (0..count)
        .map(|i| {
            json!({
                "id": format!("r{i}"), "type": if i % 2 == 0 { "repo" } else { "user" },
                "name": format!("row {i}"), "external_url": format!("https://example.com/{i}")
            })
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn request_of(commands: &[Command]) -> Option<(RequestId, ListRequest)> {
    commands.iter().find_map(|c| match c {
        Command::Api {
            id,
            call: ApiCall::ListPage(req),
        } => Some((*id, req.clone())),
        _ => None,
    })
}

fn reply(id: RequestId, result: Result<ListResponse, ApiError>) -> Action {
    Action::ApiResult {
        id,
        reply: ApiReply::Page(Box::new(result)),
    }
}

/// An 80x24 app whose first page (`count` rows, more after) has arrived.
fn loaded(count: usize) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(id, Ok(page(count, Some("c2")))));
    app
}

fn key(app: &mut App, c: char) -> Vec<Command> {
    let event = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(c),
        crossterm::event::KeyModifiers::NONE,
    );
    match action_for(app.context(), event) {
        Some(action) => app.update(action),
        None => Vec::new(),
    }
}

#[test]
fn a_notice_lasts_until_the_next_key() {
    let mut app = loaded(100);
    key(&mut app, 'y');
    assert!(matches!(&app.notice, Some(Notice::Info(t)) if t.contains("copied resource id")));
    key(&mut app, 'j');
    assert!(app.notice.is_none());
}

#[test]
fn the_status_error_is_the_current_one_and_bang_keeps_the_last() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(
        id,
        Err(ApiError::Timeout(std::time::Duration::from_secs(1))),
    ));
    assert!(app.browser.error().is_some());
    let commands = key(&mut app, 'r');
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(id, Ok(page(100, None))));
    assert!(
        app.browser.error().is_none(),
        "the retry worked: nothing is wrong now"
    );
    assert!(app.last_error.is_some(), "! still tells what happened");
    key(&mut app, '!');
    assert!(matches!(app.overlay, Some(overlay::Overlay::Error(_))));
}

#[test]
fn copy_and_open_act_on_the_selected_row() {
    let mut app = loaded(100);
    key(&mut app, 'j');
    assert_eq!(key(&mut app, 'y'), vec![Command::Copy("r1".into())]);
    assert_eq!(
        key(&mut app, 'o'),
        vec![Command::OpenUrl("https://example.com/1".into())]
    );
}

#[test]
fn only_http_links_are_opened() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    let evil = json!({"resources": [{"id": "x", "external_url": "javascript:alert(1)",
        "properties": {"u": "file:///etc/passwd"}}]});
    app.update(reply(id, Ok(ListResponse::from_value(evil).unwrap())));
    assert!(key(&mut app, 'o').is_empty());
    assert!(matches!(&app.notice, Some(Notice::Error(t)) if t.contains("refused")));
    app.update(Action::Open);
    app.update(Action::NextPane);
    assert!(
        app.update(Action::OpenLink).is_empty(),
        "a file: URL in the tree is refused too"
    );
    assert!(matches!(&app.notice, Some(Notice::Error(t)) if t.contains("file:///etc/passwd")));
}

#[test]
fn a_click_selects_then_opens_even_with_the_filter_line_shown() {
    let mut app = loaded(100);
    key(&mut app, '/');
    app.update(Action::InsertText("row".into()));
    app.update(Action::Submit);
    let rows = app.browser_areas().rows;
    app.update(Action::Click {
        column: 10,
        row: rows.y + 2,
    });
    assert_eq!(app.browser.cursor.selected, 2);
    // The last line of the table area is its border when the filter line is shown: no row.
    app.update(Action::Click {
        column: 10,
        row: rows.y + rows.height,
    });
    assert_eq!(app.browser.cursor.selected, 2);
    app.update(Action::Click {
        column: 10,
        row: rows.y + 2,
    });
    assert_eq!(app.view, View::Detail);
}

#[test]
fn a_taller_terminal_fetches_what_it_can_now_show() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 10), None);
    let (id, _) = request_of(&commands).unwrap();
    let follow_up = app.update(reply(id, Ok(page(50, Some("c2")))));
    assert!(
        follow_up.is_empty(),
        "50 rows are plenty for a 10-line terminal"
    );
    let commands = app.update(Action::Resize {
        width: 80,
        height: 200,
    });
    let (_, request) = request_of(&commands).expect("the next page for the taller screen");
    assert_eq!(request.next.as_deref(), Some("c2"));
}

#[test]
fn a_paste_filters_once_and_drops_control_characters() {
    let mut app = loaded(100);
    key(&mut app, '/');
    app.update(Action::InsertText("row 1\u{7}".into()));
    assert_eq!(app.browser.filter.text(), "row 1");
    assert_eq!(app.browser.visible.len(), 11, "row 1 and rows 10 to 19");
}

#[test]
fn esc_cancels_the_load_in_flight_and_r_resumes() {
    let mut app = loaded(100);
    let commands = app.update(Action::Bottom);
    let (id, _) = request_of(&commands).expect("the next page");
    assert_eq!(app.update(Action::Back), vec![Command::Cancel(id)]);
    assert!(app.browser.in_flight().is_none());
    app.update(reply(id, Ok(page(5, None))));
    assert_eq!(app.browser.rows().len(), 100, "the cancelled page is stale");
    let commands = key(&mut app, 'r');
    let (_, request) = request_of(&commands).expect("resumed");
    assert_eq!(request.next.as_deref(), Some("c2"));
}

#[test]
fn type_filter_from_the_command_line_restarts_the_listing() {
    let mut app = loaded(100);
    let in_flight = app.browser.in_flight();
    key(&mut app, ':');
    app.update(Action::InsertText("type repo".into()));
    let commands = app.update(Action::Submit);
    if let Some(old) = in_flight {
        assert!(commands.contains(&Command::Cancel(old)));
    }
    let (_, request) = request_of(&commands).expect("a new listing");
    assert_eq!(request.resource_type.as_deref(), Some("repo"));
    assert_eq!(request.next, None);
    assert!(app.overlay.is_none());
}

#[test]
fn q_quits_but_types_a_q_in_an_input() {
    let mut app = loaded(10);
    key(&mut app, '/');
    assert_eq!(app.context(), Context::TextInput);
    key(&mut app, 'q');
    assert!(!app.should_quit);
    assert_eq!(app.browser.filter.text(), "q");
    app.update(Action::Back);
    key(&mut app, 'q');
    assert!(app.should_quit);
}

#[test]
fn detail_panes_tree_and_search() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let (id, _) = request_of(&commands).unwrap();
    let resource =
        json!({"resources": [{"id": "x", "properties": {"a": {"b": "needle"}, "c": 1}}]});
    app.update(reply(id, Ok(ListResponse::from_value(resource).unwrap())));
    app.update(Action::Open);
    app.update(Action::NextPane);
    let detail = app.detail.as_ref().unwrap();
    assert_eq!(detail.focus, DetailPane::Tree);
    assert_eq!(detail.tree.lines().len(), 3);
    app.update(Action::Left); // collapse `a`
    assert_eq!(app.detail.as_ref().unwrap().tree.lines().len(), 2);
    key(&mut app, '/');
    app.update(Action::InsertText("needle".into()));
    let detail = app.detail.as_ref().unwrap();
    assert_eq!(detail.tree.lines().len(), 3, "the hit was revealed");
    assert_eq!(detail.cursor(DetailPane::Tree).selected, 1);
    app.update(Action::Submit);
    app.update(Action::Back);
    assert!(
        app.detail.as_ref().unwrap().search.is_none(),
        "Esc clears the search first"
    );
    app.update(Action::Back);
    assert_eq!(app.view, View::Browser);
}

#[test]
fn links_of_an_odd_shape_are_still_shown_and_y_copies_raw_values() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let (id, _) = request_of(&commands).unwrap();
    let long = "x".repeat(400);
    let resource = json!({"resources": [{"id": "x", "name": long,
        "links": {"links": [{"title": "Docs", "url": "https://docs"}, "oops"]}}]});
    app.update(reply(id, Ok(ListResponse::from_value(resource).unwrap())));
    app.update(Action::Open);
    let fields = &app.detail.as_ref().unwrap().fields;
    assert!(
        fields
            .iter()
            .any(|f| f.kind == FieldKind::Link && f.url.as_deref() == Some("https://docs"))
    );
    assert!(
        fields
            .iter()
            .any(|f| f.kind == FieldKind::Problem && f.label == "links[1]")
    );
    let name_line = fields.iter().position(|f| f.label == "name").unwrap();
    let len = fields.len();
    app.detail
        .as_mut()
        .unwrap()
        .cursor_mut(DetailPane::Fields)
        .select(name_line, len, 30);
    assert_eq!(app.update(Action::Copy), vec![Command::Copy(long)]);
}

/// An app whose only row is a resource with about `bytes` of properties.
fn with_big_resource(bytes: usize) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let (id, _) = request_of(&commands).unwrap();
    let properties: serde_json::Map<String, Value> = (0..bytes / 100)
        .map(|i| (format!("k{i}"), json!("x".repeat(90))))
        .collect();
    let page = json!({"resources": [{"id": "big", "properties": properties}]});
    app.update(reply(id, Ok(ListResponse::from_value(page).unwrap())));
    app
}

#[test]
fn a_large_resource_opens_in_the_background_and_a_stale_one_is_dropped() {
    let mut app = with_big_resource(400_000);
    let commands = app.update(Action::Open);
    let [Command::OpenDetail { id, row }] = commands.as_slice() else {
        panic!("expected the detail to be prepared off the UI thread: {commands:?}")
    };
    assert_eq!(
        app.view,
        View::Browser,
        "the list stays until the detail is ready"
    );
    assert!(matches!(&app.notice, Some(Notice::Info(t)) if t.contains("opening a large resource")));
    let prepared = Box::new(Detail::open(std::sync::Arc::new(row.item())));
    // Esc cancels: the detail that arrives later is dropped.
    app.update(Action::Back);
    app.update(Action::DetailReady {
        id: *id,
        detail: prepared.clone(),
    });
    assert_eq!(app.view, View::Browser);
    // Opened again, it is shown when ready.
    let commands = app.update(Action::Open);
    let [Command::OpenDetail { id, .. }] = commands.as_slice() else {
        panic!()
    };
    app.update(Action::DetailReady {
        id: *id,
        detail: prepared,
    });
    assert_eq!(app.view, View::Detail);
    assert!(app.detail.as_ref().unwrap().tree.lines().len() >= 4_000);
}

#[test]
fn a_small_resource_opens_at_once() {
    let mut app = with_big_resource(10_000);
    assert!(app.update(Action::Open).is_empty());
    assert_eq!(app.view, View::Detail);
}
