//! Frame costs of the TUI, in process: one frame with 100,000 rows loaded, one frame of a
//! resource whose properties are 5 MB of JSON, a keypress (update + frame), and the overview
//! (`4`) of 1,000,000 rows of many types, statuses and hours. Run with
//! `cargo bench --bench tui_frame`. Prints medians and 99th percentiles; the targets are a frame
//! in at most 2 ms whatever is loaded.

mod common;
use appdeck_tui::{Toward, View};
use common::{measure, ms};
#[path = "common/rows.rs"]
mod rows;

use std::hint::black_box;
use std::time::Instant;

use std::sync::Arc;

use appdeck_core::api::{Exchange, ListResponse, Reply};
use appdeck_tui::{Action, App, Command, Delivery, Move, Session};
use chrono::Utc;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use serde_json::{Value, json};

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;
const SAMPLES: usize = 300;
const TYPES: [&str; 3] = ["repository", "deployment", "incident"];

fn resource(i: usize) -> Value {
    json!({
        "id": format!("res_{i:06}"),
        "type": TYPES[i % 3],
        "display_name": format!("Resource number {i} — ünïcødé"),
        "status": "active",
        "external_id": format!("ext-{i}"),
        "updated_at": "2026-11-20T09:30:00Z",
        "created_at": "2026-01-02T03:04:05Z",
        "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë", "team": "platform"}},
        "links": {"links": [{"title": "Docs", "type": "documentation", "url": "https://docs.example.com"}]}
    })
}

/// A resource for the overview: one of 12 types and 6 statuses, updated 10 minutes after the
/// one before (a million span 19 years, 166,667 hours in the histogram).
fn varied_resource(i: usize) -> Value {
    let mut value = resource(i);
    let updated = chrono::DateTime::from_timestamp(1_480_000_000 + i as i64 * 600, 0)
        .expect("a date")
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    value["type"] = json!(format!("type_{:02}", i % 12));
    value["status"] = json!(["active", "failed", "pending", "archived", "draft", "stale"][i % 6]);
    value["updated_at"] = json!(updated);
    value
}

fn main() {
    let now = Utc::now();
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("terminal");

    let t = Instant::now();
    let mut app = rows::app_with_rows(100_000, resource);
    println!(
        "{:<48} {:>8.1} ms",
        "load 100,000 rows into the app (200 pages)",
        ms(t.elapsed())
    );
    assert_eq!(app.browser.rows().len(), 100_000);

    // Alternate the cursor between two far-apart rows so every frame redraws the whole table.
    let mut flip = false;
    measure(
        "frame, 100,000 rows, cursor jumping top/bottom",
        20,
        SAMPLES,
        || {
            flip = !flip;
            let target = if flip {
                Action::Move(Move::Top)
            } else {
                Action::Move(Move::Bottom)
            };
            app.update(target);
            terminal
                .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
                .expect("draw");
        },
    );
    // Real moves: start in the middle of the rows and go down, turning back before the end, so
    // every `j` moves the cursor (and scrolls the table once it reaches the bottom of the view).
    app.update(Action::Move(Move::Top));
    for _ in 0..50_000 / 35 {
        app.update(Action::Move(Move::PageDown));
    }
    let (mut down, mut moved) = (true, 0usize);
    measure(
        "keypress j/k + frame, 100,000 rows (every key moves)",
        20,
        SAMPLES,
        || {
            let before = app.browser.cursor;
            app.update(if down {
                Action::Move(Move::Down)
            } else {
                Action::Move(Move::Up)
            });
            moved += usize::from(app.browser.cursor.selected != before.selected);
            if app.browser.cursor.selected.is_multiple_of(1_000) {
                down = !down;
            }
            terminal
                .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
                .expect("draw");
        },
    );
    assert_eq!(moved, SAMPLES + 20, "every keypress moved the cursor");
    // Three rows marked: the title says how many of them the filters hide or a look found gone
    // (review item 6: it read that off every row loaded on each frame).
    for _ in 0..3 {
        app.update(Action::Toggle);
    }
    moved = 0;
    measure(
        "keypress j/k + frame, 100,000 rows, 3 marked",
        20,
        SAMPLES,
        || {
            let before = app.browser.cursor;
            app.update(if down {
                Action::Move(Move::Down)
            } else {
                Action::Move(Move::Up)
            });
            moved += usize::from(app.browser.cursor.selected != before.selected);
            if app.browser.cursor.selected.is_multiple_of(1_000) {
                down = !down;
            }
            terminal
                .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
                .expect("draw");
        },
    );
    assert_eq!(moved, SAMPLES + 20, "every keypress moved the cursor");
    assert_eq!(app.browser.picked.len(), 3);

    // A resource whose properties are about 5 MB of JSON.
    let big: serde_json::Map<String, Value> = (0..20_000)
        .map(|i| {
            (
                format!("key_{i:05}"),
                json!({"text": "x".repeat(200), "n": i, "list": [1, 2, 3]}),
            )
        })
        .collect();
    let size = serde_json::to_string(&big).expect("json").len();
    let mut resource = resource(0);
    resource["properties"] = Value::Object(big);
    let session = Session {
        origin: "env".into(),
        host: "127.0.0.1:1".into(),
        warnings: Vec::new(),
    };
    let (mut detail_app, commands) = App::new(session, Rect::new(0, 0, WIDTH, HEIGHT), None);
    let Some(Command::Api { id, .. }) = commands.first() else {
        panic!("first request")
    };
    let page = ListResponse::from_value(json!({"resources": [resource]})).expect("page");
    detail_app.update(Action::reply(
        *id,
        Box::new(Exchange::local(Ok(Reply::page(page)))),
    ));
    // A row this large opens on a background task: time that preparation, then apply it.
    let t = Instant::now();
    for command in detail_app.update(Action::Open) {
        if let Command::Run { id, job } = command {
            detail_app.update(Action::reply(id, Delivery::Job(job.run())));
        }
    }
    println!(
        "{:<48} {:>8.1} ms",
        format!(
            "prepare the detail of {:.1} MB (background)",
            size as f64 / 1e6
        ),
        ms(t.elapsed())
    );
    assert!(detail_app.stack.top().is_some(), "the detail is open");
    measure("frame, detail with 5 MB of properties", 20, SAMPLES, || {
        flip = !flip;
        detail_app.update(if flip {
            Action::Move(Move::PageDown)
        } else {
            Action::Move(Move::PageUp)
        });
        terminal
            .draw(|f| {
                appdeck_tui::render(f, black_box(&detail_app), &appdeck_tui::Theme::COLOR, now)
            })
            .expect("draw");
    });
    detail_app.update(Action::Pane(Toward::Next));
    measure("frame, 5 MB tree pane, scrolling", 20, SAMPLES, || {
        flip = !flip;
        detail_app.update(if flip {
            Action::Move(Move::Bottom)
        } else {
            Action::Move(Move::Top)
        });
        terminal
            .draw(|f| {
                appdeck_tui::render(f, black_box(&detail_app), &appdeck_tui::Theme::COLOR, now)
            })
            .expect("draw");
    });

    drop(app);
    bench_types(&mut terminal, now);
    bench_overview(&mut terminal, now);
}

/// The overview (`4`) of 1,000,000 rows: its frames as the cursor moves and Tab changes chart.
/// Its cost follows the distinct types, statuses and hours, not the rows (it draws the counts
/// kept as pages load).
fn bench_overview(terminal: &mut Terminal<TestBackend>, now: chrono::DateTime<Utc>) {
    let t = Instant::now();
    let mut app = rows::app_with_rows(1_000_000, varied_resource);
    println!(
        "{:<48} {:>8.1} ms",
        "load 1,000,000 rows into the app (2,000 pages)",
        ms(t.elapsed())
    );
    app.update(Action::Show(View::Overview));
    assert!(
        matches!(app.stack.top(), Some(appdeck_tui::Screen::Overview(o))
            if o.summary.rows == 1_000_000 && o.summary.updated_by_hour.len() > 100_000),
        "the overview of every row"
    );
    let step = |n: usize| match n % 4 {
        0 => Action::Move(Move::Down),
        1 => Action::Move(Move::Bottom),
        2 => Action::Pane(Toward::Next),
        _ => Action::Move(Move::Top),
    };
    let mut n = 0;
    measure(
        "frame, overview of 1,000,000 rows, moving",
        20,
        SAMPLES,
        || {
            n += 1;
            app.update(step(n));
            terminal
                .draw(|f| appdeck_tui::render(f, black_box(&app), &appdeck_tui::Theme::COLOR, now))
                .expect("draw");
        },
    );
}

/// 200 known types whose schemas total about 5 MB: loading them (off the UI thread), opening
/// the types view (`2`: key to frame), its frames, opening a type (`Enter`: key to frame) and
/// the frames of its schema tree; then one type whose schema alone is 5 MB (laid out off the UI
/// thread).
fn bench_types(terminal: &mut Terminal<TestBackend>, now: chrono::DateTime<Utc>) {
    let schema = |fields: usize| {
        let properties: serde_json::Map<String, Value> = (0..fields)
            .map(|f| {
                (
                    format!("field_{f:04}"),
                    json!({"type": ["string", "null"], "maxLength": 200, "format": "uri",
                           "description": "A field of this type, described at some length so the schema weighs what real ones do.",
                           "items": {"$ref": "#/$defs/item"}}),
                )
            })
            .collect();
        json!({"type": "object", "required": ["field_0000"], "properties": properties,
               "$defs": {"item": {"type": "object", "properties": {"id": {"type": "string"},
                                  "next": {"$ref": "#/$defs/item"}}}}})
    };
    let types: Vec<Value> = (0..200)
        .map(|t| {
            json!({"type": format!("type_{t:03}"), "display_name": format!("Type {t}"),
                   "description": "A benchmark type.", "list_supported": true, "read_supported": true,
                   "lifecycle_stage": "ga", "instructions_markdown": "# Title\n\nSome **bold** text.\n\n- a\n- b\n",
                   "property_json_schema": schema(118),
                   "actions": [{"name": "go", "description": "Does it."}]})
        })
        .collect();
    let payload = json!({"app_id": "bench", "version": "1.0.0", "resources": types});
    let text = serde_json::to_string(&payload).expect("json");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("connect.json");
    std::fs::write(&file, &text).expect("write");
    let sources = appdeck_tui::TypeSources {
        files: vec![file],
        store: None,
        demo: false,
    };
    let t = Instant::now();
    let known = Arc::new(appdeck_tui::load_known_types(&sources));
    println!(
        "{:<48} {:>8.1} ms",
        format!(
            "load 200 types, {:.1} MB (background)",
            text.len() as f64 / 1e6
        ),
        ms(t.elapsed())
    );
    assert_eq!(known.catalog.types().len(), 200, "{:?}", known.problems);

    let mut app = rows::app_with_rows(1_000, resource);
    app.update(Action::reply(
        appdeck_tui::RequestId(u64::MAX),
        Delivery::Types(known.clone()),
    ));
    let draw = |terminal: &mut Terminal<TestBackend>, app: &App| {
        terminal
            .draw(|f| appdeck_tui::render(f, black_box(app), &appdeck_tui::Theme::COLOR, now))
            .expect("draw");
    };
    measure(
        "key 2 to frame: open the types view (200 types)",
        20,
        SAMPLES,
        || {
            app.update(Action::Show(View::Resources));
            app.update(Action::Show(View::Types));
            draw(terminal, &app);
        },
    );
    let mut flip = false;
    measure(
        "frame, types view, cursor jumping top/bottom",
        20,
        SAMPLES,
        || {
            flip = !flip;
            app.update(if flip {
                Action::Move(Move::Bottom)
            } else {
                Action::Move(Move::Top)
            });
            draw(terminal, &app);
        },
    );
    measure(
        "Enter to frame: open a type (25 KB of schemas)",
        20,
        SAMPLES,
        || {
            app.update(Action::Show(View::Types));
            app.update(Action::Open);
            draw(terminal, &app);
        },
    );
    app.update(Action::Pane(Toward::Next));
    app.update(Action::Pane(Toward::Next));
    measure("frame, type's schema tree, scrolling", 20, SAMPLES, || {
        flip = !flip;
        app.update(if flip {
            Action::Move(Move::Bottom)
        } else {
            Action::Move(Move::Top)
        });
        draw(terminal, &app);
    });

    // One type whose schema alone is about 5 MB: laid out off the UI thread.
    let huge = json!({"app_id": "bench", "version": "2", "resources": [
        {"type": "huge", "property_json_schema": schema(19_000)}]});
    let Value::Object(map) = huge else {
        unreachable!()
    };
    let version = appdeck_core::catalog::AppVersion::from_payload(
        map,
        appdeck_core::catalog::Source::Demo,
        None,
    );
    let known = Arc::new(appdeck_tui::KnownTypes {
        catalog: appdeck_core::catalog::Catalog::from_versions(vec![version]),
        problems: Vec::new(),
    });
    let request = appdeck_tui::OpenType {
        known,
        type_index: 0,
        version: 0,
        width: WIDTH,
    };
    assert!(request.is_large());
    let t = Instant::now();
    let detail = appdeck_tui::TypeDetail::open(&request);
    println!(
        "{:<48} {:>8.1} ms",
        "prepare a type with a 5 MB schema (background)",
        ms(t.elapsed())
    );
    let mut app = rows::app_with_rows(10, resource);
    app.stack
        .push(appdeck_tui::Screen::TypeDetail(Box::new(detail)));
    app.update(Action::Pane(Toward::Next));
    app.update(Action::Pane(Toward::Next));
    app.update(Action::Right);
    measure("frame, 5 MB schema tree, scrolling", 20, SAMPLES, || {
        flip = !flip;
        app.update(if flip {
            Action::Move(Move::Bottom)
        } else {
            Action::Move(Move::Top)
        });
        draw(terminal, &app);
    });
}
