//! The composer through `App::update`, as the event loop drives it: keys in, state and commands
//! out. No I/O.

use crate::app::Delivery;
use crate::app::harness::{ctrl, key, press, report_opened, type_text};
use crate::app::job::Work;
use crate::app::pane::Open;
use crate::app::tests::edit_command;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::check::Place;
use super::{Field, Phase, ReportComposer, ReportContext};
use crate::api::{Answer, ApiError, Exchange, ListResponse, Reply, ReportResponse};
use crate::app::keymap::InputMode;
use crate::app::pane::Screen;
use crate::app::tests::tick;
use crate::app::{Action, App, Command, DraftSlot, Notice, RequestId, Session, StoredDraft};
use crate::store::DraftRevision;

const BASE: &str = "http://127.0.0.1:9/api/v1";

/// A stored draft as the store reads one back.
const REVISION: DraftRevision = DraftRevision {
    row: 7,
    revision: 3,
};

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
            serde_json::from_str(crate::catalog::DEMO_CONNECT).expect("demo types"),
        )),
        types_text: None,
        run_tag: "test".to_owned(),
    });
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let page = ListResponse::from_value(rows()).expect("page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    app
}

fn composer(app: &App) -> &ReportComposer {
    match app.stack.top() {
        Some(Screen::Report(composer)) => composer,
        _ => panic!("no composer open"),
    }
}

fn composer_mut(app: &mut App) -> &mut ReportComposer {
    match app.stack.top_mut().map(|l| &mut l.screen) {
        Some(Screen::Report(composer)) => composer,
        _ => panic!("no composer open"),
    }
}

/// The composer opened with `R` on the first row.
fn composing() -> App {
    let mut app = app();
    key(&mut app, 'R');
    app
}

/// A report's answer: `body` with the HTTP `status`.
pub(super) fn answer(body: Value, status: u16) -> Box<Exchange> {
    let response = ReportResponse::from_map(body.as_object().cloned().unwrap_or_default());
    Box::new(Exchange {
        status: Some(status),
        elapsed: Duration::from_millis(12),
        result: Ok(Reply::Answer(Box::new(Answer {
            text: body.to_string(),
            raw: body,
            response,
            http_error: None,
        }))),
    })
}

/// `s`, then `Enter` in the review, twice when findings make it ask again: the send's id and
/// body.
fn reviewed_and_sent(app: &mut App) -> (RequestId, Value) {
    key(app, 's');
    let commands = press(app, KeyCode::Enter);
    match sent_or_none(&commands) {
        Some(_) => sent(&commands),
        None => sent(&press(app, KeyCode::Enter)),
    }
}

fn sent(commands: &[Command]) -> (RequestId, Value) {
    commands
        .iter()
        .find_map(|c| match c {
            Command::Api { id, call } => Some((*id, call.body.value().clone())),
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
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "back on the list");
}

#[test]
fn r_in_the_detail_reports_on_that_resource_and_esc_returns_to_the_detail() {
    let mut app = app();
    key(&mut app, 'j');
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'R');
    assert_eq!(composer(&app).resource_id.as_deref(), Some("r2"));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
}

/// Tester's MED 5: the detail a report was sent from still shows the resource as it was before
/// (the list fetches its rows again, the detail does not): it says so, and `R` from it again
/// warns that the report starts from that copy, which would undo what the first one changed.
#[test]
fn the_detail_a_report_was_accepted_from_says_it_shows_the_resource_as_before() {
    let mut app = app();
    key(&mut app, 'j');
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'R');
    let (id, _) = reviewed_and_sent(&mut app);
    app.update(Action::reply(id, answer(json!({"status": "ok"}), 200)));
    // From the answer back to the report, then to the detail.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("back on the detail")
    };
    assert_eq!(detail.not_live, Some(appdeck_listing::NotLive::Reported));
    let said = report_opened(&mut app);
    assert!(
        said.starts_with("warning: a report about this resource was accepted since it was shown"),
        "{said}"
    );
    // A detail of another resource is not told.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "back on the list");
    key(&mut app, 'k');
    press(&mut app, KeyCode::Enter);
    let Some(Screen::Detail(other)) = app.stack.top() else {
        panic!("the other detail")
    };
    assert_eq!(other.not_live, None);
}

#[test]
fn typing_replaces_the_provisional_task_id_and_enter_esc_edit_the_message() {
    let mut app = composing();
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.focus().mode, InputMode::Field);
    // Esc keeps what was typed: the footer says so (it said "Esc cancel", issue 20 item 8).
    let footer: Vec<String> = app
        .focus()
        .keys
        .bindings()
        .filter(|b| !b.footer.is_empty())
        .map(|b| format!("{} {}", b.label, b.footer))
        .collect();
    assert_eq!(footer, ["Enter/Esc done"]);
    type_text(&mut app, "task-9");
    press(&mut app, KeyCode::Enter);
    assert_eq!(composer(&app).task_id.text(), "task-9");
    assert_eq!(app.focus().mode, InputMode::None);
    key(&mut app, 'j');
    key(&mut app, 'j');
    assert_eq!(composer(&app).field, Field::Message);
    key(&mut app, 'i');
    type_text(&mut app, "done: q j s");
    press(&mut app, KeyCode::Esc);
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
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.focus().mode, InputMode::Editor);
    let before = composer(&app).resource_text();
    type_text(&mut app, "x");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
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

/// `^z` in the middle of an edit asks the runtime to suspend, and nothing else: the composer,
/// its editor and the text typed are there as they were when `fg` brings appdeck back.
#[test]
fn ctrl_z_while_editing_asks_to_suspend_and_keeps_the_edit() {
    let mut app = composing();
    for _ in 0..4 {
        key(&mut app, 'j');
    }
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "x");
    let typed = composer(&app).resource_text();
    assert_eq!(ctrl(&mut app, 'z'), vec![Command::Suspend]);
    assert_eq!(app.focus().mode, InputMode::Editor);
    assert_eq!(composer(&app).resource_text(), typed, "no z typed");
    type_text(&mut app, "y");
    assert!(composer(&app).resource_text().starts_with("xy"));
    assert!(!app.should_quit);
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
    press(&mut app, KeyCode::Enter);
    assert_eq!(composer(&app).field, Field::Resource);
    assert_eq!(composer(&app).resource.cursor().0, line);
}

#[test]
fn types_loaded_from_the_store_or_files_check_the_properties_of_reports() {
    use crate::catalog::{AppVersion, Catalog, Source};
    let visibility_of = |app: &App| {
        composer(app)
            .findings
            .iter()
            .any(|l| l.finding.pointer.ends_with("/visibility"))
    };
    let mut app = app();
    app.report = Arc::new(ReportContext {
        types: None,
        ..(*app.report).clone()
    });
    // A file's (or a recorded connect's) definition, not the demo's.
    let payload = json!({"app_id": "acme", "version": "2.0.0", "resources": [
        {"type": "repository", "property_json_schema": {
            "type": "object",
            "properties": {"visibility": {"type": "integer"}}
        }}
    ]});
    let version = AppVersion::from_payload(
        payload.as_object().cloned().unwrap(),
        Source::File("acme.json".into()),
        None,
    );
    let types = crate::app::KnownTypes {
        catalog: Catalog::from_versions(vec![version]),
        problems: Vec::new(),
    };
    let id = app.ids.issue();
    app.update(Action::reply(id, Delivery::Types(Arc::new(types))));
    key(&mut app, 'R');
    assert!(
        visibility_of(&app),
        "\"public\" is not an integer under the loaded type: {:?}",
        composer(&app).findings
    );
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
    // The demo's `full_name` has minLength 3 and the pattern `^[^/]+/[^/]+$`.
    assert_eq!(filled["properties"]["full_name"], json!("a/a"));
    assert_eq!(filled["unknown_field"], json!({"kept": [1, 2]}));
    assert!(
        composer(&app).findings.is_empty(),
        "{:?}",
        composer(&app).findings
    );
    // The fill changed the blank line left by the removal too (a cut, then an insert): one
    // step all the same.
    key(&mut app, 'u');
    assert_eq!(composer(&app).resource_text(), text);
}

/// The composer opened with `R` on the first row, its type's schema being `schema`.
fn composing_under(schema: Value) -> App {
    let mut app = app();
    let types = json!({"app_id": "t", "version": "1.0.0", "resources": [
        {"type": "repository", "property_json_schema": schema}
    ]});
    app.report = Arc::new(ReportContext {
        base_url: BASE.to_owned(),
        types: Some(Arc::new(types)),
        types_text: None,
        run_tag: "test".to_owned(),
    });
    key(&mut app, 'R');
    app
}

#[test]
fn f_fills_values_that_meet_min_length_and_pattern_and_names_what_it_cannot() {
    let mut app = composing_under(json!({
        "type": "object",
        "required": ["key", "label", "twice"],
        "properties": {
            "key": {"type": "string", "minLength": 5, "pattern": "^[a-z]+-[0-9]+$"},
            "label": {"type": "string", "minLength": 5},
            "twice": {"type": "string", "pattern": "^(ab)\\1$"}
        }
    }));
    let before = composer(&app).resource_text();
    key(&mut app, 'f');
    let filled: Value = serde_json::from_str(&composer(&app).resource_text()).unwrap();
    assert_eq!(filled["properties"]["key"], json!("aa-00"));
    assert_eq!(filled["properties"]["label"], json!("xxxxx"));
    assert_eq!(
        filled["properties"]["twice"],
        json!(""),
        "the placeholder stays"
    );
    let pointers: Vec<&str> = composer(&app)
        .findings
        .iter()
        .map(|f| f.finding.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/response/resource/properties/twice"]);
    assert!(
        matches!(&app.notice, Some(Notice::Error(e)) if e.contains("of twice: write it")),
        "{:?}",
        app.notice
    );
    // Added to a resource as the composer shows it, the properties are one insert: one `u`.
    key(&mut app, 'u');
    assert_eq!(composer(&app).resource_text(), before);
}

/// The composer with the resource emptied and its editor taking the keys.
fn editing_an_empty_resource() -> App {
    let mut app = composing();
    composer_mut(&mut app).replace_resource("");
    composer_mut(&mut app).field = Field::Resource;
    press(&mut app, KeyCode::Enter);
    app
}

/// `^u` or `^r` in the editor, then the resource's text.
fn ctrl_then_text(app: &mut App, c: char) -> String {
    ctrl(app, c);
    composer(app).resource_text()
}

#[test]
fn undo_takes_back_a_word_not_a_character() {
    let mut app = editing_an_empty_resource();
    type_text(&mut app, "hello world");
    assert_eq!(composer(&app).resource_text(), "hello world");
    // `^u` in the editor, `u` out of it: one word each.
    assert_eq!(ctrl_then_text(&mut app, 'u'), "hello ");
    press(&mut app, KeyCode::Esc);
    key(&mut app, 'u');
    assert_eq!(composer(&app).resource_text(), "");
    assert_eq!(ctrl_then_text(&mut app, 'r'), "hello ");
    // Backspaces come back a word at a time too.
    press(&mut app, KeyCode::Enter);
    for _ in 0..3 {
        press(&mut app, KeyCode::Backspace);
    }
    assert_eq!(composer(&app).resource_text(), "hel");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "hello ");
}

/// As in other editors, a cursor move ends the run of typing: `abc`, Left, Right, `def` are two
/// undo steps, though `def` lands right after `abc`; so are `abc`, Home, `def`.
#[test]
fn a_cursor_move_ends_the_word_undo_takes_back() {
    let mut app = editing_an_empty_resource();
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Right);
    type_text(&mut app, "def");
    assert_eq!(composer(&app).resource_text(), "abcdef");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "abc");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "");
    // Home, then typing at the start of the line: the new word is its own step.
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Home);
    type_text(&mut app, "def");
    assert_eq!(composer(&app).resource_text(), "defabc");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "abc");
    // Without a move, the run goes on: one step.
    press(&mut app, KeyCode::End);
    type_text(&mut app, "xy");
    type_text(&mut app, "z");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "abc");
}

#[test]
fn leaving_the_editor_ends_the_word_undo_takes_back() {
    let mut app = editing_an_empty_resource();
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "def");
    assert_eq!(composer(&app).resource_text(), "abcdef");
    assert_eq!(ctrl_then_text(&mut app, 'u'), "abc");
}

/// Issue 37 item 2: an accepted report about a listed resource says what it changed, value by
/// value, against the resource as listed; the history's record keeps that resource.
#[test]
fn an_accepted_report_says_what_it_changed_against_the_resource_as_listed() {
    let mut app = composing();
    let mut resource: Value = serde_json::from_str(&composer(&app).resource_text()).unwrap();
    resource["name"] = json!("renamed");
    resource["properties"]["visibility"] = json!("private");
    let text = serde_json::to_string_pretty(&resource).unwrap();
    composer_mut(&mut app).replace_resource(&text);
    let (id, _) = reviewed_and_sent(&mut app);
    let after = app.update(Action::reply(id, answer(json!({"status": "ok"}), 200)));
    let Phase::Answered(result) = &composer(&app).phase else {
        panic!("no answer");
    };
    let changes: Vec<String> = result
        .changes
        .iter()
        .flatten()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        changes,
        [
            r#"changed /name: "one" → "renamed""#,
            r#"changed /properties/visibility: "public" → "private""#,
        ]
    );
    let recorded = after.iter().find_map(|c| match c {
        Command::RecordSend { sent, .. } => Some(sent),
        _ => None,
    });
    let before = recorded.and_then(|s| s.resource_before.as_deref());
    let before: Value = serde_json::from_str(before.expect("the resource as listed")).unwrap();
    assert_eq!(before, rows()["resources"][0]);
}

fn sent_or_none(commands: &[Command]) -> Option<RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, .. } => Some(*id),
        _ => None,
    })
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
    let commands = press(&mut app, KeyCode::Enter);
    let (id, body) = sent(&commands);
    assert_eq!(body["task_id"], json!(composer(&app).task_id.text()));
    assert!(app.activity().unwrap_or_default().contains("sending"));
    let url = "http://127.0.0.1:9/app/resources/r1";
    let reply = answer(
        json!({"status": "ok", "message": "updated",
                              "metadata": {"platform_app_url": url}}),
        200,
    );
    let after = app.update(Action::reply(id, reply));
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
    press(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).phase, Phase::Editing);
}

#[test]
fn an_error_answer_leaves_the_report_as_it_was() {
    let mut app = composing();
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'i');
    type_text(&mut app, "hello");
    press(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let reply = answer(
        json!({"status": "error", "error": "properties do not match"}),
        200,
    );
    let after = app.update(Action::reply(id, reply));
    assert!(
        matches!(after.as_slice(), [Command::RecordSend { .. }]),
        "recorded, but no reload after a refusal: {after:?}"
    );
    let Phase::Answered(result) = &composer(&app).phase else {
        panic!("no answer");
    };
    assert!(!result.ok);
    assert_eq!(result.error.as_deref(), Some("properties do not match"));
    press(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).message.text(), "hello");
    // A network failure is an answer too.
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let failure = Exchange::local(Err(ApiError::Timeout(Duration::from_secs(3))));
    app.update(Action::reply(id, Box::new(failure)));
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
    type_text(&mut app, "x");
    press(&mut app, KeyCode::Esc);
    assert!(!composer(&app).findings.is_empty());
    key(&mut app, 's');
    assert!(
        press(&mut app, KeyCode::Enter).is_empty(),
        "the first Enter only arms"
    );
    assert!(matches!(
        composer(&app).phase,
        Phase::Review { armed: true, .. }
    ));
    let (id, body) = sent(&press(&mut app, KeyCode::Enter));
    assert_eq!(body["status"], "maybe", "sent as written");
    let cancelled = press(&mut app, KeyCode::Esc);
    assert_eq!(cancelled[0], Command::Cancel(id));
    assert!(
        matches!(&cancelled[1..], [Command::RecordSend { sent, .. }] if sent.http_status.is_none()),
        "the send is recorded as cancelled: {cancelled:?}"
    );
    assert_eq!(composer(&app).phase, Phase::Editing);
    let late = answer(json!({"status": "ok"}), 200);
    app.update(Action::reply(id, late));
    assert_eq!(
        composer(&app).phase,
        Phase::Editing,
        "a cancelled answer is dropped"
    );
}

/// A send in flight when appdeck quits is recorded as cancelled, as `Esc` records it: `q` (or
/// `^c`) during a send left no history entry.
#[test]
fn quitting_during_a_send_records_it_as_cancelled() {
    let mut app = composing();
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let quitting = app.update(Action::ForceQuit);
    assert!(quitting.contains(&Command::Cancel(id)), "{quitting:?}");
    let recorded: Vec<_> = (quitting.iter())
        .filter_map(|c| match c {
            Command::RecordSend { sent, .. } => Some(sent),
            _ => None,
        })
        .collect();
    assert!(
        matches!(recorded.as_slice(), [sent] if sent.http_status.is_none() && sent.error.is_some()),
        "{quitting:?}"
    );
    assert!(app.should_quit);
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
    let Some((id, job)) = checks(&first).into_iter().next() else {
        panic!("{first:?}");
    };
    assert!(key(&mut app, 'y').is_empty(), "one check at a time");
    let again = app.update(Action::reply(id, Delivery::Job(job.run())));
    assert_eq!(checks(&again).len(), 1, "stale: checked again: {again:?}");
    assert_eq!(
        composer(&app).findings,
        shown,
        "the stale findings are not shown"
    );
}

// ------------------------------------------------------------------- e: the external editor

#[test]
fn e_sends_the_whole_report_as_pretty_json_and_its_edit_comes_back_into_the_fields() {
    let mut app = composing();
    let commands = key(&mut app, 'e');
    let (id, text) = edit_command(&commands);
    let report: Value = serde_json::from_str(&text).expect("the report is JSON");
    assert_eq!(report["status"], "ok");
    assert_eq!(
        report["response"]["resource"]["unknown_field"],
        json!({"kept": [1, 2]})
    );
    assert!(text.contains("\n  \"status\": \"ok\""), "pretty: {text}");
    assert!(
        app.activity()
            .unwrap_or_default()
            .contains("external editor")
    );
    let edited = text.replace("\"message\": \"\"", "\"message\": \"from vi\"");
    app.update(Action::reply(
        id,
        Delivery::Edited(Ok(
            edited.replace("\"name\": \"one\"", "\"name\": \"renamed\"")
        )),
    ));
    let composer = composer(&app);
    assert_eq!(composer.message.text(), "from vi");
    assert!(composer.resource_text().contains("\"renamed\""));
    assert!(composer.unparsed.is_none());
    assert!(composer.editing_externally.is_none());
    assert_eq!(
        app.notice,
        Some(Notice::Info(
            "the report was updated from the editor".into()
        ))
    );
    // The change is a change like any other: its draft is due.
    assert!(composer.draft.unsaved.is_some());
}

#[test]
fn an_edit_that_is_not_json_is_kept_as_text_with_its_error_and_e_reopens_it() {
    let mut app = composing();
    let (id, text) = edit_command(&key(&mut app, 'e'));
    let broken = text.replacen('{', "{ \"task_id\": oops,", 1);
    app.update(Action::reply(id, Delivery::Edited(Ok(broken.clone()))));
    let kept = composer(&app).unparsed.clone().expect("kept as text");
    assert_eq!(kept.text, broken, "exactly what was typed");
    assert!(kept.error.contains("line 1"), "{}", kept.error);
    assert!(
        matches!(&app.notice, Some(Notice::Error(e)) if e.contains("not JSON")),
        "{:?}",
        app.notice
    );
    // The other keys are not the composer's now: s does not review half a report.
    assert_eq!(app.focus().keys.name, "edited report (not JSON)");
    key(&mut app, 's');
    assert_eq!(composer(&app).phase, Phase::Editing);
    // e opens the kept text again, and a fixed text is read into the fields.
    let (id, again) = edit_command(&key(&mut app, 'e'));
    assert_eq!(again, broken);
    let fixed = again.replacen("\"task_id\": oops,", "", 1);
    app.update(Action::reply(id, Delivery::Edited(Ok(fixed))));
    assert!(composer(&app).unparsed.is_none());
    assert_eq!(app.focus().keys.name, "report composer");
}

#[test]
fn x_drops_the_kept_text_and_an_editor_failure_changes_nothing() {
    let mut app = composing();
    let before = composer(&app).report_text();
    let (id, _) = edit_command(&key(&mut app, 'e'));
    app.update(Action::reply(
        id,
        Delivery::Edited(Err(
            "the editor `nope` was not found: set $VISUAL or $EDITOR".into(),
        )),
    ));
    assert!(
        matches!(&app.notice, Some(Notice::Error(e)) if e.contains("not found")),
        "{:?}",
        app.notice
    );
    assert_eq!(composer(&app).report_text(), before);
    assert!(composer(&app).draft.unsaved.is_none(), "nothing changed");
    let (id, _) = edit_command(&key(&mut app, 'e'));
    app.update(Action::reply(id, Delivery::Edited(Ok("[1, 2]".into()))));
    assert!(
        composer(&app).unparsed.is_some(),
        "an array is not a report"
    );
    key(&mut app, 'X');
    assert!(composer(&app).unparsed.is_none());
    assert_eq!(composer(&app).report_text(), before);
    // An answer for an edit that is not the one running is dropped.
    app.update(Action::reply(id, Delivery::Edited(Ok("{}".into()))));
    assert_eq!(composer(&app).report_text(), before);
}

#[test]
fn e_with_a_resource_that_is_not_json_edits_it_as_it_is() {
    let mut app = composing();
    composer_mut(&mut app).replace_resource("{\"id\": \"r1\",");
    let (_, text) = edit_command(&key(&mut app, 'e'));
    assert!(text.contains("\"resource\": {\"id\": \"r1\","), "{text}");
    assert!(text.contains("\"task_id\""), "{text}");
}

// -------------------------------------------------------------------------------- drafts

/// A composer opened at `start` with `R`, its draft look-up answered with `stored`.
fn composing_at(start: std::time::Instant, stored: Option<StoredDraft>) -> App {
    let mut app = app();
    app.now = start;
    let commands = key(&mut app, 'R');
    let (id, subject) = commands
        .iter()
        .find_map(|c| match c {
            Command::LoadDraft { id, subject } => Some((*id, subject.clone())),
            _ => None,
        })
        .expect("the draft is looked up");
    assert_eq!(subject.kind, "report");
    assert_eq!(subject.subject, "r1");
    app.update(Action::reply(id, Delivery::DraftLoaded(Ok(stored))));
    app
}

fn saves(commands: &[Command]) -> Vec<String> {
    commands
        .iter()
        .filter_map(|c| match c {
            Command::SaveDraft { body, .. } => Some(body.clone()),
            _ => None,
        })
        .collect()
}

/// Types into the message at `at`.
fn type_message(app: &mut App, at: std::time::Instant, text: &str) {
    app.now = at;
    composer_mut(app).field = Field::Message;
    key(app, 'i');
    type_text(app, text);
    press(app, KeyCode::Esc);
}

#[test]
fn a_draft_is_saved_after_a_pause_within_a_second_never_while_idle_and_typing_postpones_it() {
    use super::draft::{LONGEST_UNSAVED, QUIET};
    let t0 = std::time::Instant::now();
    let ms = |n: u64| t0 + Duration::from_millis(n);
    let mut app = composing_at(t0, None);
    assert_eq!(app.wake_at(), None, "nothing typed: no timer at all");
    type_message(&mut app, ms(0), "a");
    assert_eq!(app.wake_at(), Some(ms(0) + QUIET));
    assert!(saves(&tick(&mut app, ms(400))).is_empty(), "not yet");
    type_message(&mut app, ms(300), "b");
    assert_eq!(app.wake_at(), Some(ms(800)), "typing postponed it");
    assert!(saves(&tick(&mut app, ms(799))).is_empty());
    let saved = saves(&tick(&mut app, ms(800)));
    assert_eq!(saved.len(), 1);
    let body: Value = serde_json::from_str(&saved[0]).unwrap();
    assert_eq!(body["message"], "ab");
    assert_eq!(app.wake_at(), None, "saved: idle again, no timer");
    assert!(saves(&tick(&mut app, ms(60_000))).is_empty());
    // Typing without a pause is saved anyway, LONGEST_UNSAVED after its first change.
    for n in 0..30 {
        type_message(&mut app, ms(10_000 + n * 100), "c");
    }
    assert_eq!(app.wake_at(), Some(ms(10_000) + LONGEST_UNSAVED));
    assert_eq!(saves(&tick(&mut app, ms(11_000))).len(), 1);
}

/// Types into the message at `at`; a second later the save asked for, whose id is returned.
fn typed_and_saving(app: &mut App, at: std::time::Instant, text: &str) -> RequestId {
    type_message(app, at, text);
    let commands = tick(app, at + Duration::from_secs(1));
    commands
        .iter()
        .find_map(Command::request_id)
        .expect("a save")
}

#[test]
fn the_saved_cue_waits_for_the_store_and_closing_saves_what_is_pending() {
    let t0 = std::time::Instant::now();
    let mut app = composing_at(t0, None);
    let id = typed_and_saving(&mut app, t0, "x");
    assert_eq!(composer(&app).draft.saved, None);
    app.update(Action::reply(id, Delivery::DraftSaved(Ok(()))));
    assert_eq!(composer(&app).draft.saved, Some(Ok(())));
    // A failed save says so in the status bar.
    type_message(&mut app, t0 + Duration::from_secs(5), "y");
    let commands = tick(&mut app, t0 + Duration::from_secs(6));
    let id = commands.iter().find_map(Command::request_id).unwrap();
    app.update(Action::reply(
        id,
        Delivery::DraftSaved(Err("the store is locked".into())),
    ));
    assert!(
        app.problem()
            .unwrap_or_default()
            .contains("draft not saved")
    );
    // Esc within the quiet second saves at once rather than losing the typing.
    type_message(&mut app, t0 + Duration::from_secs(7), "z");
    let commands = press(&mut app, KeyCode::Esc);
    let saved = saves(&commands);
    assert_eq!(saved.len(), 1, "{commands:?}");
    assert!(saved[0].contains("\"xyz\""), "{}", saved[0]);
    assert!(app.stack.top().is_none());
}

#[test]
fn a_stored_draft_is_restored_with_its_age_and_d_discards_it() {
    let t0 = std::time::Instant::now();
    // A draft made by typing in one composer...
    let mut first = composing_at(t0, None);
    type_message(&mut first, t0, "half written");
    composer_mut(&mut first).replace_resource("{\"id\": \"r1\", \"name\": \"draft\"");
    let body = saves(&press(&mut first, KeyCode::Esc))
        .pop()
        .expect("saved");
    // ...comes back in the next one about the same resource.
    let stored = StoredDraft {
        body,
        age: Duration::from_secs(180),
        revision: REVISION,
        sent: None,
    };
    let mut app = composing_at(t0, Some(stored));
    assert_eq!(composer(&app).message.text(), "half written");
    assert!(composer(&app).resource_text().contains("\"draft\""));
    assert_eq!(
        app.notice,
        Some(Notice::Info(
            "draft from 3 min ago restored; D discards it".into()
        ))
    );
    assert!(
        !composer(&app).findings.is_empty(),
        "the restored text is checked: its resource is not JSON"
    );
    assert_eq!(app.wake_at(), None, "restoring is not a change to save");
    // Typing in it saves over the draft it went on from, under its own name.
    let mut went_on = app.clone();
    type_message(&mut went_on, t0, "!");
    let commands = tick(&mut went_on, t0 + Duration::from_secs(1));
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::SaveDraft { slot, .. }
            if slot.from == Some(REVISION) && slot.owner.is_some())),
        "{commands:?}"
    );
    let commands = key(&mut app, 'D');
    let restored = DraftSlot {
        subject: ReportComposer::draft_subject(Some("r1")),
        owner: None,
        from: Some(REVISION),
    };
    assert!(
        commands.contains(&Command::RemoveDraft(restored)),
        "the draft it went on from goes: {commands:?}"
    );
    let composer = composer(&app);
    assert_eq!(composer.message.text(), "");
    let resource: Value = serde_json::from_str(&composer.resource_text()).unwrap();
    assert_eq!(resource, rows()["resources"][0], "back to the resource");
    assert!(composer.task_id_provisional);
    assert!(composer.findings.is_empty());
    assert!(composer.draft.restored.is_none());
}

#[test]
fn a_draft_arriving_after_typing_started_is_not_restored_over_it() {
    let t0 = std::time::Instant::now();
    let mut app = app();
    app.now = t0;
    let commands = key(&mut app, 'R');
    let id = commands
        .iter()
        .find_map(|c| match c {
            Command::LoadDraft { id, .. } => Some(*id),
            _ => None,
        })
        .unwrap();
    type_message(&mut app, t0, "mine");
    let body = serde_json::to_string(&composer(&app).draft_body())
        .unwrap()
        .replace("mine", "older");
    app.update(Action::reply(
        id,
        Delivery::DraftLoaded(Ok(Some(StoredDraft {
            body,
            age: Duration::from_secs(5),
            revision: REVISION,
            sent: None,
        }))),
    ));
    assert_eq!(composer(&app).message.text(), "mine");
}

#[test]
fn an_ok_answer_removes_the_draft_and_cancels_a_pending_save() {
    let t0 = std::time::Instant::now();
    let mut app = composing_at(t0, None);
    type_message(&mut app, t0, "send me");
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let own = composer(&app).draft.slot();
    assert_eq!(own.subject, ReportComposer::draft_subject(Some("r1")));
    let after = app.update(Action::reply(id, answer(json!({"status": "ok"}), 200)));
    assert!(after.contains(&Command::DraftSent(own)), "{after:?}");
    assert_eq!(app.wake_at(), None, "no save after the removal");
    // An error answer keeps the draft.
    let mut app = composing_at(t0, None);
    type_message(&mut app, t0, "send me");
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let after = app.update(Action::reply(
        id,
        answer(json!({"status": "error", "error": "no"}), 400),
    ));
    assert!(
        !after
            .iter()
            .any(|c| matches!(c, Command::RemoveDraft(_) | Command::DraftSent(_))),
        "{after:?}"
    );
    assert!(app.wake_at().is_some(), "the typing is still to be saved");
}

/// The report goes out only after its text is saved marked as being sent, so that a window
/// ending before the answer is recorded never leaves it to come back as unsent; a send the
/// service refused is saved again, which clears the mark.
#[test]
fn a_send_saves_its_draft_marked_as_being_sent_first_and_a_refusal_saves_it_again() {
    let t0 = std::time::Instant::now();
    let mut app = composing_at(t0, None);
    type_message(&mut app, t0, "send me");
    key(&mut app, 's');
    let commands = press(&mut app, KeyCode::Enter);
    let mark = commands
        .iter()
        .position(|c| matches!(c, Command::DraftSending { .. }))
        .expect("marked as being sent");
    let send = commands
        .iter()
        .position(|c| matches!(c, Command::Api { .. }))
        .expect("sent");
    assert!(mark < send, "{commands:?}");
    let Command::DraftSending { slot, body } = &commands[mark] else {
        unreachable!()
    };
    assert_eq!(*slot, composer(&app).draft.slot());
    assert!(slot.owner.is_some(), "the composer's own draft");
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["message"], "send me");
    assert_eq!(
        app.wake_at(),
        None,
        "nothing left to save while it is in flight"
    );
    let (id, _) = sent(&commands);
    app.update(Action::reply(
        id,
        answer(json!({"status": "error", "error": "no"}), 400),
    ));
    let due = app.wake_at().expect("a refused send is saved again");
    let saved = saves(&tick(&mut app, due));
    assert_eq!(saved.len(), 1, "saved again, unmarked");
}

/// A draft that was sent and accepted, but that the store could not remove (a full disk),
/// comes back saying when it was sent: never as a report not sent yet.
#[test]
fn a_restored_draft_that_was_sent_says_so_in_its_title() {
    let t0 = std::time::Instant::now();
    let mut first = composing_at(t0, None);
    type_message(&mut first, t0, "sent already");
    let body = saves(&press(&mut first, KeyCode::Esc))
        .pop()
        .expect("saved");
    let stored = StoredDraft {
        body,
        age: Duration::from_secs(600),
        revision: REVISION,
        sent: Some(Duration::from_secs(180)),
    };
    let app = composing_at(t0, Some(stored));
    assert_eq!(composer(&app).message.text(), "sent already");
    let title = composer(&app).draft.cue();
    assert!(title.contains("sent 3 min ago"), "{title}");
}

#[test]
fn draft_ages_read_naturally() {
    use super::draft::age_words;
    assert_eq!(age_words(Duration::from_secs(12)), "12 s");
    assert_eq!(age_words(Duration::from_secs(180)), "3 min");
    assert_eq!(age_words(Duration::from_secs(7300)), "2 h");
    assert_eq!(age_words(Duration::from_secs(86_400)), "1 day");
    assert_eq!(age_words(Duration::from_secs(4 * 86_400)), "4 days");
}

#[test]
fn q_saves_the_pending_draft_before_quitting() {
    let t0 = std::time::Instant::now();
    let mut app = composing_at(t0, None);
    type_message(&mut app, t0, "last words");
    let commands = key(&mut app, 'q');
    assert!(app.should_quit);
    let saved = saves(&commands);
    assert_eq!(saved.len(), 1, "{commands:?}");
    assert!(saved[0].contains("last words"));
}

/// A composer whose draft, `text` typed at `at`, the store refused ("disk full").
fn composing_with_a_refused_draft(at: std::time::Instant, text: &str) -> App {
    let mut app = composing_at(at, None);
    let id = typed_and_saving(&mut app, at, text);
    app.update(Action::reply(
        id,
        Delivery::DraftSaved(Err("disk full".into())),
    ));
    app
}

/// The unsaved work `commands` keep in a file as the app quits.
fn kept(commands: &[Command]) -> Vec<&crate::app::pane::UnsavedWork> {
    commands
        .iter()
        .filter_map(|c| match c {
            Command::KeepUnsaved(work) => Some(work),
            _ => None,
        })
        .collect()
}

/// `q` with a draft the store did not take asks first, in a popup (issue 35 item 11: the
/// question was cut off the status bar, and a second `q` lost the text): other keys leave it
/// open, `Esc` stays, `q` quits with one more try at saving and the text kept in a file.
/// Typing after the failed save does not make it forgotten.
#[test]
fn q_with_a_draft_the_store_did_not_take_asks_before_quitting() {
    use crate::app::overlay::Overlay;
    let t0 = std::time::Instant::now();
    let mut app = composing_with_a_refused_draft(t0, "precious");
    type_message(&mut app, t0 + Duration::from_secs(2), " more");
    assert_eq!(key(&mut app, 'q'), Vec::new());
    assert!(!app.should_quit, "asked first");
    let Some(Overlay::Quit(ask)) = &app.overlay else {
        panic!("{:?}", app.overlay);
    };
    assert_eq!(ask.unsaved.len(), 1);
    assert!(ask.unsaved[0].why.contains("disk full"), "{ask:?}");
    assert_eq!(app.focus().keys.name, "quit?");
    key(&mut app, 'j');
    assert!(matches!(app.overlay, Some(Overlay::Quit(_))), "still asked");
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none() && !app.should_quit, "Esc stays");
    key(&mut app, 'q');
    assert!(!app.should_quit, "asked again");
    let commands = key(&mut app, 'q');
    assert!(app.should_quit);
    assert_eq!(saves(&commands).len(), 1, "one more try: {commands:?}");
    let kept = kept(&commands);
    assert_eq!(kept.len(), 1, "{commands:?}");
    assert_eq!(kept[0].what, "report");
    assert!(kept[0].text.contains("precious more"), "{}", kept[0].text);
}

/// `^c` (and a signal) quits without asking: the text the store did not take is kept all
/// the same.
#[test]
fn ctrl_c_keeps_a_draft_the_store_did_not_take() {
    let t0 = std::time::Instant::now();
    let mut app = composing_with_a_refused_draft(t0, "precious");
    let commands = app.update(Action::ForceQuit);
    assert!(app.should_quit);
    let kept = kept(&commands);
    assert_eq!(kept.len(), 1, "{commands:?}");
    assert!(kept[0].text.contains("precious"), "{}", kept[0].text);
}

/// The position of the first command `which` picks, for their order.
fn position(commands: &[Command], which: impl Fn(&Command) -> bool) -> usize {
    commands.iter().position(which).expect("asked for")
}

/// Issue 35 item 14: `3` listed the drafts as they were before what was just typed (back to
/// a history open below, the composer closed without saving at all). The composers' drafts are
/// saved first, on the queue the listing waits behind; a composer that stays open hears of
/// its save.
#[test]
fn three_lists_the_drafts_after_saving_what_was_just_typed() {
    let is_save = |c: &Command| matches!(c, Command::SaveDraft { .. });
    let is_list = |c: &Command| matches!(c, Command::ListDrafts { .. });
    // The history opened over the composer, which stays below.
    let t0 = std::time::Instant::now();
    let mut app = composing_at(t0, None);
    type_message(&mut app, t0, "fresh words");
    let commands = key(&mut app, '3');
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
    assert_eq!(saves(&commands).len(), 1, "{commands:?}");
    assert!(saves(&commands)[0].contains("fresh words"));
    assert!(position(&commands, is_save) < position(&commands, is_list));
    let save = commands
        .iter()
        .find(|c| is_save(c))
        .and_then(Command::request_id);
    app.update(Action::reply(save.unwrap(), Delivery::DraftSaved(Ok(()))));
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        composer(&app).draft.saved,
        Some(Ok(())),
        "the composer heard"
    );

    // Back to a history open below: the composer above it saves as it closes.
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    key(&mut app, '3');
    app.update(Action::CommandLine);
    type_text(&mut app, "report");
    app.update(Action::Submit);
    type_message(&mut app, t0, "more words");
    let commands = key(&mut app, '3');
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
    assert_eq!(saves(&commands).len(), 1, "{commands:?}");
    assert!(saves(&commands)[0].contains("more words"));
    assert!(position(&commands, is_save) < position(&commands, is_list));
}

/// An 80x24 app over one row whose resource is over 32 KiB, its composer just opened with `R`:
/// the background check and the draft look-up it asked for, not answered.
fn composing_big() -> (App, (RequestId, Work), RequestId) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.report = Arc::new(ReportContext {
        base_url: BASE.to_owned(),
        ..Default::default()
    });
    let id = commands.iter().find_map(Command::request_id).unwrap();
    let big = json!({"resources": [{"id": "r1", "type": "team", "external_id": "x",
                                    "properties": {"blob": "a".repeat(100_000)}}]});
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(
            ListResponse::from_value(big).unwrap(),
        )))),
    ));
    let opened = key(&mut app, 'R');
    let check = checks(&opened).pop().expect("checked in the background");
    let draft = opened
        .iter()
        .find_map(|c| match c {
            Command::LoadDraft { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the draft is looked up");
    (app, check, draft)
}

/// The checks the commands ask for, not run.
fn checks(commands: &[Command]) -> Vec<(RequestId, Work)> {
    commands
        .iter()
        .filter_map(|c| match c {
            Command::Run { id, job } if job.get::<super::check::CheckJob>().is_some() => {
                Some((*id, job.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The check asked for, run, delivered as the runtime would.
fn run_check(app: &mut App, (id, job): (RequestId, Work)) -> Vec<Command> {
    app.update(Action::reply(id, Delivery::Job(job.run())))
}

/// A stored draft with `resource` as its resource text, delivered for the look-up `draft`.
fn restore_draft_with(app: &mut App, draft: RequestId, resource: String) -> Vec<Command> {
    let body = super::draft::ReportDraft {
        task_id: "t-draft".into(),
        task_id_provisional: false,
        status: "ok".into(),
        message: "from the draft".into(),
        response_type: "resource".into(),
        resource,
        extra: Default::default(),
        unparsed: None,
        kept: Default::default(),
        written: Default::default(),
        key_order: Default::default(),
    };
    app.update(Action::reply(
        draft,
        Delivery::DraftLoaded(Ok(Some(StoredDraft {
            body: serde_json::to_string(&body).unwrap(),
            age: Duration::from_secs(60),
            revision: REVISION,
            sent: None,
        }))),
    ))
}

/// A resource over 32 KiB is checked in the background. A draft restored before the first
/// check answered, then discarded, once left the composer "checking…" for good.
#[test]
fn d_after_a_draft_restored_before_the_first_check_checks_again() {
    let (mut app, first, draft) = composing_big();
    restore_draft_with(&mut app, draft, "{\"id\": \"r1\"}".into());
    run_check(&mut app, first);
    assert_eq!(composer(&app).message.text(), "from the draft");
    assert_eq!(app.activity(), None);

    let discarded = key(&mut app, 'D');
    assert_eq!(composer(&app).message.text(), "");
    let again = checks(&discarded)
        .pop()
        .expect("the resource is checked again");
    assert_eq!(app.activity().as_deref(), Some("checking…"));
    run_check(&mut app, again);
    assert_eq!(app.activity(), None);
}

/// The check of a draft's text that `D` discarded comes after: it is not this text's, and is
/// dropped.
#[test]
fn a_check_of_a_discarded_draft_is_dropped() {
    let (mut app, first, draft) = composing_big();
    run_check(&mut app, first);
    let opened = composer(&app).findings.clone();
    // The draft's resource is large too, and not JSON: checked in the background as well.
    let restored = restore_draft_with(
        &mut app,
        draft,
        format!("{{\"id\": \"{}", "b".repeat(40_000)),
    );
    let of_draft = checks(&restored)
        .pop()
        .expect("the draft's text is checked");
    let discarded = key(&mut app, 'D');
    let again = checks(&discarded).pop().expect("checked again");
    run_check(&mut app, of_draft);
    assert_eq!(
        composer(&app).findings,
        opened,
        "the draft's findings are dropped"
    );
    assert_eq!(app.activity().as_deref(), Some("checking…"));
    run_check(&mut app, again);
    assert_eq!(composer(&app).findings, opened);
    assert_eq!(app.activity(), None);
}

/// Only the answer of the external editor the composer waits for replaces its report.
#[test]
fn an_editor_answer_not_waited_for_is_dropped() {
    let mut app = composing();
    let (first, _) = edit_command(&key(&mut app, 'e'));
    let (second, text) = edit_command(&key(&mut app, 'e'));
    app.update(Action::reply(
        first,
        Delivery::Edited(Ok(
            text.replace("\"message\": \"\"", "\"message\": \"stale\"")
        )),
    ));
    assert_eq!(composer(&app).message.text(), "");
    app.update(Action::reply(
        second,
        Delivery::Edited(Ok(
            text.replace("\"message\": \"\"", "\"message\": \"fresh\"")
        )),
    ));
    assert_eq!(composer(&app).message.text(), "fresh");
}

/// The page keys move by paragraph in the resource, and are not the resource's elsewhere.
#[test]
fn the_page_keys_move_through_the_resource_by_paragraph_only_there() {
    let mut app = composing();
    composer_mut(&mut app).replace_resource("{\n  \"a\": 1\n\n  ,\"b\": 2\n\n  ,\"c\": 3\n}");
    let row = |app: &App| composer(app).resource.cursor().0;
    assert_eq!(row(&app), 0);
    press(&mut app, KeyCode::PageDown);
    assert_eq!(row(&app), 0, "the task id has the cursor, not the resource");
    composer_mut(&mut app).field = Field::Resource;
    press(&mut app, KeyCode::PageDown);
    let down = row(&app);
    assert!(down > 0, "a paragraph down");
    press(&mut app, KeyCode::PageDown);
    assert!(row(&app) > down);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(row(&app), down, "a paragraph up");
    composer_mut(&mut app).field = Field::TaskId;
    press(&mut app, KeyCode::PageUp);
    assert_eq!(row(&app), down);
}

/// In the findings, `j` and `k` go from one finding to the next; `k` on the first goes back
/// up to the resource, and elsewhere they move between fields.
#[test]
fn j_and_k_go_through_the_findings_and_between_fields_elsewhere() {
    let mut app = composing();
    let (id, text) = edit_command(&key(&mut app, 'e'));
    let mut report: Value = serde_json::from_str(&text).unwrap();
    report["response"]["resource"] = json!({"id": 1, "type": 2, "external_id": 3});
    app.update(Action::reply(
        id,
        Delivery::Edited(Ok(serde_json::to_string_pretty(&report).unwrap())),
    ));
    let count = composer(&app).findings.len();
    assert!(count >= 3, "{:?}", composer(&app).findings);
    let at = |app: &App| (composer(app).field, composer(app).finding);
    key(&mut app, 'G');
    assert_eq!(at(&app), (Field::Findings, 0));
    key(&mut app, 'j');
    assert_eq!(at(&app), (Field::Findings, 1));
    key(&mut app, 'j');
    assert_eq!(at(&app), (Field::Findings, 2));
    for _ in 0..count {
        key(&mut app, 'j');
    }
    assert_eq!(at(&app), (Field::Findings, count - 1), "no further");
    for _ in 1..count {
        key(&mut app, 'k');
    }
    assert_eq!(at(&app), (Field::Findings, 0));
    key(&mut app, 'k');
    assert_eq!(at(&app), (Field::Resource, 0), "up to the resource");
    // With a finding selected, `k` in another field still moves between fields.
    key(&mut app, 'G');
    key(&mut app, 'j');
    key(&mut app, 'g');
    key(&mut app, 'j');
    assert_eq!(at(&app), (Field::Status, 1));
    key(&mut app, 'k');
    assert_eq!(at(&app), (Field::TaskId, 1));
    // `n` and `N` go through them both ways, to where each finding points.
    key(&mut app, 'n');
    assert_eq!(composer(&app).finding, 2);
    key(&mut app, 'N');
    key(&mut app, 'N');
    assert_eq!(composer(&app).finding, 0);
    key(&mut app, 'N');
    assert_eq!(composer(&app).finding, count - 1, "round to the last");
    // `i` on the findings edits nothing.
    key(&mut app, 'G');
    key(&mut app, 'i');
    assert_eq!(app.focus().mode, InputMode::None);
}

/// `Enter` on the status toggles it; a paste into the resource goes in at the cursor, its
/// controls escaped.
#[test]
fn enter_toggles_the_status_and_a_paste_goes_into_the_resource() {
    let mut app = composing();
    key(&mut app, 'j');
    assert_eq!(composer(&app).field, Field::Status);
    let before = composer(&app).status.clone();
    press(&mut app, KeyCode::Enter);
    assert_ne!(composer(&app).status, before);
    assert_eq!(app.focus().mode, InputMode::None);

    composer_mut(&mut app).field = Field::Resource;
    key(&mut app, 'i');
    app.update(Action::InsertText("\"x\u{1b}\"\r\n".into()));
    let text = composer(&app).resource_text();
    assert!(text.starts_with("\"x\\u001b\"\n{"), "{text}");
    assert!(!composer(&app).findings.is_empty(), "checked again");
}

/// A paste replaces the generated task id (it is selected), and only when pasted into it.
#[test]
fn a_paste_replaces_the_provisional_task_id_only_in_its_field() {
    let mut app = composing();
    assert!(composer(&app).task_id_provisional);
    let provisional = composer(&app).task_id.text().to_owned();
    composer_mut(&mut app).field = Field::Message;
    key(&mut app, 'i');
    app.update(Action::InsertText("pasted".into()));
    press(&mut app, KeyCode::Esc);
    assert_eq!(composer(&app).message.text(), "pasted");
    assert_eq!(composer(&app).task_id.text(), provisional);
    assert!(composer(&app).task_id_provisional);

    composer_mut(&mut app).field = Field::TaskId;
    key(&mut app, 'i');
    app.update(Action::InsertText("t-1".into()));
    assert_eq!(composer(&app).task_id.text(), "t-1");
    assert!(!composer(&app).task_id_provisional);
}

#[test]
fn the_response_type_is_typed_into_like_the_other_line_fields() {
    let mut app = composing();
    composer_mut(&mut app).field = Field::ResponseType;
    key(&mut app, 'i');
    assert_eq!(app.focus().mode, InputMode::Field);
    app.update(Action::InsertText("_x".into()));
    press(&mut app, KeyCode::Enter);
    assert_eq!(composer(&app).response_type.text(), "resource_x");
    assert_eq!(app.focus().mode, InputMode::None);
}

/// A resource under `CHECK_IN_BACKGROUND_BYTES` is checked on the spot; one that size or
/// larger on a background task.
#[test]
fn a_resource_under_32_kib_is_checked_at_once_a_larger_one_in_the_background() {
    let limit = super::CHECK_IN_BACKGROUND_BYTES;
    // `bytes` of resource once an `x` is typed at its start (a line counts its newline).
    let typed_to = |bytes: usize| {
        let mut app = composing();
        let text = format!("\"{}\"", "a".repeat(bytes - 4));
        composer_mut(&mut app).replace_resource(&text);
        composer_mut(&mut app).field = Field::Resource;
        key(&mut app, 'i');
        let commands = key(&mut app, 'x');
        assert_eq!(
            crate::app::widgets::json_editor::size_of(&composer(&app).resource),
            bytes
        );
        !checks(&commands).is_empty()
    };
    assert!(!typed_to(limit - 1), "checked at once");
    assert!(typed_to(limit), "checked in the background");
}

/// On the generated task id, typing replaces it, and a movement keeps it.
#[test]
fn a_movement_keeps_the_provisional_task_id_and_typing_then_appends() {
    let mut app = composing();
    let provisional = composer(&app).task_id.text().to_owned();
    key(&mut app, 'i');
    ctrl(&mut app, 'e');
    assert_eq!(
        composer(&app).task_id.text(),
        provisional,
        "a ctrl key is not typing"
    );
    press(&mut app, KeyCode::Left);
    assert_eq!(composer(&app).task_id.text(), provisional);
    assert!(!composer(&app).task_id_provisional);
    press(&mut app, KeyCode::End);
    key(&mut app, '7');
    assert_eq!(composer(&app).task_id.text(), format!("{provisional}7"));
}

// ------------------------------------------- the first check, whatever opened the composer

/// A report about the first row (which passes the checks) with `header` over its fields.
fn report_with(header: Value) -> Value {
    let mut report = json!({"task_id": "t-1", "status": "ok", "message": "",
                            "response": {"response_type": "resource",
                                         "resource": rows()["resources"][0].clone()}});
    if let (Some(report), Some(header)) = (report.as_object_mut(), header.as_object()) {
        for (key, value) in header {
            report.insert(key.clone(), value.clone());
        }
    }
    report
}

/// The pointers of the composer's findings.
fn pointers(app: &App) -> Vec<String> {
    composer(app)
        .findings
        .iter()
        .map(|l| l.finding.pointer.clone())
        .collect()
}

/// `s`, then one `Enter`: what it sent, if it sent anything.
fn review_and_enter(app: &mut App) -> Option<Value> {
    key(app, 's');
    let commands = press(app, KeyCode::Enter);
    commands.iter().find_map(|c| match c {
        Command::Api { call, .. } => Some(call.body.value().clone()),
        _ => None,
    })
}

/// `:report FILE`: the fields the file gives are checked on the first frame, before any edit,
/// and the send asks twice; what the file holds is sent as it is (`404` is not made a string,
/// a missing `response_type` is not made an empty one) until the field is edited.
#[test]
fn a_report_file_is_checked_on_its_first_frame_and_sent_as_it_is() {
    let mut app = app();
    let mut file = report_with(json!({"status": "OK", "message": 404}));
    file["response"]
        .as_object_mut()
        .map(|r| r.remove("response_type"));
    app.update(Action::reply(
        RequestId(1),
        Delivery::FileRead {
            opens: crate::app::OpenAs::Report,
            path: "report.json".into(),
            text: Ok(file.to_string()),
        },
    ));
    assert_eq!(
        pointers(&app),
        ["/status", "/message", "/response/response_type"]
    );
    assert_eq!(composer(&app).findings_on(Field::Status), 1);
    assert_eq!(
        review_and_enter(&mut app),
        None,
        "the first Enter only arms"
    );
    let (_, body) = sent(&press(&mut app, KeyCode::Enter));
    assert_eq!(body["status"], "OK");
    assert_eq!(body["message"], 404, "not made a string");
    assert_eq!(
        body["response"].get("response_type"),
        None,
        "not made empty"
    );
    assert_eq!(body["response"]["resource"], file["response"]["resource"]);
}

/// A report file is sent with its keys in the file's order, its `response` too, unknown keys
/// in their places.
#[test]
fn a_report_file_is_sent_with_its_keys_in_the_files_order() {
    let mut app = app();
    let text = r#"{"response": {"resource": {"type": "repository", "external_id": "x",
        "name": "n", "properties": {}}, "zeta": 1, "response_type": "resource"},
        "message": "m", "unknown": [1.50], "status": "ok", "task_id": "t-1"}"#;
    app.update(Action::reply(
        RequestId(1),
        Delivery::FileRead {
            opens: crate::app::OpenAs::Report,
            path: "report.json".into(),
            text: Ok(text.to_owned()),
        },
    ));
    let body = crate::app::tests::review_and_send(&mut app);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(&body),
        ["response", "message", "unknown", "status", "task_id"]
    );
    assert_eq!(
        keys(&body["response"]),
        ["resource", "zeta", "response_type"]
    );
    assert_eq!(body["unknown"].to_string(), "[1.50]");
}

/// Once edited, a field holds what was typed: a string.
#[test]
fn editing_a_field_read_as_a_number_makes_it_the_text_typed() {
    let mut app = app();
    let file = report_with(json!({"message": 404}));
    app.update(Action::reply(
        RequestId(1),
        Delivery::FileRead {
            opens: crate::app::OpenAs::Report,
            path: "report.json".into(),
            text: Ok(file.to_string()),
        },
    ));
    assert_eq!(pointers(&app), ["/message"]);
    assert_eq!(composer(&app).message.text(), "404", "shown as its JSON");
    composer_mut(&mut app).field = Field::Message;
    key(&mut app, 'i');
    press(&mut app, KeyCode::End);
    type_text(&mut app, "0");
    press(&mut app, KeyCode::Esc);
    assert_eq!(pointers(&app), Vec::<String>::new());
    let body = composer(&app).body().expect("JSON");
    assert_eq!(body["message"], "4040");
    assert_eq!(
        body["status"], "ok",
        "the other fields as the file had them"
    );
}

/// `E` on a sent report (the history hands the app its body) and a draft from the history
/// (`3`, `Enter` on a `draft` row) are checked on their first frame too.
#[test]
fn a_resend_and_a_draft_from_the_history_are_checked_on_their_first_frame() {
    let mut resend = app();
    resend.open(Open::Report(
        report_with(json!({"status": "OK"})).to_string().into(),
    ));
    assert_eq!(pointers(&resend), ["/status"]);
    assert_eq!(
        review_and_enter(&mut resend),
        None,
        "the first Enter only arms"
    );

    let mut app = app();
    let mut draft =
        ReportComposer::for_resource(app.report.clone(), &rows()["resources"][0].to_string(), 1);
    draft.status = "OK".into();
    let body = serde_json::to_string(&draft.draft_body()).expect("draft");
    app.open(Open::Draft(Box::new(crate::app::UnsentDraft {
        subject: ReportComposer::draft_subject(Some("r1")),
        revision: REVISION,
        body,
        saved_at: chrono::Utc::now(),
        age: Duration::from_secs(60),
    })));
    assert_eq!(pointers(&app), ["/status"]);
    assert_eq!(
        review_and_enter(&mut app),
        None,
        "the first Enter only arms"
    );
}

/// The blank `:report` is a template to fill in: its empty `type`, `external_id` and `name`
/// are findings, not a report that passes.
#[test]
fn the_blank_report_does_not_pass_the_checks() {
    let mut app = app();
    app.run_line_command(crate::app::overlay::command_line::LineCommand::Report(None));
    assert_eq!(
        pointers(&app),
        [
            "/response/resource/type",
            "/response/resource/external_id",
            "/response/resource/name"
        ]
    );
}

/// A large report from a file is checked in the background: until that check answers, the
/// send asks twice, since the check may yet find something.
#[test]
fn while_the_first_check_runs_the_send_asks_twice() {
    let mut app = app();
    let mut file = report_with(json!({}));
    file["response"]["resource"]["properties"]["blob"] = json!("a".repeat(40_000));
    let commands = app.update(Action::reply(
        RequestId(1),
        Delivery::FileRead {
            opens: crate::app::OpenAs::Report,
            path: "big.json".into(),
            text: Ok(file.to_string()),
        },
    ));
    assert_eq!(checks(&commands).len(), 1, "{commands:?}");
    assert!(composer(&app).checking.is_some());
    assert_eq!(
        review_and_enter(&mut app),
        None,
        "the first Enter only arms"
    );
}

/// Issue 36 item 3: a key written twice in the resource is the warning `appdeck report FILE`
/// gives, on the object's line.
#[test]
fn a_key_written_twice_in_the_resource_is_the_warning_of_appdeck_report() {
    let mut app = composing();
    let text = "{\n  \"type\": \"team\",\n  \"external_id\": \"x\",\n  \"name\": \"a\",\n  \"name\": \"b\"\n}";
    composer_mut(&mut app).replace_resource(text);
    // Toggled twice: the status as it was, the report checked again.
    key(&mut app, ' ');
    key(&mut app, ' ');
    let findings = &composer(&app).findings;
    let twice: Vec<_> = findings
        .iter()
        .filter(|l| l.finding.message.contains("more than once"))
        .collect();
    let [twice] = twice.as_slice() else {
        panic!("{findings:?}");
    };
    assert_eq!(twice.finding.pointer, "/response/resource");
    assert!(twice.finding.message.contains("\"name\""), "{twice:?}");
    assert_eq!(twice.line(), Some(0));
}

/// Issue 35 item 14: a version-connect payload opened with `:report` is not a report with
/// findings about fields it never had: the notice names the command that opens it.
#[test]
fn a_connect_payload_opened_as_a_report_points_at_connect() {
    let mut app = app();
    app.update(Action::reply(
        RequestId(1),
        Delivery::FileRead {
            opens: crate::app::OpenAs::Report,
            path: "v2.json".into(),
            text: Ok(crate::catalog::DEMO_CONNECT.to_owned()),
        },
    ));
    assert!(app.stack.top().is_none(), "no composer opened");
    let Some(Notice::Error(message)) = &app.notice else {
        panic!("{:?}", app.notice);
    };
    assert!(message.contains("use `:connect v2.json`"), "{message}");
}

/// A send that fails on the way is what `!` shows, said as the sending of a report.
#[test]
fn a_send_that_fails_on_the_way_is_what_bang_shows() {
    let mut app = composing();
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'i');
    type_text(&mut app, "hello");
    press(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    assert!(app.last_error.is_none());
    let failure = Exchange::local(Err(ApiError::Timeout(Duration::from_secs(3))));
    app.update(Action::reply(id, Box::new(failure)));
    let error = app.last_error.as_ref().expect("! tells what failed");
    assert_eq!(error.doing, "sending a report");
    // No answer came: the status bar says so, not that the service refused it.
    let Some(Notice::Error(said)) = &app.notice else {
        panic!("an error is said: {:?}", app.notice);
    };
    assert!(said.starts_with("the report got no answer: "), "{said}");
    assert!(!said.contains("refused"), "{said}");
}

/// An answer that is not JSON (a proxy's page) is an answer: said as refused, as the answer
/// pane says, not as none.
#[test]
fn an_answer_that_is_not_json_is_said_as_refused() {
    let mut app = composing();
    key(&mut app, 's');
    let (id, _) = sent(&press(&mut app, KeyCode::Enter));
    let page = ApiError::Decode {
        problem: "expected value".into(),
        excerpt: "<html>".into(),
    };
    app.update(Action::reply(id, Box::new(Exchange::local(Err(page)))));
    assert!(
        matches!(&app.notice, Some(Notice::Error(m)) if m.contains("was refused")),
        "{:?}",
        app.notice
    );
}
