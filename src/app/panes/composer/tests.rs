//! The composer through `App::update`, as the event loop drives it: keys in, state and commands
//! out. No I/O.

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::check::Place;
use super::{Composer, Field, Phase, ReportContext};
use crate::api::{Answer, ApiError, Exchange, ListResponse, Reply, ReportResponse};
use crate::app::keymap::{InputMode, action_for};
use crate::app::pane::Screen;
use crate::app::{Action, App, Command, RequestId, Session};

const BASE: &str = "http://127.0.0.1:9/api/v1";

fn rows() -> Value {
    json!({"resources": [
        {"id": "r1", "type": "repository", "external_id": "x1", "name": "one",
         "properties": {"full_name": "a/one", "visibility": "public", "default_branch": "main"},
         "unknown_field": {"kept": [1, 2]}},
        {"id": "r2", "type": "team", "external_id": "x2", "name": "two"}
    ], "next": null})
}

/// An 80x24 app over two rows, with the demo's types known.
fn app() -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.report = Arc::new(ReportContext {
        base_url: BASE.to_owned(),
        types: Some(Arc::new(
            serde_json::from_str(crate::sandbox::DEMO_CONNECT).expect("demo types"),
        )),
        run_tag: "test".to_owned(),
    });
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let page = ListResponse::from_value(rows()).expect("page");
    app.update(Action::ApiResult {
        id,
        reply: Box::new(Exchange::local(Ok(Reply::page(page)))),
    });
    app
}

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Vec<Command> {
    match action_for(app.focus(), KeyEvent::new(code, modifiers)) {
        Some(action) => app.update(action),
        None => Vec::new(),
    }
}

fn key(app: &mut App, c: char) -> Vec<Command> {
    press(app, KeyCode::Char(c), KeyModifiers::NONE)
}

fn code(app: &mut App, code: KeyCode) -> Vec<Command> {
    press(app, code, KeyModifiers::NONE)
}

fn ctrl(app: &mut App, c: char) -> Vec<Command> {
    press(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, c);
    }
}

fn composer(app: &App) -> &Composer {
    match app.stack.top() {
        Some(Screen::Composer(composer)) => composer,
        _ => panic!("no composer open"),
    }
}

fn composer_mut(app: &mut App) -> &mut Composer {
    match app.stack.top_mut().map(|l| &mut l.screen) {
        Some(Screen::Composer(composer)) => composer,
        _ => panic!("no composer open"),
    }
}

/// The composer opened with `R` on the first row.
fn composing() -> App {
    let mut app = app();
    key(&mut app, 'R');
    app
}

fn answer(body: Value, status: u16) -> Box<Exchange> {
    let response = ReportResponse::from_map(body.as_object().cloned().unwrap_or_default());
    Box::new(Exchange {
        status: Some(status),
        elapsed: Duration::from_millis(12),
        result: Ok(Reply::Answer(Box::new(Answer {
            raw: body,
            response,
            http_error: None,
        }))),
    })
}

fn sent(commands: &[Command]) -> (RequestId, Value) {
    commands
        .iter()
        .find_map(|c| match c {
            Command::Api { id, call } => Some((*id, call.body.clone())),
            _ => None,
        })
        .expect("an API call")
}

#[test]
fn r_opens_a_report_about_the_row_with_the_resource_as_received_and_esc_goes_back() {
    let mut app = composing();
    let composer = composer(&app);
    assert!(composer.task_id.text().starts_with("PROVISIONAL-test-"));
    assert!(composer.task_id_provisional);
    assert_eq!(composer.status, "ok");
    assert_eq!(composer.message.text(), "");
    assert_eq!(composer.response_type.text(), "resource");
    let resource: Value = serde_json::from_str(&composer.resource_text()).unwrap();
    assert_eq!(resource, rows()["resources"][0], "unknown fields kept");
    assert_eq!(composer.field, Field::TaskId);
    code(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "back on the list");
}

#[test]
fn r_in_the_detail_reports_on_that_resource_and_esc_returns_to_the_detail() {
    let mut app = app();
    key(&mut app, 'j');
    code(&mut app, KeyCode::Enter);
    key(&mut app, 'R');
    assert_eq!(composer(&app).resource_id.as_deref(), Some("r2"));
    code(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
}

#[test]
fn typing_replaces_the_provisional_task_id_and_enter_esc_edit_the_message() {
    let mut app = composing();
    code(&mut app, KeyCode::Enter);
    assert_eq!(app.focus().mode, InputMode::Line);
    typed(&mut app, "task-9");
    code(&mut app, KeyCode::Enter);
    assert_eq!(composer(&app).task_id.text(), "task-9");
    assert_eq!(app.focus().mode, InputMode::None);
    key(&mut app, 'j');
    key(&mut app, 'j');
    assert_eq!(composer(&app).field, Field::Message);
    key(&mut app, 'i');
    typed(&mut app, "done: q j s");
    code(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).message.text(), "done: q j s");
    assert!(!app.should_quit, "q was text while editing");
    key(&mut app, 'k');
    assert_eq!(composer(&app).field, Field::Status);
}

#[test]
fn space_toggles_status_and_the_check_follows() {
    let mut app = composing();
    key(&mut app, ' ');
    assert_eq!(composer(&app).status, "error");
    key(&mut app, ' ');
    assert_eq!(composer(&app).status, "ok");
    composer_mut(&mut app).status = "OK".into();
    key(&mut app, ' ');
    assert_eq!(composer(&app).status, "ok");
}

#[test]
fn the_editor_takes_enter_as_text_and_u_ctrl_r_undo_and_redo() {
    let mut app = composing();
    for _ in 0..4 {
        key(&mut app, 'j');
    }
    assert_eq!(composer(&app).field, Field::Resource);
    code(&mut app, KeyCode::Enter);
    assert_eq!(app.focus().mode, InputMode::Editor);
    let before = composer(&app).resource_text();
    typed(&mut app, "x");
    code(&mut app, KeyCode::Enter);
    code(&mut app, KeyCode::Esc);
    assert_eq!(app.focus().mode, InputMode::None);
    let after = composer(&app).resource_text();
    assert_eq!(after, format!("x\n{before}"));
    let syntax = &composer(&app).findings[0];
    assert!(
        syntax.finding.message.contains("syntax error at line 1"),
        "{syntax:?}"
    );
    assert_eq!(syntax.place, Place::Resource { line: 0, column: 0 });
    key(&mut app, 'u');
    key(&mut app, 'u');
    assert_eq!(composer(&app).resource_text(), before);
    assert!(
        composer(&app).findings.is_empty(),
        "{:?}",
        composer(&app).findings
    );
    ctrl(&mut app, 'r');
    assert_eq!(composer(&app).resource_text(), format!("x{before}"));
}

#[test]
fn a_schema_finding_marks_its_line_and_enter_on_it_jumps_there() {
    let mut app = composing();
    let text = composer(&app).resource_text().replace("\"public\"", "42");
    composer_mut(&mut app).replace_resource(&text);
    key(&mut app, ' ');
    key(&mut app, ' ');
    let findings = composer(&app).findings.clone();
    let visibility = findings
        .iter()
        .position(|l| l.finding.pointer.ends_with("/visibility"))
        .unwrap_or_else(|| panic!("{findings:?}"));
    let line = text.lines().position(|l| l.contains("42")).unwrap();
    assert_eq!(findings[visibility].line(), Some(line));
    key(&mut app, 'G');
    assert_eq!(composer(&app).field, Field::Findings);
    for _ in 0..visibility {
        key(&mut app, 'j');
    }
    code(&mut app, KeyCode::Enter);
    assert_eq!(composer(&app).field, Field::Resource);
    assert_eq!(composer(&app).resource.cursor().0, line);
}

#[test]
fn f_fills_the_required_properties_and_u_takes_them_back() {
    let mut app = composing();
    let text = composer(&app)
        .resource_text()
        .replace("\"full_name\": \"a/one\",", "");
    composer_mut(&mut app).replace_resource(&text);
    key(&mut app, 'f');
    let filled: Value = serde_json::from_str(&composer(&app).resource_text()).unwrap();
    assert_eq!(filled["properties"]["full_name"], json!(""));
    assert_eq!(filled["unknown_field"], json!({"kept": [1, 2]}));
    key(&mut app, 'u');
    key(&mut app, 'u');
    assert_eq!(composer(&app).resource_text(), text);
}

#[test]
fn review_then_send_then_an_ok_answer_refreshes_the_list() {
    let mut app = composing();
    assert!(
        composer(&app).findings.is_empty(),
        "{:?}",
        composer(&app).findings
    );
    key(&mut app, 's');
    let Phase::Review { body, .. } = &composer(&app).phase else {
        panic!("no review");
    };
    assert_eq!(
        body["response"]["resource"]["unknown_field"],
        json!({"kept": [1, 2]})
    );
    assert_eq!(body["status"], "ok");
    let copied = key(&mut app, 'c');
    let Some(Command::Copy(curl)) = copied.first() else {
        panic!("{copied:?}");
    };
    assert!(curl.contains("$APPDECK_TOKEN") && curl.contains(BASE));
    let commands = code(&mut app, KeyCode::Enter);
    let (id, body) = sent(&commands);
    assert_eq!(body["task_id"], json!(composer(&app).task_id.text()));
    assert!(app.activity().unwrap_or_default().contains("sending"));
    let url = "http://127.0.0.1:9/app/resources/r1";
    let reply = answer(
        json!({"status": "ok", "message": "updated",
                              "metadata": {"platform_app_url": url}}),
        200,
    );
    let after = app.update(Action::ApiResult { id, reply });
    assert!(
        after
            .iter()
            .any(|c| matches!(c, Command::Api { call, .. } if call.as_list_request().is_some())),
        "the list reloads: {after:?}"
    );
    let Phase::Answered(result) = &composer(&app).phase else {
        panic!("no answer");
    };
    assert!(result.ok);
    assert_eq!(result.http_status, Some(200));
    assert_eq!(result.platform_app_url.as_deref(), Some(url));
    assert_eq!(key(&mut app, 'o'), vec![Command::OpenUrl(url.to_owned())]);
    assert_eq!(key(&mut app, 'y'), vec![Command::Copy(url.to_owned())]);
    code(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).phase, Phase::Editing);
}

#[test]
fn an_error_answer_leaves_the_report_as_it_was() {
    let mut app = composing();
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'i');
    typed(&mut app, "hello");
    code(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    let (id, _) = sent(&code(&mut app, KeyCode::Enter));
    let reply = answer(
        json!({"status": "error", "error": "properties do not match"}),
        200,
    );
    let after = app.update(Action::ApiResult { id, reply });
    assert!(
        matches!(after.as_slice(), [Command::RecordSend(_)]),
        "recorded, but no reload after a refusal: {after:?}"
    );
    let Phase::Answered(result) = &composer(&app).phase else {
        panic!("no answer");
    };
    assert!(!result.ok);
    assert_eq!(result.error.as_deref(), Some("properties do not match"));
    code(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).message.text(), "hello");
    // A network failure is an answer too.
    key(&mut app, 's');
    let (id, _) = sent(&code(&mut app, KeyCode::Enter));
    let failure = Exchange::local(Err(ApiError::Timeout(Duration::from_secs(3))));
    app.update(Action::ApiResult {
        id,
        reply: Box::new(failure),
    });
    let Phase::Answered(result) = &composer(&app).phase else {
        panic!("no answer");
    };
    assert!(!result.ok && result.http_status.is_none() && result.error.is_some());
}

#[test]
fn with_findings_the_review_asks_twice_and_esc_cancels_a_send_in_flight() {
    let mut app = composing();
    composer_mut(&mut app).status = "maybe".into();
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'i');
    typed(&mut app, "x");
    code(&mut app, KeyCode::Esc);
    assert!(!composer(&app).findings.is_empty());
    key(&mut app, 's');
    assert!(
        code(&mut app, KeyCode::Enter).is_empty(),
        "the first Enter only arms"
    );
    assert!(matches!(
        composer(&app).phase,
        Phase::Review { armed: true, .. }
    ));
    let (id, body) = sent(&code(&mut app, KeyCode::Enter));
    assert_eq!(body["status"], "maybe", "sent as written");
    let cancelled = code(&mut app, KeyCode::Esc);
    assert_eq!(cancelled[0], Command::Cancel(id));
    assert!(
        matches!(&cancelled[1..], [Command::RecordSend(sent)] if sent.http_status.is_none()),
        "the send is recorded as cancelled: {cancelled:?}"
    );
    assert_eq!(composer(&app).phase, Phase::Editing);
    let late = answer(json!({"status": "ok"}), 200);
    app.update(Action::ApiResult { id, reply: late });
    assert_eq!(
        composer(&app).phase,
        Phase::Editing,
        "a cancelled answer is dropped"
    );
}

#[test]
fn a_large_resource_is_checked_off_the_ui_thread_and_stale_results_are_dropped() {
    let mut app = composing();
    let big = json!({"type": "team", "external_id": "x", "name": "n",
                     "properties": {"blob": "a".repeat(100_000)}});
    composer_mut(&mut app).replace_resource(&serde_json::to_string_pretty(&big).unwrap());
    let shown = composer(&app).findings.clone();
    for _ in 0..4 {
        key(&mut app, 'j');
    }
    key(&mut app, 'i');
    let first = key(&mut app, 'x');
    let Some(Command::Check { id, job }) = first.first() else {
        panic!("{first:?}");
    };
    let (id, job) = (*id, job.clone());
    assert!(key(&mut app, 'y').is_empty(), "one check at a time");
    let findings = super::check::run(&job);
    let again = app.update(Action::Checked { id, findings });
    assert!(
        matches!(again.first(), Some(Command::Check { .. })),
        "stale: checked again"
    );
    assert_eq!(
        composer(&app).findings,
        shown,
        "the stale findings are not shown"
    );
}
