//! `:watch SECS` through `App::update` (issue 22 item 5): the loop's deadline, a look that marks
//! rows new, changed and gone, the cursor and the `/` filter that stay, failures that back off,
//! and `:watch off`.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::harness::{
    key, page_request, press, report_opened, settle, status, type_settled, type_text,
};
use super::pane::Screen;
use super::panes::browser::watch::{MARK_LOOKS, Mark};
use super::*;
use crate::api::{ApiError, Exchange, ListResponse, RawPage, Reply};

/// One page holding every row of `rows` (id, name), the whole listing.
fn page(rows: &[(&str, &str)]) -> ListResponse {
    let rows: Vec<Value> = rows
        .iter()
        .map(|(id, name)| json!({"id": id, "type": "repo", "name": name}))
        .collect();
    ListResponse::from_value(json!({"resources": rows, "next": null})).unwrap()
}

/// Answers the page request among `commands` with `rows`, then runs the comparison job the
/// look asks for, as the executor would.
fn serve(app: &mut App, commands: &[Command], rows: &[(&str, &str)]) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let more = app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page(rows))))),
    ));
    settle(app, more)
}

fn fail(app: &mut App, commands: &[Command]) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let error = ApiError::Invalid("connection refused".into());
    app.update(Action::reply(id, Box::new(Exchange::local(Err(error)))))
}

const FIRST: [(&str, &str); 4] = [
    ("a", "alpha"),
    ("b", "beta"),
    ("c", "gamma"),
    ("d", "delta"),
];

/// An app with `FIRST` loaded, at `t0`.
fn loaded(t0: Instant) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    app.now = t0;
    serve(&mut app, &commands, &FIRST);
    app
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    press(app, KeyCode::Enter)
}

/// `:watch SECS` (`line`), its first look finding `FIRST` as loaded.
fn watch_looked(app: &mut App, line: &str) {
    let look = command(app, line);
    serve(app, &look, &FIRST);
}

/// The loop's timer: the app's deadline, and the tick the loop sends when it has come.
fn tick_at(app: &mut App, at: Instant) -> Vec<Command> {
    let due = app.wake_at().expect("a deadline");
    assert!(due <= at, "not due yet at the time given");
    app.now = at;
    app.update(Action::Tick)
}

fn mark_of(app: &App, id: &str) -> Option<Mark> {
    let watch = app.browser.watch.as_ref()?;
    let row = app
        .browser
        .rows()
        .iter()
        .find(|r| r.id().as_deref() == Some(id))?;
    watch.mark(row)
}

fn ids(app: &App) -> Vec<String> {
    app.browser
        .visible
        .iter()
        .filter_map(|i| Some(app.browser.rows().at(i).id()?.to_string()))
        .collect()
}

fn selected(app: &App) -> Option<String> {
    Some(app.browser.selected()?.id()?.to_string())
}

#[test]
fn without_watch_nothing_wakes_and_watch_sets_the_deadline_at_its_interval() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    assert_eq!(app.wake_at(), None, "no watch: no deadline");
    assert!(
        app.update(Action::Tick).is_empty(),
        "a stray tick does nothing"
    );

    // `:watch 5` looks at once, then every 5 s from the look.
    let look = command(&mut app, "watch 5");
    assert!(page_request(&look).is_some(), "a look at once");
    serve(&mut app, &look, &FIRST);
    assert_eq!(app.wake_at(), Some(t0 + Duration::from_secs(5)));
    let watch = app.browser.watch.as_ref().expect("watching");
    assert_eq!(watch.looked, Some(t0));
    assert!(watch.marks.is_empty(), "the same rows: nothing marked");

    let t1 = t0 + Duration::from_secs(5);
    let look = tick_at(&mut app, t1);
    assert!(page_request(&look).is_some(), "the tick looks again");
    serve(&mut app, &look, &FIRST);
    assert_eq!(app.wake_at(), Some(t1 + Duration::from_secs(5)));

    command(&mut app, "watch off");
    assert_eq!(app.wake_at(), None, "off: no deadline any more");
    assert!(app.browser.watch.is_none());
}

#[test]
fn a_look_marks_rows_new_changed_and_gone_and_the_cursor_and_filter_stay() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    // `/ta` keeps beta and delta; the cursor goes to delta.
    key(&mut app, '/');
    type_settled(&mut app, "ta");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ids(&app), ["b", "d"]);
    key(&mut app, 'j');
    assert_eq!(selected(&app).as_deref(), Some("d"));
    watch_looked(&mut app, "watch 2");

    // b goes, d changes, e comes (its name matches the filter), the others stay as they were.
    let t1 = t0 + Duration::from_secs(2);
    let look = tick_at(&mut app, t1);
    let after = [
        ("a", "alpha"),
        ("c", "gamma"),
        ("d", "delta renamed"),
        ("e", "theta"),
    ];
    serve(&mut app, &look, &after);
    assert_eq!(mark_of(&app, "b"), Some(Mark::Gone));
    assert_eq!(mark_of(&app, "d"), Some(Mark::Changed));
    assert_eq!(mark_of(&app, "e"), Some(Mark::New));
    assert_eq!(mark_of(&app, "a"), None);
    assert_eq!(mark_of(&app, "c"), None);
    assert_eq!(
        ids(&app),
        ["b", "d", "e"],
        "the gone row stays shown in its place; the filter stays"
    );
    assert_eq!(app.browser.filter.text(), "ta");
    assert_eq!(
        selected(&app).as_deref(),
        Some("d"),
        "the cursor stays on its row"
    );
    assert_eq!(
        app.browser.summary().rows,
        4,
        "the gone row is not counted as loaded"
    );

    // The marks last MARK_LOOKS more looks, then the gone row goes.
    let mut at = t1;
    for _ in 0..MARK_LOOKS {
        assert_eq!(mark_of(&app, "b"), Some(Mark::Gone));
        at += Duration::from_secs(2);
        let look = tick_at(&mut app, at);
        serve(&mut app, &look, &after);
    }
    assert_eq!(mark_of(&app, "d"), None, "the mark has lasted its looks");
    assert_eq!(ids(&app), ["d", "e"], "and the gone row is gone");
}

/// A look whose service lays its JSON out otherwise (spaces, line breaks, a needless escape,
/// the keys in another order) has changed nothing: only a row whose values differ is marked.
#[test]
fn the_same_json_spaced_otherwise_is_not_a_change() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    watch_looked(&mut app, "watch 2");
    let look = tick_at(&mut app, t0 + Duration::from_secs(2));
    let body = r#"{
  "resources": [
    { "id" : "a", "type" : "repo", "name" : "\u0061lpha" },
    {"name": "beta", "type": "repo", "id": "b"},
    {"id": "c",
     "type": "repo",
     "name": "gamma"},
    { "id": "d", "type": "repo", "name": "delta", "n": 1 }
  ]
}"#;
    let id = page_request(&look).expect("a page request");
    let page = RawPage::read(body.as_bytes().to_vec()).expect("a page");
    let more = app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::Page(Box::new(page.into()))))),
    ));
    settle(&mut app, more);
    for same in ["a", "b", "c"] {
        assert_eq!(mark_of(&app, same), None, "{same} is the same JSON");
    }
    assert_eq!(
        mark_of(&app, "d"),
        Some(Mark::Changed),
        "d has a field more"
    );
}

/// `:export` writes what the service has: a row a look found gone is shown (struck through) but
/// not written.
#[test]
fn export_leaves_out_the_rows_a_look_found_gone() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let look = command(&mut app, "watch 2");
    serve(&mut app, &look, &FIRST);
    let look = tick_at(&mut app, t0 + Duration::from_secs(2));
    serve(
        &mut app,
        &look,
        &[("a", "alpha"), ("c", "gamma"), ("d", "delta")],
    );
    assert_eq!(mark_of(&app, "b"), Some(Mark::Gone));
    assert_eq!(ids(&app), ["a", "b", "c", "d"], "b is still shown");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.ndjson");
    let export = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, export);
    let written = std::fs::read_to_string(&path).unwrap();
    let ids: Vec<String> = written
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["id"].to_string())
        .collect();
    assert_eq!(ids, [r#""a""#, r#""c""#, r#""d""#], "{written}");
    assert_eq!(
        app.notice,
        Some(Notice::Info(format!("wrote 3 rows to {}", path.display())))
    );
}

#[test]
fn a_failed_look_backs_off_and_shows_then_a_good_one_resets() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    watch_looked(&mut app, "watch 3");
    for expected in [6, 12, 24] {
        let at = app.wake_at().expect("a deadline");
        let look = tick_at(&mut app, at);
        fail(&mut app, &look);
        assert_eq!(
            app.wake_at(),
            Some(at + Duration::from_secs(expected)),
            "each failure doubles the wait"
        );
        let watch = app.browser.watch.as_ref().expect("watching");
        assert!(
            watch
                .failure
                .as_deref()
                .is_some_and(|f| f.contains("connection refused")),
            "{:?}",
            watch.failure
        );
        let problem = app.problem().unwrap_or_default();
        assert!(problem.contains("not refreshed"), "{problem}");
        assert_eq!(app.browser.rows().len(), 4, "the rows on screen stay");
    }
    let at = app.wake_at().expect("a deadline");
    let look = tick_at(&mut app, at);
    serve(&mut app, &look, &FIRST);
    assert_eq!(app.wake_at(), Some(at + Duration::from_secs(3)), "reset");
    assert!(
        app.browser
            .watch
            .as_ref()
            .is_some_and(|w| w.failure.is_none())
    );
}

/// Marked rows a look found gone are no resources any more: `R` and `:export` leave them out
/// and say so when nothing else is marked, rather than open an empty composer or write nothing.
#[test]
fn marked_rows_found_gone_are_left_out_of_r_and_export() {
    let t0 = Instant::now();
    let mut app = watched_with_d_gone(t0);
    key(&mut app, 'G');
    assert_eq!(selected(&app).as_deref(), Some("d"));
    key(&mut app, ' ');
    key(&mut app, 'R');
    assert!(app.stack.top().is_none(), "no composer opens");
    assert!(
        matches!(&app.notice, Some(Notice::Error(e)) if e.contains("1 marked resource gone from the service")),
        "{:?}",
        app.notice
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.ndjson");
    let export = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, export);
    assert!(!path.exists(), "no empty file");
    assert!(
        matches!(&app.notice, Some(Notice::Error(e)) if e.contains("nothing to export")),
        "{:?}",
        app.notice
    );

    // With a live row marked too, `R` reports on it alone and says the gone one is left out.
    key(&mut app, 'g');
    key(&mut app, ' ');
    key(&mut app, 'R');
    assert!(app.stack.top().is_some(), "the composer opens");
    assert!(
        matches!(&app.notice, Some(Notice::Info(e)) if e.contains("one report for 1 marked resource (1 gone from the service, left out):")),
        "{:?}",
        app.notice
    );
}

/// A list watched every second whose first look found `d` gone (at `t0` + 1 s).
fn watched_with_d_gone(t0: Instant) -> App {
    let mut app = loaded(t0);
    watch_looked(&mut app, "watch 1");
    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    serve(&mut app, &look, &FIRST[..3]);
    assert_eq!(mark_of(&app, "d"), Some(Mark::Gone));
    app
}

#[test]
fn watch_off_drops_the_gone_rows_and_a_bad_interval_is_refused() {
    let t0 = Instant::now();
    let mut app = watched_with_d_gone(t0);
    assert_eq!(app.browser.rows().len(), 4);
    command(&mut app, "watch off");
    assert_eq!(ids(&app), ["a", "b", "c"]);

    for bad in ["watch", "watch 0", "watch soon", "watch 100000"] {
        assert!(command(&mut app, bad).is_empty());
        assert!(
            matches!(&app.notice, Some(Notice::Error(e)) if e.contains("watch SECS")),
            "{bad}: {:?}",
            app.notice
        );
        assert!(app.overlay.is_none(), "{bad}: the line closes");
        assert!(app.browser.watch.is_none());
    }
}

/// The gone row leaves a sorted, filtered list: the sort and `/` go over the rows again and the
/// cursor stays on its resource.
#[test]
fn watch_off_under_a_sort_and_a_filter_keeps_both_and_the_cursor() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    let sorted = command(&mut app, "sort name desc");
    settle(&mut app, sorted);
    key(&mut app, '/');
    type_settled(&mut app, "a");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ids(&app), ["c", "d", "b", "a"]);
    // The cursor followed alpha, last now; one up is beta.
    key(&mut app, 'k');
    assert_eq!(selected(&app).as_deref(), Some("b"));
    watch_looked(&mut app, "watch 1");
    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    serve(
        &mut app,
        &look,
        &[("a", "alpha"), ("b", "beta"), ("c", "gamma")],
    );
    assert_eq!(mark_of(&app, "d"), Some(Mark::Gone));
    assert_eq!(ids(&app), ["c", "d", "b", "a"]);

    let off = command(&mut app, "watch off");
    settle(&mut app, off);
    assert_eq!(ids(&app), ["c", "b", "a"], "sorted and filtered still");
    assert_eq!(
        selected(&app).as_deref(),
        Some("b"),
        "the cursor stays on its row"
    );
}

/// A comparison that cannot read the rows' JSON: the look's rows come in unmarked, the gone row
/// shown so far leaves with the rows before, and so does its mark (the title counts the loaded
/// rows as the rows less the gone marks).
#[test]
fn a_failed_comparison_takes_the_gone_rows_and_their_marks_away() {
    use super::job::JobOutput;
    use super::panes::browser::watch::LookDiff;
    let t0 = Instant::now();
    let mut app = watched_with_d_gone(t0);

    let look = tick_at(&mut app, t0 + Duration::from_secs(2));
    let id = page_request(&look).expect("a page request");
    let compare = app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page(&FIRST[..3]))))),
    ));
    let Some(Command::Run { id, .. }) = compare.first() else {
        panic!("the comparison job, not {compare:?}");
    };
    let unreadable: Result<LookDiff, String> = Err("the spill file is gone".into());
    let after = app.update(Action::reply(
        *id,
        Delivery::Job(JobOutput::new(unreadable)),
    ));
    settle(&mut app, after);
    assert_eq!(
        ids(&app),
        ["a", "b", "c"],
        "the look's rows, the gone row left"
    );
    assert_eq!(app.browser.gone_shown(), 0, "no gone mark without its row");
    assert_eq!(app.browser.summary().rows, 3);
    let watch = app.browser.watch.as_ref().expect("watching");
    assert!(
        (watch.failure.as_deref()).is_some_and(|f| f.contains("the spill file is gone")),
        "{:?}",
        watch.failure
    );
}

#[test]
fn rows_beyond_the_depth_of_a_look_are_neither_new_nor_gone() {
    use super::job::Progress;
    use super::panes::browser::watch::{CompareLook, LookDiff, Side, compare};
    use appdeck_listing::Bodies;
    let side = |rows: &[(&str, &str)], whole: bool| {
        let bodies = Bodies::default();
        Side {
            ids: rows.iter().map(|(id, _)| Some((*id).into())).collect(),
            body: rows.iter().map(|(_, json)| bodies.push(json)).collect(),
            gone: vec![false; rows.len()],
            bodies,
            whole,
        }
    };
    // On screen: a b c of a longer listing; the look (as deep) brings z a b y, c pushed past it.
    let before = side(&[("a", "1"), ("b", "1"), ("c", "{\"c\":1}")], false);
    let after = side(&[("z", "1"), ("a", "1"), ("b", "2"), ("y", "1")], false);
    let look = CompareLook { before, after };
    assert_eq!(
        compare(&look, &Progress::detached()),
        Ok(LookDiff {
            new: vec!["z".into()],
            changed: vec![("b".into(), "1".into(), 2)],
            absent: Vec::new(),
        }),
        "y was not loaded before, c may be on the next page"
    );
    // The look reached the end: c is gone, shown after b, with its JSON.
    let look = CompareLook {
        after: Side {
            whole: true,
            ..look.after
        },
        ..look
    };
    let diff = compare(&look, &Progress::detached()).expect("readable");
    assert_eq!(diff.absent, [(2, 3, "{\"c\":1}".to_owned())]);
}

/// The jobs among `commands`, one step (not the jobs their answers ask for).
fn jobs_of(commands: &[Command]) -> Vec<(RequestId, job::Work)> {
    (commands.iter())
        .filter_map(|c| match c {
            Command::Run { id, job } => Some((*id, job.clone())),
            _ => None,
        })
        .collect()
}

fn run(app: &mut App, (id, job): &(RequestId, job::Work)) -> Vec<Command> {
    app.update(Action::reply(*id, Delivery::Job(job.run())))
}

/// An audit: under `:watch`, a list sorted over more rows than are sorted on the keypress
/// showed each look's rows in the server's order while a sort job of the list's own sorted them,
/// and `Esc` on that job left the list in the server's order. A look's rows are now sorted
/// behind the rows on screen, by a job of the look's: the sorted rows stay until they come in
/// sorted, there is no sort job for `Esc` to meet, and nothing is said of it.
#[test]
fn a_look_at_a_large_sorted_list_comes_in_sorted_without_a_sort_job_of_the_list() {
    use super::panes::browser::sort::{IN_PLACE_ROWS, SortJob};
    let n = IN_PLACE_ROWS + 10;
    let named: Vec<(String, String)> = (0..n)
        .map(|i| (format!("r{i}"), format!("n{:05}", (i * 7919) % n)))
        .collect();
    let rows = |renamed: Option<&'static str>| -> Vec<(&str, &str)> {
        let mut rows: Vec<(&str, &str)> = named
            .iter()
            .map(|(i, n)| (i.as_str(), n.as_str()))
            .collect();
        if let Some(name) = renamed {
            rows[5].1 = name;
        }
        rows
    };
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    app.now = t0;
    serve(&mut app, &commands, &rows(None));
    let sort = command(&mut app, "sort name desc");
    settle(&mut app, sort);
    let sorted_before = ids(&app);
    assert_ne!(sorted_before[0], "r0", "sorted");
    let look = command(&mut app, "watch 5");
    serve(&mut app, &look, &rows(None));
    assert!(
        ids(&app) == sorted_before,
        "the same rows, in the same order"
    );

    // The next look brings r5 renamed `zzz`: first, descending.
    let look = tick_at(&mut app, t0 + Duration::from_secs(5));
    let id = page_request(&look).expect("a look");
    let compare = app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page(&rows(Some("zzz"))))))),
    ));
    let sorting = run(&mut app, &jobs_of(&compare)[0]);
    let sort = jobs_of(&sorting);
    assert!(
        matches!(sort.as_slice(), [(_, job)] if job.get::<SortJob>().is_some()),
        "the look's rows are sorted by a job: {sorting:?}"
    );
    assert!(
        !app.browser.sorting.pending(),
        "not a sort job of the list's"
    );
    assert!(
        ids(&app) == sorted_before,
        "the rows on screen stay, sorted"
    );
    assert!(
        !app.activity().unwrap_or_default().contains("sorting"),
        "{:?}",
        app.activity()
    );
    let esc = press(&mut app, KeyCode::Esc);
    assert!(!esc.contains(&Command::Cancel(sort[0].0)), "{esc:?}");
    assert!(app.browser.sorting.spec.is_some(), "still sorted");
    let said = format!("{:?}", app.notice);
    assert!(!said.contains("sort"), "Esc met no sort: {said}");

    let after = run(&mut app, &sort[0]);
    assert!(jobs_of(&after).is_empty(), "no sort again: {after:?}");
    let shown = ids(&app);
    assert_eq!(shown[0], "r5", "the look's rows, sorted: {:?}", &shown[..3]);
    assert_eq!(shown.len(), n);
    assert_eq!(mark_of(&app, "r5"), Some(Mark::Changed));
    let said = format!("{:?}", app.notice);
    assert!(
        !said.contains("sort"),
        "nothing said of the look's sort: {said}"
    );
}

/// The row under the cursor that a look found gone (`x`) is no live resource: `y` and the
/// detail's title and `:export` say so, and `R` warns, as for a kept row; marked gone rows are
/// left out (`1 gone from the service, left out`). Before, all of them acted as on a live row.
#[test]
fn the_gone_row_under_the_cursor_says_it_is_gone() {
    let t0 = Instant::now();
    let mut app = watched_with_d_gone(t0);
    key(&mut app, 'G');
    assert_eq!(selected(&app).as_deref(), Some("d"));
    key(&mut app, 'y');
    let said = status(&app);
    assert!(
        said.starts_with("resource id (gone from the service, not live) sent"),
        "{said}"
    );

    let said = report_opened(&mut app);
    assert!(
        said.starts_with("warning: this resource is gone from the service, not live (x)"),
        "{said}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none(), "back on the list");

    press(&mut app, KeyCode::Enter);
    let screen = super::harness::draw(
        &app,
        &crate::ui::theme::Theme::default(),
        chrono::Utc::now(),
    );
    let shown: Vec<String> = (0..20).map(|y| super::harness::line(&screen, y)).collect();
    assert!(
        shown
            .iter()
            .any(|l| l.contains("gone from the service, not live")),
        "{shown:#?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gone.json");
    let export = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, export);
    assert!(path.exists());
    let said = status(&app);
    assert!(
        said.ends_with("(gone from the service, not live)"),
        "{said}"
    );

    // A live row under the cursor says nothing of the kind.
    press(&mut app, KeyCode::Esc);
    key(&mut app, 'g');
    key(&mut app, 'y');
    assert!(!status(&app).contains("not live"), "{}", status(&app));
}

/// The title of the detail on top, as drawn.
fn detail_title(app: &App) -> String {
    let screen = super::harness::draw(app, &crate::ui::theme::Theme::default(), chrono::Utc::now());
    super::harness::line(&screen, 1)
}

/// Tester's MED 2: a detail open under `:watch` follows the looks. A look that renames the
/// row shows the new text (what changed at the top, the title saying a look changed it), and
/// `R` carries it (the composer's `listed` too); a look that finds it gone has the title, `y`
/// and `R` say so. Before, the detail kept the text it opened with, and `R` sent it silently.
#[test]
fn a_detail_open_under_watch_follows_the_looks() {
    let t0 = Instant::now();
    let mut app = loaded(t0);
    watch_looked(&mut app, "watch 1");
    press(&mut app, KeyCode::Enter);
    let renamed = [
        ("a", "alpha CHANGED"),
        ("b", "beta"),
        ("c", "gamma"),
        ("d", "delta"),
    ];
    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    serve(&mut app, &look, &renamed);
    assert_eq!(mark_of(&app, "a"), Some(Mark::Changed));
    let Some(Screen::Detail(detail)) = app.stack.top() else {
        panic!("the detail stays open")
    };
    let field = |label: &str| {
        (detail.fields.iter())
            .find(|f| f.label == label)
            .map(|f| f.value.clone())
    };
    assert_eq!(field("name").as_deref(), Some("alpha CHANGED"));
    assert_eq!(
        field("/name").as_deref(),
        Some("alpha → alpha CHANGED"),
        "what changed at the top"
    );
    app.now = t0 + Duration::from_secs(3);
    let title = detail_title(&app);
    assert!(
        title.contains("changed by a look 2 s ago · alpha CHANG"),
        "{title}"
    );

    let said = report_opened(&mut app);
    assert!(!said.contains("warning"), "{said}");
    let Some(Screen::Report(composer)) = app.stack.top() else {
        panic!("the composer")
    };
    let listed = composer.kind.listed.as_deref().unwrap_or_default();
    assert!(listed.contains("alpha CHANGED"), "{listed}");
    press(&mut app, KeyCode::Esc);

    // The next look finds it gone: the detail says so, as the list does of a gone row.
    let look = tick_at(&mut app, t0 + Duration::from_secs(4));
    serve(&mut app, &look, &renamed[1..]);
    assert_eq!(mark_of(&app, "a"), Some(Mark::Gone));
    assert!(matches!(app.stack.top(), Some(Screen::Detail(_))));
    let title = detail_title(&app);
    assert!(title.contains("gone from the service, not live"), "{title}");
    key(&mut app, 'y');
    assert!(status(&app).contains("(gone from the service, not live)"));
    let said = report_opened(&mut app);
    assert!(
        said.starts_with("warning: this resource is gone from the service"),
        "{said}"
    );
}

/// Tester's LOW 9: the rows a look found gone are shown (struck through) among those that
/// match, but are not counted as loaded: the match count says how many of its rows are gone,
/// so that `2 match · 3 loaded` does not read as two of three live rows.
#[test]
fn the_match_count_says_its_gone_rows() {
    let t0 = Instant::now();
    let mut app = watched_with_d_gone(t0);
    key(&mut app, '/');
    type_settled(&mut app, "ta");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ids(&app), ["b", "d"]);
    let title = detail_title(&app);
    assert!(title.contains("2 match (1 gone) · 3 loaded"), "{title}");
    // With no gone row among those that match, nothing more is said.
    key(&mut app, '/');
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    type_settled(&mut app, "lph");
    press(&mut app, KeyCode::Enter);
    let title = detail_title(&app);
    assert!(title.contains("1 match · 3 loaded"), "{title}");
}

/// A page of these resources, the whole listing, answering the page request among `commands`;
/// what the answer asks for comes back unrun.
fn answer_page(app: &mut App, commands: &[Command], rows: &[Value]) -> Vec<Command> {
    let id = page_request(commands).expect("a page request");
    let page = json!({"resources": rows, "next": null});
    let page = ListResponse::from_value(page).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ))
}

/// Runs the jobs among `commands` once, as the executor would; what their answers ask for
/// comes back unrun.
fn run_jobs_once(app: &mut App, commands: &[Command]) -> Vec<Command> {
    let mut asked = Vec::new();
    for job in jobs_of(commands) {
        asked.extend(run(app, &job));
    }
    asked
}

/// Review item 4: a detail following a row larger than the list lays out on the UI thread
/// (`OPEN_IN_BACKGROUND_BYTES`) has a job lay the change out, as `Enter` on the row does: the
/// detail says it is updating, and `R` waits; the answer takes the reader's place over (the
/// pane, the folds, the cursor, the search). A small row follows at once, with no job.
#[test]
fn a_large_followed_row_is_laid_out_by_a_job_and_keeps_the_place() {
    use super::panes::detail::{DetailPart, OPEN_IN_BACKGROUND_BYTES};
    let large = |name: &str| {
        json!({"id": "a", "type": "repo", "name": name, "properties": {
            "blob": "x".repeat(OPEN_IN_BACKGROUND_BYTES), "nested": {"k": 1, "j": 2},
            "list": [1, 2]}})
    };
    let rows = |name: &str| vec![large(name), json!({"id": "b", "type": "repo", "name": "b"})];
    let t0 = Instant::now();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    app.now = t0;
    let asked = answer_page(&mut app, &commands, &rows("alpha"));
    settle(&mut app, asked);
    let look = command(&mut app, "watch 1");
    let asked = answer_page(&mut app, &look, &rows("alpha"));
    settle(&mut app, asked);
    let opened = press(&mut app, KeyCode::Enter);
    settle(&mut app, opened);
    // The reader's place: the tree, "list" searched, the cursor up on `nested`, folded.
    press(&mut app, KeyCode::Tab);
    key(&mut app, '/');
    type_text(&mut app, "list");
    press(&mut app, KeyCode::Enter);
    for _ in 0..3 {
        key(&mut app, 'k');
    }
    key(&mut app, 'h');
    let place = |app: &App| {
        let Some(Screen::Detail(detail)) = app.stack.top() else {
            panic!("the detail is on top")
        };
        let lines = detail.tree.lines();
        let at = detail.cursor(DetailPart::Tree).selected;
        let search = detail.search.as_ref().map(|s| s.input.text().to_owned());
        (detail.focus, lines[at].label.clone(), lines.len(), search)
    };
    let left = (
        DetailPart::Tree,
        "nested".to_owned(),
        5,
        Some("list".to_owned()),
    );
    assert_eq!(place(&app), left, "the place set");

    let look = tick_at(&mut app, t0 + Duration::from_secs(1));
    let compare = answer_page(&mut app, &look, &rows("alpha CHANGED"));
    let asked = run_jobs_once(&mut app, &compare);
    let follow = jobs_of(&asked);
    assert_eq!(
        follow.len(),
        1,
        "the detail's job laying the change out: {asked:?}"
    );
    let name = |app: &App| {
        let Some(Screen::Detail(detail)) = app.stack.top() else {
            panic!("the detail is on top")
        };
        let name = detail.fields.iter().find(|f| f.label == "name");
        name.map(|f| f.value.clone()).unwrap_or_default()
    };
    assert_eq!(
        name(&app),
        "alpha",
        "the text before, until the job answers"
    );
    assert!(
        status(&app).contains("laying out its 0.3 MB"),
        "{}",
        status(&app)
    );
    assert!(detail_title(&app).contains("updating to a look's change"));
    key(&mut app, 'R');
    assert!(
        matches!(app.stack.top(), Some(Screen::Detail(_))),
        "R waits"
    );
    assert!(status(&app).starts_with("not yet"), "{}", status(&app));

    let after = run(&mut app, &follow[0]);
    assert!(jobs_of(&after).is_empty(), "{after:?}");
    assert_eq!(name(&app), "alpha CHANGED");
    assert_eq!(place(&app), left, "the place kept");
    let title = detail_title(&app);
    assert!(title.contains("changed by a look"), "{title}");

    // A small row follows in the update that tells the look, with no job.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    key(&mut app, 'j');
    let opened = press(&mut app, KeyCode::Enter);
    assert!(jobs_of(&opened).is_empty(), "a small row opens at once");
    let renamed = [
        large("alpha CHANGED"),
        json!({"id": "b", "type": "repo", "name": "bee"}),
    ];
    let look = tick_at(&mut app, t0 + Duration::from_secs(2));
    let compare = answer_page(&mut app, &look, &renamed);
    let asked = run_jobs_once(&mut app, &compare);
    assert!(jobs_of(&asked).is_empty(), "{asked:?}");
    assert_eq!(name(&app), "bee");
}
