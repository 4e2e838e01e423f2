//! `:export PATH` through `update` (issue 22 item 4): the rows the list shows, filtered and
//! sorted, written by a job; an existing file kept unless `:export!`; `Esc` cancels; the detail
//! writes its resource; the status bar says how far it is, then where it wrote and how many.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::export::{ExportJob, Exported, Format};
use super::harness::{key, press, settle, type_settled, type_text};
use super::*;
use crate::api::{Exchange, RawPage, Reply};

/// Rows whose JSON is not written the way serde_json would (spaces, a needless escape, a big
/// number, keys out of order), so that only the text as it came passes.
fn loaded() -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    let id = commands.iter().find_map(Command::request_id).unwrap();
    let page = r#"{"resources": [
        {"name": "beta", "id": "r0", "type": "repo", "properties": {"n": 12345678901234567890123, "p": "a\/b"}},
        {"id": "r1", "type": "user", "name": "alpha, \"quoted\""},
        {"id": "r2", "type": "repo", "name": "gamma", "updated_at": "2026-11-20T10:00:00Z"}
    ]}"#;
    let page = RawPage::read(page.as_bytes().to_vec()).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::Page(Box::new(page.into()))))),
    ));
    app
}

fn command(app: &mut App, line: &str) -> Vec<Command> {
    key(app, ':');
    type_text(app, line);
    press(app, KeyCode::Enter)
}

fn notice(app: &App) -> Notice {
    app.notice.clone().expect("a notice")
}

/// The item JSON of row `i`, as the list keeps it.
fn json_of(app: &App, i: usize) -> String {
    let bodies = app.browser.bodies();
    bodies.read(app.browser.rows().at(i).body).unwrap()
}

#[test]
fn export_writes_the_rows_shown_in_their_order_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.ndjson");
    let mut app = loaded();
    command(&mut app, "sort name desc");
    key(&mut app, '/');
    type_settled(&mut app, "repo");
    press(&mut app, KeyCode::Enter);
    let commands = command(&mut app, &format!("export {}", path.display()));
    let job = commands
        .iter()
        .find_map(|c| c.job::<ExportJob>())
        .expect("an export job");
    assert_eq!((job.format, job.overwrite), (Format::Ndjson, false));
    assert!(
        app.activity().unwrap().starts_with("exporting 0/2 to "),
        "{:?}",
        app.activity()
    );
    settle(&mut app, commands);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n{}\n", json_of(&app, 2), json_of(&app, 0))
    );
    assert_eq!(
        json_of(&app, 0),
        r#"{"name": "beta", "id": "r0", "type": "repo", "properties": {"n": 12345678901234567890123, "p": "a\/b"}}"#,
        "kept as it came"
    );
    assert_eq!(
        notice(&app),
        Notice::Info(format!("wrote 2 rows to {}", path.display()))
    );
    assert_eq!(app.activity(), None);
}

#[test]
fn export_refuses_to_overwrite_and_export_bang_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.csv");
    std::fs::write(&path, "mine").unwrap();
    let mut app = loaded();
    let shown = path.display().to_string();
    let commands = command(&mut app, &format!("export {shown}"));
    settle(&mut app, commands);
    assert_eq!(
        notice(&app),
        Notice::Error(format!("{shown} exists: :export! {shown} replaces it"))
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    let commands = command(&mut app, &format!("export! {shown}"));
    settle(&mut app, commands);
    assert_eq!(
        notice(&app),
        Notice::Info(format!("wrote 3 rows to {shown}"))
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "type,id,name,display_name,status,external_id,updated_at\n\
         repo,r0,beta,,,,\n\
         user,r1,\"alpha, \"\"quoted\"\"\",,,,\n\
         repo,r2,gamma,,,,2026-11-20T10:00:00Z\n"
    );
}

/// `:export PATH` typed: the id of the job it starts.
fn export_started(app: &mut App, path: &std::path::Path) -> RequestId {
    let commands = command(app, &format!("export {}", path.display()));
    match commands.first() {
        Some(Command::Run { id, .. }) => *id,
        other => panic!("an export job, not {other:?}"),
    }
}

#[test]
fn esc_cancels_an_export_and_its_late_answer_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.json");
    let mut app = loaded();
    let id = export_started(&mut app, &path);
    app.update(Action::reply(id, Delivery::Progress { done: 2, total: 3 }));
    assert!(app.activity().unwrap().starts_with("exporting 2/3 to "));
    assert_eq!(press(&mut app, KeyCode::Esc), [Command::Cancel(id)]);
    assert_eq!(
        notice(&app),
        Notice::Info(format!("export cancelled: {} not written", path.display()))
    );
    assert_eq!(app.activity(), None);
    assert!(app.browser.listing.loaded().is_some(), "the list stays");
    let said = app.notice.clone();
    let late = job::JobOutput::new(Exported::Written {
        rows: 3,
        path: path.clone(),
        replaced: 0,
    });
    app.update(Action::reply(id, Delivery::Job(late)));
    assert_eq!(app.notice, said, "nothing more is said");
}

/// The audit of issue 22 item 4: the status bar said `exporting 94,208/200,000 … │ exporting
/// 0/200,000 …`, the count at the start kept as a notice beside the live one.
#[test]
fn a_running_export_is_counted_once_in_the_status_bar() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.ndjson");
    let mut app = loaded();
    let id = export_started(&mut app, &path);
    app.update(Action::reply(id, Delivery::Progress { done: 2, total: 3 }));
    let theme = crate::ui::theme::Theme::COLOR;
    let bar = harness::line(&harness::draw(&app, &theme, chrono::Utc::now()), 0);
    assert_eq!(bar.matches("exporting").count(), 1, "{bar}");
    assert!(bar.contains("exporting 2/3 to "), "{bar}");
}

#[test]
fn a_path_that_names_no_format_is_refused_at_once() {
    let mut app = loaded();
    assert!(command(&mut app, "export rows.txt").is_empty());
    assert!(matches!(notice(&app), Notice::Error(e) if e.contains(".csv, .json or .ndjson")));
}

/// In the detail `.json` is the resource itself, not an array of one (the audit of issue 22
/// item 4): its bytes as the service sent them, as `.ndjson` writes its line; `.csv` its record
/// under the header. The status bar says "the resource", not "1 row" (a later audit).
#[test]
fn the_detail_exports_its_resource() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = loaded();
    press(&mut app, KeyCode::Enter);
    let sent = json_of(&app, 0);
    for (name, written) in [
        ("one.json", format!("{sent}\n")),
        ("one.ndjson", format!("{sent}\n")),
        (
            "one.csv",
            "type,id,name,display_name,status,external_id,updated_at\nrepo,r0,beta,,,,\n"
                .to_owned(),
        ),
    ] {
        let path = dir.path().join(name);
        let commands = command(&mut app, &format!("export {}", path.display()));
        assert!(commands.iter().any(|c| c.job::<ExportJob>().is_some()));
        let activity = app.activity().unwrap_or_default();
        assert!(
            activity.starts_with("exporting the resource to "),
            "{activity}"
        );
        settle(&mut app, commands);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), written, "{name}");
        assert_eq!(
            notice(&app),
            Notice::Info(format!("wrote the resource to {}", path.display()))
        );
    }
    assert!(app.stack.top().is_some(), "the detail stays open");
}

#[test]
fn panes_with_nothing_to_export_say_so() {
    let mut app = loaded();
    key(&mut app, '3');
    assert!(command(&mut app, "export x.csv").is_empty());
    assert!(matches!(notice(&app), Notice::Error(e) if e.contains("nothing to export here")));
}

/// Issue 45 items 1 and 2: `:columns` shows a number as the service wrote it (read through a
/// parsed value, `1.0e2` showed as `1.0e+2`), and `:export` to a `.csv` writes what `list -o
/// csv` writes: the number as written, a control character as U+FFFD, said in the notice.
#[test]
fn added_columns_and_a_csv_export_keep_numbers_and_make_text_safe() {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 20), None);
    let id = commands.iter().find_map(Command::request_id).unwrap();
    let page = r#"{"resources": [
        {"id": "r0", "type": "repo", "name": "a\u001b]52;c;aGk=\u0007b", "properties": {"e": 1.0e2}}
    ]}"#;
    let page = RawPage::read(page.as_bytes().to_vec()).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::Page(Box::new(page.into()))))),
    ));
    let commands = command(&mut app, "columns +properties.e");
    settle(&mut app, commands);
    let theme = crate::ui::theme::Theme::COLOR;
    let drawn = super::harness::line(&super::harness::draw(&app, &theme, chrono::Utc::now()), 3);
    assert!(drawn.contains(" 1.0e2 "), "{drawn}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.csv");
    let export = command(&mut app, &format!("export {}", path.display()));
    settle(&mut app, export);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "type,id,name,display_name,status,external_id,updated_at,properties.e\n\
         repo,r0,a\u{fffd}]52;c;aGk=\u{fffd}b,,,,,1.0e2\n"
    );
    assert_eq!(
        notice(&app),
        Notice::Info(format!(
            "wrote 1 row to {}; 1 cell with control characters or bidi marks written as \
             \u{fffd} (.ndjson keeps the exact text)",
            path.display()
        ))
    );
}

/// Two `:export!` in one burst of keys: the second is refused while the first runs, and the
/// first's "wrote" names it again (it replaced the refusal, and the second file was lost
/// without a word).
#[test]
fn an_export_asked_while_one_runs_is_named_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    let mut app = loaded();
    let commands = command(&mut app, &format!("export! {}", first.display()));
    assert!(command(&mut app, &format!("export! {}", second.display())).is_empty());
    assert!(matches!(notice(&app), Notice::Error(said) if said.contains("b.csv not written")));
    settle(&mut app, commands);
    assert!(first.exists() && !second.exists());
    assert_eq!(
        notice(&app),
        Notice::Info(format!(
            "wrote 3 rows to {}; not written (asked while it ran): {}",
            first.display(),
            second.display()
        ))
    );
}
