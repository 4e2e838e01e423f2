//! Where the list's features meet (issue 33): `Esc` on a running query keeps the one before,
//! load all, the title's word on rows not loaded, marks, `!text` and `/regex/`, the natural
//! order of a sort and the view after it, a `:watch` look that reaches the new end, and a look
//! after a failed first load.

use std::time::Instant;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{jobs, key, page_request, press, settle, type_text};
use super::panes::browser::watch::Mark;
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, Reply};

/// Rows `start..start+count`: name `res_{i}`, stars = i, every third owned by alice.
fn page(start: usize, count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (start..start + count)
        .map(|i| {
            json!({
                "id": format!("r{i}"), "type": "repo", "name": format!("res_{i}"),
                "status": "active",
                "properties": {"owner": if i % 3 == 0 { "alice" } else { "bob" }, "stars": i}
            })
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn deliver(app: &mut App, commands: &[Command], page: ListResponse) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let more = app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    settle(app, more)
}

/// A 160x24 app whose first page (`count` rows) has arrived; `next`: a cursor to more.
fn loaded_with(count: usize, next: Option<&str>) -> (App, Vec<Command>) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 160, 24), None);
    let more = deliver(&mut app, &commands, page(0, count, next));
    (app, more)
}

fn loaded(count: usize) -> App {
    loaded_with(count, None).0
}

fn shown_ids(app: &App) -> Vec<String> {
    let rows = app.browser.rows();
    (app.browser.visible.iter())
        .map(|i| rows.at(i).id().map_or(String::new(), |id| id.to_string()))
        .collect()
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    app.update(Action::Submit)
}

fn info(app: &App) -> String {
    match &app.notice {
        Some(Notice::Info(text) | Notice::Error(text)) => text.clone(),
        None => String::new(),
    }
}

/// The list's title as drawn (the top line of the table's border).
fn title(app: &App) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    super::harness::line(&super::harness::draw(app, &theme, chrono::Utc::now()), 1)
}

#[test]
fn esc_on_a_running_where_keeps_the_where_before_it() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.stars > 25");
    settle(&mut app, commands);
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
    let running = jobs(&command(&mut app, "where .properties.stars > 27"));
    let commands = press(&mut app, KeyCode::Esc);
    assert!(commands.contains(&Command::Cancel(running[0].0)));
    let kept = app.browser.where_.as_ref().expect("the where before stays");
    assert_eq!(kept.expr, ".properties.stars > 25");
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
    assert!(
        info(&app).contains("still where .properties.stars > 25"),
        "{}",
        info(&app)
    );
    assert!(app.browser.activity().is_none(), "nothing runs any more");
}

#[test]
fn esc_on_a_running_where_after_none_clears_it() {
    let mut app = loaded(30);
    let running = jobs(&command(&mut app, "where .properties.stars > 27"));
    let commands = press(&mut app, KeyCode::Esc);
    assert_eq!(commands, [Command::Cancel(running[0].0)]);
    assert!(app.browser.where_.is_none());
    assert_eq!(app.browser.visible.len(), 30);
}

#[test]
fn esc_on_a_running_search_keeps_the_search_before_it() {
    let mut app = loaded(30);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("res_2".into()));
    settle(&mut app, commands);
    assert_eq!(shown_ids(&app).len(), 11, "res_2 and res_20 to res_29");
    let running = jobs(&key(&mut app, '9'));
    assert_eq!(running.len(), 1, "res_29 is looked for");
    let commands = press(&mut app, KeyCode::Esc);
    assert!(commands.contains(&Command::Cancel(running[0].0)));
    assert_eq!(app.browser.filter.text(), "res_2");
    assert_eq!(shown_ids(&app).len(), 11);
    assert!(info(&app).contains("still /res_2"), "{}", info(&app));
}

#[test]
fn a_bang_keeps_the_rows_without_the_text() {
    let mut app = loaded(12);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("!alice".into()));
    settle(&mut app, commands);
    let shown = shown_ids(&app);
    assert_eq!(shown.len(), 8, "the rows bob owns: {shown:?}");
    assert!(!shown.contains(&"r3".to_owned()));
}

#[test]
fn a_text_between_slashes_is_a_regular_expression() {
    let mut app = loaded(30);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("/^RES_1[05]$/".into()));
    settle(&mut app, commands);
    assert_eq!(shown_ids(&app), ["r10", "r15"]);
    let commands = app.update(Action::InsertText("!".into()));
    settle(&mut app, commands);
    // `/^RES_1[05]$/!` is no pattern: a plain text, which no row holds.
    assert!(shown_ids(&app).is_empty());
}

#[test]
fn a_broken_pattern_says_why_and_keeps_the_rows() {
    let mut app = loaded(30);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("/res_(1/".into()));
    assert!(jobs(&commands).is_empty());
    assert!(
        info(&app).contains("is not a regular expression"),
        "{}",
        info(&app)
    );
    assert_eq!(app.browser.visible.len(), 30);
}

#[test]
fn ids_and_numbers_sort_in_natural_order() {
    let mut app = loaded(12);
    let commands = command(&mut app, "sort name");
    settle(&mut app, commands);
    let names: Vec<String> = (app.browser.visible.iter())
        .map(|i| app.browser.rows().at(i).title().unwrap().to_string())
        .collect();
    let expected: Vec<String> = (0..12).map(|i| format!("res_{i}")).collect();
    assert_eq!(names, expected, "res_2 before res_10");
}

#[test]
fn after_a_sort_the_first_screen_shows_when_the_selected_row_is_on_it() {
    let mut app = loaded(30);
    for _ in 0..26 {
        key(&mut app, 'j');
    }
    assert!(app.browser.cursor.offset > 3, "scrolled down to r26");
    // Sorted by name descending, r26 is the fourth row.
    let commands = command(&mut app, "sort name desc");
    settle(&mut app, commands);
    let cursor = app.browser.cursor;
    assert_eq!(cursor.selected, 3);
    assert_eq!(
        shown_ids(&app)[cursor.selected],
        "r26",
        "the cursor stays on its row"
    );
    assert_eq!(cursor.offset, 0, "the three rows above it are not hidden");
}

#[test]
fn l_loads_every_page_and_esc_stops() {
    let (mut app, commands) = loaded_with(100, Some("c1"));
    assert!(
        page_request(&commands).is_none(),
        "a full screen asks for nothing more"
    );
    let mut pending = key(&mut app, 'L');
    assert!(info(&app).contains("Esc stops"), "{}", info(&app));
    for n in 1..=4 {
        let next = format!("c{}", n + 1);
        pending = deliver(&mut app, &pending, page(100 * n, 100, Some(&next)));
        assert!(
            page_request(&pending).is_some(),
            "the next page is asked for at once"
        );
        assert!(title(&app).contains("loading all…"), "{}", title(&app));
    }
    let commands = press(&mut app, KeyCode::Esc);
    assert!(matches!(commands[..], [Command::Cancel(_)]), "{commands:?}");
    assert!(!app.browser.loading_all, "Esc stops");
    assert_eq!(app.browser.rows().len(), 500, "the pages loaded stay");
    // `L` again resumes where it stopped and goes on to the last page.
    let pending = key(&mut app, 'L');
    let more = deliver(&mut app, &pending, page(500, 100, Some("c6")));
    let more = deliver(&mut app, &more, page(600, 100, None));
    assert!(page_request(&more).is_none());
    assert_eq!(app.browser.rows().len(), 700);
    assert!(title(&app).contains("all loaded"), "{}", title(&app));
    assert!(!app.browser.loading_all);
    key(&mut app, 'L');
    assert_eq!(info(&app), "all loaded already");
}

#[test]
fn load_all_from_the_command_line_goes_to_the_end() {
    let (mut app, _) = loaded_with(100, Some("c1"));
    let mut pending = command(&mut app, "load all");
    let mut start = 100;
    while page_request(&pending).is_some() && start < 1000 {
        let next = (start < 300).then(|| format!("c{start}"));
        pending = deliver(&mut app, &pending, page(start, 100, next.as_deref()));
        start += 100;
    }
    assert_eq!(app.browser.rows().len(), 400);
    assert!(!app.browser.loading_all);
}

#[test]
fn a_filtered_list_with_more_pages_says_how_to_load_them() {
    let (mut app, _) = loaded_with(100, Some("c1"));
    assert!(!title(&app).contains("L loads all"), "{}", title(&app));
    let commands = command(&mut app, "where .properties.stars > 25");
    settle(&mut app, commands);
    assert!(title(&app).contains("L loads all"), "{}", title(&app));
}

#[test]
fn space_marks_rows_and_y_and_export_act_on_them() {
    let mut app = loaded(10);
    key(&mut app, ' ');
    key(&mut app, 'j');
    key(&mut app, ' ');
    assert_eq!(app.browser.picked.len(), 2);
    assert_eq!(
        app.browser.cursor.selected, 3,
        "Space moves on to the next row"
    );
    assert!(title(&app).contains("2 marked"), "{}", title(&app));
    let commands = key(&mut app, 'y');
    assert_eq!(commands, [Command::Copy("r0\nr2".into())]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marked.ndjson");
    let commands = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, commands);
    let written = std::fs::read_to_string(&path).unwrap();
    let ids: Vec<String> = (written.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].to_string())
        .collect();
    assert_eq!(ids, ["\"r0\"", "\"r2\""]);
    // Space on a marked row unmarks it; Esc unmarks them all.
    key(&mut app, 'k');
    key(&mut app, ' ');
    assert_eq!(app.browser.picked.len(), 1);
    press(&mut app, KeyCode::Esc);
    assert!(app.browser.picked.is_empty());
    assert_eq!(info(&app), "marks cleared");
}

#[test]
fn a_watch_look_at_a_list_loaded_to_its_end_reaches_the_new_end() {
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 160, 24), None);
    app.now = t0;
    deliver(&mut app, &commands, page(0, 100, None));
    let mut look = command(&mut app, "watch 5");
    // The list grew by 100 rows past its old end, over two more pages: past any margin a look
    // loads as deep as the rows shown with.
    look = deliver(&mut app, &look, page(0, 100, Some("p2")));
    look = deliver(&mut app, &look, page(100, 50, Some("p3")));
    let last = deliver(&mut app, &look, page(150, 50, None));
    assert!(page_request(&last).is_none());
    assert_eq!(app.browser.rows().len(), 200);
    let watch = app.browser.watch.as_ref().unwrap();
    let new = (watch.marks.values())
        .filter(|(m, _)| *m == Mark::New)
        .count();
    assert_eq!(new, 100, "every new row is marked");
}

#[test]
fn a_watch_look_after_a_failed_first_load_is_a_load() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 160, 24), None);
    let id = page_request(&commands).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Err(ApiError::Invalid("refused".into())))),
    ));
    let look = command(&mut app, "watch 1");
    assert!(page_request(&look).is_some(), "the look asks the service");
    deliver(&mut app, &look, page(0, 4, None));
    assert_eq!(app.browser.rows().len(), 4, "the rows show, not the error");
}
