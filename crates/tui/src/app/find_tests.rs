//! `/` over every field and `:where` (issue 22 items 1 and 2), as the event loop drives them:
//! keys and commands in, the jobs they ask for run here in place, their answers fed back in
//! whatever order a test needs.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{answer, jobs, key, page_request, press, settle, type_text};
use super::*;
use crate::api::{Exchange, ListResponse, Reply};
use appdeck_listing::JobRows;
use appdeck_listing::TestRows;

/// Rows `start..start+count`: every third owned by alice (in properties only), stars = index.
fn page(start: usize, count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (start..start + count)
        .map(|i| {
            json!({
                "id": format!("r{i}"), "type": if i % 2 == 0 { "repo" } else { "user" },
                "name": format!("row {i}"), "status": "active",
                "properties": {"owner": if i % 3 == 0 { "alice" } else { "bob" }, "stars": i}
            })
        })
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

fn deliver_page(app: &mut App, id: RequestId, page: ListResponse) -> Vec<Command> {
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ))
}

/// An 80x24 app whose only page (`count` rows) has arrived.
fn loaded(count: usize) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let id = page_request(&commands).unwrap();
    deliver_page(&mut app, id, page(0, count, None));
    app
}

fn shown_ids(app: &App) -> Vec<String> {
    app.browser
        .visible
        .iter()
        .map(|i| {
            app.browser
                .rows()
                .at(i)
                .id()
                .map_or(String::new(), |id| id.to_string())
        })
        .collect()
}

/// `:LINE` typed and submitted.
fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    app.update(Action::Submit)
}

#[test]
fn typing_searches_every_field_in_a_job_and_the_newest_query_wins() {
    let mut app = loaded(30);
    key(&mut app, '/');
    let first = jobs(&key(&mut app, 'a'));
    assert_eq!(first.len(), 1, "one job over the loaded rows");
    assert_eq!(app.browser.visible.len(), 30, "all rows stay while it runs");
    assert_eq!(app.activity().as_deref(), Some("searching every field…"));
    let commands = key(&mut app, 'l');
    assert!(
        commands.contains(&Command::Cancel(first[0].0)),
        "the older search is cancelled"
    );
    key(&mut app, 'i');
    let newest = jobs(&key(&mut app, 'c'));
    // The stale answer of "a" (every row, by "active") is dropped: the newest still runs.
    answer(&mut app, &first[0]);
    assert_eq!(app.browser.visible.len(), 30);
    assert_eq!(app.activity().as_deref(), Some("searching every field…"));
    assert!(
        app.browser.tests(newest[0].0),
        "the newest search's job is still awaited"
    );
    answer(&mut app, &newest[0]);
    assert_eq!(
        shown_ids(&app),
        [
            "r0", "r3", "r6", "r9", "r12", "r15", "r18", "r21", "r24", "r27"
        ]
    );
    let row = app.browser.visible.get(1).unwrap();
    assert_eq!(app.browser.note(row), Some("properties.owner: alice"));
    assert_eq!(app.activity(), None);
    // Typing on tests only the rows the shorter text found.
    let next = jobs(&key(&mut app, 'e'));
    let tested = next[0].1.get::<TestRows>().expect("a search job");
    assert!(
        matches!(&tested.rows, JobRows::Kept { .. }) && tested.rows.len() == 10,
        "{:?}",
        tested.rows
    );
    answer(&mut app, &next[0]);
    assert_eq!(app.browser.visible.len(), 10);
    // A key's name is not a value.
    press(&mut app, KeyCode::Esc);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("owner".into()));
    settle(&mut app, commands);
    assert!(app.browser.visible.is_empty(), "{:?}", shown_ids(&app));
}

#[test]
fn a_name_found_in_a_column_has_no_note_and_esc_clears_the_search() {
    let mut app = loaded(30);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("ROW 2".into()));
    settle(&mut app, commands);
    assert_eq!(shown_ids(&app).len(), 11, "row 2 and rows 20 to 29");
    assert!(
        app.browser
            .visible
            .iter()
            .all(|i| app.browser.note(i).is_none())
    );
    let commands = press(&mut app, KeyCode::Esc);
    assert!(jobs(&commands).is_empty());
    assert_eq!(app.browser.visible.len(), 30);
    assert!(app.browser.query.search.is_none());
}

#[test]
fn where_keeps_the_rows_for_which_it_is_true_and_where_alone_clears_it() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.stars > 25");
    assert_eq!(jobs(&commands).len(), 1);
    assert!(app.browser.query.where_.is_some());
    settle(&mut app, commands);
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
    assert!(matches!(&app.notice, Some(Notice::Info(t)) if t == "where .properties.stars > 25"));
    let commands = command(&mut app, "where");
    assert!(jobs(&commands).is_empty());
    assert!(app.browser.query.where_.is_none());
    assert_eq!(app.browser.visible.len(), 30);
}

#[test]
fn a_wrong_where_says_where_it_is_wrong_and_keeps_the_list() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.stars > 25");
    settle(&mut app, commands);
    let commands = command(&mut app, "where .properties.stars >");
    assert!(commands.is_empty(), "{commands:?}");
    let Some(Notice::Error(error)) = &app.notice else {
        panic!("no error: {:?}", app.notice)
    };
    assert!(error.contains("at character 20"), "{error}");
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
    assert_eq!(
        app.browser.query.where_.as_ref().map(|w| w.expr.as_str()),
        Some(".properties.stars > 25")
    );
    // A definition that calls itself overflowed the job's stack and aborted appdeck, leaving
    // the terminal raw: it is refused before anything runs.
    let commands = command(&mut app, "where def f: 1 + f; f > 0");
    assert!(commands.is_empty(), "{commands:?}");
    let Some(Notice::Error(error)) = &app.notice else {
        panic!("no error: {:?}", app.notice)
    };
    assert!(
        error.contains("`f` at character 12 calls itself"),
        "{error}"
    );
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
}

#[test]
fn where_search_and_the_type_filter_work_together_and_new_pages_are_tested() {
    let mut app = loaded(30);
    let commands = command(&mut app, "type repo");
    let id = page_request(&commands).unwrap();
    deliver_page(&mut app, id, page(0, 30, Some("c2")));
    let commands = command(&mut app, "where .properties.stars >= 12");
    settle(&mut app, commands);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("alice".into()));
    settle(&mut app, commands);
    press(&mut app, KeyCode::Enter);
    assert_eq!(shown_ids(&app), ["r12", "r18", "r24"]);
    // The next page: its rows show once both queries have tested them.
    let id = app
        .browser
        .in_flight()
        .expect("the next page, asked to fill the screen");
    let commands = deliver_page(&mut app, id, page(30, 30, None));
    let tests = jobs(&commands);
    assert_eq!(tests.len(), 2, "/ and :where each test the new rows");
    assert_eq!(shown_ids(&app), ["r12", "r18", "r24"], "untested rows wait");
    answer(&mut app, &tests[0]);
    assert_eq!(shown_ids(&app).len(), 3);
    answer(&mut app, &tests[1]);
    assert_eq!(
        shown_ids(&app),
        ["r12", "r18", "r24", "r30", "r36", "r42", "r48", "r54"]
    );
}

#[test]
fn esc_cancels_a_where_still_running() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.stars > 25");
    let running = jobs(&commands);
    let commands = press(&mut app, KeyCode::Esc);
    assert_eq!(commands, [Command::Cancel(running[0].0)]);
    assert!(app.browser.query.where_.is_none());
    answer(&mut app, &running[0]);
    assert_eq!(app.browser.visible.len(), 30, "the late answer is dropped");
}

#[test]
fn a_where_that_fails_on_some_rows_leaves_them_out_and_says_so() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.owner + 1 > 0");
    settle(&mut app, commands);
    assert!(app.browser.visible.is_empty());
    let Some(Notice::Error(error)) = &app.notice else {
        panic!("no error: {:?}", app.notice)
    };
    assert!(
        error.starts_with("where failed on 30 rows, left out: "),
        "{error}"
    );
}

/// A job's progress reaches the list (the status bar says how far it is) and its answer still
/// comes after it.
#[test]
fn progress_shows_and_the_answer_still_arrives_after_it() {
    let mut app = loaded(30);
    let commands = command(&mut app, "where .properties.stars > 25");
    let running = jobs(&commands);
    app.update(Action::reply(
        running[0].0,
        Delivery::Progress {
            done: 15,
            total: 30,
        },
    ));
    assert_eq!(app.activity().as_deref(), Some("testing :where… 50%"));
    answer(&mut app, &running[0]);
    assert_eq!(shown_ids(&app), ["r26", "r27", "r28", "r29"]);
    assert_eq!(app.activity(), None);
}

/// The title of the list as drawn now.
fn title(app: &App) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    harness::line(&harness::draw(app, &theme, chrono::Utc::now()), 1)
}

/// An audit: while a `:where` ran over 200,000 rows the title said `200,000 match` for two
/// seconds, the count of the rows shown before it, not its answer. Until a query's first job
/// answers the title says `… match` (the status bar says how far it is), for `/` as for
/// `:where`, and for a query that replaces another.
#[test]
fn the_title_claims_no_count_before_the_query_answers() {
    let mut app = loaded(30);
    // The first `:where`, then one that replaces it.
    for (expr, matched) in [
        ("where .properties.stars > 25", 4),
        ("where .properties.stars > 20", 9),
    ] {
        let running = jobs(&command(&mut app, expr));
        assert!(
            title(&app).contains("… match · 30 loaded"),
            "{}",
            title(&app)
        );
        answer(&mut app, &running[0]);
        let counted = format!("{matched} match · 30 loaded");
        assert!(title(&app).contains(&counted), "{}", title(&app));
    }

    key(&mut app, '/');
    let mut commands = Vec::new();
    for c in "alice".chars() {
        commands = key(&mut app, c);
    }
    assert!(
        title(&app).contains("… match · 30 loaded"),
        "{}",
        title(&app)
    );
    settle(&mut app, commands);
    assert!(
        title(&app).contains("3 match · 30 loaded"),
        "{}",
        title(&app)
    );
}
