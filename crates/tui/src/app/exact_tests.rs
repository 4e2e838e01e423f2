//! What the service sent is what the TUI shows and sends: a page read from its text keeps every
//! number's text and the keys' order through the detail, `R` and the report's request.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::harness::{key, press};
use super::pane::Screen;
use super::tests::{edit_command, review_and_send_body};
use super::{Action, App, Command, Session};
use crate::api::page::RawPage;
use crate::api::{Exchange, Reply};

/// Numbers an `f64` would rewrite, and one past its range: one a line, shared with
/// `tests/cli/exact.rs`.
fn numbers() -> Vec<&'static str> {
    include_str!("../../../../tests/common/exact_numbers.txt")
        .lines()
        .collect()
}

/// An app whose first page is one resource holding [`numbers`], its keys out of the spec's order,
/// and a string written with an escape (`\u202e`, which the parsed value holds as the character).
fn app() -> App {
    let properties: Vec<String> = numbers()
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}": {n}"#))
        .collect();
    let text = format!(
        r#"{{"resources": [{{"properties": {{{}}}, "name": "exact", "id": "r1", "type": "exactness", "note": "a\u202eb", "size": 1E2}}]}}"#,
        properties.join(", ")
    );
    // Read as the client reads a page: each item's text kept as it came.
    let Ok(page) = RawPage::read(text.into_bytes()) else {
        panic!("a page");
    };
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::Page(Box::new(page.into()))))),
    ));
    app
}

/// Whether `text` holds each number as written, `n0` to `n8` in order.
/// The app with the history view (`3`) open on `entries`, as the store gave them.
fn history_of(entries: Vec<crate::store::HistoryEntry>) -> App {
    let mut app = app();
    let load = key(&mut app, '3')
        .iter()
        .find_map(|c| match c {
            Command::LoadHistory { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the history is loaded");
    app.update(Action::reply(
        load,
        super::Delivery::History(Box::new(Ok(entries))),
    ));
    app
}

fn assert_exact(text: &str) {
    let mut from = 0;
    for (i, n) in numbers().iter().enumerate() {
        let at = [format!(r#""n{i}": {n}"#), format!(r#""n{i}":{n}"#)]
            .iter()
            .find_map(|s| text[from..].find(s.as_str()))
            .unwrap_or_else(|| panic!("n{i} is not {n} (or out of order) in {text}"));
        from += at;
    }
}

#[test]
fn the_detail_shows_each_number_as_it_came_and_the_keys_in_their_order() {
    let mut app = app();
    press(&mut app, KeyCode::Enter);
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail is open");
    };
    assert_exact(&detail.raw().lines().join("\n"));
    // `y` on the raw pane's first line copies the properties as they came.
    let raw = super::panes::detail::DetailPart::Raw;
    while !matches!(app.stack.top(), Some(Screen::Detail(d)) if d.focus == raw) {
        app.update(Action::Pane(super::Toward::Next));
    }
    let copied = app.update(Action::Copy);
    let Some(Command::Copy(text)) = copied.first() else {
        panic!("{copied:?}");
    };
    assert_exact(text);
    key(&mut app, 'a');
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail is open");
    };
    let whole = detail.raw().lines().join("\n");
    let order: Vec<usize> = ["\"properties\"", "\"name\"", "\"id\"", "\"type\""]
        .iter()
        .map(|k| whole.find(k).expect("every key shown"))
        .collect();
    assert!(order.is_sorted(), "keys in the order they came: {whole}");
    assert!(whole.contains(r#""note": "a\u202eb""#), "{whole}");
}

#[test]
fn r_copies_each_number_as_it_came_and_the_report_sends_it_so() {
    let mut app = app();
    key(&mut app, 'R');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer is open");
    };
    assert_exact(&composer.resource_text());
    // The escape stays as written (issue 36 item 9), not turned into the character.
    assert!(
        composer.resource_text().contains(r#""note": "a\u202eb""#),
        "{}",
        composer.resource_text()
    );
    // Findings (the provisional task id, the unknown type) ask for a second Enter.
    let body = review_and_send_body(&mut app);
    assert_exact(body.text());
    assert!(
        body.text().contains(r#""note":"a\u202eb""#),
        "{}",
        body.text()
    );
}

/// The resource's string as it came, an escape: never the character (a bidi override the
/// screen would hide, sent raw) nor another spelling of it.
fn assert_note_as_it_came(text: &str) {
    assert!(
        text.contains(r#""note": "a\u202eb""#) || text.contains(r#""note":"a\u202eb""#),
        "{text}"
    );
    assert!(!text.contains('\u{202e}'), "a raw bidi override: {text}");
}

#[test]
fn e_gives_the_editor_each_number_and_escape_as_it_came_and_takes_them_back() {
    let mut app = app();
    key(&mut app, 'R');
    let (id, text) = edit_command(&key(&mut app, 'e'));
    assert_exact(&text);
    assert_note_as_it_came(&text);
    let edited = text.replace(r#""message": """#, r#""message": "from vi""#);
    assert_ne!(edited, text);
    app.update(Action::reply(id, super::Delivery::Edited(Ok(edited))));
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer is open");
    };
    assert_eq!(composer.message.text(), "from vi");
    assert_exact(&composer.resource_text());
    assert_note_as_it_came(&composer.resource_text());
    let body = review_and_send_body(&mut app);
    assert_exact(body.text());
    assert_note_as_it_came(body.text());
}

#[test]
fn f_fills_around_each_number_and_escape_as_they_came() {
    let mut app = app();
    app.report = std::sync::Arc::new(super::panes::report::ReportContext {
        base_url: "http://127.0.0.1:9/api/v1".to_owned(),
        types: Some(std::sync::Arc::new(serde_json::json!({
            "app_id": "t", "version": "1.0.0", "resources": [{"type": "exactness",
                "property_json_schema": {"type": "object", "required": ["wanted"],
                    "properties": {"wanted": {"type": "string", "enum": ["yes"]}}}}]
        }))),
        types_text: None,
        run_tag: "test".to_owned(),
    });
    key(&mut app, 'R');
    key(&mut app, 'f');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer is open");
    };
    let text = composer.resource_text();
    assert!(text.contains(r#""wanted": "yes""#), "filled: {text}");
    assert_exact(&text);
    assert_note_as_it_came(&text);
    let body = review_and_send_body(&mut app);
    assert_exact(body.text());
    assert_note_as_it_came(body.text());
}

/// The types of a connect of app `a` 1.0.0 sent as `sent` (its text) known, as the store's
/// record of it gives them.
fn knowing_sent(app: &mut App, sent: String) {
    let recorded = crate::catalog::KnownAppVersion {
        base_url: "http://127.0.0.1:9/api/v1".into(),
        app_id: "a".into(),
        version: "1.0.0".into(),
        payload: sent,
        answer: None,
        recorded_at: chrono::Utc::now(),
    };
    let loaded = crate::catalog::load(&crate::catalog::Sources {
        recorded: vec![recorded],
        ..Default::default()
    });
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    app.update(Action::reply(
        super::RequestId(u64::MAX),
        super::Delivery::Types(std::sync::Arc::new(super::KnownTypes {
            catalog: loaded.catalog,
            problems: Vec::new(),
        })),
    ));
}

/// `f` fills a number the type's schema gives as the connect that registered the type wrote it
/// (`1E2`, where the parsed schema writes `1e+2`), and the report sends it so.
#[test]
fn f_fills_a_number_the_schema_gives_as_the_connect_wrote_it() {
    let sent = r#"{"app_id":"a","version":"1.0.0","resources":[{"type":"exactness",
        "property_json_schema":{"type":"object","required":["wanted","big"],
        "properties":{"wanted":{"const":1E2},"big":{"examples":[1E400]}}}}]}"#;
    let mut app = app();
    knowing_sent(&mut app, sent.to_owned());
    key(&mut app, 'R');
    key(&mut app, 'f');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer is open");
    };
    let text = composer.resource_text();
    assert!(text.contains(r#""wanted": 1E2,"#), "filled: {text}");
    assert!(text.contains(r#""big": 1E400"#), "filled: {text}");
    assert_exact(&text);
    let body = review_and_send_body(&mut app);
    assert!(
        body.text().contains(r#""wanted":1E2,"big":1E400"#),
        "{}",
        body.text()
    );
}

/// The history's `E` on a sent report and on a sent connect: each composer starts from the text
/// as it was sent.
#[test]
fn e_in_the_history_reopens_a_send_with_each_number_and_escape_as_sent() {
    use crate::store::{HistoryEntry, SendKind, Sent};
    let properties: Vec<String> = numbers()
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}": {n}"#))
        .collect();
    let properties = properties.join(", ");
    let report = format!(
        r#"{{"task_id": "t", "status": "ok", "message": "", "x": 1E400, "response": {{"response_type": "resource", "y": [1.0e2, "\/"], "resource": {{"properties": {{{properties}}}, "id": "r1", "type": "exactness", "note": "a\u202eb"}}}}}}"#
    );
    let connect = format!(
        r#"{{"app_id": "a", "version": "1.0.0", "resources": [{{"type": "exactness", "note": "a\u202eb", "property_json_schema": {{"properties": {{{properties}}}}}}}]}}"#
    );
    let sent = |kind, body: &str| Sent {
        sent_at: chrono::Utc::now(),
        base_url: "http://sent.example/api/v1".into(),
        kind,
        body: body.to_owned(),
        answer: None,
        http_status: Some(200),
        duration: None,
        error: None,
        resource_before: None,
        resource_after: None,
    };
    let entries = vec![
        HistoryEntry {
            id: 2,
            sent: sent(SendKind::Connect, &connect),
        },
        HistoryEntry {
            id: 1,
            sent: sent(SendKind::Report, &report),
        },
    ];
    let mut app = history_of(entries);
    key(&mut app, 'E');
    let Some(Screen::Connect(composer)) = app.stack.top() else {
        panic!("the connect composer is open");
    };
    assert_exact(&composer.text());
    assert_note_as_it_came(&composer.text());
    press(&mut app, KeyCode::Esc);
    key(&mut app, 'j');
    key(&mut app, 'E');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the report composer is open");
    };
    assert_exact(&composer.resource_text());
    assert_note_as_it_came(&composer.resource_text());
    let (_, text) = edit_command(&key(&mut app, 'e'));
    assert_exact(&text);
    assert_note_as_it_came(&text);
    // The fields the composer has no place for, as sent too.
    assert!(text.contains(r#""x": 1E400,"#), "{text}");
    assert!(
        text.contains("\"y\": [\n      1.0e2,\n      \"\\/\"\n    ],"),
        "{text}"
    );
    let body = review_and_send_body(&mut app);
    assert_exact(body.text());
    assert_note_as_it_came(body.text());
    assert!(body.text().contains(r#""x":1E400"#), "{}", body.text());
    assert!(
        body.text().contains(r#""y":[1.0e2,"\/"]"#),
        "{}",
        body.text()
    );
}

/// `C` starts from the newest known version as the store recorded it sent: each number and
/// escape as written, the types in the order sent (not by name), and `c`'s curl carries the same.
#[test]
fn c_starts_from_the_newest_known_version_as_it_was_sent() {
    let properties: Vec<String> = numbers()
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}":{n}"#))
        .collect();
    let sent = format!(
        r#"{{"app_id":"a","version":"1.0.0","resources":[{{"type":"zeta","note":"a\u202eb","examples":{{{}}}}},{{"type":"alpha"}}]}}"#,
        properties.join(",")
    );
    let mut app = app();
    knowing_sent(&mut app, sent);
    key(&mut app, 'C');
    let Some(Screen::Connect(composer)) = app.stack.top() else {
        panic!("the connect composer is open");
    };
    let text = composer.text();
    assert_exact(&text);
    assert_note_as_it_came(&text);
    let (zeta, alpha) = (text.find("\"zeta\""), text.find("\"alpha\""));
    assert!(zeta < alpha && alpha.is_some(), "types as sent: {text}");
    key(&mut app, 's');
    let copied = key(&mut app, 'c');
    let Some(Command::Copy(curl)) = copied.first() else {
        panic!("c copies the curl: {copied:?}");
    };
    assert_exact(curl);
    assert!(curl.contains(r#""note":"a\u202eb""#), "{curl}");
}

/// `v` (and `y`) on a number in the detail's tree and fields: the number's own text, where the
/// parsed value wrote `1E2` as `1e+2`.
#[test]
fn v_and_y_on_a_number_in_the_detail_give_its_own_text() {
    use super::action::Move;
    use super::overlay::Overlay;
    use super::panes::detail::DetailPart;
    let mut app = app();
    press(&mut app, KeyCode::Enter);
    let detail = |app: &App| match app.stack.top() {
        Some(Screen::Detail(d)) => d.clone(),
        _ => panic!("the detail is open"),
    };
    let shown = |app: &mut App| {
        key(app, 'v');
        let Some(Overlay::Value(popup)) = app.overlay.take() else {
            panic!("v shows a value");
        };
        let copied = app.update(Action::Copy);
        let Some(Command::Copy(copied)) = copied.first().cloned() else {
            panic!("y copies: {copied:?}");
        };
        (popup.text, copied)
    };
    while detail(&app).focus != DetailPart::Tree {
        app.update(Action::Pane(super::Toward::Next));
    }
    for (i, n) in numbers().iter().enumerate() {
        app.update(Action::Move(Move::Top));
        while detail(&app).tree.lines()[detail(&app).cursor(DetailPart::Tree).selected].pointer
            != format!("/n{i}")
        {
            app.update(Action::Move(Move::Down));
        }
        assert_eq!(shown(&mut app), (n.to_string(), n.to_string()), "n{i}");
    }
    while detail(&app).focus != DetailPart::Fields {
        app.update(Action::Pane(super::Toward::Next));
    }
    app.update(Action::Move(Move::Top));
    while detail(&app).fields[detail(&app).cursor(DetailPart::Fields).selected].label != "size" {
        app.update(Action::Move(Move::Down));
    }
    assert_eq!(shown(&mut app), ("1E2".to_owned(), "1E2".to_owned()));
}

/// A report saved as a draft and restored keeps its other fields' text: `R` on the same resource
/// takes back a draft of the report `E` reopened from the history (`1E400`, `1.0e2`, `"\/"`),
/// and its request sends them as they were, in their order.
#[test]
fn a_restored_draft_sends_the_fields_it_kept_as_they_were_written() {
    use crate::store::{HistoryEntry, SendKind, Sent};
    let report = r#"{"x": 1E400, "task_id": "t", "status": "ok", "message": "", "response": {"response_type": "resource", "y": [1.0e2, "\/"], "resource": {"id": "r1", "type": "exactness"}}}"#;
    let entry = HistoryEntry {
        id: 1,
        sent: Sent {
            sent_at: chrono::Utc::now(),
            base_url: "http://sent.example/api/v1".into(),
            kind: SendKind::Report,
            body: report.to_owned(),
            answer: None,
            http_status: Some(200),
            duration: None,
            error: None,
            resource_before: None,
            resource_after: None,
        },
    };
    let mut app = history_of(vec![entry]);
    key(&mut app, 'E');
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the report composer is open");
    };
    let body = composer.draft_text();
    press(&mut app, KeyCode::Esc);
    key(&mut app, '1');
    let asked = key(&mut app, 'R');
    let Some(id) = asked.iter().find_map(|c| match c {
        Command::LoadDraft { id, .. } => Some(*id),
        _ => None,
    }) else {
        panic!("R looks its draft up: {asked:?}");
    };
    let stored = super::StoredDraft {
        body,
        age: std::time::Duration::from_secs(60),
        revision: crate::store::DraftRevision {
            row: 1,
            revision: 1,
        },
        sent: None,
    };
    app.update(Action::reply(
        id,
        super::Delivery::DraftLoaded(Ok(Some(stored))),
    ));
    let body = review_and_send_body(&mut app);
    assert!(
        body.text().starts_with(r#"{"x":1E400,"task_id":"t""#),
        "{}",
        body.text()
    );
    assert!(
        body.text().contains(r#""y":[1.0e2,"\/"]"#),
        "{}",
        body.text()
    );
}
