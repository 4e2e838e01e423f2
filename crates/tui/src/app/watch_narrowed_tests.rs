//! `:watch` on a list narrowed by `:where` or `/`: a look re-lists as deep as was loaded, no
//! deeper (a page the user asked for meanwhile is asked for again), and the rows shown stay on
//! screen while the queries test the look's rows; a large sorted list sorted again by a look
//! says nothing of it.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{key, page_request, press, settle, type_settled, type_text};
use super::panes::browser::sort::IN_PLACE_ROWS;
use super::*;
use crate::api::{Exchange, ListResponse, Reply};

/// Rows `r0`… named `row 0`…, a page of a listing that goes on after them when `next` is set.
fn numbered(count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (0..count)
        .map(|i| json!({"id": format!("r{i}"), "type": "repo", "name": format!("row {i}")}))
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

/// Answers the page request among `commands` with `page`; the commands that asks for.
fn reply_page(app: &mut App, commands: &[Command], page: ListResponse) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ))
}

/// Runs the jobs among `commands` one at a time, as the executor would, and those their
/// answers ask for; `check` after each answer. Every command seen.
fn run_checking(app: &mut App, commands: Vec<Command>, check: &dyn Fn(&App)) -> Vec<Command> {
    let mut all = commands.clone();
    for command in commands {
        if let Command::Run { id, job } = command {
            let more = app.update(Action::reply(id, Delivery::Job(job.run())));
            check(app);
            all.extend(run_checking(app, more, check));
        }
    }
    all
}

fn ids(app: &App) -> Vec<String> {
    let rows = app.browser.rows();
    (app.browser.visible.iter())
        .filter_map(|i| Some(rows.at(i).id()?.to_string()))
        .collect()
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    press(app, KeyCode::Enter)
}

/// An app showing the first 100 rows of a longer listing (enough to fill its screen: no page
/// more is asked for), at `t0`.
fn hundred_of_more(t0: Instant) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    app.now = t0;
    let more = reply_page(&mut app, &commands, numbered(100, Some("p2")));
    assert!(page_request(&more).is_none(), "the screen is full");
    app
}

/// The look `look` asked for brings the same 100 rows; its comparison and the queries' tests
/// run one by one, the rows shown checked to be `shown` after each. No page more is asked for.
fn look_keeps(app: &mut App, look: &[Command], shown: &[&str]) {
    let after_page = reply_page(app, look, numbered(100, Some("p2")));
    let check = |app: &App| assert_eq!(ids(app), shown, "the rows shown stay meanwhile");
    check(app);
    let seen = run_checking(app, after_page, &check);
    assert!(
        page_request(&seen).is_none(),
        "a look goes no deeper than the rows loaded"
    );
    assert!(app.browser.reloading.is_none(), "the look caught up");
    assert_eq!(app.browser.rows().len(), 100);
}

#[test]
fn a_look_under_where_loads_no_deeper_and_keeps_the_rows_shown_while_they_are_tested() {
    let t0 = Instant::now();
    let mut app = hundred_of_more(t0);
    let narrowed = command(&mut app, r#"where .name == "row 3" or .name == "row 7""#);
    settle(&mut app, narrowed);
    assert_eq!(ids(&app), ["r3", "r7"]);
    let look = command(&mut app, "watch 2");
    look_keeps(&mut app, &look, &["r3", "r7"]);
    for n in 1..=3 {
        let at = t0 + Duration::from_secs(2 * n);
        app.now = at;
        let look = app.update(Action::Tick);
        look_keeps(&mut app, &look, &["r3", "r7"]);
    }

    // A `:where` typed while a look's rows are tested tests them again once they are in.
    app.now = t0 + Duration::from_secs(10);
    let look = app.update(Action::Tick);
    let compare = reply_page(&mut app, &look, numbered(100, Some("p2")));
    let mut seen = Vec::new();
    for command in compare {
        if let Command::Run { id, job } = command {
            seen.extend(app.update(Action::reply(id, Delivery::Job(job.run()))));
        }
    }
    assert!(app.browser.reloading.is_some(), "its rows are being tested");
    seen.extend(command(&mut app, r#"where .name == "row 5""#));
    let seen = settle(&mut app, seen);
    assert!(page_request(&seen).is_none(), "no page more");
    assert!(app.browser.reloading.is_none());
    assert_eq!(ids(&app), ["r5"]);
}

#[test]
fn a_look_under_a_search_that_finds_nothing_loads_no_deeper() {
    let t0 = Instant::now();
    let mut app = hundred_of_more(t0);
    key(&mut app, '/');
    type_settled(&mut app, "zzzqqq");
    press(&mut app, KeyCode::Enter);
    assert!(ids(&app).is_empty());
    let look = command(&mut app, "watch 2");
    look_keeps(&mut app, &look, &[]);
    app.now = t0 + Duration::from_secs(2);
    let look = app.update(Action::Tick);
    look_keeps(&mut app, &look, &[]);

    // The user asks for more (End) while a look is under way: the page, cancelled with the
    // rows it was for, is asked for again once the look's rows are in.
    app.now = t0 + Duration::from_secs(4);
    let look = app.update(Action::Tick);
    let asked = press(&mut app, KeyCode::End);
    assert!(page_request(&asked).is_some(), "the next page");
    let after_page = reply_page(&mut app, &look, numbered(100, Some("p2")));
    let seen = settle(&mut app, after_page);
    assert!(app.browser.reloading.is_none(), "the look caught up");
    assert!(page_request(&seen).is_some(), "asked for again");
}

#[test]
fn a_look_sorting_a_large_list_again_says_nothing_of_the_sort() {
    let n = IN_PLACE_ROWS + 10;
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    reply_page(&mut app, &commands, numbered(n, None));
    let sort = command(&mut app, "sort name");
    settle(&mut app, sort);
    assert!(
        matches!(&app.notice, Some(Notice::Info(said)) if said.starts_with("sorted by name")),
        "the sort asked for is said: {:?}",
        app.notice
    );
    app.notice = None;
    let look = command(&mut app, "watch 2");
    let after_page = reply_page(&mut app, &look, numbered(n, None));
    settle(&mut app, after_page);
    assert!(app.browser.reloading.is_none(), "the look caught up");
    assert!(
        !matches!(&app.notice, Some(Notice::Info(said)) if said.contains("sorted")),
        "the look says nothing of the sort: {:?}",
        app.notice
    );
}

/// Rows `r0`…`r9`, the first `failing` of which a `:where` adding to `n` fails on (a string).
fn failing_on(failing: usize) -> ListResponse {
    let rows: Vec<Value> = (0..10)
        .map(|i| {
            let n = if i < failing { json!("x") } else { json!(i) };
            json!({"id": format!("r{i}"), "type": "repo", "name": format!("row {i}"), "n": n})
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap()
}

fn said(app: &App) -> String {
    match &app.notice {
        Some(Notice::Info(text) | Notice::Error(text)) => text.clone(),
        None => String::new(),
    }
}

/// Tester's LOW 6: `:watch 2` over a `:where` failing on some rows said `where failed on 3
/// rows` on every look, over any other message every two seconds. It is said once; a look
/// finding the same failures says nothing, so that an error the user causes stays, and the
/// title keeps saying how many rows the `:where` fails on; a look finding more says so.
#[test]
fn a_where_failing_on_the_same_rows_is_not_said_again_on_each_look() {
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 20), None);
    app.now = t0;
    let more = reply_page(&mut app, &commands, failing_on(3));
    settle(&mut app, more);
    let applied = command(&mut app, "where .n + 1 > 0");
    settle(&mut app, applied);
    assert!(
        said(&app).starts_with("where failed on 3 rows, left out: "),
        "{}",
        said(&app)
    );
    assert_eq!(app.browser.visible.len(), 7);
    let look = command(&mut app, "watch 2");
    let more = reply_page(&mut app, &look, failing_on(3));
    settle(&mut app, more);
    assert!(!said(&app).contains("where failed"), "{}", said(&app));

    let wrong = command(&mut app, "where .n ==");
    assert!(wrong.is_empty());
    let error = said(&app);
    assert!(error.contains("not a valid jq expression"), "{error}");
    for look in 1..=3 {
        app.now = t0 + Duration::from_secs(2 * look);
        let asked = app.update(Action::Tick);
        let more = reply_page(&mut app, &asked, failing_on(3));
        settle(&mut app, more);
        assert!(app.browser.reloading.is_none(), "look {look} is in");
        assert_eq!(said(&app), error, "look {look} said nothing over it");
    }
    let theme = crate::ui::theme::Theme::COLOR;
    let title = super::harness::line(&super::harness::draw(&app, &theme, chrono::Utc::now()), 1);
    assert!(title.contains("where .n + 1 > 0 (failed on 3)"), "{title}");

    app.now = t0 + Duration::from_secs(8);
    let asked = app.update(Action::Tick);
    let more = reply_page(&mut app, &asked, failing_on(4));
    settle(&mut app, more);
    assert!(
        said(&app).starts_with("where failed on 4 rows, left out: "),
        "{}",
        said(&app)
    );
    assert_eq!(app.browser.visible.len(), 6);
}
