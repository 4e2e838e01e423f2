//! `R` over marked rows through `App::update`, as the event loop drives it: the composer says
//! how many it goes to, `Enter` in the review sends one report a marked resource (the first
//! alone, after its draft's mark; then a few at a time), the answers become a result a row, the
//! accepted resources are unmarked and the failures stay marked, and `Esc` stops the rest.

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::{AT_ONCE, Send};
use crate::api::{ApiError, Exchange, RawPage, Reply};
use crate::app::harness::{draw, key, press, status};
use crate::app::pane::Screen;
use crate::app::panes::report::tests::answer;
use crate::app::panes::report::{Field, Phase, ReportComposer, ReportContext};
use crate::app::{Action, App, Command, RequestId, Session};

const BASE: &str = "http://127.0.0.1:9/api/v1";

/// `n` resources `r0`, `r1`..., as the service wrote them: with a field appdeck knows nothing
/// of, and a number in a form a parse would rewrite (`1E2`).
fn texts(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"id":"r{i}","type":"team","external_id":"x{i}","name":"team {i}","extra_field":{{"n":{i},"big":1E2}}}}"#
            )
        })
        .collect()
}

fn rows(n: usize) -> Vec<Value> {
    (texts(n).iter())
        .map(|t| serde_json::from_str(t).unwrap())
        .collect()
}

/// A 100x30 app over `n` rows, the first `marked` of them marked with `Space`.
fn app_marking(n: usize, marked: usize) -> App {
    app_over(&texts(n), marked)
}

/// A 100x30 app over the resources `texts`, the first `marked` of them marked with `Space`.
fn app_over(texts: &[String], marked: usize) -> App {
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    app.report = Arc::new(ReportContext {
        base_url: BASE.to_owned(),
        types: None,
        types_text: None,
        run_tag: "test".to_owned(),
    });
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let body = format!(r#"{{"resources":[{}],"next":null}}"#, texts.join(","));
    let page = RawPage::read(body.into_bytes()).expect("a page");
    let reply = Reply::Page(Box::new(page.into()));
    app.update(Action::reply(id, Box::new(Exchange::local(Ok(reply)))));
    for _ in 0..marked {
        key(&mut app, ' ');
    }
    app
}

fn composer(app: &App) -> &ReportComposer {
    match app.stack.top() {
        Some(Screen::Report(composer)) => composer,
        _ => panic!("no composer open"),
    }
}

fn screen(app: &App) -> String {
    draw(app, &crate::ui::theme::Theme::default(), chrono::Utc::now()).to_string()
}

/// The reports sent among `commands`: their ids and bodies, in order.
fn sends(commands: &[Command]) -> Vec<(RequestId, Value)> {
    (commands.iter())
        .filter_map(|c| match c {
            Command::Api { id, call } if call.as_list_request().is_none() => {
                Some((*id, call.body.value().clone()))
            }
            _ => None,
        })
        .collect()
}

fn recorded(commands: &[Command]) -> usize {
    (commands.iter())
        .filter(|c| matches!(c, Command::RecordSend { .. }))
        .count()
}

fn reloads_list(commands: &[Command]) -> bool {
    (commands.iter())
        .any(|c| matches!(c, Command::Api { call, .. } if call.as_list_request().is_some()))
}

fn ok() -> Box<Exchange> {
    answer(json!({"status": "ok", "message": "updated"}), 200)
}

fn refused() -> Box<Exchange> {
    answer(
        json!({"status": "error", "error": "properties do not match"}),
        200,
    )
}

fn picked(app: &App) -> Vec<String> {
    app.browser.picked.iter().map(|id| id.to_string()).collect()
}

/// `R` over the marks, a message typed, the review, `Enter`: the commands that sent.
fn sent_over_marks(app: &mut App) -> Vec<Command> {
    key(app, 'R');
    key(app, 'j');
    key(app, 'j');
    key(app, 'i');
    crate::app::harness::type_text(app, "migrated");
    press(app, KeyCode::Esc);
    key(app, 's');
    press(app, KeyCode::Enter)
}

#[test]
fn r_over_marks_composes_one_report_that_says_how_many_it_goes_to() {
    let mut app = app_marking(5, 3);
    key(&mut app, 'R');
    let c = composer(&app);
    assert_eq!(c.marked_count(), Some(3));
    assert_eq!(
        c.resource_id.as_deref(),
        Some("r0"),
        "the first marked one's"
    );
    assert_eq!(c.draft.subject.subject, "marked");
    let shown = screen(&app);
    assert!(
        shown.contains("Task report to each of 3 marked resources (r0 shown)"),
        "{shown}"
    );
    assert!(
        status(&app).contains("3 marked resources"),
        "{}",
        status(&app)
    );
    // Each report carries its own resource as listed: editing the one shown is refused.
    for _ in 0..4 {
        key(&mut app, 'j');
    }
    assert_eq!(composer(&app).field, Field::Resource);
    key(&mut app, 'i');
    assert!(!composer(&app).editing);
    assert!(
        status(&app).contains("carries its own resource"),
        "{}",
        status(&app)
    );
    key(&mut app, 's');
    let shown = screen(&app);
    assert!(
        shown.contains("sends to each of 3 marked resources, with its own resource as listed"),
        "{shown}"
    );
    // Without marks, `R` is the report about the row under the cursor, as before.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    assert!(app.stack.top().is_none());
    assert!(app.browser.picked.is_empty());
    key(&mut app, 'R');
    assert_eq!(composer(&app).marked_count(), None);
}

#[test]
fn enter_sends_one_report_a_marked_resource_each_with_its_resource_as_listed() {
    let mut app = app_marking(7, 6);
    let commands = sent_over_marks(&mut app);
    // The first alone, right after its draft's mark: a store that cannot take it holds all back.
    let first = sends(&commands);
    assert_eq!(first.len(), 1, "{commands:?}");
    let mark = (commands.iter()).position(|c| matches!(c, Command::DraftSending { .. }));
    let api = (commands.iter()).position(|c| matches!(c, Command::Api { .. }));
    assert_eq!(mark.map(|m| m + 1), api, "{commands:?}");
    // Once it is answered, up to AT_ONCE are in flight.
    let after = app.update(Action::reply(first[0].0, ok()));
    assert_eq!(recorded(&after), 1);
    let more = sends(&after);
    assert_eq!(more.len(), AT_ONCE, "{after:?}");
    let mut all = first;
    all.extend(more);
    let answered: Vec<RequestId> = all[1..].iter().map(|(id, _)| *id).collect();
    for id in answered {
        let after = app.update(Action::reply(id, ok()));
        all.extend(sends(&after));
    }
    assert_eq!(all.len(), 6, "one report a marked resource");
    let listed = rows(6);
    for (i, (_, body)) in all.iter().enumerate() {
        assert_eq!(body["response"]["resource"], listed[i], "report {i}");
        assert_eq!(body["message"], "migrated");
        assert_eq!(body["task_id"], all[0].1["task_id"], "one report, one task");
    }
    // The resource goes as the service wrote it (`1E2` stays `1E2`), as `R` sends one.
    let texts: Vec<&str> = (commands.iter())
        .filter_map(|c| match c {
            Command::Api { call, .. } => Some(call.body.text()),
            _ => None,
        })
        .collect();
    assert!(texts[0].contains(r#""big":1E2"#), "{texts:?}");
}

/// Each report over marks is checked before it goes, as `R` on its row would check it: a
/// report to another marked resource with findings holds the sending for a second `Enter`, and
/// the status bar says which.
#[test]
fn the_reports_to_the_other_marked_resources_are_checked_before_they_go() {
    let mut texts = texts(4);
    // r1 as a service could send it: its `display_name` null, which the checks warn of.
    texts[1] = texts[1].replace(
        r#""name":"team 1""#,
        r#""name":"team 1","display_name":null"#,
    );
    let mut app = app_over(&texts, 3);
    let commands = sent_over_marks(&mut app);
    assert!(sends(&commands).is_empty(), "held: {commands:?}");
    let said = status(&app);
    assert!(
        said == "1 finding in the report to r1: Enter again sends anyway, Esc goes back",
        "{said}"
    );
    let commands = press(&mut app, KeyCode::Enter);
    assert_eq!(
        sends(&commands).len(),
        1,
        "sent all the same, the first alone first"
    );
}

#[test]
fn the_answers_become_a_result_a_row_the_failures_stay_marked_and_the_list_reloads() {
    let mut app = app_marking(4, 3);
    let commands = sent_over_marks(&mut app);
    let first = sends(&commands)[0].0;
    let after = app.update(Action::reply(first, ok()));
    let rest = sends(&after);
    assert_eq!(rest.len(), 2);
    let after = app.update(Action::reply(rest[0].0, refused()));
    assert_eq!(recorded(&after), 1, "a refusal goes to the history too");
    assert!(!reloads_list(&after), "not before every answer is in");
    let failure = Exchange::local(Err(ApiError::Timeout(Duration::from_secs(3))));
    let after = app.update(Action::reply(rest[1].0, Box::new(failure)));
    assert_eq!(recorded(&after), 1);
    assert!(reloads_list(&after), "r0 was accepted: {after:?}");
    assert!(
        !after.iter().any(|c| matches!(c, Command::DraftSent(_))),
        "the draft stays while some failed"
    );
    assert_eq!(picked(&app), vec!["r1", "r2"], "the failures stay marked");
    let run = composer(&app).marked.as_ref().unwrap().run.clone().unwrap();
    assert!(run.is_over());
    let words: Vec<(bool, String)> = (run.sends.iter())
        .map(|s| match s {
            Send::Answered { ok, words } => (*ok, words.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(words[0], (true, "HTTP 200, status ok · updated".to_owned()));
    assert_eq!(
        words[1],
        (
            false,
            "HTTP 200, status error: the service answered with an error: properties do not match"
                .to_owned()
        )
    );
    assert!(
        !words[2].0 && words[2].1.starts_with("no answer: "),
        "{words:?}"
    );
    let said = status(&app);
    assert!(
        said == "3 reports sent: 1 ok, 2 refused or not answered",
        "{said}"
    );
    let shown = screen(&app);
    assert!(shown.contains("✗ r1"), "{shown}");
    assert!(shown.contains("1 ok · 2 failed, still marked"), "{shown}");
    // `y` copies the ids of the two failures, to try them again.
    let copied = key(&mut app, 'y');
    assert_eq!(copied, vec![Command::Copy("r1\nr2".into())]);
    assert!(
        status(&app).starts_with("failed resource ids sent"),
        "{}",
        status(&app)
    );
    // Enter (or Esc) goes back to the list, where `R` goes on with the two still marked.
    press(&mut app, KeyCode::Enter);
    assert!(app.stack.top().is_none());
    key(&mut app, 'R');
    assert_eq!(composer(&app).marked_count(), Some(2));
}

#[test]
fn when_every_report_is_accepted_the_marks_and_the_draft_go() {
    let mut app = app_marking(3, 2);
    let commands = sent_over_marks(&mut app);
    let after = app.update(Action::reply(sends(&commands)[0].0, ok()));
    let after = app.update(Action::reply(sends(&after)[0].0, ok()));
    assert!(after.iter().any(|c| matches!(c, Command::DraftSent(_))));
    assert!(app.browser.picked.is_empty());
    assert!(status(&app) == "2 reports sent: 2 ok");
    assert_eq!(key(&mut app, 'y'), vec![], "no failure to copy");
    assert!(
        status(&app).contains("no failed resource id to copy"),
        "{}",
        status(&app)
    );
}

#[test]
fn esc_stops_sending_the_rest_and_again_cancels_the_sends_under_way() {
    let mut app = app_marking(8, 7);
    let commands = sent_over_marks(&mut app);
    let after = app.update(Action::reply(sends(&commands)[0].0, ok()));
    let under_way = sends(&after);
    assert_eq!(under_way.len(), AT_ONCE);
    assert!(app.activity().unwrap_or_default().contains("1 of 7 done"));
    // Esc: nothing more goes out; the sends under way finish.
    let stopped = press(&mut app, KeyCode::Esc);
    assert!(sends(&stopped).is_empty());
    assert!(
        status(&app).contains("4 reports under way finishing"),
        "{}",
        status(&app)
    );
    let after = app.update(Action::reply(under_way[0].0, ok()));
    assert!(sends(&after).is_empty(), "nothing more is sent");
    // Esc again: the three under way are cancelled, and recorded so.
    let cancelled = press(&mut app, KeyCode::Esc);
    let cancels = (cancelled.iter())
        .filter(|c| matches!(c, Command::Cancel(_)))
        .count();
    assert_eq!((cancels, recorded(&cancelled)), (3, 3), "{cancelled:?}");
    let said = status(&app);
    assert!(
        said == "stopped: 5 of 7 reports sent: 2 ok, 3 cancelled in flight (may have arrived), 2 not sent",
        "{said}"
    );
    assert!(reloads_list(&cancelled));
    assert_eq!(picked(&app), vec!["r2", "r3", "r4", "r5", "r6"]);
    // An answer that comes after all is dropped.
    assert!(app.update(Action::reply(under_way[1].0, ok())).is_empty());
}

/// Quitting while reports are under way records each as cancelled, as `Esc` does: the history
/// keeps every send (the tester's `q` during a send left none).
#[test]
fn quitting_records_the_sends_under_way_as_cancelled() {
    let mut app = app_marking(8, 7);
    let commands = sent_over_marks(&mut app);
    let after = app.update(Action::reply(sends(&commands)[0].0, ok()));
    assert_eq!(sends(&after).len(), AT_ONCE);
    let quitting = app.update(Action::ForceQuit);
    let cancels = (quitting.iter())
        .filter(|c| matches!(c, Command::Cancel(_)))
        .count();
    assert_eq!(
        (cancels, recorded(&quitting)),
        (AT_ONCE, AT_ONCE),
        "{quitting:?}"
    );
    assert!(app.should_quit);
}

#[test]
fn a_store_that_cannot_mark_the_draft_holds_every_report_back() {
    let mut app = app_marking(3, 3);
    let commands = sent_over_marks(&mut app);
    let first = sends(&commands)[0].0;
    let held = Exchange::local(Err(ApiError::NotSent("disk full".into())));
    let after = app.update(Action::reply(first, Box::new(held)));
    assert!(
        sends(&after).is_empty() && recorded(&after) == 0,
        "{after:?}"
    );
    assert!(matches!(
        composer(&app).phase,
        Phase::Review { armed: true, .. }
    ));
    assert!(composer(&app).marked.as_ref().unwrap().run.is_none());
    assert!(status(&app).contains("disk full"));
    assert_eq!(picked(&app).len(), 3);
    // Enter sends them all the same.
    let again = press(&mut app, KeyCode::Enter);
    assert_eq!(sends(&again).len(), 1);
}

/// Issue 37: over rows kept from the last run, `R` on the marks warns as `R` on one does.
#[test]
fn r_over_marked_kept_rows_warns_that_they_are_not_live() {
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 100, 30), None);
    let (ask, _) = app.open_kept(true);
    let Command::LoadKeptListing { id, .. } = ask else {
        panic!("asks the store: {ask:?}")
    };
    let body = format!(r#"{{"resources":[{}]}}"#, texts(3).join(","));
    let page = RawPage::read(body.into_bytes()).expect("a page");
    let kept = crate::app::KeptListing::Rows {
        age: Duration::from_secs(2 * 3600),
        page: Box::new(page.into()),
        too_large: 0,
    };
    app.update(Action::reply(id, crate::app::Delivery::KeptListing(kept)));
    key(&mut app, ' ');
    key(&mut app, ' ');
    key(&mut app, 'R');
    assert_eq!(composer(&app).marked_count(), Some(2));
    let said = status(&app);
    assert!(
        said.starts_with("warning: these 2 resources are from a listing (kept 2 h ago, not live)"),
        "{said}"
    );
}
