//! `App::update` as the event loop drives it: actions in, state and commands out. No I/O.

pub(crate) use super::harness::{key, press};
use crate::app::Delivery;
use crate::app::Toward;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::keymap::InputMode;
use super::pane::Screen;
use super::panes::detail::OpenDetail;
use super::panes::detail::{Detail, DetailPart, FieldKind};
use super::*;
use crate::api::{ApiError, Exchange, ListRequest, ListResponse, Reply};

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
        Command::Api { id, call } => Some((*id, call.as_list_request()?)),
        _ => None,
    })
}

fn reply(id: RequestId, result: Result<ListResponse, ApiError>) -> Action {
    Action::reply(id, Box::new(Exchange::local(result.map(Reply::page))))
}

/// The detail view on top of the stack, if it is.
fn detail(app: &App) -> Option<&Detail> {
    match app.stack.top() {
        Some(Screen::Detail(detail)) => Some(detail),
        _ => None,
    }
}

fn detail_mut(app: &mut App) -> &mut Detail {
    match app.stack.top_mut().map(|l| &mut l.screen) {
        Some(Screen::Detail(detail)) => detail,
        _ => panic!("no detail open"),
    }
}

/// An 80x24 app whose first page (`count` rows, more after) has arrived.
fn loaded(count: usize) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(id, Ok(page(count, Some("c2")))));
    app
}

/// The loop's timer: a tick at `at` if the app asked to wake by then (the composers' drafts).
pub(crate) fn tick(app: &mut App, at: std::time::Instant) -> Vec<Command> {
    match app.wake_at() {
        Some(due) if due <= at => {
            app.now = at;
            app.update(Action::Tick)
        }
        _ => Vec::new(),
    }
}

/// `s` on a composer, then `Enter` until the request goes out (twice when findings ask for a
/// second one): the body sent.
pub(crate) fn review_and_send(app: &mut App) -> serde_json::Value {
    review_and_send_body(app).value().clone()
}

/// [`review_and_send`], with the body's text as it is posted.
pub(crate) fn review_and_send_body(app: &mut App) -> super::Body {
    key(app, 's');
    (0..2)
        .flat_map(|_| press(app, crossterm::event::KeyCode::Enter))
        .find_map(|c| match c {
            Command::Api { call, .. } => Some(call.body),
            _ => None,
        })
        .expect("the request is sent")
}

/// Tester 2026-12-03d LOW 10: `y` on a 20 MB value said it was copied, and tmux kept nothing:
/// past what most terminals take in one OSC 52 copy, it is sent and said to risk being dropped.
#[test]
fn a_copy_too_large_for_most_terminals_says_so() {
    let mut notice = None;
    let large = "a".repeat(200_000);
    let commands = crate::app::pane::copy_each(&mut notice, &[large.as_str()], "value");
    assert_eq!(commands, vec![Command::Copy(large.clone())], "still sent");
    match &notice {
        Some(Notice::Error(said)) => assert!(
            said.starts_with(
                "value sent to the terminal's clipboard (OSC 52), but at 0.2 MB many terminals drop"
            ),
            "{said}"
        ),
        other => panic!("{other:?}"),
    }
    crate::app::pane::copy_each(&mut notice, &["small"], "value");
    assert!(matches!(&notice, Some(Notice::Info(_))), "{notice:?}");
}

#[test]
fn a_notice_lasts_until_the_next_key() {
    let mut app = loaded(100);
    key(&mut app, 'y');
    assert!(
        matches!(&app.notice, Some(Notice::Info(t)) if t.starts_with("resource id sent to the terminal's clipboard (OSC 52)")),
        "{:?}",
        app.notice
    );
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
    assert!(
        app.problem().is_some(),
        "the status bar hears of it from the pane"
    );
    let commands = key(&mut app, 'r');
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(id, Ok(page(100, None))));
    assert!(
        app.browser.error().is_none(),
        "the retry worked: nothing is wrong now"
    );
    assert!(app.last_error.is_some(), "! still tells what happened");
    key(&mut app, '!');
    let scroll = |app: &App| match &app.overlay {
        Some(overlay::Overlay::Error(popup)) => popup.scroll,
        _ => panic!("the error popup is open"),
    };
    assert_eq!(scroll(&app), 0);
    app.update(Action::Move(Move::Down));
    app.update(Action::Move(Move::Down));
    assert_eq!(scroll(&app), 2, "j scrolls the popup");
    app.update(Action::Move(Move::Up));
    assert_eq!(scroll(&app), 1, "k scrolls it back");
    app.update(Action::Back);
    assert!(app.overlay.is_none(), "Esc closes it");
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
    app.update(Action::Pane(Toward::Next));
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
    let rows = app.browser.areas(app.body()).rows;
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
    assert!(detail(&app).is_some());
}

#[test]
fn a_taller_terminal_fetches_what_it_can_now_show() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 10), None);
    let (id, _) = request_of(&commands).unwrap();
    let follow_up = app.update(reply(id, Ok(page(50, Some("c2")))));
    // (The store is asked for the columns kept for the type: no page.)
    assert!(
        request_of(&follow_up).is_none(),
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
    let commands = app.update(Action::InsertText("row 1\u{7}".into()));
    super::harness::settle(&mut app, commands);
    assert_eq!(app.browser.filter.text(), "row 1");
    assert_eq!(app.browser.visible.len(), 11, "row 1 and rows 10 to 19");
}

#[test]
fn a_click_below_the_last_row_selects_nothing() {
    let mut app = loaded(3);
    let rows = app.browser.areas(app.body()).rows;
    app.update(Action::Click {
        column: 10,
        row: rows.y + 3,
    });
    assert_eq!(app.browser.cursor.selected, 0, "no row there");
    app.update(Action::Click {
        column: 10,
        row: rows.y + 2,
    });
    assert_eq!(app.browser.cursor.selected, 2, "the last row");
}

#[test]
fn the_help_scrolls_by_line_and_by_page() {
    let mut app = loaded(10);
    app.update(Action::Resize {
        width: 80,
        height: 14,
    });
    key(&mut app, '?');
    let scroll = |app: &App| match &app.overlay {
        Some(Overlay::Help(help)) => (help.scroll, help.lines().len()),
        _ => panic!("the help is open"),
    };
    let body = layout::screen(app.size).body;
    let page = match &app.overlay {
        Some(Overlay::Help(help)) => help.rows_in_view(body),
        _ => panic!("the help is open"),
    };
    assert!(
        scroll(&app).1 > 2 * page,
        "the help is over two pages long at 80x14"
    );
    app.update(Action::Move(Move::Down));
    assert_eq!(scroll(&app).0, 1);
    app.update(Action::Move(Move::PageDown));
    assert_eq!(scroll(&app).0, 1 + page);
    app.update(Action::Move(Move::PageUp));
    assert_eq!(scroll(&app).0, 1);
    app.update(Action::Move(Move::Up));
    assert_eq!(scroll(&app).0, 0);
}

/// The status bar's activity: what the list is waiting for, and nothing once it has it.
#[test]
fn the_activity_says_which_page_is_loading_or_that_a_row_is_opening() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    assert_eq!(app.activity().as_deref(), Some("loading the first page…"));
    let (id, _) = request_of(&commands).unwrap();
    app.update(reply(id, Ok(page(100, Some("c2")))));
    assert_eq!(app.activity(), None, "the first page is there");
    let commands = app.update(Action::Move(Move::Bottom));
    let (id, _) = request_of(&commands).expect("the next page");
    assert_eq!(app.activity().as_deref(), Some("loading page 2…"));
    app.update(reply(id, Ok(page(5, None))));
    assert_eq!(app.activity(), None, "the last page is there");

    let mut app = with_big_resource(400_000);
    app.update(Action::Open);
    assert_eq!(app.activity().as_deref(), Some("opening…"));
    app.update(Action::Back);
    assert_eq!(app.activity(), None, "the opening was cancelled");
}

#[test]
fn esc_cancels_the_load_in_flight_and_r_resumes() {
    let mut app = loaded(100);
    let commands = app.update(Action::Move(Move::Bottom));
    let (id, _) = request_of(&commands).expect("the next page");
    assert_eq!(app.update(Action::Back), vec![Command::Cancel(id)]);
    assert!(app.browser.in_flight().is_none());
    app.update(reply(id, Ok(page(5, None))));
    assert_eq!(app.browser.rows().len(), 100, "the cancelled page is stale");
    let commands = key(&mut app, 'r');
    let (_, request) = request_of(&commands).expect("resumed");
    assert_eq!(request.next.as_deref(), Some("c2"));
}

/// With a page in flight (the cursor went to the bottom), a new type filter cancels it.
#[test]
fn type_filter_from_the_command_line_restarts_the_listing() {
    let mut app = loaded(100);
    let (old, _) = request_of(&app.update(Action::Move(Move::Bottom))).expect("the next page");
    assert_eq!(app.browser.in_flight(), Some(old));
    key(&mut app, ':');
    app.update(Action::InsertText("type repo".into()));
    let commands = app.update(Action::Submit);
    assert!(commands.contains(&Command::Cancel(old)), "{commands:?}");
    let (_, request) = request_of(&commands).expect("a new listing");
    assert_eq!(request.resource_type.as_deref(), Some("repo"));
    assert_eq!(request.next, None);
    assert!(app.overlay.is_none());
}

#[test]
fn q_quits_but_types_a_q_in_an_input() {
    let mut app = loaded(10);
    key(&mut app, '/');
    assert_eq!(app.focus().mode, InputMode::Line);
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
    app.update(Action::Pane(Toward::Next));
    let d = detail(&app).unwrap();
    assert_eq!(d.focus, DetailPart::Tree);
    assert_eq!(d.tree.lines().len(), 3);
    app.update(Action::Left); // collapse `a`
    assert_eq!(detail(&app).unwrap().tree.lines().len(), 2);
    key(&mut app, '/');
    app.update(Action::InsertText("needle".into()));
    let d = detail(&app).unwrap();
    assert_eq!(d.tree.lines().len(), 3, "the hit was revealed");
    assert_eq!(d.cursor(DetailPart::Tree).selected, 1);
    app.update(Action::Submit);
    app.update(Action::Back);
    assert!(
        detail(&app).unwrap().search.is_none(),
        "Esc clears the search first"
    );
    app.update(Action::Back);
    assert!(detail(&app).is_none(), "back on the list");
}

/// Keys go to the focused pane: movement and Tab anywhere, `l`, `h` and `Enter` open and close
/// nodes in the tree only, `Enter` on a field with a link opens it.
#[test]
fn the_detail_keys_act_on_the_focused_pane() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let (id, _) = request_of(&commands).unwrap();
    let resource = json!({"resources": [{"id": "x", "external_url": "https://example.com/x",
                                         "properties": {"a": {"b": "needle"}, "c": 1}}]});
    app.update(reply(id, Ok(ListResponse::from_value(resource).unwrap())));
    app.update(Action::Open);
    let d = detail(&app).unwrap();
    assert_eq!(d.focus, DetailPart::Fields);
    let shown = |app: &App| detail(app).unwrap().tree.lines().len();
    assert_eq!(shown(&app), 3);
    let plain = d.fields.iter().position(|f| f.url.is_none()).unwrap();
    let link = d.fields.iter().position(|f| f.url.is_some()).unwrap();
    let go_to = |app: &mut App, line: usize| {
        key(app, 'g');
        for _ in 0..line {
            key(app, 'j');
        }
        assert_eq!(
            detail(app).unwrap().cursor(DetailPart::Fields).selected,
            line
        );
    };
    go_to(&mut app, plain);
    key(&mut app, 'h');
    key(&mut app, 'l');
    let commands = app.update(Action::Open);
    assert!(commands.is_empty(), "{commands:?}");
    assert_eq!(shown(&app), 3, "the tree's keys do nothing in the fields");
    go_to(&mut app, link);
    assert_eq!(
        app.update(Action::Open),
        [Command::OpenUrl("https://example.com/x".into())]
    );

    app.update(Action::Pane(Toward::Next));
    assert_eq!(detail(&app).unwrap().focus, DetailPart::Tree);
    key(&mut app, 'l');
    assert_eq!(shown(&app), 3, "l on an open node keeps it open");
    key(&mut app, 'h');
    assert_eq!(shown(&app), 2, "h closes it");
    key(&mut app, 'h');
    assert_eq!(shown(&app), 2, "h on a closed node keeps it closed");
    key(&mut app, 'l');
    assert_eq!(shown(&app), 3);
    app.update(Action::Open);
    assert_eq!(shown(&app), 2, "Enter toggles");
    app.update(Action::Open);
    assert_eq!(shown(&app), 3);
    key(&mut app, 'j');
    key(&mut app, 'h');
    assert_eq!(
        detail(&app).unwrap().cursor(DetailPart::Tree).selected,
        0,
        "h on the leaf b goes to its parent a"
    );
    assert_eq!(shown(&app), 3);
}

/// A 120x40 app with `properties` open in the detail, its tree focused.
fn tree_of(properties: Value) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let (id, _) = request_of(&commands).unwrap();
    let resource = json!({"resources": [{"id": "x", "properties": properties}]});
    app.update(reply(id, Ok(ListResponse::from_value(resource).unwrap())));
    app.update(Action::Open);
    app.update(Action::Pane(Toward::Next));
    assert_eq!(detail(&app).unwrap().focus, DetailPart::Tree);
    app
}

fn tree_line(app: &App) -> usize {
    detail(app).unwrap().cursor(DetailPart::Tree).selected
}

#[test]
fn n_and_shift_n_go_to_the_next_and_the_previous_hit() {
    let mut app = tree_of(json!({"a": "needle", "b": "hay", "c": "needle", "d": "needle"}));
    key(&mut app, '/');
    app.update(Action::InsertText("needle".into()));
    app.update(Action::Submit);
    assert_eq!(tree_line(&app), 0);
    key(&mut app, 'n');
    assert_eq!(tree_line(&app), 2);
    key(&mut app, 'n');
    assert_eq!(tree_line(&app), 3);
    key(&mut app, 'N');
    assert_eq!(tree_line(&app), 2);
}

#[test]
fn a_click_in_the_detail_focuses_the_pane_and_selects_the_line_under_it() {
    let mut app = tree_of(json!({"a": 1, "b": 2, "c": 3}));
    let body = layout::screen(app.size).body;
    let fields = layout::inset(detail(&app).unwrap().areas(body).pane(DetailPart::Fields));
    app.update(Action::Click {
        column: fields.x + 1,
        row: fields.y + 1,
    });
    let d = detail(&app).unwrap();
    assert_eq!(d.focus, DetailPart::Fields);
    assert_eq!(d.cursor(DetailPart::Fields).selected, 1);
    let tree = layout::inset(d.areas(body).pane(DetailPart::Tree));
    app.update(Action::Click {
        column: tree.x + 1,
        row: tree.y + 2,
    });
    assert_eq!(detail(&app).unwrap().focus, DetailPart::Tree);
    assert_eq!(tree_line(&app), 2);
}

/// With `w`, a long line of the raw JSON takes several rows: a click counts them there, and
/// only there.
#[test]
fn a_click_on_wrapped_raw_json_selects_the_line_shown_there() {
    let mut app = tree_of(json!({"a": "x".repeat(400), "b": 1, "c": 2}));
    key(&mut app, 'w');
    assert!(detail(&app).unwrap().raw_wrap);
    let body = layout::screen(app.size).body;
    let inner = |app: &App, pane| layout::inset(detail(app).unwrap().areas(body).pane(pane));
    let click = |app: &mut App, pane, row| {
        let area = inner(app, pane);
        app.update(Action::Click {
            column: area.x + 1,
            row: area.y + row,
        });
    };
    click(&mut app, DetailPart::Tree, 3);
    assert_eq!(
        tree_line(&app),
        0,
        "below the tree's 3 lines: nothing selected"
    );
    click(&mut app, DetailPart::Tree, 2);
    assert_eq!(tree_line(&app), 2, "the tree's lines do not wrap");
    click(&mut app, DetailPart::Raw, 1);
    assert_eq!(
        detail(&app).unwrap().cursor(DetailPart::Raw).selected,
        1,
        "the first row of the long line"
    );
    key(&mut app, 'g');
    click(&mut app, DetailPart::Raw, 3);
    let d = detail(&app).unwrap();
    assert_eq!(d.focus, DetailPart::Raw);
    assert_eq!(
        d.cursor(DetailPart::Raw).selected,
        1,
        "the third row of the long line \"a\": {:?}",
        inner(&app, DetailPart::Raw)
    );
}

#[test]
fn a_smaller_terminal_keeps_the_detail_cursor_in_view() {
    let properties: serde_json::Map<String, Value> =
        (0..40).map(|i| (format!("p{i:02}"), json!(i))).collect();
    let mut app = tree_of(Value::Object(properties));
    key(&mut app, 'G');
    let selected = tree_line(&app);
    assert_eq!(selected, 39);
    app.update(Action::Resize {
        width: 120,
        height: 16,
    });
    let body = layout::screen(app.size).body;
    let d = detail(&app).unwrap();
    let height = d.pane_height(DetailPart::Tree, body);
    d.cursor(DetailPart::Tree).assert_shows(selected, height);
    let offset = d.cursor(DetailPart::Tree).offset;
    // A click there selects the line it shows, counted from the first one shown.
    assert!(offset > 2, "{offset}");
    let tree = layout::inset(d.areas(body).pane(DetailPart::Tree));
    for row in [2, 5] {
        app.update(Action::Click {
            column: tree.x + 1,
            row: tree.y + row,
        });
        assert_eq!(tree_line(&app), offset + usize::from(row));
    }
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
    let fields = &detail(&app).unwrap().fields;
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
    detail_mut(&mut app)
        .cursor_mut(DetailPart::Fields)
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
    let [Command::Run { id, job }] = commands.as_slice() else {
        panic!("expected the detail to be prepared off the UI thread: {commands:?}")
    };
    assert!(job.get::<OpenDetail>().is_some(), "a detail to prepare");
    assert!(
        detail(&app).is_none(),
        "the list stays until the detail is ready"
    );
    assert!(matches!(&app.notice, Some(Notice::Info(t)) if t.contains("opening a large resource")));
    // Esc cancels: the detail that arrives later is dropped.
    app.update(Action::Back);
    app.update(Action::reply(*id, Delivery::Job(job.run())));
    assert!(detail(&app).is_none());
    // Opened again, it is shown when ready.
    let commands = app.update(Action::Open);
    let [Command::Run { id, job }] = commands.as_slice() else {
        panic!()
    };
    app.update(Action::reply(*id, Delivery::Job(job.run())));
    assert!(detail(&app).unwrap().tree.lines().len() >= 4_000);
}

#[test]
fn a_small_resource_opens_at_once() {
    let mut app = with_big_resource(10_000);
    let commands = app.update(Action::Open);
    // No job to open it: only the reports about it are asked of the history.
    assert!(
        commands
            .iter()
            .all(|c| matches!(c, Command::LoadReportsAbout { .. })),
        "{commands:?}"
    );
    assert!(detail(&app).is_some());
}

// ----- the stack of screens, and where results go -----

#[test]
fn esc_from_the_detail_returns_to_the_list_as_it_was() {
    let mut app = loaded(100);
    for _ in 0..5 {
        key(&mut app, 'j');
    }
    key(&mut app, '/');
    app.update(Action::InsertText("row".into()));
    app.update(Action::Submit);
    let (selected, visible) = (app.browser.cursor.selected, app.browser.visible.len());
    app.update(Action::Open);
    assert_eq!(detail(&app).unwrap().title, "row 5");
    assert_eq!(app.stack.layers().len(), 1, "opening pushes one screen");
    app.update(Action::Back);
    assert!(app.stack.top().is_none());
    assert_eq!(app.browser.cursor.selected, selected);
    assert_eq!(app.browser.visible.len(), visible, "the filter survived");
    assert_eq!(app.browser.rows().len(), 100, "so did the listing");
    app.update(Action::Back);
    assert!(app.stack.top().is_none(), "the list is never popped");
}

#[test]
fn esc_from_a_screen_opened_over_the_detail_returns_to_the_detail() {
    let mut app = loaded(100);
    key(&mut app, 'j');
    app.update(Action::Open);
    let item = std::sync::Arc::new(crate::api::PageItem::from_value(json!({"id": "above"})));
    app.stack.push(Screen::Detail(Box::new(Detail::open(item))));
    assert_eq!(detail(&app).unwrap().title, "above");
    app.update(Action::Back);
    assert_eq!(
        detail(&app).map(|d| d.title.as_str()),
        Some("row 1"),
        "back where the user came from, not the list"
    );
    app.update(Action::Back);
    assert!(app.stack.top().is_none());
}

#[test]
fn a_page_reaches_the_list_while_the_detail_is_on_top() {
    let mut app = loaded(100);
    let (id, _) = request_of(&app.update(Action::Move(Move::Bottom))).expect("the next page");
    app.update(Action::Open);
    assert!(detail(&app).is_some());
    app.update(reply(id, Ok(page(30, None))));
    assert_eq!(app.browser.rows().len(), 130, "the list that asked got it");
    assert!(detail(&app).is_some(), "and the detail stays on top");
}

#[test]
fn results_nobody_waits_for_are_dropped() {
    let mut app = loaded(100);
    let (id, _) = request_of(&app.update(Action::Move(Move::Bottom))).expect("the next page");
    // Never asked for: dropped before any pane sees it.
    assert!(
        app.update(reply(RequestId(9_999), Ok(page(5, None))))
            .is_empty()
    );
    assert_eq!(app.browser.rows().len(), 100);
    // Cancelled: its id is forgotten, so its late answer is dropped too.
    app.update(Action::Back);
    app.update(reply(id, Ok(page(5, None))));
    assert_eq!(app.browser.rows().len(), 100);
    // Answered once: a second answer under the same id is stale.
    let (id, _) = request_of(&key(&mut app, 'r')).expect("resumed");
    app.update(reply(id, Ok(page(5, Some("c3")))));
    assert_eq!(app.browser.rows().len(), 105);
    app.update(reply(id, Ok(page(5, None))));
    assert_eq!(app.browser.rows().len(), 105);
}

fn command_line(app: &App) -> &overlay::CommandLine {
    match &app.overlay {
        Some(Overlay::CommandLine(line)) => line,
        other => panic!("no command line: {other:?}"),
    }
}

/// Issue 9 item 16: a failed command clears the line; Up/Down recall earlier commands; a second
/// Tab cycles through the candidates. A later audit: the line stayed open, empty under the
/// error, so the `:` typed next to open it again made `::`. Any failure (a command it does not
/// know, or one that ran and failed, as a `:where` that does not compile) now closes the line
/// with the error in the status bar, and Up brings the command back.
#[test]
fn the_command_line_closes_after_a_failure_recalls_and_cycles() {
    use crossterm::event::KeyCode;
    let mut app = loaded(10);
    key(&mut app, ':');
    for c in "type repo".chars() {
        key(&mut app, c);
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.overlay.is_none(), "a good command closes the line");
    for (failing, said) in [
        ("frob", "unknown command \"frob\""),
        ("where .a >", "where .a >"),
    ] {
        key(&mut app, ':');
        harness::type_text(&mut app, failing);
        press(&mut app, KeyCode::Enter);
        assert!(app.overlay.is_none(), "{failing}: the line closes");
        assert!(
            matches!(&app.notice, Some(Notice::Error(e)) if e.contains(said)),
            "{failing}: {:?}",
            app.notice
        );
        key(&mut app, ':');
        assert_eq!(command_line(&app).input.text(), "", "{failing}: not `::`");
        press(&mut app, KeyCode::Up);
        assert_eq!(command_line(&app).input.text(), failing, "recalled to fix");
        press(&mut app, KeyCode::Esc);
    }
    key(&mut app, ':');
    press(&mut app, KeyCode::Up);
    assert_eq!(command_line(&app).input.text(), "where .a >");
    press(&mut app, KeyCode::Up);
    assert_eq!(command_line(&app).input.text(), "frob");
    press(&mut app, KeyCode::Up);
    assert_eq!(command_line(&app).input.text(), "type repo");
    press(&mut app, KeyCode::Down);
    assert_eq!(command_line(&app).input.text(), "frob");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(command_line(&app).input.text(), "");
    press(&mut app, KeyCode::Enter);
    assert!(app.overlay.is_none(), "Enter on an empty line closes it");
    key(&mut app, ':');

    for c in "re".chars() {
        key(&mut app, c);
    }
    press(&mut app, KeyCode::Tab);
    assert_eq!(
        command_line(&app).candidates,
        ["resources", "refresh", "report"]
    );
    press(&mut app, KeyCode::Tab);
    assert_eq!(command_line(&app).input.text(), "resources");
    press(&mut app, KeyCode::Tab);
    assert_eq!(command_line(&app).input.text(), "refresh");
    press(&mut app, KeyCode::Tab);
    assert_eq!(command_line(&app).input.text(), "report");
    press(&mut app, KeyCode::Tab);
    assert_eq!(command_line(&app).input.text(), "resources");
}

/// Issue 9 item 15: `r` reloads from the first page, keeps the `/` filter and puts the cursor
/// back on the same resource (by id), even when it is no longer at the same position.
#[test]
fn reload_keeps_the_filter_and_the_resource_under_the_cursor() {
    use crossterm::event::KeyCode;
    let mut app = loaded(30);
    key(&mut app, '/');
    for c in "row 1".chars() {
        let commands = key(&mut app, c);
        super::harness::settle(&mut app, commands);
    }
    press(&mut app, KeyCode::Enter);
    for _ in 0..3 {
        key(&mut app, 'j');
    }
    assert_eq!(app.browser.selected().unwrap().id().unwrap(), "r12");
    let commands = key(&mut app, 'r');
    let (id, request) = request_of(&commands).expect("a reload");
    assert_eq!(request.next, None, "from the first page");
    // The server now has two more matching resources in front.
    let mut rows: Vec<Value> = (0..2)
        .map(|i| json!({"id": format!("new{i}"), "type": "repo", "name": format!("row 1 new {i}")}))
        .collect();
    rows.extend(
        (0..30).map(|i| json!({"id": format!("r{i}"), "type": "repo", "name": format!("row {i}")})),
    );
    let fresh = ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap();
    let commands = app.update(reply(id, Ok(fresh)));
    super::harness::settle(&mut app, commands);
    assert_eq!(app.browser.filter.text(), "row 1", "the filter stays");
    assert_eq!(app.browser.selected().unwrap().id().unwrap(), "r12");
    assert_eq!(app.browser.cursor.selected, 5, "two new matches above it");
}

/// Item 12 of issue 9: a configuration warning (a token file others can read) printed on stderr
/// is hidden behind the TUI's screen, so the first frame says it, and `!` has it in full.
#[test]
fn a_configuration_warning_shows_on_the_first_frame() {
    let session = Session {
        origin: "prod".into(),
        host: "h:1".into(),
        warnings: vec!["token file /t is readable by group or others; run: chmod 600 /t".into()],
    };
    let (mut app, _) = App::new(session, Rect::new(0, 0, 80, 24), None);
    match &app.notice {
        Some(Notice::Error(text)) => assert!(text.contains("chmod 600 /t"), "{text}"),
        other => panic!("no warning on the first frame: {other:?}"),
    }
    app.update(Action::Move(Move::Down));
    assert!(app.notice.is_none(), "a key clears it from the bar");
    let kept = app.last_error.as_ref().expect("! keeps the warning");
    assert!(kept.message.contains("chmod 600 /t"));
}

/// Item 17 of issue 9: the type picker narrows as the user types (letters are text, not keys),
/// counts the loaded rows of each type and marks the type listed now.
#[test]
fn the_type_picker_filters_as_you_type_counts_and_marks_the_current_type() {
    let mut app = loaded(5); // rows 0, 2, 4 are "repo", 1 and 3 "user"
    key(&mut app, 't');
    let picker = |app: &App| match &app.overlay {
        Some(overlay::Overlay::TypePicker(p)) => p.clone(),
        other => panic!("no picker: {other:?}"),
    };
    let p = picker(&app);
    let counts: Vec<(&str, Option<usize>)> =
        p.options.iter().map(|o| (o.label(), o.count)).collect();
    assert_eq!(
        counts,
        [
            ("(all types)", Some(5)),
            ("repo", Some(3)),
            ("user", Some(2))
        ]
    );
    assert_eq!(p.current, None, "all types are listed now");
    assert_eq!(p.chosen().unwrap().name, None, "the cursor starts on it");

    // `u` is text here, not a key of the list.
    key(&mut app, 'u');
    let p = picker(&app);
    let shown: Vec<&str> = p.visible.iter().map(|&i| p.options[i].label()).collect();
    assert_eq!(shown, ["user"]);
    let commands = app.update(Action::Submit);
    assert!(app.overlay.is_none());
    assert_eq!(app.browser.type_filter.as_deref(), Some("user"));
    assert!(request_of(&commands).is_some(), "the list reloads");

    // Under a type filter the current type is marked; other types have no count to give.
    key(&mut app, 't');
    let p = picker(&app);
    assert_eq!(p.current.as_deref(), Some("user"));
    assert_eq!(p.chosen().unwrap().label(), "user");
    // Nothing matches: Enter keeps the picker open.
    for c in "zzz".chars() {
        key(&mut app, c);
    }
    assert!(picker(&app).visible.is_empty());
    app.update(Action::Submit);
    assert!(app.overlay.is_some());
}

/// Only the screen in front closes itself: a `Pop` from a screen below it (an answer it heard
/// late) or from the resource list under everything closes nothing.
#[test]
fn only_the_screen_in_front_closes_itself() {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.update(Action::Show(View::Types));
    app.update(Action::Show(View::History));
    let open = |app: &App| -> Vec<ScreenId> { app.stack.layers().iter().map(|l| l.id).collect() };
    let ids = open(&app);
    assert_eq!(ids.len(), 2, "the types view, the history over it");
    app.apply(ids[0], Outcome::Pop);
    app.apply(ScreenId::BROWSER, Outcome::Pop);
    assert_eq!(open(&app), ids, "nothing closed");
    app.apply(ids[1], Outcome::Pop);
    assert_eq!(open(&app), ids[..1], "the one in front closed");
}

/// `update` appends a page's JSON to the list's bodies in memory only: once enough gathered it
/// hands them to the runtime to write (`Command::WriteBodies`), and asks nothing for a page
/// that leaves too little to write.
#[test]
fn a_page_hands_its_json_to_the_runtime_to_write_once_enough_gathered() {
    let writes = |commands: &[Command]| -> Vec<appdeck_listing::Bodies> {
        (commands.iter())
            .filter_map(|c| match c {
                Command::WriteBodies(bodies) => Some(bodies.clone()),
                _ => None,
            })
            .collect()
    };
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    let small = app.update(reply(id, Ok(page(5, Some("c2")))));
    assert_eq!(writes(&small), [], "five rows are not worth a write");

    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let (id, _) = request_of(&commands).unwrap();
    let big = app.update(reply(id, Ok(page(1000, Some("c2")))));
    assert_eq!(
        writes(&big),
        [app.browser.bodies()],
        "the list's own bodies"
    );
    assert!(
        app.browser.bodies().is_due(),
        "written by the runtime, not by update"
    );
    super::harness::write_bodies(&big);
    assert!(!app.browser.bodies().is_due());
}

/// The text a composer sent to the external editor, and the id its answer must carry.
pub(crate) fn edit_command(commands: &[Command]) -> (RequestId, String) {
    commands
        .iter()
        .find_map(|c| match c {
            Command::EditExternally { id, text } => Some((*id, text.clone())),
            _ => None,
        })
        .expect("the external editor asked for")
}
