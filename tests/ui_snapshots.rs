//! Whole-screen snapshots of the TUI at 120x40, 80x24 and a tiny size. The app is driven only
//! through `update` with actions, as the event loop would, and drawn with a fixed clock.

use appdeck::api::{ApiError, Exchange, ListResponse, Reply};
use appdeck::app::{Action, ApiReply, App, Command, RequestId, Session};
use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use serde_json::{Value, json};

const SIZES: [(u16, u16); 3] = [(120, 40), (80, 24), (24, 7)];

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn resources(count: usize) -> Vec<Value> {
    let mut rows: Vec<Value> = (0..count)
        .map(|i| {
            let kind = ["repository", "deployment", "incident"][i % 3];
            json!({
                "id": format!("res_{i:04}"),
                "type": kind,
                "display_name": format!("{kind} number {i}"),
                "status": if i % 4 == 0 { "degraded" } else { "active" },
                "external_id": format!("ext-{i}"),
                "updated_at": "2026-11-20T09:30:00Z",
                "created_at": "2026-01-02T03:04:05Z",
                "external_url": format!("https://example.com/{i}"),
                "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë Ünal", "team": "平台"}, "archived": false, "notes": null},
                "links": {"links": [{"title": "Runbook", "type": "documentation", "url": "https://docs.example.com/runbook"}]},
                "x_region": "eu-west-1"
            })
        })
        .collect();
    rows.insert(1, json!({"id": "res_evil", "type": "repository", "display_name": "\u{1b}[31mred\u{1b}[0m\u{1b}]0;pwned\u{7} \u{202e}evil", "status": 5}));
    rows.insert(2, json!("not an object"));
    rows
}

fn page(rows: Vec<Value>, next: Option<&str>) -> ListResponse {
    ListResponse::from_value(json!({"response_type": "resources", "resources": rows, "next": next}))
        .unwrap()
}

/// Sends a key through the keymap of whatever context the app is in, like the event loop does.
fn press(app: &mut App, code: KeyCode) -> Vec<Command> {
    let event = KeyEvent::new(code, KeyModifiers::NONE);
    match appdeck::app::keymap::action_for(app.focus(), event) {
        Some(action) => app.update(action),
        None => Vec::new(),
    }
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// A page (or its failure) as the executor would deliver it.
fn page_reply(result: Result<ListResponse, ApiError>) -> Box<ApiReply> {
    Box::new(Exchange::local(result.map(Reply::page)))
}

fn first_request(commands: &[Command]) -> RequestId {
    commands
        .iter()
        .find_map(|c| match c {
            Command::Api { id, .. } => Some(*id),
            _ => None,
        })
        .expect("a request")
}

fn new_app(size: (u16, u16)) -> (App, RequestId) {
    let session = Session {
        profile: Some("demo".into()),
        host: "127.0.0.1:8080".into(),
    };
    let (app, commands) = App::new(session, Rect::new(0, 0, size.0, size.1), None);
    let id = first_request(&commands);
    (app, id)
}

fn loaded_app(size: (u16, u16)) -> App {
    let (mut app, id) = new_app(size);
    app.update(Action::ApiResult {
        id,
        reply: page_reply(Ok(page(resources(60), Some("c2")))),
    });
    app
}

fn draw(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal
        .draw(|f| appdeck::ui::render(f, app, now()))
        .unwrap();
    terminal.backend().to_string()
}

fn snapshot(name: &str, build: impl Fn((u16, u16)) -> App) {
    for size in SIZES {
        let screen = draw(&build(size));
        assert!(
            !screen.contains('\u{1b}'),
            "no escape character may reach the screen"
        );
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen);
    }
}

#[test]
fn browser_loading() {
    snapshot("browser_loading", |size| new_app(size).0);
}

#[test]
fn browser_with_rows() {
    snapshot("browser_rows", loaded_app);
}

#[test]
fn browser_first_page_failed() {
    snapshot("browser_failed", |size| {
        let (mut app, id) = new_app(size);
        let error = ApiError::Http {
            status: 401,
            reason: "Unauthorized".into(),
            message: "invalid token".into(),
        };
        app.update(Action::ApiResult {
            id,
            reply: page_reply(Err(error)),
        });
        app
    });
}

#[test]
fn browser_next_page_failed_keeps_rows() {
    snapshot("browser_more_failed", |size| {
        let (mut app, id) = new_app(size);
        let mut commands = app.update(Action::ApiResult {
            id,
            reply: page_reply(Ok(page(resources(60), Some("c2")))),
        });
        if commands.is_empty() {
            commands = app.update(Action::Bottom);
        }
        let id = first_request(&commands);
        let error = ApiError::Decode {
            problem: "not JSON (expected value at line 1 column 1)".into(),
            excerpt: "<html>".into(),
        };
        app.update(Action::ApiResult {
            id,
            reply: page_reply(Err(error)),
        });
        app
    });
}

#[test]
fn browser_filtered() {
    snapshot("browser_filtered", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "deploy");
        app
    });
}

#[test]
fn detail_view() {
    snapshot("detail", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn detail_of_a_hostile_resource() {
    snapshot("detail_hostile", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn detail_search_in_the_tree() {
    snapshot("detail_search", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "team");
        app
    });
}

#[test]
fn help_popup() {
    snapshot("help", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Char('?'));
        app
    });
}

#[test]
fn command_line_completion() {
    snapshot("command_line", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Char(':'));
        type_text(&mut app, "type ");
        press(&mut app, KeyCode::Tab);
        app
    });
}

#[test]
fn type_picker() {
    snapshot("type_picker", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Char('t'));
        app
    });
}

#[test]
fn error_popup() {
    snapshot("error_popup", |size| {
        let (mut app, id) = new_app(size);
        let error = ApiError::Network("cannot connect: Connection refused (os error 111)".into());
        app.update(Action::ApiResult {
            id,
            reply: page_reply(Err(error)),
        });
        press(&mut app, KeyCode::Char('!'));
        app
    });
}

/// The composer opened with `R` on the first row, with the demo's types known; its resource's
/// `stars` made a string so the schema has something to say.
fn composer_app(size: (u16, u16)) -> App {
    use appdeck::app::panes::composer::ReportContext;
    let mut app = loaded_app(size);
    app.report = std::sync::Arc::new(ReportContext {
        base_url: "http://127.0.0.1:8080/api/v1".into(),
        types: Some(std::sync::Arc::new(
            serde_json::from_str(appdeck::sandbox::DEMO_CONNECT).unwrap(),
        )),
        run_tag: "20261121-120000".into(),
    });
    press(&mut app, KeyCode::Char('R'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Char('j'));
    }
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "synced by hand");
    press(&mut app, KeyCode::Esc);
    app
}

fn sent_report(app: &mut App) -> RequestId {
    press(app, KeyCode::Char('s'));
    press(app, KeyCode::Enter);
    first_request(&press(app, KeyCode::Enter))
}

fn report_answer(status: u16, body: Value) -> Box<ApiReply> {
    let answer = appdeck::api::Answer {
        response: appdeck::api::ReportResponse::from_map(body.as_object().cloned().unwrap()),
        raw: body,
    };
    Box::new(Exchange {
        status: Some(status),
        elapsed: std::time::Duration::from_millis(87),
        result: Ok(Reply::Answer(Box::new(answer))),
    })
}

#[test]
fn composer_with_findings() {
    snapshot("composer_findings", composer_app);
}

#[test]
fn composer_review() {
    snapshot("composer_review", |size| {
        let mut app = composer_app(size);
        press(&mut app, KeyCode::Char('s'));
        app
    });
}

#[test]
fn composer_ok_answer() {
    snapshot("composer_ok_answer", |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": "ok", "message": "updated resource res_0000",
                          "metadata": {"platform_app_url": "http://127.0.0.1:8080/app/resources/res_0000"}});
        app.update(Action::ApiResult {
            id,
            reply: report_answer(200, body),
        });
        app
    });
}

#[test]
fn composer_error_answer() {
    snapshot("composer_error_answer", |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": "error", "error": "properties do not match the type's schema: /stars: \"x\" is not of type integer"});
        app.update(Action::ApiResult {
            id,
            reply: report_answer(422, body),
        });
        app
    });
}
