//! The list fetched again behind the rows on screen (a `:watch` look, `r`) against what happens
//! meanwhile: pages loaded by `L` or by moving down never leave the list shorter when the look
//! lands, `L` is never stopped by one, a look or a refresh that fails keeps the rows and says so
//! until one succeeds.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{answer, jobs, key, page_request, press, settle, type_settled, type_text};
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, Reply};

/// The listing the service holds: 500 rows, 100 a page.
const TOTAL: usize = 500;
const PAGE: usize = 100;

/// The page of the listing after cursor `next` (`c{start}`; `None`: the first).
fn page_at(next: Option<&str>) -> ListResponse {
    let start = next.map_or(0, |c| c[1..].parse().expect("a cursor of ours"));
    let end = (start + PAGE).min(TOTAL);
    let rows: Vec<Value> = (start..end)
        .map(|i| json!({"id": format!("r{i}"), "type": "repo", "name": format!("row {i}")}))
        .collect();
    let next = (end < TOTAL).then(|| format!("c{end}"));
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

/// The page requests among `commands`: their ids and cursors.
fn requests(commands: &[Command]) -> Vec<(RequestId, Option<String>)> {
    (commands.iter())
        .filter_map(|c| match c {
            Command::Api { id, call } => Some((*id, call.as_list_request()?.next)),
            _ => None,
        })
        .collect()
}

/// Answers one page request as the service would, then runs the jobs its answer asks for.
fn answer_page(app: &mut App, (id, next): &(RequestId, Option<String>)) -> Vec<Command> {
    let page = page_at(next.as_deref());
    let more = app.update(Action::reply(
        *id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    settle(app, more)
}

/// Answers every page request among `commands` and those the answers ask for, checking the
/// app after each answer.
fn serve_checking(app: &mut App, commands: Vec<Command>, check: impl Fn(&App)) {
    let mut asked = requests(&commands);
    while let Some(request) = asked.pop() {
        let more = answer_page(app, &request);
        check(app);
        asked.extend(requests(&more));
    }
}

fn serve(app: &mut App, commands: Vec<Command>) {
    serve_checking(app, commands, |_| {});
}

/// An HTTP 500 for the page request among `commands`.
fn fail(app: &mut App, commands: &[Command]) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let error = ApiError::Invalid("HTTP 500 Internal Server Error".into());
    app.update(Action::reply(id, Box::new(Exchange::local(Err(error)))))
}

/// The app at `t0`, its first page (100 rows) loaded: the screen wants no more.
fn loaded(t0: Instant) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 24), None);
    app.now = t0;
    let first = requests(&commands);
    let more = answer_page(&mut app, &first[0]);
    assert!(requests(&more).is_empty(), "a screenful is loaded");
    app
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    app.update(Action::Submit)
}

fn tick_at(app: &mut App, at: Instant) -> Vec<Command> {
    assert!(app.wake_at().is_some_and(|due| due <= at), "a look is due");
    app.now = at;
    app.update(Action::Tick)
}

fn rows(app: &App) -> usize {
    app.browser.rows().len()
}

fn selected(app: &App) -> Option<String> {
    Some(app.browser.selected()?.id()?.to_string())
}

/// The status bar and the list's title, as drawn.
fn status_line(app: &App) -> String {
    drawn_line(app, 0)
}

fn title(app: &App) -> String {
    drawn_line(app, 1)
}

fn drawn_line(app: &App, y: u16) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    super::harness::line(&super::harness::draw(app, &theme, chrono::Utc::now()), y)
}

fn marks(app: &App) -> usize {
    app.browser.watch.as_ref().map_or(0, |w| w.marks.len())
}

/// The tester's report: `L`, then `:watch`: the look, asked when 100 rows were loaded, came back
/// after `L` had loaded 500 and left 100. It now goes as deep as the list is when its pages come.
#[test]
fn a_look_asked_before_l_loaded_every_page_leaves_every_row() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let look = requests(&command(&mut app, "watch 60"));
    assert_eq!(look.len(), 1, "a look at once");
    let all = key(&mut app, 'L');
    serve(&mut app, all);
    assert_eq!(rows(&app), TOTAL, "L loaded every page");
    let more = answer_page(&mut app, &look[0]);
    assert_eq!(rows(&app), TOTAL);
    serve_checking(&mut app, more, |app| assert_eq!(rows(app), TOTAL));
    let watch = app.browser.watch.as_ref().expect("watching");
    assert_eq!(watch.looked, Some(t0), "the look came back");
    assert_eq!(marks(&app), 0, "the same rows: nothing marked");
}

/// While `L` loads, a look waits (the next one comes after it), so no look's rows take the
/// place of the list's while it grows, and `L` is not stopped.
#[test]
fn a_look_waits_while_l_loads_and_never_stops_it() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let all = key(&mut app, 'L');
    assert_eq!(requests(&all).len(), 1, "the next page asked for");
    let watch = command(&mut app, "watch 1");
    assert!(
        requests(&watch).is_empty(),
        "the look waits for L: {watch:?}"
    );
    assert!(app.browser.loading_all(), "L goes on");
    serve_checking(&mut app, all, |app| assert!(rows(app) > PAGE));
    assert_eq!(rows(&app), TOTAL);
    assert!(!app.browser.loading_all(), "L is done");

    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    assert!(page_request(&look).is_some(), "the look after L");
    serve_checking(&mut app, look, |app| assert_eq!(rows(app), TOTAL));
    let watch = app.browser.watch.as_ref().expect("watching");
    assert_eq!(watch.looked, Some(t0 + Duration::from_secs(1)));
    assert_eq!(marks(&app), 0);
}

/// A page the cursor brought in while a look was on its way: the look covers it, and the cursor
/// stays on its row (it jumped to the look's last row).
#[test]
fn a_page_loaded_while_a_look_runs_is_covered_by_it() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let first = command(&mut app, "watch 1");
    serve(&mut app, first);
    let look = requests(&tick_at(&mut app, t0 + Duration::from_secs(1)));
    let next = key(&mut app, 'G');
    serve(&mut app, next);
    assert_eq!(rows(&app), 2 * PAGE);
    assert_eq!(selected(&app).as_deref(), Some("r99"));
    let more = answer_page(&mut app, &look[0]);
    let check = |app: &App| {
        assert_eq!(rows(app), 2 * PAGE, "as many rows as were loaded");
        assert_eq!(selected(app).as_deref(), Some("r99"), "the cursor stays");
    };
    check(&app);
    serve_checking(&mut app, more, check);
    let watch = app.browser.watch.as_ref().expect("watching");
    assert_eq!(watch.looked, Some(t0 + Duration::from_secs(1)));
}

/// A page loaded once the look had all its rows, while they were being compared: the look's rows
/// are dropped and a new look starts from the rows the list holds then.
#[test]
fn a_page_loaded_while_a_look_is_compared_starts_the_look_again() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let first = command(&mut app, "watch 1");
    serve(&mut app, first);
    let look = requests(&tick_at(&mut app, t0 + Duration::from_secs(1)));
    let (id, _) = &look[0];
    let compare = app.update(Action::reply(
        *id,
        Box::new(Exchange::local(Ok(Reply::page(page_at(None))))),
    ));
    let compare = jobs(&compare);
    assert_eq!(compare.len(), 1, "the comparison waits to run");
    let next = key(&mut app, 'G');
    serve(&mut app, next);
    assert_eq!(rows(&app), 2 * PAGE);
    let again = answer(&mut app, &compare[0]);
    assert_eq!(rows(&app), 2 * PAGE, "the look's 100 rows did not come in");
    let watch = app.browser.watch.as_ref().expect("watching");
    assert_eq!(
        watch.looked,
        Some(t0),
        "nor did its marks: it did not count as a look"
    );
    assert!(page_request(&again).is_some(), "a new look: {again:?}");
    serve_checking(&mut app, again, |app| assert_eq!(rows(app), 2 * PAGE));
    assert_eq!(selected(&app).as_deref(), Some("r99"));
    assert_eq!(marks(&app), 0, "the same rows: nothing marked");
}

/// Without `:watch` too: `r` under a `/` filter, a page loaded while the refreshed rows are
/// tested by it: they are dropped for a new refresh from the rows the list holds then.
#[test]
fn a_page_loaded_while_a_refresh_is_tested_starts_it_again() {
    let mut app = loaded(Instant::now());
    key(&mut app, '/');
    type_settled(&mut app, "row");
    press(&mut app, KeyCode::Enter);
    let refresh = requests(&key(&mut app, 'r'));
    let (id, _) = &refresh[0];
    let tests = app.update(Action::reply(
        *id,
        Box::new(Exchange::local(Ok(Reply::page(page_at(None))))),
    ));
    let tests = jobs(&tests);
    assert!(!tests.is_empty(), "the refreshed rows are tested");
    let next = key(&mut app, 'G');
    serve(&mut app, next);
    assert_eq!(rows(&app), 2 * PAGE);
    let again: Vec<Command> = tests.iter().flat_map(|job| answer(&mut app, job)).collect();
    assert_eq!(
        rows(&app),
        2 * PAGE,
        "the refreshed 100 rows did not come in"
    );
    assert!(page_request(&again).is_some(), "a new refresh: {again:?}");
    serve_checking(&mut app, again, |app| assert_eq!(rows(app), 2 * PAGE));
    assert_eq!(selected(&app).as_deref(), Some("r99"));
}

/// A look that failed warns in the status bar; the next one that succeeds takes the warning away
/// (it stayed until a key was pressed).
#[test]
fn a_good_look_takes_the_warning_of_a_failed_one_away() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let first = command(&mut app, "watch 1");
    serve(&mut app, first);
    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    fail(&mut app, &look);
    let problem = app.problem().unwrap_or_default();
    assert!(problem.contains("not refreshed"), "{problem}");
    assert!(
        status_line(&app).contains("not refreshed"),
        "{}",
        status_line(&app)
    );
    let at = app.wake_at().expect("a look to come");
    let look = tick_at(&mut app, at);
    serve(&mut app, look);
    let watch = app.browser.watch.as_ref().expect("watching");
    assert!(watch.failure.is_none() && watch.looked == Some(at));
    assert_eq!(app.problem(), None, "the warning went with the good look");
    assert!(
        !status_line(&app).contains("not refreshed"),
        "{}",
        status_line(&app)
    );
}

/// `r` that the service answers with an error: the rows and the cursor stay, the status bar says
/// the list was not refreshed (a key later too), and `r` again asks again.
#[test]
fn a_refresh_that_fails_keeps_the_rows_and_r_retries() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    for _ in 0..3 {
        key(&mut app, 'j');
    }
    let refresh = key(&mut app, 'r');
    fail(&mut app, &refresh);
    assert_eq!(rows(&app), PAGE, "the rows stay");
    assert_eq!(selected(&app).as_deref(), Some("r3"));
    key(&mut app, 'j');
    assert!(
        status_line(&app).contains("not refreshed"),
        "{}",
        status_line(&app)
    );
    assert!(
        title(&app).contains("not refreshed: r retries"),
        "{}",
        title(&app)
    );
    let again = key(&mut app, 'r');
    let asked = requests(&again);
    assert_eq!(asked.len(), 1, "r asks again");
    assert_eq!(asked[0].1, None, "from the first page");
    serve_checking(&mut app, again, |app| assert_eq!(rows(app), PAGE));
    assert_eq!(selected(&app).as_deref(), Some("r4"));
    assert_eq!(app.problem(), None, "refreshed");
    assert!(!title(&app).contains("not refreshed"), "{}", title(&app));
}
