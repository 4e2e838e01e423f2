//! The report composer's costs, in process: a keypress in the resource editor with a 1 MB
//! resource (update + frame; the target is 2 ms), the background check of that resource (it must
//! land within 50 ms), a check of the demo's report (target 1 ms), a key and frame in that
//! report's review (each of its lines wrapped: 13.0 ms, 6.7 ms when they were cut, medians side by
//! side at load 9 on 2 cores), and `f`'s fill on the UI
//! thread (target 2 ms for the demo's types, bounded for a schema made to be costly). Run with
//! `cargo bench --bench composer`; prints medians and 99th percentiles.

mod common;
use common::{measure, ms};

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use appdeck_core::api::{Exchange, ListResponse, Reply};
use appdeck_tui::AnalysisJob;
use appdeck_tui::InferJob;
use appdeck_tui::ReportContext;
use appdeck_tui::{Action, App, Command, Delivery, Session};
use appdeck_tui::{CheckJob, check_report};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use serde_json::{Value, json};

const SAMPLES: usize = 300;

fn key(app: &mut App, code: KeyCode) -> Vec<Command> {
    match appdeck_tui::action_for(app.focus(), KeyEvent::new(code, KeyModifiers::NONE)) {
        Some(action) => app.update(action),
        None => Vec::new(),
    }
}

/// Typing and deleting a character by turns, so the text stays the same size.
fn typed_key(flip: &mut bool) -> KeyCode {
    *flip = !*flip;
    if *flip {
        KeyCode::Char('a')
    } else {
        KeyCode::Backspace
    }
}

fn main() {
    let types: Value =
        serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).expect("demo types");
    let types = Arc::new(types);

    // A check of the demo's report, against the demo's types.
    let report: Value =
        serde_json::from_str(include_str!("../assets/examples/report.json")).expect("report");
    let mut header = report.as_object().cloned().expect("object");
    let resource = header
        .get_mut("response")
        .and_then(|r| r.as_object_mut())
        .and_then(|r| r.remove("resource"))
        .expect("resource");
    let job = CheckJob {
        header,
        resource_text: Arc::from(serde_json::to_string_pretty(&resource).expect("json")),
        types: Some(types.clone()),
    };
    assert!(check_report(&job).is_empty(), "the demo report passes");
    measure("check of the demo report", 20, SAMPLES, || {
        black_box(check_report(black_box(&job)));
    });

    // A repository whose properties hold about 1 MB of JSON.
    let big: serde_json::Map<String, Value> = (0..5_000)
        .map(|i| (format!("note_{i:05}"), json!("x".repeat(190))))
        .collect();
    let mut resource = json!({"id": "res_big", "type": "team", "external_id": "x", "name": "big"});
    resource["properties"] = Value::Object(big);
    let size = serde_json::to_string_pretty(&resource).expect("json").len();
    let session = Session {
        origin: "env".into(),
        host: "127.0.0.1:1".into(),
        warnings: Vec::new(),
    };
    let (mut app, commands) = App::new(session, Rect::new(0, 0, 120, 40), None);
    app.report = Arc::new(ReportContext {
        base_url: "http://127.0.0.1:1/api/v1".into(),
        types: Some(types),
        types_text: None,
        run_tag: "bench".into(),
    });
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let page = ListResponse::from_value(json!({"resources": [resource]})).expect("page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    let opened = key(&mut app, KeyCode::Char('R'));
    let Some(job) = opened.first().and_then(Command::job::<CheckJob>) else {
        panic!("a 1 MB resource is checked in the background: {opened:?}")
    };
    let job = job.clone();
    let t = Instant::now();
    let findings = check_report(&job);
    println!(
        "{:<48} {:>7.1} ms ({} findings)",
        format!("background check of {:.1} MB", size as f64 / 1e6),
        ms(t.elapsed()),
        findings.len()
    );
    for _ in 0..4 {
        key(&mut app, KeyCode::Char('j'));
    }
    key(&mut app, KeyCode::Enter);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let now = chrono::Utc::now();
    let mut flip = false;
    measure("keypress only (update), 1 MB resource", 20, SAMPLES, || {
        black_box(key(&mut app, typed_key(&mut flip)));
    });
    measure("frame only, 1 MB resource", 20, SAMPLES, || {
        terminal
            .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
            .expect("draw");
    });
    measure(
        "keypress + frame, editor with a 1 MB resource",
        20,
        SAMPLES,
        || {
            black_box(key(&mut app, typed_key(&mut flip)));
            terminal
                .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
                .expect("draw");
        },
    );

    // Its review: every line of the request wrapped at the width, scrolled a row at a time.
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('s'));
    terminal
        .draw(|f| appdeck_tui::render(f, &app, &appdeck_tui::Theme::COLOR, now))
        .expect("draw");
    let screen = terminal.backend().to_string();
    assert!(screen.contains("Review: the exact request"), "{screen}");
    let mut down = false;
    measure("review: j/k + frame, 1 MB resource", 20, SAMPLES, || {
        down = !down;
        black_box(key(
            &mut app,
            if down {
                KeyCode::Char('j')
            } else {
                KeyCode::Char('k')
            },
        ));
        terminal
            .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
            .expect("draw");
    });

    connect_composer(&mut terminal, now);
    connect_new_app(10_000);
    fill();
}

/// `f` fills the required properties on the UI thread: each demo type's from nothing, and a
/// schema made to be costly (nodes whose children are one of four shapes, three of them nodes
/// again, through `$ref`s), where only the fill's bounds stop the work.
fn fill() {
    let types: Value =
        serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).expect("demo types");
    let schemas: Vec<Value> = types["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| r["property_json_schema"].clone())
        .collect();
    measure("f: fill each demo type from nothing", 5, 50, || {
        for schema in &schemas {
            let mut properties = serde_json::Map::new();
            black_box(appdeck_core::placeholder::fill_required(
                &mut properties,
                schema,
            ));
        }
    });
    let node = |i: usize| json!({"$ref": format!("#/$defs/node{i}")});
    let costly = json!({
        "required": ["root"],
        "properties": {"root": node(0)},
        "$defs": (0..3).map(|i| (format!("node{i}"), json!({
            "type": "object",
            "required": ["name", "left", "right"],
            "properties": {
                "name": {"type": "string", "pattern": "^(x|y|z)[0-9]{3}$", "minLength": 5},
                "left": {"anyOf": [node(0), node(1), node(2), {"type": "null"}]},
                "right": {"oneOf": [node(2), node(1), node(0), {"type": "null"}]}
            }
        }))).collect::<serde_json::Map<_, _>>()
    });
    measure("f: fill a costly recursive schema", 1, 10, || {
        let mut properties = serde_json::Map::new();
        black_box(appdeck_core::placeholder::fill_required(
            &mut properties,
            &costly,
        ));
    });
}

/// `C` with no app known and `rows` resources loaded in the list: the composer starts a new app
/// whose types are inferred from those rows. What the UI thread spends on the key (the `C` and
/// the `Esc` that closes it again; the target is that it does not infer there), and what the
/// background inference takes (the target: at most 200 ms).
fn connect_new_app(rows: usize) {
    let resources: Vec<Value> = (0..rows)
        .map(|i| {
            let kind = ["repository", "deployment", "incident"][i % 3];
            let state = ["open", "closed", "merged"][i % 3];
            let note = if i % 4 == 0 { Value::Null } else { json!("x") };
            json!({
                "id": format!("res_{i}"), "type": kind, "external_id": format!("x{i}"),
                "name": format!("resource {i}"), "updated_at": "2026-11-20T09:30:00Z",
                "properties": {
                    "stars": i, "state": state,
                    "updated": "2026-11-20T09:30:00Z", "note": note,
                    "owner": {"login": format!("user{}", i % 50), "id": i},
                    "tags": ["a", "b"], "members": [{"id": i, "role": "admin"}]
                }
            })
        })
        .collect();
    let (mut app, commands) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    let id = commands
        .iter()
        .find_map(Command::request_id)
        .expect("first page");
    let page = ListResponse::from_value(json!({ "resources": resources })).expect("page");
    app.update(Action::reply(
        id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    let mut job = None;
    let mut times: Vec<Duration> = (0..32)
        .map(|_| {
            let t = Instant::now();
            let opened = black_box(key(&mut app, KeyCode::Char('C')));
            black_box(key(&mut app, KeyCode::Esc));
            let took = t.elapsed();
            job = opened.iter().find_map(|c| c.job::<InferJob>().cloned());
            took
        })
        .skip(2)
        .collect();
    times.sort();
    println!(
        "{:<48} median {:>7.3} ms   max {:>7.3} ms",
        format!("connect: C (and Esc), new app over {rows} rows"),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
    let job = job.expect("the rows' types are inferred in the background");
    let mut times: Vec<Duration> = (0..10)
        .map(|_| {
            let t = Instant::now();
            black_box(appdeck_tui::infer(black_box(&job)));
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "{:<48} median {:>7.3} ms   max {:>7.3} ms",
        format!("connect: background inference over {rows} rows"),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
}

/// The connect composer on the demo payload (`C` with the demo's app known): a key that moves
/// (`j`) and a key typed inside a string (checked and compared again), each with its frame.
fn connect_composer(terminal: &mut Terminal<TestBackend>, now: chrono::DateTime<chrono::Utc>) {
    use appdeck_tui::KnownTypes;
    let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 120, 40), None);
    app.update(Action::reply(
        appdeck_tui::RequestId(u64::MAX),
        Delivery::Types(Arc::new(KnownTypes {
            catalog: appdeck_core::catalog::Catalog::from_versions(vec![
                appdeck_core::catalog::demo(),
            ]),
            problems: Vec::new(),
        })),
    ));
    let opened = key(&mut app, KeyCode::Char('C'));
    let background = opened.iter().any(|c| c.job::<AnalysisJob>().is_some());
    let mut frame = |app: &App| {
        terminal
            .draw(|f| appdeck_tui::render(f, black_box(app), &appdeck_tui::Theme::COLOR, now))
            .expect("draw");
    };
    let mut down = false;
    measure("connect: j/k + frame, demo payload", 20, SAMPLES, || {
        down = !down;
        black_box(key(
            &mut app,
            if down {
                KeyCode::Char('j')
            } else {
                KeyCode::Char('k')
            },
        ));
        frame(&app);
    });
    // Into the first type's description, a string: typing keeps the payload JSON.
    key(&mut app, KeyCode::Char('g'));
    key(&mut app, KeyCode::Enter);
    for _ in 0..7 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::End);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Left);
    let mut flip = false;
    let name = format!(
        "connect: typed key + frame, demo payload ({})",
        if background {
            "checked in background"
        } else {
            "checked inline"
        }
    );
    measure(&name, 20, SAMPLES, || {
        black_box(key(&mut app, typed_key(&mut flip)));
        frame(&app);
    });
}
