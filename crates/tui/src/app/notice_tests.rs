//! What work in the background does to the status bar's notice: its end takes back only what
//! that work said ("watching…", "opening…"), never what another key said meanwhile ("3 marked
//! ids sent…"), which stays until the next key as any notice does.

use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{key, page_request, settle, status, type_text};
use super::pane::Screen;
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, Reply};

/// The page of `count` resources `r0`, `r1`…, the last.
fn page(count: usize) -> ListResponse {
    let rows: Vec<Value> = (0..count)
        .map(|i| json!({"id": format!("r{i}"), "type": "repo", "name": format!("row {i}")}))
        .collect();
    ListResponse::from_value(json!({"resources": rows})).unwrap()
}

fn serve(app: &mut App, commands: &[Command], count: usize) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let page = Box::new(Exchange::local(Ok(Reply::page(page(count)))));
    let more = app.update(Action::reply(id, page));
    settle(app, more)
}

fn fail(app: &mut App, commands: &[Command]) {
    let id = page_request(commands).expect("a page request");
    let error = ApiError::Invalid("HTTP 500 Internal Server Error".into());
    app.update(Action::reply(id, Box::new(Exchange::local(Err(error)))));
}

/// The app at `t0` with its one page of 10 rows, watched every second, the first look in.
fn watched(t0: Instant) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 24), None);
    app.now = t0;
    serve(&mut app, &commands, 10);
    key(&mut app, ':');
    type_text(&mut app, "watch 1");
    let look = app.update(Action::Submit);
    serve(&mut app, &look, 10);
    app
}

/// The next look of `:watch`, due at `t0` and a second.
fn look(app: &mut App, t0: Instant) -> Vec<Command> {
    app.now = t0 + Duration::from_secs(1);
    assert_eq!(app.wake_at(), Some(app.now), "a look is due");
    app.update(Action::Tick)
}

fn status_line(app: &App) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    harness::line(&harness::draw(app, &theme, chrono::Utc::now()), 0)
}

/// The issue: a look that failed while the user copied marked ids wiped "3 marked ids sent…"
/// the moment it was said. The copy's notice stays; the failure is kept for `!` and shows at
/// the next key.
#[test]
fn a_failed_look_leaves_the_notice_another_key_said() {
    let t0 = Instant::now();
    let mut app = watched(t0);
    let look = look(&mut app, t0);
    type_text(&mut app, "   y");
    let copied = status(&app);
    assert!(copied.starts_with("3 marked ids sent"), "{copied}");
    fail(&mut app, &look);
    assert_eq!(status(&app), copied, "the copy's notice stays");
    let problem = app.problem().unwrap_or_default();
    assert!(problem.contains("not refreshed"), "{problem}");
    let kept = app.last_error.as_ref().map(|e| e.message.clone());
    assert!(kept.is_some_and(|m| m.contains("HTTP 500")), "kept for !");
    key(&mut app, 'k');
    assert!(
        status_line(&app).contains("not refreshed"),
        "{}",
        status_line(&app)
    );
}

/// What `:watch` said ("watching the list every 1s") is the looks' own: a look that fails puts
/// its problem in its place at once, as before.
#[test]
fn a_failed_look_takes_back_what_watch_said() {
    let t0 = Instant::now();
    let mut app = watched(t0);
    assert!(
        status(&app).starts_with("watching the list"),
        "{}",
        status(&app)
    );
    let look = look(&mut app, t0);
    fail(&mut app, &look);
    assert_eq!(app.notice, None);
    assert!(
        status_line(&app).contains("not refreshed"),
        "{}",
        status_line(&app)
    );
}

/// A page whose only row is a resource of about 400 KB (opened in the background).
fn large_page() -> Box<Exchange> {
    let properties: serde_json::Map<String, Value> = (0..4_000)
        .map(|i| (format!("k{i}"), json!("x".repeat(90))))
        .collect();
    let page = json!({"resources": [{"id": "big", "properties": properties}]});
    let page = ListResponse::from_value(page).unwrap();
    Box::new(Exchange::local(Ok(Reply::page(page))))
}

/// `Enter` on the large row of `app`: opened in the background, and its answer.
fn open_large(app: &mut App) -> Action {
    let commands = app.update(Action::Open);
    let [Command::Run { id, job }] = commands.as_slice() else {
        panic!("opened in the background: {commands:?}")
    };
    let opened = Action::reply(*id, Delivery::Job(job.run()));
    assert!(status(app).starts_with("opening a large resource"));
    opened
}

/// An app whose only row is a resource of about 400 KB, opened in the background.
fn opening_a_large_resource() -> (App, Action) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let id = page_request(&commands).expect("the first page");
    app.update(Action::reply(id, large_page()));
    let opened = open_large(&mut app);
    (app, opened)
}

#[test]
fn an_opened_resource_takes_back_opening_but_not_another_keys_notice() {
    let (mut app, opened) = opening_a_large_resource();
    app.update(opened);
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
    assert_eq!(app.notice, None, "'opening…' went with the opening");

    let (mut app, opened) = opening_a_large_resource();
    key(&mut app, 'y');
    let copied = status(&app);
    assert!(copied.starts_with("resource id sent"), "{copied}");
    app.update(opened);
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
    assert_eq!(status(&app), copied, "the copy's notice stays");
}

/// Two works interleaved: a look that fails while a large resource opens takes back only its
/// own notice (none is up), so "opening…" still goes when the resource is open.
#[test]
fn a_failed_look_while_a_resource_opens_leaves_opening_to_the_opening() {
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    app.now = t0;
    let id = page_request(&commands).expect("the first page");
    app.update(Action::reply(id, large_page()));
    key(&mut app, ':');
    type_text(&mut app, "watch 1");
    let first = app.update(Action::Submit);
    let id = page_request(&first).expect("the first look");
    let more = app.update(Action::reply(id, large_page()));
    settle(&mut app, more);
    let opened = open_large(&mut app);
    let look = look(&mut app, t0);
    fail(&mut app, &look);
    app.update(opened);
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
    assert_eq!(app.notice, None, "'opening…' went with the opening");
}
