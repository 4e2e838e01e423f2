//! Sorting the list through `update`: `s`, `S` and `:sort` (issue 22 item 3); the cursor stays
//! on its row, pages that arrive merge into the order, the `/` filter and the sort together, and
//! a large list sorted by a job that a page, `Esc` or a progress report may meet on its way.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{key, press, type_settled, type_text};
use super::panes::browser::sort::{IN_PLACE_ROWS, SortJob};
use super::*;
use crate::api::{Exchange, ListResponse, Reply};
use appdeck_listing::Column;
use appdeck_listing::SortSpec;

/// A page of resources named `names` (`None`: no name), ids `r{first}`… in order.
fn page_of(first: usize, names: &[Option<&str>], next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let kind = ["repo", "user"][(first + i) % 2];
            let mut row = json!({"id": format!("r{}", first + i), "type": kind});
            if let Some(name) = name {
                row["name"] = json!(name);
            }
            row
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn reply(id: RequestId, page: ListResponse) -> Action {
    Action::reply(id, Box::new(Exchange::local(Ok(Reply::page(page)))))
}

fn page_request(commands: &[Command]) -> Option<RequestId> {
    commands.iter().find_map(|c| match c {
        Command::Api { id, .. } => Some(*id),
        _ => None,
    })
}

/// An app whose first page holds `names`, and the request of the next page when the list asked
/// for it at once (to fill the screen).
fn loaded_and_next(names: &[Option<&str>]) -> (App, Option<RequestId>) {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 12), None);
    let id = page_request(&commands).unwrap();
    let next = page_request(&app.update(reply(id, page_of(0, names, Some("c2")))));
    (app, next)
}

fn loaded(names: &[Option<&str>]) -> App {
    loaded_and_next(names).0
}

fn ids(app: &App) -> Vec<String> {
    let rows = app.browser.rows();
    (app.browser.visible.iter())
        .map(|i| rows.at(i).id().map_or(String::new(), |id| id.to_string()))
        .collect()
}

/// The names of the rows shown, in their order (the nameless left out).
fn shown_names(app: &App) -> Vec<String> {
    let rows = app.browser.rows();
    (app.browser.visible.iter())
        .filter_map(|i| rows.at(i).title().map(|t| t.to_string()))
        .collect()
}

fn selected(app: &App) -> String {
    app.browser
        .selected()
        .and_then(|r| r.id())
        .unwrap()
        .to_string()
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    press(app, KeyCode::Enter)
}

fn notice(app: &App) -> String {
    match &app.notice {
        Some(Notice::Info(text) | Notice::Error(text)) => text.clone(),
        None => String::new(),
    }
}

const NAMES: [Option<&str>; 6] = [
    Some("delta"),
    Some("Alpha"),
    None,
    Some("charlie"),
    Some("alpha"),
    Some("Bravo"),
];

#[test]
fn s_sorts_by_the_next_column_and_the_cursor_stays_on_its_row() {
    let mut app = loaded(&NAMES);
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'j');
    assert_eq!(selected(&app), "r3");
    key(&mut app, 's');
    assert_eq!(
        app.browser.sorting.spec,
        Some(SortSpec {
            column: Column::Type,
            descending: false
        })
    );
    // repo (even ids) before user, in the server's order within each.
    assert_eq!(ids(&app), ["r0", "r2", "r4", "r1", "r3", "r5"]);
    assert_eq!(selected(&app), "r3", "the cursor stays on its row");
    assert_eq!(notice(&app), "sorted by type ▲ ascending");
    key(&mut app, 's');
    // Case-insensitive, ties in the server's order, the missing name last.
    assert_eq!(ids(&app), ["r1", "r4", "r5", "r3", "r0", "r2"]);
    assert_eq!(selected(&app), "r3");
    key(&mut app, 'S');
    assert_eq!(ids(&app), ["r0", "r3", "r5", "r1", "r4", "r2"]);
    assert_eq!(notice(&app), "sorted by name ▼ descending");
    for _ in 0..5 {
        key(&mut app, 's');
    }
    assert_eq!(app.browser.sorting.spec, None, "after the last column");
    assert_eq!(ids(&app), ["r0", "r1", "r2", "r3", "r4", "r5"]);
    assert_eq!(selected(&app), "r3");
}

#[test]
fn shift_s_with_no_sort_sorts_the_first_column_descending() {
    let mut app = loaded(&NAMES);
    key(&mut app, 'S');
    assert_eq!(ids(&app), ["r1", "r3", "r5", "r0", "r2", "r4"]);
}

#[test]
fn sort_command_takes_a_column_and_a_direction_and_off() {
    let mut app = loaded(&NAMES);
    assert!(command(&mut app, "sort NAME desc").is_empty());
    assert_eq!(ids(&app), ["r0", "r3", "r5", "r1", "r4", "r2"]);
    command(&mut app, "sort id");
    assert_eq!(ids(&app), ["r0", "r1", "r2", "r3", "r4", "r5"]);
    command(&mut app, "sort colour");
    assert!(
        notice(&app).contains("no column \"colour\""),
        "{}",
        notice(&app)
    );
    assert!(
        app.browser.sorting.spec.is_some(),
        "a bad command changes nothing"
    );
    command(&mut app, "sort name");
    command(&mut app, "sort off");
    assert_eq!(app.browser.sorting.spec, None);
    assert_eq!(ids(&app), ["r0", "r1", "r2", "r3", "r4", "r5"]);
    command(&mut app, "sort name");
    command(&mut app, "sort");
    assert_eq!(app.browser.sorting.spec, None, ":sort alone is off too");
}

#[test]
fn a_page_that_arrives_merges_into_the_order_and_the_cursor_stays() {
    let (mut app, next) = loaded_and_next(&NAMES);
    let id = next.expect("the next page, to fill the screen");
    command(&mut app, "sort name");
    key(&mut app, 'g');
    for _ in 0..3 {
        key(&mut app, 'j');
    }
    assert_eq!(selected(&app), "r3");
    let more = [Some("aardvark"), Some("Charlie"), None, Some("echo")];
    app.update(reply(id, page_of(6, &more, None)));
    assert_eq!(
        ids(&app),
        ["r6", "r1", "r4", "r5", "r3", "r7", "r0", "r9", "r2", "r8"]
    );
    assert_eq!(
        selected(&app),
        "r3",
        "rows merged above it, the cursor followed"
    );
}

#[test]
fn the_sort_orders_the_rows_the_filter_keeps() {
    let mut app = loaded(&NAMES);
    command(&mut app, "sort name desc");
    key(&mut app, '/');
    type_settled(&mut app, "a");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ids(&app), ["r0", "r3", "r5", "r1", "r4"]);
    key(&mut app, '/');
    press(&mut app, KeyCode::Esc);
    assert_eq!(ids(&app), ["r0", "r3", "r5", "r1", "r4", "r2"]);
}

/// More rows than are sorted on the keypress: a job sorts them; a page that arrives meanwhile is
/// merged in when it answers; a progress report leaves it waiting for the answer.
#[test]
fn a_large_list_is_sorted_by_a_job_and_a_page_arriving_meanwhile_joins_in() {
    let n = IN_PLACE_ROWS + 10;
    let names: Vec<String> = (0..n).map(|i| format!("n{:05}", (i * 7919) % n)).collect();
    let names: Vec<Option<&str>> = names.iter().map(|s| Some(s.as_str())).collect();
    let mut app = loaded(&names);
    key(&mut app, 'j');
    let commands = command(&mut app, "sort name desc");
    let (id, job) = match commands.as_slice() {
        [Command::Run { id, job }] => (*id, job.clone()),
        other => panic!("a sort job, got {other:?}"),
    };
    assert!(commands[0].job::<SortJob>().is_some());
    assert_eq!(ids(&app)[..2], ["r0", "r1"], "the server's order meanwhile");
    app.update(Action::reply(id, Delivery::Progress { done: 5, total: 10 }));
    assert!(
        app.activity()
            .unwrap()
            .starts_with("sorting 20,010 rows by name ▼ descending… 50%"),
        "{:?}",
        app.activity()
    );
    let next = page_request(&press(&mut app, KeyCode::End)).expect("the next page");
    key(&mut app, 'g');
    key(&mut app, 'j');
    app.update(reply(next, page_of(n, &[Some("zz top"), None], None)));
    app.update(Action::reply(id, Delivery::Job(job.run())));
    assert_eq!(app.activity(), None);
    let ids = ids(&app);
    assert_eq!(ids.len(), n + 2);
    assert_eq!(ids[0], format!("r{n}"), "the later row merged in first");
    assert_eq!(ids[n + 1], format!("r{}", n + 1), "the nameless one last");
    assert!(shown_names(&app).is_sorted_by(|a, b| a >= b), "descending");
    assert_eq!(selected(&app), "r1", "the cursor stays on its row");
}

#[test]
fn esc_cancels_a_sort_job() {
    let n = IN_PLACE_ROWS + 1;
    let names: Vec<Option<&str>> = vec![Some("x"); n];
    let mut app = loaded(&names);
    let commands = command(&mut app, "sort name");
    let Some(Command::Run { id, job }) = commands.first().cloned() else {
        panic!("a sort job")
    };
    let commands = press(&mut app, KeyCode::Esc);
    assert_eq!(commands, [Command::Cancel(id)]);
    assert_eq!(app.browser.sorting.spec, None);
    assert!(notice(&app).contains("sort cancelled"));
    // An answer that comes anyway is dropped.
    app.update(Action::reply(id, Delivery::Job(job.run())));
    assert_eq!(app.browser.sorting.spec, None);
}

/// The audit of issue 22 item 3: `:sort name desc`, then `:sort id` on a large list and `Esc`
/// while it sorts: the sort before stays (it said "the server's order" and lost it), with a
/// page that arrived meanwhile merged into it, and a late answer of the cancelled job dropped.
#[test]
fn esc_on_a_sort_job_keeps_the_sort_before_it() {
    let n = IN_PLACE_ROWS + 10;
    let names: Vec<String> = (0..n).map(|i| format!("n{:05}", (i * 7919) % n)).collect();
    let names: Vec<Option<&str>> = names.iter().map(|s| Some(s.as_str())).collect();
    let (mut app, next) = loaded_and_next(&names);
    let commands = command(&mut app, "sort name desc");
    let Some(Command::Run { id, job }) = commands.first().cloned() else {
        panic!("a sort job")
    };
    app.update(Action::reply(id, Delivery::Job(job.run())));
    let by_name = app.browser.sorting.spec;
    let commands = command(&mut app, "sort id");
    let Some(Command::Run { id, job }) = commands.first().cloned() else {
        panic!("a sort job")
    };
    let next = next
        .or_else(|| page_request(&press(&mut app, KeyCode::End)))
        .expect("the next page");
    app.update(reply(next, page_of(n, &[Some("zz top"), Some("a")], None)));

    assert_eq!(press(&mut app, KeyCode::Esc), [Command::Cancel(id)]);
    assert_eq!(app.browser.sorting.spec, by_name);
    assert_eq!(
        notice(&app),
        "sort cancelled: still sorted by name ▼ descending"
    );
    assert_eq!(app.activity(), None);
    let check = |app: &App| {
        let ids = ids(app);
        assert_eq!(ids.len(), n + 2);
        assert_eq!(ids[0], format!("r{n}"), "the later row merged in first");
        assert_eq!(ids[n + 1], format!("r{}", n + 1), "and the other last");
        assert!(shown_names(app).is_sorted_by(|a, b| a >= b), "descending");
    };
    check(&app);
    app.update(Action::reply(id, Delivery::Job(job.run())));
    assert_eq!(
        app.browser.sorting.spec, by_name,
        "the late answer is dropped"
    );
    check(&app);
}
