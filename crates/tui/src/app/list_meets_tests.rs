//! Where the list's features meet (issue 33): `Esc` on a running query keeps the one before,
//! load all, the title's word on rows not loaded, marks, `!text` and `/regex/`, the natural
//! order of a sort and the view after it, a `:watch` look that reaches the new end, and a look
//! after a failed first load.

use std::time::Instant;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{jobs, key, page_request, press, settle, type_text};
use super::pane::Screen;
use super::panes::browser::watch::Mark;
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, Reply};

/// Rows `start..start+count`: name `res_{i}`, stars = i, every third owned by alice.
fn page(start: usize, count: usize, next: Option<&str>) -> ListResponse {
    let rows: Vec<Value> = (start..start + count).map(row).collect();
    ListResponse::from_value(json!({"resources": rows, "next": next})).unwrap()
}

/// Row `i` of [`page`].
fn row(i: usize) -> Value {
    json!({
        "id": format!("r{i}"), "type": "repo", "name": format!("res_{i}"),
        "status": "active",
        "properties": {"owner": if i.is_multiple_of(3) { "alice" } else { "bob" }, "stars": i}
    })
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

/// The status bar as drawn (the screen's top line).
fn status_line(app: &App) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    super::harness::line(&super::harness::draw(app, &theme, chrono::Utc::now()), 0)
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
    let kept = app
        .browser
        .query
        .where_
        .as_ref()
        .expect("the where before stays");
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
    assert!(app.browser.query.where_.is_none());
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

/// Typed a key at a time, the text on the way to a broken pattern was a plain text no row
/// holds: the pattern hides no row, and `Enter` keeps saying why.
#[test]
fn a_broken_pattern_typed_key_by_key_hides_no_row_after_enter() {
    let mut app = loaded(30);
    key(&mut app, '/');
    for c in "/res_(1/".chars() {
        let commands = key(&mut app, c);
        settle(&mut app, commands);
    }
    assert_eq!(app.browser.visible.len(), 30);
    press(&mut app, KeyCode::Enter);
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
    // The status bar says it once, with the page on its way.
    let said = status_line(&app);
    assert_eq!(said.matches("Esc stops").count(), 1, "{said}");
    assert!(
        said.contains("loading every page: page 2… · Esc stops"),
        "{said}"
    );
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
    let said = status_line(&app);
    assert!(!said.contains("loading"), "nothing loads any more: {said}");
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

/// The line of the table's header (under the title).
fn header(app: &App) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    super::harness::line(&super::harness::draw(app, &theme, chrono::Utc::now()), 2)
}

/// The table's row `n` (from 0) as drawn.
fn drawn_row(app: &App, n: u16) -> String {
    let theme = crate::ui::theme::Theme::COLOR;
    super::harness::line(
        &super::harness::draw(app, &theme, chrono::Utc::now()),
        3 + n,
    )
}

/// Issue 33 item 4: `:columns` adds a column by path and removes one; the rows loaded read
/// theirs in a job, the rows arriving after as they come; the choice is kept for the type.
#[test]
fn columns_add_a_path_and_remove_a_column_and_are_kept_for_the_type() {
    let (mut app, more) = loaded_with(30, Some("p2"));
    let commands = command(&mut app, "columns +properties.owner -status");
    assert!(
        commands.contains(&Command::SaveColumns {
            type_key: "*".into(),
            spec: "-status +properties.owner".into()
        }),
        "{commands:?}"
    );
    assert_eq!(
        jobs(&commands).len(),
        1,
        "the rows loaded read theirs in a job"
    );
    settle(&mut app, commands);
    let head = header(&app);
    assert!(head.contains("PROPERTIES.OWNER"), "{head}");
    assert!(!head.contains("STATUS"), "{head}");
    assert!(
        drawn_row(&app, 0).contains("alice"),
        "{}",
        drawn_row(&app, 0)
    );
    assert!(drawn_row(&app, 1).contains("bob"), "{}", drawn_row(&app, 1));
    assert!(info(&app).contains("+properties.owner"), "{}", info(&app));
    // A page that comes later brings its values with it.
    let page_ask = press(&mut app, KeyCode::End);
    let asked = if page_request(&page_ask).is_some() {
        page_ask
    } else {
        more
    };
    deliver(&mut app, &asked, page(30, 3, None));
    let rows = app.browser.rows();
    assert_eq!(rows.at(30).added(0), Some("alice"));
    assert_eq!(rows.at(31).added(0), Some("bob"));
    // `:columns` alone says which are shown; a bad word says why and changes nothing.
    assert!(command(&mut app, "columns").is_empty());
    assert!(
        info(&app).starts_with("columns: type name id"),
        "{}",
        info(&app)
    );
    assert!(command(&mut app, "columns -name").is_empty());
    assert!(info(&app).contains("the name column stays"));
    assert_eq!(app.browser.columns.spec(), "-status +properties.owner");
}

/// `/` names the field a row was found by beside its name, unless a column shows that field.
#[test]
fn a_search_names_no_field_a_column_shows() {
    let mut app = loaded(3);
    key(&mut app, '/');
    let commands = app.update(Action::InsertText("alice".into()));
    settle(&mut app, commands);
    press(&mut app, KeyCode::Enter);
    let row = drawn_row(&app, 0);
    assert!(row.contains("properties.owner: alice"), "{row}");
    let commands = command(&mut app, "columns +properties.owner");
    settle(&mut app, commands);
    let row = drawn_row(&app, 0);
    assert!(
        row.contains("alice") && !row.contains("properties.owner:"),
        "{row}"
    );
}

/// `:export` to a `.csv` writes the columns `list -o csv` writes as `:columns` changed them:
/// one removed is not there, one added is, under its header.
#[test]
fn export_to_csv_follows_the_columns_chosen() {
    let mut app = loaded(3);
    let commands = command(&mut app, "columns +STARS:properties.stars -status");
    settle(&mut app, commands);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.csv");
    let export = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, export);
    let written = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(
        lines,
        [
            "type,id,name,display_name,external_id,updated_at,STARS",
            "repo,r0,res_0,,,,0",
            "repo,r1,res_1,,,,1",
            "repo,r2,res_2,,,,2"
        ]
    );
}

/// The first page asks the store for the columns kept for its type; the answer shows them.
#[test]
fn the_columns_kept_for_the_type_come_back_with_its_first_page() {
    let (mut app, more) = loaded_with(5, None);
    let asked = more.iter().find_map(|c| match c {
        Command::LoadColumns { id, type_key } => Some((*id, type_key.clone())),
        _ => None,
    });
    let (id, type_key) = asked.expect("the store is asked");
    assert_eq!(type_key, "*");
    let commands = app.update(Action::reply(
        id,
        Delivery::Columns(Some("-external_id +properties.stars".into())),
    ));
    settle(&mut app, commands);
    assert!(
        header(&app).contains("PROPERTIES.STARS"),
        "{}",
        header(&app)
    );
    assert!(!header(&app).contains("EXTERNAL ID"));
    assert!(drawn_row(&app, 4).contains(" 4"), "{}", drawn_row(&app, 4));
    // A later page of the same type does not ask again.
    assert!(
        !command(&mut app, "refresh")
            .iter()
            .any(|c| matches!(c, Command::LoadColumns { .. }))
    );
}

/// `:columns` typed before the store answered with the columns kept for the type wins: the
/// late answer (none kept, or another choice) does not take the typed choice away.
#[test]
fn columns_typed_before_the_kept_ones_came_are_not_taken_away() {
    let (mut app, more) = loaded_with(5, None);
    let id = more.iter().find_map(|c| match c {
        Command::LoadColumns { id, .. } => Some(*id),
        _ => None,
    });
    let commands = command(&mut app, "columns +properties.stars");
    settle(&mut app, commands);
    let commands = app.update(Action::reply(
        id.expect("the store is asked"),
        Delivery::Columns(None),
    ));
    settle(&mut app, commands);
    assert!(
        header(&app).contains("PROPERTIES.STARS"),
        "{}",
        header(&app)
    );
}

/// Any column sorts, a property too, in natural order (9 before 10); `:columns` with the sort's
/// column gone ends the sort.
#[test]
fn a_property_column_sorts_naturally() {
    let mut app = loaded(12);
    let commands = command(&mut app, "columns +properties.stars");
    settle(&mut app, commands);
    let commands = command(&mut app, "sort properties.stars desc");
    settle(&mut app, commands);
    let ids = shown_ids(&app);
    assert_eq!(ids[..4], ["r11", "r10", "r9", "r8"], "{ids:?}");
    assert!(
        header(&app).contains("PROPERTIES.STARS ▼"),
        "{}",
        header(&app)
    );
    assert!(title(&app).contains("properties.stars"), "{}", title(&app));
    let commands = command(&mut app, "columns -properties.stars");
    settle(&mut app, commands);
    assert_eq!(app.browser.sorting.spec, None, "its column went");
    assert_eq!(shown_ids(&app)[..2], ["r0", "r1"]);
}

/// An added column's values are made safe to print and cut with `…` where the screen is short.
#[test]
fn added_values_are_sanitized_and_cut() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 10), None);
    let long = format!("evil\u{1b}[31m{}", "x".repeat(200));
    let rows = json!({"resources": [
        {"id": "r0", "type": "repo", "name": "n", "properties": {"note": long}}
    ]});
    deliver(&mut app, &commands, ListResponse::from_value(rows).unwrap());
    let commands = command(&mut app, "columns +properties.note");
    settle(&mut app, commands);
    let row = drawn_row(&app, 0);
    assert!(!row.contains('\u{1b}'), "{row:?}");
    assert!(row.contains("evil"), "{row}");
    assert!(row.contains('…'), "{row}");
}

/// Rows `0..count` as [`page`] has them, with some changed: `(index, status, stars)`.
fn page_changed(count: usize, changed: &[(usize, &str, u64)]) -> ListResponse {
    let mut rows: Vec<Value> = (0..count).map(row).collect();
    for &(i, status, stars) in changed {
        rows[i]["status"] = json!(status);
        rows[i]["properties"]["stars"] = json!(stars);
    }
    ListResponse::from_value(json!({ "resources": rows })).unwrap()
}

/// A list of 10 rows under `:watch`, whose second look found r3 and r7 changed and r10 new.
fn watched_with_changes() -> App {
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 160, 24), None);
    app.now = t0;
    deliver(&mut app, &commands, page(0, 10, None));
    let look = command(&mut app, "watch 5");
    deliver(&mut app, &look, page(0, 10, None));
    app.now = t0 + std::time::Duration::from_secs(6);
    let look = app.update(Action::Tick);
    let rows = page_changed(11, &[(3, "failed", 30), (7, "paused", 7)]);
    deliver(&mut app, &look, rows);
    app
}

/// Issue 33 item 6: `d` on a row marked `~` shows what changed, field by field (pointer, value
/// before, value now) at the top of its detail; on another row it says what `d` is for.
#[test]
fn d_on_a_changed_row_shows_what_changed_field_by_field() {
    let mut app = watched_with_changes();
    let marks = &app.browser.watch.as_ref().unwrap().marks;
    assert_eq!(marks.get("r3").map(|m| m.0), Some(Mark::Changed));
    assert_eq!(marks.get("r10").map(|m| m.0), Some(Mark::New));
    key(&mut app, 'd');
    assert!(matches!(app.stack.top(), None | Some(Screen::Browser(_))));
    assert!(info(&app).contains("marked ~"), "{}", info(&app));
    for _ in 0..3 {
        press(&mut app, KeyCode::Down);
    }
    key(&mut app, 'd');
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail opens: {}", info(&app));
    };
    let lines: Vec<(String, String)> = (detail.fields.iter().take(3))
        .map(|f| (f.label.clone(), f.value.clone()))
        .collect();
    assert_eq!(
        lines,
        [
            ("Changed since the look before".into(), "2 fields".into()),
            ("/status".into(), "active → failed".into()),
            ("/properties/stars".into(), "3 → 30".into()),
        ]
    );
    assert_eq!(detail.fields[2].copy, "30", "y copies the value now");
}

/// The text before is kept only for rows marked changed, and goes when the mark does.
#[test]
fn the_text_before_a_change_goes_with_its_mark() {
    let mut app = watched_with_changes();
    let was = &app.browser.watch.as_ref().unwrap().was;
    let mut kept: Vec<&str> = was.keys().map(|k| &**k).collect();
    kept.sort();
    assert_eq!(kept, ["r3", "r7"]);
    assert!(was["r3"].contains("\"active\""), "{}", was["r3"]);
    // Three looks with nothing new: the marks, and the texts, go.
    let mut now = app.now;
    for _ in 0..3 {
        now += std::time::Duration::from_secs(6);
        app.now = now;
        let look = app.update(Action::Tick);
        deliver(
            &mut app,
            &look,
            page_changed(11, &[(3, "failed", 30), (7, "paused", 7)]),
        );
    }
    let watch = app.browser.watch.as_ref().unwrap();
    assert!(watch.marks.is_empty(), "{:?}", watch.marks);
    assert!(watch.was.is_empty());
}

/// `n` and `N` go to the next and the previous row marked new or changed, round the end.
#[test]
fn n_and_shift_n_jump_between_marked_rows() {
    let mut app = watched_with_changes();
    let at = |app: &App| shown_ids(app)[app.browser.cursor.selected].clone();
    key(&mut app, 'n');
    assert_eq!(at(&app), "r3");
    key(&mut app, 'n');
    assert_eq!(at(&app), "r7");
    key(&mut app, 'n');
    assert_eq!(at(&app), "r10");
    key(&mut app, 'n');
    assert_eq!(at(&app), "r3", "round the end");
    key(&mut app, 'N');
    assert_eq!(at(&app), "r10");
}

/// A tester's finding: `:export` during `L` wrote the rows loaded so far and said only `wrote
/// 91,350 rows`, neither the rows shown once it ended nor the whole list.
#[test]
fn an_export_asked_while_l_loads_says_it_wrote_the_rows_loaded_by_then() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.ndjson");
    let (mut app, _) = loaded_with(100, Some("c1"));
    let pending = key(&mut app, 'L');
    let pending = deliver(&mut app, &pending, page(100, 100, Some("c2")));
    assert!(page_request(&pending).is_some(), "L goes on");
    let commands = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, commands);
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written.lines().count(), 200);
    assert_eq!(
        info(&app),
        format!(
            "wrote 200 rows to {} (the rows loaded when asked: L was still loading)",
            path.display()
        )
    );
    // Once every page is in, an export is the whole list and says nothing more.
    deliver(&mut app, &pending, page(200, 10, None));
    assert!(!app.browser.loading_all);
    let commands = command(&mut app, &format!("export! {}", path.display()));
    settle(&mut app, commands);
    assert_eq!(info(&app), format!("wrote 210 rows to {}", path.display()));
}

/// Tester's MED 5: `:export` asked while a `:where` (or `/`) still tests the rows waits for it
/// and writes the rows it shows, saying so meanwhile; before, it wrote every row at once (the
/// rows shown before the query answered), and said nothing of it. `Esc` cancels a waiting one.
#[test]
fn an_export_asked_while_a_where_runs_writes_the_rows_it_shows() {
    let mut app = loaded(30);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mid.ndjson");
    let where_ = command(&mut app, "where .properties.stars > 25");
    let export = command(&mut app, &format!("export! {}", path.display()));
    assert!(jobs(&export).is_empty(), "the export waits: {export:?}");
    assert!(
        info(&app).contains("waits for the query to finish"),
        "{}",
        info(&app)
    );
    settle(&mut app, where_);
    let written = std::fs::read_to_string(&path).expect("written once the :where answered");
    let ids: Vec<String> = (written.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].to_string())
        .collect();
    assert_eq!(ids, ["\"r26\"", "\"r27\"", "\"r28\"", "\"r29\""]);
    assert!(info(&app).starts_with("wrote 4 rows"), "{}", info(&app));

    // `Esc` while it waits: nothing is written, and the query still runs.
    let other = dir.path().join("other.ndjson");
    let where_ = command(&mut app, "where .properties.stars > 27");
    command(&mut app, &format!("export {}", other.display()));
    press(&mut app, KeyCode::Esc);
    assert!(info(&app).contains("export cancelled"), "{}", info(&app));
    settle(&mut app, where_);
    assert!(!other.exists());
    assert_eq!(shown_ids(&app), ["r28", "r29"]);

    // A query ended by a key, no test answering (`:where` alone): the export goes then, over
    // the rows shown, not on `Esc`.
    let last = dir.path().join("last.ndjson");
    command(&mut app, "where .properties.stars > 28");
    command(&mut app, &format!("export {}", last.display()));
    let cleared = command(&mut app, "where");
    settle(&mut app, cleared);
    let written = std::fs::read_to_string(&last).expect("written once :where alone ended it");
    assert_eq!(written.lines().count(), 30, "every row, as shown");
}
