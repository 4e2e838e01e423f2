//! The history view through `App::update`, as the event loop drives it: keys in, state and
//! commands out. No I/O: the store's answers are delivered as the runtime would.

use crate::app::Delivery;
use crate::app::harness::{key, press};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::{HistoryView, LineStyle};
use crate::api::{Answer, ApiError, Exchange, ListResponse, Reply, ReportResponse};
use crate::app::pane::Screen;
use crate::app::panes::report::{ReportComposer, ReportContext};
use crate::app::{Action, App, Command, Notice, RequestId, Session};
use crate::store::{HistoryEntry, SendKind, Sent};

const BASE: &str = "http://127.0.0.1:9/api/v1";

fn report_body(task: &str) -> Value {
    json!({"task_id": task, "status": "ok", "message": "m",
           "response": {"response_type": "resource",
                        "resource": {"id": "res_1", "type": "repository", "external_id": "x"}}})
}

/// Newest first, as the store lists them: a refused report, a connect, an ok report.
fn entries() -> Vec<HistoryEntry> {
    let at = |minute| Utc.with_ymd_and_hms(2026, 11, 22, 12, minute, 0).unwrap();
    let sent = |kind, body: Value, answer: Option<Value>, status, minute| Sent {
        sent_at: at(minute),
        base_url: "http://sent.example/api/v1".into(),
        kind,
        body: body.to_string(),
        answer: answer.map(|a| a.to_string()),
        http_status: status,
        duration: Some(Duration::from_millis(40)),
        error: None,
        resource_before: None,
        resource_after: None,
    };
    let refused = Sent {
        error: Some("HTTP 422 Unprocessable Entity: bad \u{1b}[31m".into()),
        ..sent(
            SendKind::Report,
            report_body("t-refused \u{1b}]0;x\u{7}"),
            Some(json!({"status": "error", "error": "bad \u{1b}[31m"})),
            Some(422),
            3,
        )
    };
    let connect = sent(
        SendKind::Connect,
        json!({"app_id": "acme", "version": "2.0.0", "resources": [{}]}),
        Some(json!({"status": "ok"})),
        Some(200),
        2,
    );
    let ok = sent(
        SendKind::Report,
        report_body("t-ok"),
        Some(json!({"status": "ok"})),
        Some(200),
        1,
    );
    [(3, refused), (2, connect), (1, ok)]
        .into_iter()
        .map(|(id, sent)| HistoryEntry { id, sent })
        .collect()
}

fn app() -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    app.report = Arc::new(ReportContext {
        base_url: BASE.to_owned(),
        types: None,
        types_text: None,
        run_tag: "test".to_owned(),
    });
    let id = commands.iter().find_map(Command::request_id).unwrap();
    let page = ListResponse::from_value(json!({"resources": [
        {"id": "res_1", "type": "repository", "external_id": "x", "name": "one"}
    ]}))
    .unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    app
}

fn load_id(commands: &[Command]) -> RequestId {
    commands
        .iter()
        .find_map(|c| match c {
            Command::LoadHistory { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the history is loaded in the background")
}

fn view(app: &App) -> &HistoryView {
    match app.stack.top() {
        Some(Screen::History(view)) => view,
        _ => panic!("the history is not on top"),
    }
}

/// `3`, and the store's answer delivered.
fn opened() -> App {
    let mut app = app();
    let id = load_id(&key(&mut app, '3'));
    app.update(Action::reply(
        id,
        Delivery::History(Box::new(Ok(entries()))),
    ));
    app
}

#[test]
fn three_and_colon_history_open_the_view_and_it_loads_in_the_background() {
    let mut app = app();
    let commands = key(&mut app, '3');
    let id = load_id(&commands);
    assert!(
        view(&app).entries.is_none(),
        "loading, not read on the UI thread"
    );
    assert_eq!(app.activity().as_deref(), Some("loading the history…"));
    app.update(Action::reply(
        id,
        Delivery::History(Box::new(Ok(entries()))),
    ));
    let v = view(&app);
    let kinds: Vec<&str> = v.rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(
        kinds,
        ["report", "connect", "report"],
        "as the store lists them"
    );
    assert_eq!(v.rows[1].sent, "acme 2.0.0 · 1 type");
    assert_eq!((v.rows[2].http.as_str(), v.rows[2].ok), ("200", true));
    assert!(!v.rows[0].ok);
    assert_eq!(v.rows[0].time, "2026-11-22 12:03:00");

    // A stale load (an older id) is dropped.
    let before = view(&app).rows.clone();
    app.update(Action::reply(
        RequestId(id.0 + 1000),
        Delivery::History(Box::new(Ok(Vec::new()))),
    ));
    assert_eq!(view(&app).rows, before);

    // `3` again from the composer above it goes back to it, reloaded, not a second view.
    key(&mut app, 'E');
    assert!(matches!(app.stack.top(), Some(Screen::Report(_))));
    let reload = key(&mut app, '3');
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
    assert_eq!(app.stack.layers().len(), 1);
    load_id(&reload);

    let mut app = self::app();
    key(&mut app, ':');
    for c in "history".chars() {
        key(&mut app, c);
    }
    load_id(&press(&mut app, KeyCode::Enter));
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
}

#[test]
fn server_and_payload_text_is_neutralised_in_rows_and_in_full() {
    let mut app = opened();
    let row = &view(&app).rows[0];
    for text in [&row.sent, &row.answer] {
        assert!(!text.chars().any(char::is_control), "{text:?}");
    }
    assert!(row.answer.starts_with("error: bad "), "{}", row.answer);
    press(&mut app, KeyCode::Enter);
    let detail = view(&app).shown.as_ref().expect("shown in full");
    for (_, line) in &detail.lines {
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
}

#[test]
fn enter_shows_the_request_and_the_answer_in_full_and_it_scrolls() {
    let mut app = opened();
    key(&mut app, 'j');
    key(&mut app, 'j');
    press(&mut app, KeyCode::Enter);
    let detail = view(&app).shown.clone().expect("shown in full");
    let text: Vec<&str> = detail.lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(text[0].starts_with("#1 · task report · sent 2026-11-22 12:01:00 UTC"));
    assert_eq!(
        text[1],
        "POST http://sent.example/api/v1/apps.operations.report"
    );
    assert!(text.contains(&"Authorization: Bearer ••••"));
    assert!(text.contains(&"  \"task_id\": \"t-ok\","), "{text:#?}");
    let answer = text
        .iter()
        .position(|l| l.starts_with("Answer · HTTP 200 · 40 ms · ok"))
        .expect("the answer's heading");
    assert_eq!(detail.lines[answer].0, LineStyle::Heading);
    assert_eq!(text[answer + 1], "{");
    assert_eq!(app.focus().keys.id, super::keys::ENTRY_KEYS.id);

    // A 20-line screen shows 16 lines of it (less the bars and the border): the rest scrolls.
    app.update(Action::Resize {
        width: 100,
        height: 20,
    });
    let lines = detail.lines.len();
    assert!(lines > 16, "{lines}");
    key(&mut app, 'j');
    assert_eq!(view(&app).shown.as_ref().unwrap().scroll, 1);
    key(&mut app, 'G');
    assert_eq!(view(&app).shown.as_ref().unwrap().scroll, lines - 16);
    key(&mut app, 'j');
    assert_eq!(
        view(&app).shown.as_ref().unwrap().scroll,
        lines - 16,
        "no further"
    );
    key(&mut app, 'g');
    assert_eq!(view(&app).shown.as_ref().unwrap().scroll, 0);
    // At 10 lines a page is 6: the page keys move by it.
    app.update(Action::Resize {
        width: 100,
        height: 10,
    });
    let scroll = |app: &mut App, code| {
        press(app, code);
        view(app).shown.as_ref().unwrap().scroll
    };
    assert_eq!(scroll(&mut app, KeyCode::PageDown), 6);
    assert_eq!(scroll(&mut app, KeyCode::PageDown), 12.min(lines - 6));
    assert_eq!(scroll(&mut app, KeyCode::PageUp), 12.min(lines - 6) - 6);
    assert_eq!(scroll(&mut app, KeyCode::Char('k')), 12.min(lines - 6) - 7);
    press(&mut app, KeyCode::Esc);
    assert!(view(&app).shown.is_none());
    assert_eq!(view(&app).list.cursor.selected, 2, "back where it was");
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "Esc again: back to the list");
}

/// A tester's finding: a 3,000-character `task_id` was cut at the border, so it could not be
/// read; its line now wraps, and the scroll goes down to its last row.
#[test]
fn a_line_longer_than_the_screen_wraps_and_scrolls_to_its_end() {
    let mut app = app();
    let id = load_id(&key(&mut app, '3'));
    let long = "x".repeat(3_000);
    let mut entries = entries();
    entries[2].sent.body = report_body(&long).to_string();
    app.update(Action::reply(id, Delivery::History(Box::new(Ok(entries)))));
    app.update(Action::Resize {
        width: 100,
        height: 20,
    });
    key(&mut app, 'G');
    press(&mut app, KeyCode::Enter);
    let detail = view(&app).shown.clone().expect("shown in full");
    // 100 columns less the border: 98 a row.
    let rows: Vec<_> = detail.rows(98).collect();
    let task = (rows.iter())
        .position(|(_, row)| row.contains("\"task_id\""))
        .expect("the task_id's line");
    // Its first row breaks after `"task_id": `; the value takes 31 rows more.
    let whole: String = rows[task..task + 32].iter().map(|(_, row)| *row).collect();
    assert!(whole.contains(&format!("\"{long}\"")), "{rows:#?}");
    assert!(rows.len() >= detail.lines.len() + 30);
    key(&mut app, 'G');
    let scroll = view(&app).shown.as_ref().unwrap().scroll;
    assert_eq!(scroll, rows.len() - 16, "down to the last row");
}

#[test]
fn slash_filters_as_you_type_and_esc_clears() {
    let mut app = opened();
    key(&mut app, '/');
    for c in "connect".chars() {
        key(&mut app, c);
    }
    assert_eq!(view(&app).list.visible, [1]);
    press(&mut app, KeyCode::Enter);
    assert!(!view(&app).list.filtering);
    assert_eq!(view(&app).selected().unwrap().id, 2);
    press(&mut app, KeyCode::Esc);
    assert_eq!(view(&app).list.visible, [0, 1, 2], "Esc clears the filter");
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
}

#[test]
fn e_opens_a_sent_report_or_connect_in_its_composer_to_resend() {
    let mut app = opened();
    key(&mut app, 'j');
    key(&mut app, 'E');
    let Some(Screen::Connect(connect)) = app.stack.top() else {
        panic!("the connect composer opens on the connect");
    };
    let sent: serde_json::Value = serde_json::from_str(&connect.text()).unwrap();
    assert_eq!(
        sent,
        json!({"app_id": "acme", "version": "2.0.0", "resources": [{}]})
    );
    assert_eq!(connect.base_url, BASE, "resent to this service");
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
    key(&mut app, 'j');
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'E');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer opens on the report");
    };
    let composer: &ReportComposer = composer;
    assert_eq!(composer.task_id.text(), "t-ok");
    assert_eq!(composer.resource_id.as_deref(), Some("res_1"));
    assert_eq!(composer.body().unwrap(), report_body("t-ok"));
    assert_eq!(composer.context.base_url, BASE, "resent to this service");
    press(&mut app, KeyCode::Esc);
    assert!(
        view(&app).shown.is_some(),
        "Esc goes back to the send shown in full"
    );
}

#[test]
fn c_copies_a_send_as_curl_to_where_it_went_without_the_token() {
    let mut app = opened();
    key(&mut app, 'j');
    let commands = key(&mut app, 'c');
    let [Command::Copy(line)] = commands.as_slice() else {
        panic!("{commands:?}");
    };
    assert!(
        line.starts_with("curl -sS -X POST 'http://sent.example/api/v1/apps.version.connect'"),
        "{line}"
    );
    assert!(line.contains("Bearer $APPDECK_TOKEN"), "{line}");
    assert!(line.contains(r#""app_id":"acme""#), "{line}");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(key(&mut app, 'c').as_slice(), [Command::Copy(l)] if l == line));
}

#[test]
fn a_store_that_cannot_be_read_is_said_and_r_tries_again() {
    let mut app = app();
    let id = load_id(&key(&mut app, '3'));
    app.update(Action::reply(
        id,
        Delivery::History(Box::new(Err("the store /x/appdeck.db is corrupt".into()))),
    ));
    assert_eq!(
        app.problem().as_deref(),
        Some("the store /x/appdeck.db is corrupt")
    );
    let id = load_id(&key(&mut app, 'r'));
    app.update(Action::reply(
        id,
        Delivery::History(Box::new(Ok(entries()))),
    ));
    assert_eq!(app.problem(), None);
    assert_eq!(view(&app).rows.len(), 3);
}

fn answer(status: u16, body: Value) -> Box<Exchange> {
    let answer = Answer {
        response: ReportResponse::from_map(body.as_object().cloned().unwrap()),
        text: body.to_string(),
        raw: body,
        http_error: None,
    };
    Box::new(Exchange {
        status: Some(status),
        elapsed: Duration::from_millis(87),
        result: Ok(Reply::Answer(Box::new(answer))),
    })
}

/// `R` on the row, `s`, `Enter`: the id of the send.
fn sent_from_composer(app: &mut App) -> RequestId {
    key(app, 'R');
    key(app, 's');
    let commands = press(app, KeyCode::Enter);
    let commands = if commands.is_empty() {
        press(app, KeyCode::Enter)
    } else {
        commands
    };
    commands
        .iter()
        .find_map(|c| match c {
            Command::Api { id, .. } => Some(*id),
            _ => None,
        })
        .expect("sent")
}

fn recorded(commands: &[Command]) -> &Sent {
    commands
        .iter()
        .find_map(|c| match c {
            Command::RecordSend { sent, .. } => Some(sent.as_ref()),
            _ => None,
        })
        .expect("the send is recorded, off the UI thread")
}

#[test]
fn the_composers_sends_are_recorded_whatever_the_answer() {
    let mut app = app();
    let id = sent_from_composer(&mut app);
    let ok = json!({"status": "ok", "message": "updated"});
    let commands = app.update(Action::reply(id, answer(200, ok.clone())));
    let sent = recorded(&commands);
    assert_eq!(sent.kind, SendKind::Report);
    assert_eq!(sent.base_url, BASE);
    assert_eq!(sent.http_status, Some(200));
    assert_eq!(sent.duration, Some(Duration::from_millis(87)));
    assert_eq!(sent.answer.as_deref(), Some(ok.to_string().as_str()));
    assert_eq!(sent.error, None);
    let body: Value = serde_json::from_str(&sent.body).unwrap();
    assert_eq!(body["response"]["resource"]["id"], "res_1");

    // A network failure: no status, no answer, the error.
    press(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    let id = press(&mut app, KeyCode::Enter)
        .iter()
        .find_map(Command::request_id)
        .unwrap();
    let failed = Exchange::local(Err(ApiError::Network("connection refused".into())));
    let commands = app.update(Action::reply(id, Box::new(failed)));
    let sent = recorded(&commands);
    assert_eq!((sent.http_status, sent.answer.as_deref()), (None, None));
    assert_eq!(
        sent.error.as_deref(),
        Some("network error: connection refused")
    );

    // Cancelled before the answer: recorded as such.
    press(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    press(&mut app, KeyCode::Enter);
    let commands = press(&mut app, KeyCode::Esc);
    assert!(commands.iter().any(|c| matches!(c, Command::Cancel(_))));
    assert!(
        recorded(&commands)
            .error
            .as_deref()
            .unwrap()
            .contains("cancelled")
    );
}

#[test]
fn a_recorded_send_reloads_an_open_history_and_a_failed_record_is_said() {
    let mut app = opened();
    let commands = app.update(Action::reply(RequestId(1), Delivery::SendRecorded(Ok(()))));
    let id = load_id(&commands);
    assert_eq!(view(&app).loading, Some(id));
    let locked = Delivery::SendRecorded(Err("the store is locked".into()));
    app.update(Action::reply(RequestId(1), locked));
    assert!(
        matches!(&app.notice, Some(Notice::Error(m)) if m.contains("not recorded in the history: the store is locked")),
        "{:?}",
        app.notice
    );
    assert!(app.last_error.is_some());
    let mut closed = self::app();
    let recorded = Delivery::SendRecorded(Ok(()));
    assert!(
        closed
            .update(Action::reply(RequestId(1), recorded))
            .is_empty()
    );
}

fn drafts_id(commands: &[Command]) -> RequestId {
    commands
        .iter()
        .find_map(|c| match c {
            Command::ListDrafts { id } => Some(*id),
            _ => None,
        })
        .expect("the drafts are listed in the background with the sends")
}

/// A report draft about `res_1`, saved as the composer saves one.
fn unsent_draft() -> crate::app::UnsentDraft {
    let resource = json!({"id": "res_1", "type": "repository", "external_id": "x"});
    let body = crate::app::panes::report::draft::ReportDraft {
        task_id: "t-draft".into(),
        task_id_provisional: false,
        status: "error".into(),
        message: "half written".into(),
        response_type: "resource".into(),
        resource: serde_json::to_string_pretty(&resource).unwrap(),
        extra: Default::default(),
        unparsed: None,
        kept: Default::default(),
        written: Default::default(),
        key_order: Default::default(),
    };
    crate::app::UnsentDraft {
        subject: ReportComposer::draft_subject(Some("res_1")),
        revision: crate::store::DraftRevision {
            row: 1,
            revision: 1,
        },
        body: serde_json::to_string(&body).unwrap(),
        saved_at: Utc.with_ymd_and_hms(2026, 11, 22, 12, 30, 0).unwrap(),
        age: Duration::from_secs(180),
    }
}

#[test]
fn drafts_not_sent_are_listed_first_and_enter_goes_on_with_one() {
    let mut app = app();
    let commands = key(&mut app, '3');
    let (sends, drafts) = (load_id(&commands), drafts_id(&commands));
    app.update(Action::reply(
        sends,
        Delivery::History(Box::new(Ok(entries()))),
    ));
    // The cursor is on the newest send; drafts arriving later keep it there.
    key(&mut app, 'j');
    assert_eq!(view(&app).selected().unwrap().id, 2);
    app.update(Action::reply(
        drafts,
        Delivery::Drafts(Ok(vec![unsent_draft()])),
    ));
    let v = view(&app);
    let kinds: Vec<&str> = v.rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["draft", "report", "connect", "report"]);
    assert_eq!(v.rows[0].sent, "t-draft · error · res_1");
    assert_eq!(v.rows[0].answer, "not sent · saved 3 min ago");
    assert!(v.rows[0].unsent && !v.rows[1].unsent);
    assert_eq!(v.selected().unwrap().id, 2, "still on the same send");

    // `c` on a draft says why not; `Enter` opens it in the composer, under the same subject.
    key(&mut app, 'g');
    assert!(view(&app).selected().is_none(), "a draft is not a send");
    let copied = key(&mut app, 'c');
    assert!(!copied.iter().any(|c| matches!(c, Command::Copy(_))));
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("not sent yet")));
    press(&mut app, KeyCode::Enter);
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the draft's composer is not open");
    };
    assert_eq!(composer.task_id.text(), "t-draft");
    assert_eq!(composer.status, "error");
    assert!(composer.message.text().starts_with("half written"));
    assert_eq!(
        composer.draft.subject,
        ReportComposer::draft_subject(Some("res_1"))
    );
    assert!(matches!(&app.notice, Some(Notice::Info(i)) if i.contains("draft from 3 min ago")));

    // Back in the history, `E` on the draft opens it too; a stale listing is dropped.
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.stack.top(), Some(Screen::History(_))));
    app.update(Action::reply(drafts, Delivery::Drafts(Ok(Vec::new()))));
    assert_eq!(view(&app).rows[0].kind, "draft");
    key(&mut app, 'E');
    assert!(matches!(app.stack.top(), Some(Screen::Report(_))));
}

#[test]
fn a_connect_draft_goes_on_in_the_connect_composer_under_its_app() {
    let mut app = app();
    let commands = key(&mut app, '3');
    let payload = r#"{"app_id": "acme", "version": "2.1.0", "resources": []}"#;
    app.update(Action::reply(
        drafts_id(&commands),
        Delivery::Drafts(Ok(vec![crate::app::UnsentDraft {
            subject: crate::app::panes::connect::ConnectComposer::draft_subject(Some("acme")),
            revision: crate::store::DraftRevision {
                row: 2,
                revision: 1,
            },
            body: json!({ "payload": payload }).to_string(),
            saved_at: Utc.with_ymd_and_hms(2026, 11, 22, 12, 30, 0).unwrap(),
            age: Duration::from_secs(7200),
        }])),
    ));
    assert_eq!(view(&app).rows[0].sent, "connect · acme");
    press(&mut app, KeyCode::Enter);
    let Some(Screen::Connect(composer)) = app.stack.top() else {
        panic!("the connect draft's composer is not open");
    };
    assert_eq!(composer.text(), payload);
    assert_eq!(
        composer.draft.subject,
        crate::app::panes::connect::ConnectComposer::draft_subject(Some("acme"))
    );
    assert!(matches!(&app.notice, Some(Notice::Info(i)) if i.contains("draft from 2 h ago")));
}

/// `r` twice: the store's answers to the first are dropped, the view waits for the second's.
#[test]
fn r_twice_takes_the_answers_to_the_second_only() {
    let mut app = opened();
    let first = key(&mut app, 'r');
    let second = key(&mut app, 'r');
    // The store's answers to the loads among `asked`: the newest `sends` and one draft.
    let answer = |app: &mut App, asked: &[Command], sends: usize| {
        app.update(Action::reply(
            load_id(asked),
            Delivery::History(Box::new(Ok(entries()[..sends].to_vec()))),
        ));
        app.update(Action::reply(
            drafts_id(asked),
            Delivery::Drafts(Ok(vec![unsent_draft()])),
        ));
    };
    answer(&mut app, &first, 1);
    let v = view(&app);
    assert_eq!(v.entries.as_ref().map(Vec::len), Some(3), "as it was");
    assert!(v.drafts.is_empty());
    assert_eq!(app.activity().as_deref(), Some("loading the history…"));
    answer(&mut app, &second, 2);
    let v = view(&app);
    assert_eq!(v.entries.as_ref().map(Vec::len), Some(2));
    assert_eq!(v.drafts.len(), 1);
    assert_eq!(app.activity(), None);
}

#[test]
fn a_smaller_terminal_keeps_the_selected_send_in_view() {
    let mut app = opened();
    key(&mut app, 'G');
    let selected = view(&app).list.cursor.selected;
    assert_eq!((selected, view(&app).list.cursor.offset), (2, 0));
    app.update(Action::Resize {
        width: 100,
        height: 7,
    });
    let v = view(&app);
    let height = v.table_height(crate::app::layout::screen(app.size).body);
    assert!(height < 3, "{height} rows shown");
    v.list.cursor.assert_shows(selected, height);
}

/// Issue 37 item 2: a report whose resource as listed was kept says, in full, what it changed;
/// its body is laid out as it was sent (`1E2` stays `1E2`).
#[test]
fn a_send_in_full_says_what_the_report_changed() {
    let mut entry = entries().remove(2);
    entry.sent.body = entry
        .sent
        .body
        .replace(r#""external_id":"x""#, r#""external_id":"y","n":1E2"#);
    entry.sent.resource_before =
        Some(r#"{"id": "res_1", "type": "repository", "external_id": "x"}"#.into());
    let lines: Vec<String> = super::detail_lines(&entry)
        .into_iter()
        .map(|(_, line)| line)
        .collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("What it changed · 2 values"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert_eq!(
        lines[at + 1..],
        [r#"changed /external_id: "x" → "y""#, "added /n: 1E2",]
    );
    assert!(
        lines.iter().any(|l| l.trim() == r#""n": 1E2"#),
        "{lines:#?}"
    );
}
