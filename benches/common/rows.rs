//! Loading a listing into the app as the sandbox sends it, for the benches that time the list
//! (`#[path = "common/rows.rs"] mod rows;` in each: not every bench loads rows).

use appdeck_core::api::{Exchange, ListResponse, Reply};
use appdeck_tui::harness::page_request;
use appdeck_tui::{Action, App, Move, Session};
use ratatui::layout::Rect;
use serde_json::{Value, json};

/// The sandbox's largest page.
const PAGE: u32 = 500;

/// An app on a 120x40 screen with `rows` resources (`resource(i)` the i-th) loaded through
/// `update`, in pages of 500: each page answers the request the app made for it.
pub fn app_with_rows(rows: usize, resource: fn(usize) -> Value) -> App {
    let session = Session {
        origin: "bench".into(),
        host: "127.0.0.1:1".into(),
        warnings: Vec::new(),
    };
    let (mut app, mut commands) = App::new(session, Rect::new(0, 0, 120, 40), Some(PAGE));
    let mut start = 0;
    while start < rows {
        let end = (start + PAGE as usize).min(rows);
        let next = (end < rows).then(|| format!("c{end}"));
        let page = ListResponse::from_value(json!({
            "resources": (start..end).map(resource).collect::<Vec<_>>(),
            "next": next,
        }))
        .expect("a page");
        // Nothing in flight: moving to the bottom asks for the next page.
        let id = page_request(&commands)
            .or_else(|| page_request(&app.update(Action::Move(Move::Bottom))))
            .expect("a page request");
        commands = app.update(Action::reply(
            id,
            Box::new(Exchange::local(Ok(Reply::page(page)))),
        ));
        // As the runtime does after each page (`runtime/event_loop.rs`, `executor.rs`).
        appdeck_tui::harness::write_bodies(&commands);
        appdeck_core::freed_memory::give_back();
        start = end;
    }
    app
}
