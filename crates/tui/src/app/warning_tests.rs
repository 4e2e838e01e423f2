//! What the status bar warns of, which a narrow terminal cuts, is what `!` shows whole (issue 20
//! item 4), and a `--types` file that gave no types is said at once (item 2).

use std::sync::Arc;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::json;

use super::harness::{key, press};
use super::overlay::Overlay;
use super::*;
use crate::api::{Exchange, ListResponse, Reply};
use crate::catalog::{Catalog, NO_DEFINITION_HINT};

/// An 80x24 app over two rows of a type nothing defines, the known types (none) loaded with
/// `problems`.
fn app(problems: &[&str]) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    let id = commands.iter().find_map(Command::request_id).unwrap();
    let rows = json!({"resources": [
        {"id": "r1", "type": "mystery", "name": "one"},
        {"id": "r2", "type": "mystery", "name": "two"}
    ]});
    let page = ListResponse::from_value(rows).unwrap();
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    app.update(Action::reply(RequestId(999), known(problems)));
    app
}

fn known(problems: &[&str]) -> Delivery {
    Delivery::Types(Arc::new(KnownTypes {
        catalog: Catalog::default(),
        problems: problems.iter().map(|p| p.to_string()).collect(),
    }))
}

/// The message `!` shows now.
fn bang(app: &mut App) -> String {
    key(app, '!');
    let shown = match &app.overlay {
        Some(Overlay::Error(popup)) => popup.report.message.clone(),
        other => panic!("! shows no error: {other:?}"),
    };
    press(app, KeyCode::Esc);
    shown
}

#[test]
fn a_types_file_that_gave_no_types_is_said_at_once_and_under_bang() {
    let problem = "/tmp/nosuch.json: cannot read it: No such file or directory (os error 2)";
    let mut app = app(&[problem]);
    match &app.notice {
        Some(Notice::Error(text)) => assert!(text.contains(problem), "{text}"),
        other => panic!("not said: {other:?}"),
    }
    assert!(bang(&mut app).contains(problem));
    // The same problems loaded again (`r` in the types view) are not said again.
    key(&mut app, 'j');
    app.update(Action::reply(RequestId(1000), known(&[problem])));
    assert_eq!(app.notice, None);
}

#[test]
fn the_advice_on_a_type_without_definition_is_whole_under_bang() {
    let mut app = app(&[]);
    key(&mut app, '2');
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(&app.notice, Some(Notice::Error(_))),
        "{:?}",
        app.notice
    );
    let shown = bang(&mut app);
    assert!(shown.starts_with("mystery: no definition known"), "{shown}");
    assert!(shown.ends_with(NO_DEFINITION_HINT), "{shown}");
}

#[test]
fn an_editor_not_found_is_whole_under_bang() {
    let mut app = app(&[]);
    key(&mut app, 'R');
    let commands = key(&mut app, 'e');
    let id = commands
        .iter()
        .find_map(|c| match c {
            Command::EditExternally { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the editor asked for");
    let why = "the editor `no-such-editor --wait` was not found: set $VISUAL or $EDITOR";
    app.update(Action::reply(id, Delivery::Edited(Err(why.into()))));
    assert!(bang(&mut app).contains(why));
}

#[test]
fn a_draft_the_store_did_not_take_is_whole_under_bang() {
    let mut app = app(&[]);
    key(&mut app, 'R');
    key(&mut app, 'j');
    key(&mut app, 'j');
    key(&mut app, 'i');
    key(&mut app, 'x');
    press(&mut app, KeyCode::Esc);
    let at = app.now + std::time::Duration::from_secs(2);
    let commands = super::tests::tick(&mut app, at);
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("a save");
    let why = "cannot use the store at /home/someone/.local/share/appdeck/appdeck.sqlite3: \
               database is locked";
    app.update(Action::reply(id, Delivery::DraftSaved(Err(why.into()))));
    assert!(bang(&mut app).contains(why));
}

/// A notice that stays up while other things happen (a reply, a resize: no key clears it) is not
/// taken again for `!`: the account kept when it was said (what appdeck was doing, the exchange)
/// stays the one `!` shows.
#[test]
fn a_notice_still_up_is_not_taken_again_for_bang() {
    let mut app = app(&[]);
    app.update(Action::Notice(Notice::Error("the command failed".into())));
    let kept = app.last_error.clone().expect("! has it");
    assert_eq!(kept.doing, "running a command");
    app.update(Action::Resize {
        width: 100,
        height: 30,
    });
    app.update(Action::Tick);
    assert_eq!(app.last_error, Some(kept), "the first account stays");
}

/// The first line of the screen as drawn.
fn status_bar(app: &App) -> String {
    let screen = super::harness::draw(app, &crate::ui::theme::Theme::COLOR, chrono::Utc::now());
    super::harness::line(&screen, 0)
}

/// Issue 20 item 4: the types view's advice on a row without definition was cut in its border
/// and `!` said "no error so far": it is now the pane's problem, in the status bar (cut, saying
/// where it is whole) and under `!` before any key.
#[test]
fn the_advice_on_a_type_without_definition_is_under_bang_at_once() {
    let mut app = app(&[]);
    key(&mut app, '2');
    let bar = status_bar(&app);
    assert!(bar.contains("⚠ mystery: no definition known"), "{bar}");
    assert!(bar.trim_end().ends_with("(! whole)"), "{bar}");
    let shown = bang(&mut app);
    assert!(shown.ends_with(NO_DEFINITION_HINT), "{shown}");
}

/// Issue 20 item 2: the types view's border showed only the first types file that could not be
/// read; every one is the view's problem (under `!` whole) when no row without definition is
/// under the cursor.
#[test]
fn every_types_file_that_failed_is_the_types_views_problem() {
    let (first, second) = ("/tmp/a.json: cannot read it", "/tmp/b.json: not JSON");
    let mut app = app(&[first, second]);
    key(&mut app, '2');
    key(&mut app, '/');
    crate::app::harness::type_text(&mut app, "nothing matches");
    press(&mut app, KeyCode::Enter);
    let problem = app.problem().expect("a problem");
    assert!(
        problem.contains(first) && problem.contains(second),
        "{problem}"
    );
}

/// Issue 20 items 2 and 4: on a narrow terminal the warning was never seen, as where appdeck is
/// connected took the whole bar; what is said now comes first, and a cut one still says `!`.
#[test]
fn a_narrow_status_bar_shows_the_warning_before_the_host() {
    let mut app = app(&[]);
    app.update(Action::Resize {
        width: 40,
        height: 12,
    });
    app.update(Action::Notice(Notice::Error(
        "the editor `vim` was not found: set $VISUAL or $EDITOR".into(),
    )));
    let bar = status_bar(&app);
    assert!(bar.starts_with(" appdeck │ ⚠ the editor"), "{bar}");
    assert!(bar.trim_end().ends_with("(! whole)"), "{bar}");
    app.update(Action::Notice(Notice::Info("sorted by name".into())));
    let bar = status_bar(&app);
    assert!(bar.contains("sorted by name"), "{bar}");
}
