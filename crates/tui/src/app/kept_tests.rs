//! Rows kept from the last run (issue 37 item 1): shown at once, marked as kept, replaced by the
//! live page without moving the cursor, kept with the error when the service does not answer,
//! and never passed on as live (copy, export, report each say so).

use std::time::Duration;

use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{
    draw, key, line, page_request, press, report_opened, settle, status, type_text,
};
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, RawPage, Reply};

fn rows(start: usize, count: usize, name: &str) -> Vec<Value> {
    (start..start + count)
        .map(|i| json!({"id": format!("r{i}"), "type": "repo", "name": format!("{name} {i}")}))
        .collect()
}

/// The store's answer: these rows, kept `age` ago, as the runtime reads them into a page.
fn kept(rows: &[Value], age: Duration) -> Delivery {
    let body = serde_json::to_vec(&json!({ "resources": rows })).unwrap();
    let page = RawPage::read(body).unwrap().into();
    Delivery::KeptListing(KeptListing::Rows {
        age,
        page: Box::new(page),
        too_large: 0,
    })
}

/// The first kept rows the start reads (the rest follow) and the rest, as the runtime sends them.
fn kept_in_two(rows: &[Value], first: usize, age: Duration) -> (Delivery, Delivery) {
    let page = |rows: &[Value]| {
        let body = serde_json::to_vec(&json!({ "resources": rows })).unwrap();
        Box::new(RawPage::read(body).unwrap().into())
    };
    (
        Delivery::KeptListing(KeptListing::First {
            age,
            page: page(&rows[..first]),
            too_large: 0,
        }),
        Delivery::KeptListing(KeptListing::Rest(page(&rows[first..]))),
    )
}

fn live(id: RequestId, rows: Vec<Value>, next: Option<&str>) -> Action {
    let page = ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap();
    Action::reply(id, Box::new(Exchange::local(Ok(Reply::page(page)))))
}

fn refused(id: RequestId) -> Action {
    let error = ApiError::Network("connection refused".into());
    Action::reply(id, Box::new(Exchange::local(Err(error))))
}

/// A started app that asked the store for its kept listing: the app, the live page's request
/// and the store's.
fn opened(offline: bool) -> (App, Option<RequestId>, RequestId) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    let (ask, unasked) = app.open_kept(offline);
    let Command::LoadKeptListing { id, type_filter } = ask else {
        panic!("asks the store: {ask:?}")
    };
    assert_eq!(type_filter, None);
    let live = page_request(&commands).filter(|id| Some(*id) != unasked);
    (app, live, id)
}

fn title(app: &App) -> String {
    let screen = draw(app, &crate::ui::theme::Theme::default(), chrono::Utc::now());
    line(&screen, 1)
}

#[test]
fn kept_rows_show_at_once_marked_and_the_live_page_replaces_them_where_the_cursor_was() {
    let (mut app, live_id, kept_id) = opened(false);
    let live_id = live_id.expect("the live page is asked for");
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 30, "old"), Duration::from_secs(3 * 3600)),
    ));
    assert_eq!(app.browser.rows().len(), 30);
    let shown = title(&app);
    assert!(
        shown.contains("30 kept 3 h ago · asking the service…"),
        "{shown}"
    );
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'j');
    assert_eq!(app.browser.selected().unwrap().id().as_deref(), Some("r3"));

    // The live page, with a row added at the top since: its rows replace the kept ones, the
    // cursor stays on r3, and the rows it brings are kept for the next start, from the start.
    let mut now = vec![json!({"id": "r_added", "type": "repo", "name": "added"})];
    now.extend(rows(0, 29, "new"));
    let commands = app.update(live(live_id, now, Some("c1")));
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.rows().len(), 30);
    assert_eq!(app.browser.selected().unwrap().id().as_deref(), Some("r3"));
    assert_eq!(
        app.browser.selected().unwrap().title().as_deref(),
        Some("new 3")
    );
    let keep = commands.iter().find_map(|c| match c {
        Command::KeepListing {
            rows, from_start, ..
        } => Some((rows.len(), *from_start)),
        _ => None,
    });
    assert_eq!(keep, Some((30, true)));
    let shown = title(&app);
    assert!(
        shown.contains("30 loaded") && !shown.contains("kept"),
        "{shown}"
    );
}

/// The start shows the first kept rows, as many as its first frame can show, and takes the
/// rest after it: one kept listing, marked, the cursor where it was.
#[test]
fn the_rest_of_the_kept_rows_follows_the_first_ones_under_the_same_ask() {
    let (mut app, live_id, kept_id) = opened(false);
    let (first, rest) = kept_in_two(&rows(0, 30, "old"), 12, Duration::from_secs(3 * 3600));
    app.update(Action::reply(kept_id, first));
    assert_eq!(app.browser.rows().len(), 12);
    let shown = title(&app);
    assert!(
        shown.contains("12 kept 3 h ago · asking the service…"),
        "{shown}"
    );
    key(&mut app, 'j');
    key(&mut app, 'j');
    let follow_up = app.update(Action::reply(kept_id, rest));
    assert!(
        page_request(&follow_up).is_none(),
        "kept rows have no next page"
    );
    assert_eq!(app.browser.rows().len(), 30);
    assert_eq!(app.browser.selected().unwrap().id().as_deref(), Some("r2"));
    let shown = title(&app);
    assert!(
        shown.contains("30 kept 3 h ago · asking the service…"),
        "{shown}"
    );

    app.update(live(live_id.unwrap(), rows(0, 5, "new"), None));
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.selected().unwrap().id().as_deref(), Some("r2"));
    assert_eq!(app.browser.rows().len(), 5);
}

/// The live page came between the first kept rows and the rest: the rest never shows.
#[test]
fn the_rest_of_the_kept_rows_after_the_live_page_is_dropped() {
    let (mut app, live_id, kept_id) = opened(false);
    let (first, rest) = kept_in_two(&rows(0, 30, "old"), 12, Duration::from_secs(60));
    app.update(Action::reply(kept_id, first));
    app.update(live(live_id.unwrap(), rows(0, 5, "new"), None));
    app.update(Action::reply(kept_id, rest));
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.rows().len(), 5);
    assert!(title(&app).contains("5 loaded"), "{}", title(&app));
}

#[test]
fn when_the_live_page_fails_the_kept_rows_stay_with_the_error_and_r_asks_again() {
    let (mut app, live_id, kept_id) = opened(false);
    // The service refused before the store answered: the kept rows still show, with why.
    app.update(refused(live_id.unwrap()));
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 5, "old"), Duration::from_secs(90)),
    ));
    assert_eq!(app.browser.rows().len(), 5);
    assert!(matches!(app.browser.error(), Some(ApiError::Network(_))));
    let shown = title(&app);
    assert!(
        shown.contains("5 kept 1 min ago · service not answering: r retries"),
        "{shown}"
    );

    let again = key(&mut app, 'r');
    let retry = page_request(&again).expect("r asks for the live page again");
    assert!(title(&app).contains("asking the service…"));
    assert_eq!(app.browser.rows().len(), 5, "the kept rows stay meanwhile");
    app.update(refused(retry));
    assert_eq!(app.browser.rows().len(), 5);
    let retry = page_request(&key(&mut app, 'r')).unwrap();
    app.update(live(retry, rows(0, 2, "new"), None));
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.rows().len(), 2);
}

#[test]
fn a_kept_listing_that_comes_after_the_live_page_is_not_shown() {
    let (mut app, live_id, kept_id) = opened(false);
    app.update(live(live_id.unwrap(), rows(0, 3, "new"), None));
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 9, "old"), Duration::from_secs(5)),
    ));
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.rows().len(), 3);
}

#[test]
fn offline_opens_on_the_kept_rows_without_asking_the_service_until_r() {
    let (mut app, live_id, kept_id) = opened(true);
    assert_eq!(live_id, None, "nothing asked of the service");
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 4, "old"), Duration::from_secs(60)),
    ));
    assert!(title(&app).contains("4 kept 1 min ago · offline: r asks the service"));
    assert!(
        page_request(&key(&mut app, 'G')).is_none(),
        "kept rows have no next page"
    );
    assert!(page_request(&key(&mut app, 'r')).is_some());

    // Offline with nothing kept: said, and `r` asks the service.
    let (mut app, _, kept_id) = opened(true);
    app.update(Action::reply(
        kept_id,
        Delivery::KeptListing(KeptListing::None),
    ));
    assert!(status(&app).contains("offline: nothing kept"));
    assert!(page_request(&key(&mut app, 'r')).is_some());
}

#[test]
fn a_set_aside_listing_is_said_and_not_shown() {
    let (mut app, _, kept_id) = opened(false);
    let why = "its row 2 is not one JSON value".to_owned();
    app.update(Action::reply(
        kept_id,
        Delivery::KeptListing(KeptListing::SetAside(why)),
    ));
    assert!(app.browser.rows().is_empty());
    let said = status(&app);
    assert!(
        said.contains("set aside, not shown: its row 2 is not one JSON value"),
        "{said}"
    );
}

/// Whatever takes a kept row from the list says it is kept: copy, a report, an export.
#[test]
fn a_kept_row_never_leaves_the_list_as_live() {
    let (mut app, _, kept_id) = opened(false);
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 3, "old"), Duration::from_secs(7200)),
    ));
    let copied = key(&mut app, 'y');
    assert!(copied.iter().any(|c| matches!(c, Command::Copy(_))));
    let said = status(&app);
    assert!(
        said.starts_with("resource id (kept 2 h ago, not live) sent"),
        "{said}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.ndjson");
    key(&mut app, ':');
    type_text(&mut app, &format!("export {}", path.display()));
    let exporting = press(&mut app, crossterm::event::KeyCode::Enter);
    settle(&mut app, exporting);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
    let said = status(&app);
    assert!(said.ends_with("(kept 2 h ago, not live)"), "{said}");

    // The overview counts them as kept ones.
    key(&mut app, '4');
    let header = title(&app);
    assert!(
        header.contains("Overview · 3 rows kept 2 h ago, not live"),
        "{header}"
    );
    key(&mut app, '1');

    let said = report_opened(&mut app);
    assert!(
        said.contains("from a listing (kept 2 h ago, not live)"),
        "{said}"
    );
}

/// A look of `:watch` over kept rows the service did not answer for, once it answers: the
/// look's rows are live (the title and a copy say so), and they are what is kept next.
#[test]
fn a_watch_look_over_kept_rows_makes_them_live_and_is_kept() {
    let (mut app, live_id, kept_id) = opened(false);
    app.update(refused(live_id.unwrap()));
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 5, "old"), Duration::from_secs(90)),
    ));
    assert!(title(&app).contains("service not answering"));

    key(&mut app, ':');
    type_text(&mut app, "watch 2");
    let look = press(&mut app, crossterm::event::KeyCode::Enter);
    let id = page_request(&look).expect("the look asks the service");
    let answered = app.update(live(id, rows(0, 6, "new"), None));
    let keep = answered.iter().find_map(|c| match c {
        Command::KeepListing {
            rows, from_start, ..
        } => Some((rows.len(), *from_start)),
        _ => None,
    });
    assert_eq!(
        keep,
        Some((6, true)),
        "the look's rows are kept for the next start"
    );
    settle(&mut app, answered);
    assert!(app.browser.kept.is_none());
    assert_eq!(app.browser.rows().len(), 6);
    let shown = title(&app);
    assert!(
        !shown.contains("kept") && !shown.contains("not answering"),
        "{shown}"
    );
    key(&mut app, 'y');
    let said = status(&app);
    assert!(!said.contains("not live"), "{said}");
}

/// The title says why the live page did not come: a service that answered and refused the
/// token is not one that is not answering.
#[test]
fn the_title_says_whether_the_service_refused_or_did_not_answer() {
    let (mut app, live_id, kept_id) = opened(false);
    let refused_token = ApiError::Http {
        status: 401,
        reason: "Unauthorized".into(),
        message: "invalid token".into(),
        request: Default::default(),
    };
    app.update(Action::reply(
        live_id.unwrap(),
        Box::new(Exchange::local(Err(refused_token))),
    ));
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 2, "old"), Duration::from_secs(90)),
    ));
    let shown = title(&app);
    assert!(
        shown.contains("kept 1 min ago · the service refused the token: r retries"),
        "{shown}"
    );
}

/// The store left a row out as too large to keep (the rows after it kept): the title says so
/// beside the rows kept, rather than pass them for the whole listing.
#[test]
fn rows_left_out_as_too_large_are_said_in_the_title() {
    let (mut app, _, kept_id) = opened(false);
    let body = serde_json::to_vec(&json!({ "resources": rows(0, 16, "old") })).unwrap();
    let page = RawPage::read(body).unwrap().into();
    let kept = KeptListing::Rows {
        age: Duration::from_secs(3 * 3600),
        page: Box::new(page),
        too_large: 1,
    };
    app.update(Action::reply(kept_id, Delivery::KeptListing(kept)));
    let shown = title(&app);
    assert!(
        shown.contains("16 kept 3 h ago, 1 too large to keep · asking the service…"),
        "{shown}"
    );
}

/// Every line of the screen as drawn, one after another.
fn screen(app: &App) -> String {
    let screen = draw(app, &crate::ui::theme::Theme::default(), chrono::Utc::now());
    (0..20)
        .map(|y| line(&screen, y))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The detail opened on a kept row is no live resource either: its title says so in words,
/// and `y`, `:export` and `R` in it say what they say from the list (issue 37: nothing kept
/// passes as live). Before, the detail copied, wrote and reported the row as live.
#[test]
fn the_detail_of_a_kept_row_says_it_is_kept_as_the_list_does() {
    let (mut app, _, kept_id) = opened(true);
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 3, "old"), Duration::from_secs(300)),
    ));
    key(&mut app, 'j');
    press(&mut app, crossterm::event::KeyCode::Enter);
    assert!(
        matches!(app.stack.top(), Some(crate::app::pane::Screen::Detail(_))),
        "the detail opens"
    );
    let shown = screen(&app);
    assert!(shown.contains("kept 5 min ago, not live · old"), "{shown}");

    key(&mut app, 'y');
    let said = status(&app);
    assert!(said.contains("(kept 5 min ago, not live) sent"), "{said}");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.json");
    key(&mut app, ':');
    type_text(&mut app, &format!("export {}", path.display()));
    let exporting = press(&mut app, crossterm::event::KeyCode::Enter);
    settle(&mut app, exporting);
    assert!(path.exists());
    let said = status(&app);
    assert!(said.ends_with("(kept 5 min ago, not live)"), "{said}");

    let said = report_opened(&mut app);
    assert!(
        said.starts_with("warning: this resource is from a listing (kept 5 min ago, not live)"),
        "{said}"
    );
}

/// Tester's LOW 1: `R` on a kept row with a draft about it says both, the row not live and the
/// draft restored (and, after `D`, the draft discarded): before, the draft's news took the
/// warning's place, and the report looked as if it started from a live resource.
#[test]
fn a_draft_restored_over_a_kept_row_keeps_the_warning() {
    let (mut app, _, kept_id) = opened(false);
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 3, "old"), Duration::from_secs(7200)),
    ));
    // A draft about the row, as the composer itself would save it.
    let asked = key(&mut app, 'R');
    let Some(pane::Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer opens")
    };
    let body = composer.draft_text();
    let Some(id) = asked.iter().find_map(|c| match c {
        Command::LoadDraft { id, .. } => Some(*id),
        _ => None,
    }) else {
        panic!("R looks its draft up: {asked:?}")
    };
    let stored = StoredDraft {
        body,
        age: Duration::from_secs(60),
        revision: crate::store::DraftRevision {
            row: 1,
            revision: 1,
        },
        sent: None,
    };
    app.update(Action::reply(id, Delivery::DraftLoaded(Ok(Some(stored)))));
    let said = status(&app);
    assert!(
        said.contains("from a listing (kept 2 h ago, not live)"),
        "{said}"
    );
    assert!(said.contains("draft from 1 min ago restored"), "{said}");
    key(&mut app, 'D');
    let said = status(&app);
    assert!(
        said.contains("from a listing (kept 2 h ago, not live)"),
        "{said}"
    );
    assert!(said.contains("draft discarded"), "{said}");
}

/// Marks on kept rows a `/` shows, then the live page whose rows it has not tested yet: they
/// show none of them, so the title says the marks hidden (review item 6: the count of marks
/// shown is kept as the rows shown change, here as the live page's rows are shown anew), and
/// once tested the rows that pass show.
#[test]
fn marks_on_kept_rows_are_counted_again_as_the_live_page_shows() {
    let (mut app, live_id, kept_id) = opened(false);
    app.update(Action::reply(
        kept_id,
        kept(&rows(0, 4, "old"), Duration::from_secs(60)),
    ));
    key(&mut app, '/');
    super::harness::type_settled(&mut app, "old");
    app.update(Action::Submit);
    key(&mut app, 'g');
    key(&mut app, ' ');
    key(&mut app, ' ');
    let apart = |app: &App| {
        let list = &app.browser;
        let listing = list.listing.loaded().expect("rows");
        let worked_out = listing.marked(&list.visible, &list.picked, list.watch.as_ref());
        assert_eq!(list.picked.apart(list.watch.as_ref()), worked_out.1);
        worked_out.1.hidden
    };
    assert_eq!(apart(&app), 0);
    let mut now = rows(0, 2, "new");
    now.extend(rows(2, 2, "old"));
    let tests = app.update(live(live_id.expect("asked"), now, None));
    assert!(app.browser.visible.is_empty(), "not tested yet");
    assert_eq!(apart(&app), 2, "r0 and r1 not shown");
    settle(&mut app, tests);
    assert_eq!(app.browser.visible.len(), 2, "r2 and r3");
    assert_eq!(apart(&app), 2);
    assert!(
        title(&app).contains("2 marked (2 hidden)"),
        "{}",
        title(&app)
    );
}
