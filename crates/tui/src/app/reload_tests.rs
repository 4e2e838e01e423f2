//! A report the service accepted reloads the list without losing the user's place (issue 20
//! item 1): the loaded rows and the cursor stay, and the reported row shows what the service
//! holds now.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{key, press};
use super::*;
use crate::api::{Answer, Exchange, ListRequest, ListResponse, Reply, ReportResponse};

/// Rows `start..start + count`, the one with id `renamed` under a new name.
fn page(start: usize, count: usize, next: Option<&str>, renamed: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (start..start + count)
        .map(|i| {
            let id = format!("r{i}");
            let name = if renamed == Some(id.as_str()) {
                format!("row {i} renamed")
            } else {
                format!("row {i}")
            };
            json!({"id": id, "type": "repo", "name": name})
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn list_request(commands: &[Command]) -> Option<(RequestId, ListRequest)> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, call } => Some((*id, call.as_list_request()?)),
        _ => None,
    })
}

fn page_reply(id: RequestId, page: ListResponse) -> Action {
    Action::reply(id, Box::new(Exchange::local(Ok(Reply::page(page)))))
}

fn ok_answer() -> Box<Exchange> {
    let body = json!({"status": "ok", "message": "updated"});
    let response = ReportResponse::from_map(body.as_object().cloned().unwrap_or_default());
    Box::new(Exchange {
        status: Some(200),
        elapsed: Duration::from_millis(5),
        result: Ok(Reply::Answer(Box::new(Answer {
            text: body.to_string(),
            raw: body,
            response,
            http_error: None,
        }))),
    })
}

/// Answers the list's requests in `commands` with the pages of a 300-row listing (100 a page)
/// until it asks for no more; `renamed` is renamed on the server.
fn serve_pages(app: &mut App, mut commands: Vec<Command>, renamed: Option<&str>) {
    while let Some((id, request)) = list_request(&commands) {
        let (start, next) = match request.next.as_deref() {
            None => (0, Some("c1")),
            Some("c1") => (100, Some("c2")),
            Some("c2") => (200, None),
            other => panic!("unexpected cursor {other:?}"),
        };
        commands = app.update(page_reply(id, page(start, 100, next, renamed)));
    }
}

/// `G` until 300 rows are loaded, `R`, send, an `ok`, `Esc`, `Esc`: the 300 rows and the cursor
/// stay, and the reported row shows its new name once the list has caught up.
#[test]
fn an_ok_report_keeps_the_loaded_rows_and_the_cursor() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    serve_pages(&mut app, commands, None);
    for _ in 0..3 {
        let more = key(&mut app, 'G');
        serve_pages(&mut app, more, None);
    }
    assert_eq!(app.browser.rows().len(), 300);
    for _ in 0..4 {
        key(&mut app, 'k');
    }
    let here = |app: &App| {
        app.browser
            .selected()
            .and_then(|r| r.id().map(Box::<str>::from))
    };
    assert_eq!(here(&app).as_deref(), Some("r295"));
    let offset = app.browser.cursor.offset;

    key(&mut app, 'R');
    key(&mut app, 's');
    let sent = (0..2)
        .flat_map(|_| press(&mut app, KeyCode::Enter))
        .find_map(|c| match c {
            Command::Api { id, .. } => Some(id),
            _ => None,
        })
        .expect("the report is sent");
    let after = app.update(Action::reply(sent, ok_answer()));
    assert_eq!(
        app.browser.rows().len(),
        300,
        "the rows stay while it reloads"
    );
    assert_eq!(app.activity().as_deref(), Some("refreshing the list…"));
    serve_pages(&mut app, after, Some("r295"));

    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "back on the list");
    assert_eq!(
        app.browser.rows().len(),
        300,
        "every loaded row is still there"
    );
    assert_eq!(here(&app).as_deref(), Some("r295"), "the cursor stays");
    assert_eq!(app.browser.cursor.offset, offset, "at the same height");
    let title = app
        .browser
        .selected()
        .and_then(|r| r.title().map(Box::<str>::from));
    assert_eq!(
        title.as_deref(),
        Some("row 295 renamed"),
        "what the service holds now"
    );
    assert_eq!(app.activity(), None);
}
