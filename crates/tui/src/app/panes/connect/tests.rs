//! The connect composer through `App::update`, as the event loop drives it: keys in, state and
//! commands out. No I/O: the background analysis and the store's answers are fed back by hand.

use crate::app::Delivery;
use crate::app::harness::{key_settled as key, press_settled as press, settle};
use crate::app::job::JobOutput;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::{ConnectComposer, ConnectPart};
use crate::api::{Answer, Exchange, ListResponse, Operation, Reply, ReportResponse};
use crate::app::KnownTypes;
use crate::app::keymap::InputMode;
use crate::app::pane::Screen;
use crate::app::tests::tick;
use crate::app::widgets::send_flow::Phase;
use crate::app::{Action, App, Command, Notice, RequestId, Session, StoredDraft};
use crate::catalog::{self, Catalog, Source};
use crate::store::SendKind;

const BASE: &str = "http://127.0.0.1:9/api/v1";

/// An 80x24 app over three loaded rows, knowing `versions` (the demo's app when empty).
pub(crate) fn app_knowing(versions: Vec<catalog::AppVersion>) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 80, 24), None);
    app.report = Arc::new(crate::app::panes::report::ReportContext {
        base_url: BASE.to_owned(),
        ..Default::default()
    });
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let page = ListResponse::from_value(json!({"resources": [
        {"id": "r1", "type": "repository", "external_id": "x1", "name": "one",
         "properties": {"stars": 3}},
        {"id": "r2", "type": "repository", "external_id": "x2", "name": "two",
         "properties": {"stars": 5, "topic": null}},
        {"id": "r3", "type": "team", "external_id": "x3", "name": "three"}
    ], "next": null}))
    .expect("page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    let versions = if versions.is_empty() {
        vec![catalog::demo()]
    } else {
        versions
    };
    app.update(Action::reply(
        RequestId(u64::MAX),
        Delivery::Types(Arc::new(KnownTypes {
            catalog: Catalog::from_versions(versions),
            problems: Vec::new(),
        })),
    ));
    app
}

/// The inference the commands ask for, not run.
fn infer_asked(commands: &[Command]) -> (RequestId, super::new_app::InferJob) {
    let asked: Vec<_> = commands
        .iter()
        .filter_map(|c| match c {
            Command::Run { id, job } => Some((*id, job.get::<super::new_app::InferJob>()?.clone())),
            _ => None,
        })
        .collect();
    match asked.as_slice() {
        [one] => one.clone(),
        _ => panic!("one inference asked for: {commands:?}"),
    }
}

/// An 80x24 app over the three rows of [`app_knowing`], knowing no app version.
fn app_knowing_no_app() -> App {
    let mut app = app_knowing(Vec::new());
    app.known_types = None;
    app
}

pub(crate) fn connect(app: &App) -> &ConnectComposer {
    match app.stack.top() {
        Some(Screen::Connect(composer)) => composer,
        _ => panic!("no connect composer open"),
    }
}

fn demo() -> Value {
    serde_json::from_str(crate::catalog::DEMO_CONNECT).expect("demo payload")
}

/// The demo's payload, version bumped to 1.5.0 and its `repository` type removed.
pub(crate) fn bumped_without_repository() -> Value {
    let mut payload = demo();
    payload["version"] = json!("1.5.0");
    payload["resources"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["type"] != "repository");
    payload
}

/// What `$EDITOR` left, fed back as the runtime would.
pub(crate) fn edit_externally(app: &mut App, text: String) -> Vec<Command> {
    let commands = key(app, 'e');
    let Some(Command::EditExternally { id, .. }) = commands
        .iter()
        .find(|c| matches!(c, Command::EditExternally { .. }))
    else {
        panic!("e asks for the external editor: {commands:?}");
    };
    let id = *id;
    let commands = app.update(Action::reply(id, Delivery::Edited(Ok(text))));
    settle(app, commands)
}

fn answer(body: Value, status: u16) -> Box<Exchange> {
    let response = ReportResponse::from_map(body.as_object().cloned().unwrap_or_default());
    Box::new(Exchange {
        status: Some(status),
        elapsed: Duration::from_millis(12),
        result: Ok(Reply::Answer(Box::new(Answer {
            text: body.to_string(),
            raw: body,
            response,
            http_error: None,
        }))),
    })
}

#[test]
fn c_opens_the_newest_known_version_and_enter_on_the_outline_jumps_to_its_type() {
    let mut app = app_knowing(Vec::new());
    let commands = key(&mut app, 'C');
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::LoadDraft { subject, .. }
                if subject.kind == "connect" && subject.subject == "acme-devtools")),
        "a draft of this app is looked for: {commands:?}"
    );
    let opened: Value = serde_json::from_str(&connect(&app).text()).unwrap();
    assert_eq!(opened["app_id"], "acme-devtools");
    assert!(crate::diff::compare(&demo(), &opened).is_empty());
    let composer = connect(&app);
    assert_eq!(composer.outline.len(), 5);
    assert_eq!(composer.diff.against.as_ref().unwrap().version, "1.4.0");
    assert_eq!(
        composer.diff.changes.as_ref().map(|c| c.is_empty()),
        Some(true)
    );
    // The same version as the newest known one: a warning on the version line.
    let warning = &composer.findings[0];
    assert_eq!(warning.finding.pointer, "/version");
    assert_eq!(warning.at.0, 2);

    press(&mut app, KeyCode::Tab);
    assert_eq!(connect(&app).focus, ConnectPart::Outline);
    key(&mut app, 'j');
    key(&mut app, 'j');
    let target = connect(&app).outline[2].clone();
    press(&mut app, KeyCode::Enter);
    let composer = connect(&app);
    assert_eq!(composer.focus, ConnectPart::Payload);
    assert_eq!(composer.payload.cursor().0, target.at.0);
    let line = &composer.payload.lines()[target.at.0 + 1];
    assert!(
        line.contains(&format!("\"type\": \"{}\"", target.name)),
        "{line}"
    );
    // C again while composing opens no second composer.
    key(&mut app, 'C');
    assert_eq!(app.stack.layers().len(), 1);
}

/// Issue 20 item 8: `Enter` on the outline's last type brought only its opening line into view,
/// on the editor's last row. Now the type's first line goes to the top (as far as the text goes),
/// its definition below it, at 80x24 as at 120x40.
#[test]
fn enter_on_the_outlines_last_type_scrolls_its_definition_into_view_from_the_top() {
    use crate::app::harness::{draw, line};
    use crate::ui::theme::Theme;
    for (width, height) in [(80, 24), (120, 40)] {
        let mut app = app_knowing(Vec::new());
        app.update(Action::Resize { width, height });
        key(&mut app, 'C');
        // The event loop draws a frame between keys: the editor keeps where it was scrolled.
        draw(&app, &Theme::COLOR, chrono::Utc::now());
        press(&mut app, KeyCode::Tab);
        key(&mut app, 'G');
        let target = connect(&app).outline.last().cloned().expect("types");
        press(&mut app, KeyCode::Enter);
        let composer = connect(&app);
        assert_eq!(composer.payload.cursor(), target.at);
        let screen = draw(&app, &Theme::COLOR, chrono::Utc::now());
        // Row 0 is the status bar, row 1 the editor's top border: its text starts on row 2.
        let (first, second) = (line(&screen, 2), line(&screen, 3));
        assert!(
            first.contains(&format!(" {} ", target.at.0 + 1))
                && second.contains(&format!("\"type\": \"{}\"", target.name)),
            "{width}x{height}: the type's first lines at the top:\n{first}\n{second}"
        );
    }
}

#[test]
fn typing_edits_the_payload_u_undoes_and_every_change_is_checked() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.focus().mode, InputMode::Editor);
    // Break the JSON at the top: a syntax error, marked on its line.
    key(&mut app, 'x');
    assert!(connect(&app).text().starts_with("x{"));
    let composer = connect(&app);
    assert_eq!(composer.error_count(), 1, "{:?}", composer.findings);
    assert!(composer.findings[0].finding.message.contains("syntax"));
    assert_eq!(
        composer.outline.len(),
        5,
        "the outline is kept while not JSON"
    );
    assert_eq!(composer.diff.changes, None);
    assert!(connect(&app).draft.unsaved.is_some(), "a draft save is due");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.focus().mode, InputMode::None);
    key(&mut app, 'u');
    let composer = connect(&app);
    assert!(composer.text().starts_with('{'));
    assert_eq!(composer.error_count(), 0);
    assert!(composer.diff.changes.is_some());
    // s on a payload that is not JSON reviews nothing.
    key(&mut app, 'i');
    key(&mut app, 'x');
    press(&mut app, KeyCode::Esc);
    key(&mut app, 's');
    assert_eq!(connect(&app).phase, Phase::Editing);
    assert!(matches!(&app.notice, Some(Notice::Error(m)) if m.contains("not JSON")));
}

/// A payload that is not JSON is compared with nothing, and the diff pane says so: it said "no
/// known version of this app" of an app it knows (a tester's finding).
#[test]
fn the_diff_pane_says_a_payload_that_is_not_json_is_not_compared() {
    use crate::app::harness::{draw, line};
    use crate::ui::theme::Theme;
    let mut app = app_knowing(Vec::new());
    app.update(Action::Resize {
        width: 120,
        height: 40,
    });
    key(&mut app, 'C');
    let screen = |app: &App| {
        let drawn = draw(app, &Theme::COLOR, chrono::Utc::now());
        (0..40)
            .map(|row| line(&drawn, row))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(screen(&app).contains(" diff: "), "{}", screen(&app));
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'x');
    let broken = screen(&app);
    assert!(broken.contains("diff: the payload is not JSON"), "{broken}");
    assert!(!broken.contains("no known version"), "{broken}");
}

#[test]
fn leaving_the_payload_editor_ends_the_step_u_takes_back() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'x');
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Enter);
    key(&mut app, 'y');
    let typed = connect(&app).text();
    assert!(typed.starts_with("xy{"), "{typed}");
    press(&mut app, KeyCode::Esc);
    key(&mut app, 'u');
    let undone = connect(&app).text();
    assert!(undone.starts_with("x{"), "{undone}");
}

/// What `$EDITOR` changed goes in as one step: one `u` gives the payload as it was, never a
/// text nobody wrote (the changed part cut, the new one not yet in), and `^r` the edit again.
#[test]
fn one_u_takes_back_what_the_external_editor_changed() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let opened = connect(&app).text();
    let edited = serde_json::to_string_pretty(&bumped_without_repository()).unwrap();
    edit_externally(&mut app, edited.clone());
    assert_eq!(connect(&app).text(), edited);
    key(&mut app, 'u');
    assert_eq!(connect(&app).text(), opened);
    crate::app::harness::ctrl(&mut app, 'r');
    assert_eq!(connect(&app).text(), edited);
}

#[test]
fn a_removed_type_is_breaking_the_review_needs_two_enters_and_the_send_is_recorded() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let edited = serde_json::to_string_pretty(&bumped_without_repository()).unwrap();
    edit_externally(&mut app, edited);
    let composer = connect(&app);
    assert!(composer.findings.is_empty(), "{:?}", composer.findings);
    let changes = composer.diff.changes.as_ref().expect("compared");
    let removal = changes
        .breaking()
        .find(|c| c.subject.contains("repository"))
        .unwrap_or_else(|| panic!("the removal breaks: {changes:?}"));
    assert!(removal.reason.contains("removed"), "{removal:?}");
    assert_eq!(composer.outline.len(), 4);

    key(&mut app, 's');
    assert!(matches!(
        connect(&app).phase,
        Phase::Review { armed: false, .. }
    ));
    let first = press(&mut app, KeyCode::Enter);
    assert!(
        !first.iter().any(|c| matches!(c, Command::Api { .. })),
        "one Enter does not send a breaking change"
    );
    assert!(matches!(&app.notice, Some(Notice::Info(m)) if m.contains("breaking")));
    let second = press(&mut app, KeyCode::Enter);
    let Some((id, body)) = second.iter().find_map(|c| match c {
        Command::Api { id, call } if call.operation == Operation::VersionConnect => {
            Some((*id, call.body.value().clone()))
        }
        _ => None,
    }) else {
        panic!("the second Enter sends: {second:?}");
    };
    assert_eq!(body, bumped_without_repository());
    assert!(
        matches!(second.first(), Some(Command::DraftSending { body, .. }) if body.contains("payload")),
        "saved marked as being sent before it goes out: {second:?}"
    );

    let after = app.update(Action::reply(
        id,
        answer(json!({"status": "ok", "message": "registered"}), 200),
    ));
    assert!(matches!(&connect(&app).phase, Phase::Answered(r) if r.ok));
    assert!(
        after.iter().any(
            |c| matches!(c, Command::RecordSend { sent: s, .. } if s.kind == SendKind::Connect)
        ),
        "recorded in the history: {after:?}"
    );
    assert!(after.iter().any(|c| matches!(c, Command::DraftSent(_))));
    let Some(Command::RecordAppVersion {
        id,
        base_url,
        payload,
    }) = after
        .iter()
        .find(|c| matches!(c, Command::RecordAppVersion { .. }))
    else {
        panic!("recorded as a known version: {after:?}");
    };
    assert_eq!(base_url, BASE);
    // The runtime recorded it: the types know 1.5.0 at once.
    let recorded = Delivery::VersionRecorded {
        payload: payload.clone(),
        at: chrono::Utc::now(),
        result: Ok(()),
    };
    app.update(Action::reply(*id, recorded));
    let known = app.known_types.as_ref().unwrap();
    let deployment = known.catalog.get("deployment").unwrap().newest().unwrap();
    assert_eq!(deployment.version.as_deref(), Some("1.5.0"));
    assert!(matches!(deployment.source, Source::Sent(_)));
    assert_eq!(connect(&app).known[0].version, "1.5.0");
}

/// Issue 35 item 12: a connect the service accepted is what the payload on screen is compared
/// with at once: sending the same version again warns before any edit.
#[test]
fn an_accepted_connect_is_compared_with_at_once() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let edited = serde_json::to_string_pretty(&bumped_without_repository()).unwrap();
    edit_externally(&mut app, edited);
    key(&mut app, 's');
    press(&mut app, KeyCode::Enter);
    let second = press(&mut app, KeyCode::Enter);
    let Some(id) = second.iter().find_map(|c| match c {
        Command::Api { id, .. } => Some(*id),
        _ => None,
    }) else {
        panic!("the second Enter sends: {second:?}");
    };
    let after = app.update(Action::reply(id, answer(json!({"status": "ok"}), 200)));
    let Some((id, payload)) = after.iter().find_map(|c| match c {
        Command::RecordAppVersion { id, payload, .. } => Some((*id, payload.clone())),
        _ => None,
    }) else {
        panic!("recorded as a known version: {after:?}");
    };
    assert!(connect(&app).findings.is_empty(), "1.5.0 is new so far");
    let recorded = Delivery::VersionRecorded {
        payload,
        at: chrono::Utc::now(),
        result: Ok(()),
    };
    let commands = app.update(Action::reply(id, recorded));
    settle(&mut app, commands);
    let findings = &connect(&app).findings;
    assert!(
        findings
            .iter()
            .any(|f| f.finding.message.contains("not greater than 1.5.0")),
        "{findings:?}"
    );
}

/// `C` with no app known, `s` and `Enter`: the connect as it opened, sent (nothing breaks: one
/// `Enter` sends); the app and the send's request id.
fn sent_as_opened() -> (App, RequestId) {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    key(&mut app, 's');
    let commands = press(&mut app, KeyCode::Enter);
    let id = commands.iter().find_map(|c| match c {
        Command::Api { id, .. } => Some(*id),
        _ => None,
    });
    (app, id.expect("nothing breaks: one Enter sends"))
}

#[test]
fn a_refused_connect_stays_unknown_and_a_read_only_profile_sends_nothing() {
    let (mut app, id) = sent_as_opened();
    let after = app.update(Action::reply(
        id,
        answer(json!({"status": "error", "error": "no"}), 422),
    ));
    assert!(
        after
            .iter()
            .any(|c| matches!(c, Command::RecordSend { .. }))
    );
    assert!(
        !after
            .iter()
            .any(|c| matches!(c, Command::RecordAppVersion { .. })),
        "a refused connect is no known version"
    );

    let mut app = app_knowing(Vec::new());
    app.read_only = Some(crate::config::ReadOnly::Profile("prod".into()));
    key(&mut app, 'C');
    key(&mut app, 's');
    let commands = press(&mut app, KeyCode::Enter);
    assert!(!commands.iter().any(|c| matches!(c, Command::Api { .. })));
    assert!(matches!(&app.notice, Some(Notice::Error(m)) if m.contains("\"prod\"")));
}

#[test]
fn several_known_apps_open_a_picker_and_new_infers_from_the_loaded_rows() {
    let other = json!({"app_id": "other-app", "version": "2.0.0",
                       "resources": [{"type": "widget", "list_supported": true}]});
    let other =
        catalog::AppVersion::from_payload(other.as_object().cloned().unwrap(), Source::Demo, None);
    let mut app = app_knowing(vec![catalog::demo(), other]);
    key(&mut app, 'C');
    // (`key` ran the inference, as the executor would.)
    let picker = connect(&app).picker.clone().expect("a picker");
    assert_eq!(picker.starts.len(), 3, "two apps and a new one");
    assert!(
        picker.starts[2]
            .label()
            .contains("inferred from 3 rows loaded")
    );
    key(&mut app, 'j');
    press(&mut app, KeyCode::Enter);
    let composer = connect(&app);
    assert!(composer.picker.is_none());
    assert_eq!(composer.app_id().as_deref(), Some("other-app"));
    assert_eq!(composer.outline[0].name, "widget");
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.layers().is_empty());

    let commands = app.update(Action::CommandLine);
    assert!(commands.is_empty());
    for c in "connect new".chars() {
        key(&mut app, c);
    }
    press(&mut app, KeyCode::Enter);
    let composer = connect(&app);
    let names: Vec<&str> = composer.outline.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["repository", "team"]);
    assert!(
        composer.diff.against.is_none(),
        "a new app has nothing to compare"
    );
}

#[test]
fn c_with_no_app_known_opens_at_once_and_the_inferred_types_fill_it() {
    let mut app = app_knowing_no_app();
    let commands = app.update(Action::Connect);
    let (id, job) = infer_asked(&commands);
    assert_eq!(
        job.rows.len(),
        3,
        "the list's rows, for the background task"
    );
    assert!(
        !commands
            .iter()
            .any(|c| c.job::<super::check::AnalysisJob>().is_some()
                || matches!(c, Command::LoadDraft { .. })),
        "nothing to check or restore before the payload is there: {commands:?}"
    );
    let composer = connect(&app);
    assert!(composer.waiting_for_inference());
    assert_eq!(composer.text(), "", "no inference on the UI thread");
    assert!(composer.outline.is_empty() && composer.findings.is_empty());
    let activity = app.activity().unwrap_or_default();
    assert!(
        activity.contains("inferring types from 3 rows loaded"),
        "{activity}"
    );
    // Only Esc and the global keys work meanwhile (and the footer offers no others); nothing
    // is edited.
    let focus = app.focus();
    assert_eq!(
        (focus.keys.id, focus.mode),
        ("connect_waiting", InputMode::None)
    );
    let offered: Vec<&str> = focus.keys.bindings().map(|b| b.footer).collect();
    assert!(
        offered.contains(&"back") && !offered.contains(&"send") && !offered.contains(&"part"),
        "{offered:?}"
    );
    assert!(key(&mut app, 'i').is_empty());
    assert!(!connect(&app).editing);

    let start = Box::new(super::new_app::infer(&job));
    let filled = app.update(Action::reply(id, Delivery::Job(JobOutput::new(*start))));
    let commands = settle(&mut app, filled);
    let composer = connect(&app);
    assert!(!composer.waiting_for_inference());
    assert_eq!(
        composer.app_id().as_deref(),
        Some(crate::validate::PLACEHOLDER_APP_ID)
    );
    let names: Vec<&str> = composer.outline.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["repository", "team"], "checked and outlined");
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::LoadDraft { .. })),
        "the new app's draft is looked up once its payload is there"
    );
}

/// Issue 20 item 8: a new app starts from `appdeck infer`'s placeholder `app_id` and `version`,
/// which the checks flag on their lines (the cursor and the status bar point at them); one
/// `Enter` in the review does not send them. Written over, they are no longer findings.
#[test]
fn a_new_apps_placeholder_app_id_and_version_are_findings_until_replaced() {
    use crate::validate::{PLACEHOLDER_APP_ID, PLACEHOLDER_VERSION, Severity};
    let mut app = app_knowing_no_app();
    let (id, job) = infer_asked(&app.update(Action::Connect));
    let start = Box::new(super::new_app::infer(&job));
    let filled = app.update(Action::reply(id, Delivery::Job(JobOutput::new(*start))));
    settle(&mut app, filled);
    assert!(
        matches!(&app.notice, Some(Notice::Info(m)) if m.starts_with("new app: replace its app_id and version;")),
        "{:?}",
        app.notice
    );
    let composer = connect(&app);
    let flagged: Vec<_> = (composer.findings.iter())
        .map(|l| (l.finding.pointer.as_str(), l.at.0, l.finding.severity))
        .collect();
    assert_eq!(
        flagged,
        [
            ("/app_id", 1, Severity::Error),
            ("/version", 2, Severity::Error)
        ]
    );
    assert_eq!(composer.payload.cursor().0, 1, "the cursor waits on app_id");

    key(&mut app, 's');
    let first = press(&mut app, KeyCode::Enter);
    assert!(
        !first.iter().any(|c| matches!(c, Command::Api { .. })),
        "one Enter does not send the placeholders: {first:?}"
    );
    assert!(matches!(&app.notice, Some(Notice::Info(m)) if m.contains("2 findings")));
    press(&mut app, KeyCode::Esc);
    let text = connect(&app).text();
    let written = text
        .replace(PLACEHOLDER_APP_ID, "acme-inventory")
        .replace(PLACEHOLDER_VERSION, "1.0.0");
    edit_externally(&mut app, written);
    assert_eq!(connect(&app).findings, vec![]);
}

#[test]
fn an_inference_for_a_closed_or_reopened_composer_is_dropped_and_esc_works_while_it_runs() {
    let mut app = app_knowing_no_app();
    let (first, job) = infer_asked(&app.update(Action::Connect));
    let commands = press(&mut app, KeyCode::Esc);
    assert!(
        app.stack.layers().is_empty(),
        "Esc closes it while it waits"
    );
    assert!(commands.contains(&Command::Cancel(first)));
    let stale = || {
        Box::new(super::Start::Inferred {
            payload: json!({"app_id": "stale", "version": "1", "resources": []}),
            samples: 1,
        })
    };
    let late = app.update(Action::reply(
        first,
        Delivery::Job(JobOutput::new(*stale())),
    ));
    assert!(late.is_empty() && app.stack.layers().is_empty());

    let (second, _) = infer_asked(&app.update(Action::Connect));
    assert_ne!(second, first);
    app.update(Action::reply(
        first,
        Delivery::Job(JobOutput::new(*stale())),
    ));
    assert!(
        connect(&app).waiting_for_inference(),
        "{:?}",
        connect(&app).text()
    );
    let start = Box::new(super::new_app::infer(&job));
    let filled = app.update(Action::reply(second, Delivery::Job(JobOutput::new(*start))));
    settle(&mut app, filled);
    assert_eq!(
        connect(&app).app_id().as_deref(),
        Some(crate::validate::PLACEHOLDER_APP_ID)
    );
}

#[test]
fn the_pickers_new_app_waits_for_its_inference_and_may_be_picked_before_it_ends() {
    let other = json!({"app_id": "other-app", "version": "2.0.0",
                       "resources": [{"type": "widget", "list_supported": true}]});
    let other =
        catalog::AppVersion::from_payload(other.as_object().cloned().unwrap(), Source::Demo, None);
    let mut app = app_knowing(vec![catalog::demo(), other.clone()]);
    let (id, job) = infer_asked(&app.update(Action::Connect));
    let picker = connect(&app).picker.clone().expect("a picker");
    assert!(
        picker.starts[2]
            .label()
            .contains("inferring types from 3 rows loaded…")
    );
    // Picked while it runs: the composer waits for it.
    key(&mut app, 'G');
    press(&mut app, KeyCode::Enter);
    assert!(connect(&app).waiting_for_inference());
    let start = Box::new(super::new_app::infer(&job));
    let filled = app.update(Action::reply(id, Delivery::Job(JobOutput::new(*start))));
    settle(&mut app, filled);
    assert_eq!(
        connect(&app).app_id().as_deref(),
        Some(crate::validate::PLACEHOLDER_APP_ID)
    );

    // Another app picked while it runs: its result is not wanted any more.
    press(&mut app, KeyCode::Esc);
    let (id, job) = infer_asked(&app.update(Action::Connect));
    let commands = press(&mut app, KeyCode::Enter);
    assert!(commands.contains(&Command::Cancel(id)));
    let start = Box::new(super::new_app::infer(&job));
    app.update(Action::reply(id, Delivery::Job(JobOutput::new(*start))));
    assert_eq!(connect(&app).app_id().as_deref(), Some("acme-devtools"));
}

// -------------------------------------------------------------------------------- drafts

/// The draft saves among `commands`: their ids and payloads.
fn saves(commands: &[Command]) -> Vec<(RequestId, String)> {
    commands
        .iter()
        .filter_map(|c| match c {
            Command::SaveDraft { id, body, .. } => {
                let body: super::update::ConnectDraft = serde_json::from_str(body).unwrap();
                Some((*id, body.payload))
            }
            _ => None,
        })
        .collect()
}

/// Types `text` at the top of the payload at `at`, and leaves the editor.
fn type_at(app: &mut App, at: std::time::Instant, text: &str) {
    app.now = at;
    key(app, 'i');
    for c in text.chars() {
        key(app, c);
    }
    press(app, KeyCode::Esc);
}

#[test]
fn a_connect_draft_is_saved_after_a_pause_a_failed_save_is_said_and_esc_saves_the_rest() {
    let t0 = std::time::Instant::now();
    let mut app = app_knowing(Vec::new());
    app.now = t0;
    key(&mut app, 'C');
    assert_eq!(app.wake_at(), None, "nothing typed: no timer");
    type_at(&mut app, t0, "x");
    let due = app.wake_at().expect("a save is due");
    assert!(saves(&tick(&mut app, due - Duration::from_millis(1))).is_empty());
    let saved = saves(&tick(&mut app, due));
    let [(id, payload)] = saved.as_slice() else {
        panic!("one save: {saved:?}")
    };
    assert!(payload.starts_with("x{"), "{payload}");
    assert_eq!(app.wake_at(), None, "saved: no timer");
    assert_eq!(connect(&app).draft.saved, None, "not yet confirmed");
    app.update(Action::reply(*id, Delivery::DraftSaved(Ok(()))));
    assert_eq!(connect(&app).draft.saved, Some(Ok(())));
    assert_eq!(app.problem(), None);

    type_at(&mut app, t0 + Duration::from_secs(5), "y");
    let saved = saves(&tick(&mut app, t0 + Duration::from_secs(7)));
    app.update(Action::reply(
        saved[0].0,
        Delivery::DraftSaved(Err("the store is locked".into())),
    ));
    let problem = app.problem().unwrap_or_default();
    assert!(problem.contains("draft not saved"), "{problem}");

    // Esc within the quiet second saves at once rather than losing the typing.
    type_at(&mut app, t0 + Duration::from_secs(8), "z");
    let saved = saves(&press(&mut app, KeyCode::Esc));
    assert!(app.stack.top().is_none());
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(saved[0].1.starts_with("xyz{"), "{}", saved[0].1);
}

/// `C` with its analysis and its draft look-up not answered yet.
fn opened_unsettled(app: &mut App) -> (Vec<Command>, RequestId) {
    let commands = app.update(Action::Connect);
    let draft = commands
        .iter()
        .find_map(|c| match c {
            Command::LoadDraft { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the draft is looked up");
    (commands, draft)
}

/// The stored draft (`bumped_without_repository`) delivered for the look-up `draft`.
fn restore_bumped_draft(app: &mut App, draft: RequestId) -> Vec<Command> {
    let body = serde_json::to_string(&super::update::ConnectDraft {
        payload: serde_json::to_string_pretty(&bumped_without_repository()).unwrap(),
    })
    .unwrap();
    app.update(Action::reply(
        draft,
        Delivery::DraftLoaded(Ok(Some(StoredDraft {
            body,
            age: Duration::from_secs(60),
            revision: crate::store::DraftRevision {
                row: 4,
                revision: 2,
            },
            sent: None,
        }))),
    ))
}

/// The demo's payload is analysed in the background (it is over 4 KiB). A draft restored
/// before that analysis answered, then discarded, once left the composer "checking" forever.
#[test]
fn d_after_a_draft_restored_before_the_first_analysis_analyses_again() {
    let mut app = app_knowing(Vec::new());
    let (first, draft) = opened_unsettled(&mut app);
    assert!(
        first
            .iter()
            .any(|c| c.job::<super::check::AnalysisJob>().is_some())
    );
    let restored = restore_bumped_draft(&mut app, draft);
    settle(&mut app, first);
    settle(&mut app, restored);
    assert_eq!(connect(&app).breaking_count(), 1, "the draft is compared");
    assert_eq!(app.activity(), None);

    let discarded = key(&mut app, 'D');
    let restored = crate::app::DraftSlot {
        subject: connect(&app).draft.subject.clone(),
        owner: None,
        from: Some(crate::store::DraftRevision {
            row: 4,
            revision: 2,
        }),
    };
    assert!(discarded.contains(&Command::RemoveDraft(restored)));
    assert_eq!(app.activity(), None, "{discarded:?}");
    let composer = connect(&app);
    assert_eq!(composer.breaking_count(), 0, "compared again, as opened");
    assert!(composer.diff.changes.is_some());
    key(&mut app, 's');
    assert!(matches!(connect(&app).phase, Phase::Review { .. }));
}

/// A stale analysis (of a text since replaced) that comes after a newer one is dropped.
#[test]
fn an_analysis_of_a_discarded_text_is_dropped() {
    let mut app = app_knowing(Vec::new());
    let (first, draft) = opened_unsettled(&mut app);
    settle(&mut app, first);
    let restored = restore_bumped_draft(&mut app, draft);
    // The draft's analysis is still running when D puts the opened payload back.
    let discarded = key(&mut app, 'D');
    settle(&mut app, discarded);
    assert_eq!(connect(&app).breaking_count(), 0);
    settle(&mut app, restored);
    assert_eq!(
        connect(&app).breaking_count(),
        0,
        "the draft's analysis came late and is not the payload's"
    );
    assert_eq!(app.activity(), None);
}

#[test]
fn the_activity_says_what_the_composer_waits_for() {
    let mut app = app_knowing(Vec::new());
    let (first, _) = opened_unsettled(&mut app);
    assert_eq!(app.activity().as_deref(), Some("checking and comparing…"));
    settle(&mut app, first);
    assert_eq!(app.activity(), None);
    let commands = key(&mut app, 'e');
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::EditExternally { .. }))
    );
    assert_eq!(app.activity().as_deref(), Some("in the external editor…"));
    let id = commands.iter().find_map(Command::request_id).unwrap();
    app.update(Action::reply(
        id,
        Delivery::Edited(Err("the editor failed".into())),
    ));
    assert_eq!(app.activity(), None);
    key(&mut app, 's');
    press(&mut app, KeyCode::Enter);
    assert!(matches!(connect(&app).phase, Phase::Sending { .. }));
    assert_eq!(
        app.activity().as_deref(),
        Some("sending the connect…; Esc cancels")
    );
}

/// Only the answer of the external editor the composer waits for replaces its payload.
#[test]
fn an_editor_answer_not_waited_for_is_dropped() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let asked = |commands: Vec<Command>| {
        commands
            .iter()
            .find_map(|c| match c {
                Command::EditExternally { id, .. } => Some(*id),
                _ => None,
            })
            .expect("the external editor")
    };
    let first = asked(key(&mut app, 'e'));
    let second = asked(key(&mut app, 'e'));
    let before = connect(&app).text();
    app.update(Action::reply(
        first,
        Delivery::Edited(Ok("{\"app_id\": \"stale\"}".into())),
    ));
    assert_eq!(connect(&app).text(), before);
    assert_eq!(app.activity().as_deref(), Some("in the external editor…"));
    let commands = app.update(Action::reply(
        second,
        Delivery::Edited(Ok("{\"app_id\": \"fresh\"}".into())),
    ));
    settle(&mut app, commands);
    assert_eq!(connect(&app).app_id().as_deref(), Some("fresh"));
}

/// A payload under `ANALYSE_IN_BACKGROUND_BYTES` is checked and compared on the spot; one of
/// that size or more on a background task.
#[test]
fn a_payload_under_4_kib_is_analysed_at_once_a_larger_one_in_the_background() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let padded = |len: usize| {
        let (head, tail) = (
            r#"{"app_id": "small", "version": "1", "resources": [], "pad": ""#,
            "\"}",
        );
        format!("{head}{}{tail}", "x".repeat(len - head.len() - tail.len()))
    };
    let in_background = |app: &mut App, text: String| {
        let asked = key(app, 'e');
        let id = asked.iter().find_map(Command::request_id).unwrap();
        let commands = app.update(Action::reply(id, Delivery::Edited(Ok(text))));
        let background = commands
            .iter()
            .any(|c| c.job::<super::check::AnalysisJob>().is_some());
        settle(app, commands);
        background
    };
    let limit = super::ANALYSE_IN_BACKGROUND_BYTES;
    assert!(!in_background(&mut app, padded(limit - 1)));
    assert!(connect(&app).outline.is_empty(), "analysed already");
    assert!(in_background(&mut app, padded(limit)));
}

/// Out of the editor, the movement keys move the payload's cursor, and `n` and `N` go through
/// the findings both ways, putting the cursor where each points.
#[test]
fn movement_keys_move_in_the_payload_and_n_and_shift_n_go_through_the_findings() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let lines = connect(&app).payload.lines().len();
    assert!(lines > 30, "{lines}");
    let row = |app: &mut App, c: char| {
        key(app, c);
        connect(app).payload.cursor().0
    };
    assert_eq!(row(&mut app, 'j'), 1);
    assert_eq!(row(&mut app, 'k'), 0);
    let page = |app: &mut App, code: KeyCode| {
        press(app, code);
        connect(app).payload.cursor().0
    };
    assert_eq!(page(&mut app, KeyCode::PageDown), 10);
    assert_eq!(page(&mut app, KeyCode::PageUp), 0);
    assert_eq!(row(&mut app, 'G'), lines - 1);
    assert_eq!(row(&mut app, 'g'), 0);

    let text = "{\n  \"app_id\": 1,\n  \"version\": 2,\n  \"resources\": 3\n}";
    edit_externally(&mut app, text.to_owned());
    let at: Vec<usize> = connect(&app).findings.iter().map(|f| f.at.0).collect();
    assert!(at.len() >= 3, "{at:?}");
    let finding = |app: &mut App, c: char| {
        key(app, c);
        let composer = connect(app);
        assert_eq!(composer.payload.cursor().0, at[composer.finding]);
        composer.finding
    };
    assert_eq!(finding(&mut app, 'n'), 1);
    assert_eq!(finding(&mut app, 'N'), 0);
    assert_eq!(finding(&mut app, 'N'), at.len() - 1, "round to the last");
}

#[test]
fn a_paste_in_the_editor_goes_in_at_the_cursor_with_its_controls_escaped() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    key(&mut app, 'i');
    let commands = app.update(Action::InsertText("\"x\u{1b}[31m\"\r\n".into()));
    settle(&mut app, commands);
    let text = connect(&app).text();
    assert!(text.starts_with("\"x\\u001b[31m\"\n{"), "{text}");
    assert!(
        connect(&app).error_count() > 0,
        "checked again: no longer JSON"
    );
}

/// `Enter` on a change of the diff puts the editor's cursor on the changed value.
#[test]
fn enter_on_a_change_goes_to_it_in_the_payload() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let mut payload = demo();
    payload["version"] = json!("1.5.0");
    let schema = payload["resources"][0]["property_json_schema"]["properties"]
        .as_object_mut()
        .expect("the first type has properties");
    let (name, property) = schema.iter_mut().last().unwrap();
    let name = name.clone();
    property["type"] = json!("boolean");
    edit_externally(&mut app, serde_json::to_string_pretty(&payload).unwrap());
    assert_eq!(
        connect(&app).breaking_count(),
        1,
        "the narrowed type comes first"
    );
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(connect(&app).focus, ConnectPart::Diff);
    press(&mut app, KeyCode::Enter);
    let composer = connect(&app);
    assert_eq!(composer.focus, ConnectPart::Payload);
    let row = composer.payload.cursor().0;
    let line = &composer.payload.lines()[row];
    assert!(
        line.contains("\"type\": \"boolean\""),
        "row {row} of {name}: {line}"
    );
}

/// The answer's commands record the version as a known one.
fn assert_recorded_as_known(after: &[Command]) {
    assert!(
        after
            .iter()
            .any(|c| matches!(c, Command::RecordAppVersion { .. })),
        "recorded as a known version: {after:?}"
    );
}

/// A connect answered 2xx with an empty body (the spec shows no connect answer) is accepted, as
/// `appdeck connect` takes it: the answer says it was empty, the status bar warns, and the
/// version is recorded as known.
#[test]
fn a_connect_answered_2xx_with_an_empty_body_is_accepted_with_a_warning_and_recorded() {
    let (mut app, id) = sent_as_opened();
    let after = app.update(Action::reply(id, answer(Value::Null, 200)));
    let Phase::Answered(result) = &connect(&app).phase else {
        panic!("no answer shown");
    };
    assert!(result.ok && result.empty, "{result:?}");
    assert!(
        matches!(&app.notice, Some(Notice::Error(m)) if m == "warning: the service accepted the connect (HTTP 200) with an empty answer"),
        "{:?}",
        app.notice
    );
    assert_recorded_as_known(&after);
}

/// Tester 2026-12-03c LOW 16: a connect answered `200 {"message": "hi"}` (no `status`) was
/// "sent: the service answered ok" without a word; `appdeck report` warns on the same answer.
/// The status bar warns in the words `appdeck connect` uses (core's), and the version is
/// recorded as known, as a report's answer without `status` is still taken as accepted.
#[test]
fn a_connect_answered_2xx_without_a_status_is_accepted_with_a_warning() {
    let (mut app, id) = sent_as_opened();
    let after = app.update(Action::reply(id, answer(json!({"message": "hi"}), 200)));
    assert!(
        matches!(&app.notice, Some(Notice::Error(m)) if m == "warning: the service's answer has no `status`: it does not say whether the connect was taken"),
        "{:?}",
        app.notice
    );
    assert_recorded_as_known(&after);
}

/// A task report in the connect composer is refused by its checks, as `appdeck connect` refuses
/// it (exit 2): its own rules pass, but `apps.version.connect` would refuse it. One Enter in the
/// review sends nothing.
#[test]
fn a_task_report_in_the_connect_composer_is_an_error_and_one_enter_sends_nothing() {
    let mut app = app_knowing(Vec::new());
    key(&mut app, 'C');
    let report = include_str!("../../../../../../assets/examples/report.json");
    edit_externally(&mut app, report.to_owned());
    let composer = connect(&app);
    let errors: Vec<_> = composer
        .findings
        .iter()
        .filter(|f| f.finding.severity == crate::validate::Severity::Error)
        .collect();
    assert!(
        errors
            .iter()
            .any(|f| f.finding.message.contains("task report")),
        "{:?}",
        composer.findings
    );

    key(&mut app, 's');
    let first = press(&mut app, KeyCode::Enter);
    assert!(
        !first.iter().any(|c| matches!(c, Command::Api { .. })),
        "one Enter does not send a payload the checks reject: {first:?}"
    );
}

/// A connect's draft is kept under the `app_id` its text names, not the app it started from
/// (tester's item 24): once `app_id` is edited, the draft saved under the old one goes and the
/// next is saved under the new one; a text that is not JSON keeps the subject it had.
#[test]
fn a_connect_draft_is_kept_under_the_app_id_written() {
    let t0 = std::time::Instant::now();
    let mut app = app_knowing(Vec::new());
    app.now = t0;
    key(&mut app, 'C');
    type_at(&mut app, t0, " ");
    let due = app.wake_at().expect("a save is due");
    let commands = tick(&mut app, due);
    let Some(first) = commands.iter().find_map(|c| match c {
        Command::SaveDraft { slot, .. } => Some(slot.clone()),
        _ => None,
    }) else {
        panic!("saved: {commands:?}");
    };
    assert_eq!(first.subject.subject, "acme-devtools");
    let renamed = connect(&app)
        .text()
        .replacen("\"acme-devtools\"", "\"num-app\"", 1);
    edit_externally(&mut app, renamed.clone());
    let due = app.wake_at().expect("a save is due");
    let commands = tick(&mut app, due);
    let removed: Vec<_> = commands
        .iter()
        .filter_map(|c| match c {
            Command::RemoveDraft(slot) => Some(slot),
            _ => None,
        })
        .collect();
    assert_eq!(removed, [&first], "the draft under the old app_id goes");
    let subjects: Vec<String> = commands
        .iter()
        .filter_map(|c| match c {
            Command::SaveDraft { slot, .. } => Some(slot.subject.subject.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(subjects, ["num-app"]);
    edit_externally(&mut app, format!("{renamed} oops"));
    let due = app.wake_at().expect("a save is due");
    let commands = tick(&mut app, due);
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Command::SaveDraft { slot, .. }
            if slot.subject.subject == "num-app")),
        "a text that is not JSON keeps the subject"
    );
    assert!(
        !commands
            .iter()
            .any(|c| matches!(c, Command::RemoveDraft(_)))
    );
}
