//! Whole-screen snapshots of the TUI at 120x40, 80x24 and a tiny size. The app is driven only
//! through `update` with actions, as the event loop would, and drawn with a fixed clock.

use appdeck_core::api::{ApiError, Exchange, ListResponse, Reply};
use appdeck_tui::InferJob;
use appdeck_tui::Theme;
use appdeck_tui::harness::{press, settle, type_text};
use appdeck_tui::{Action, ApiReply, App, Command, Delivery, Move, RequestId, Session};
use chrono::{DateTime, Utc};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use serde_json::{Value, json};

const SIZES: [(u16, u16); 4] = [(120, 40), (80, 24), (30, 8), (24, 7)];

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn resources(count: usize) -> Vec<Value> {
    let mut rows: Vec<Value> = (0..count)
        .map(|i| {
            let kind = ["repository", "deployment", "incident"][i % 3];
            json!({
                "id": format!("res_{i:04}"),
                "type": kind,
                "display_name": format!("{kind} number {i}"),
                "status": if i % 4 == 0 { "degraded" } else { "active" },
                "external_id": format!("ext-{i}"),
                "updated_at": "2026-11-20T09:30:00Z",
                "created_at": "2026-01-02T03:04:05Z",
                "external_url": format!("https://example.com/{i}"),
                "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë Ünal", "team": "平台"}, "archived": false, "notes": null},
                "links": {"links": [{"title": "Runbook", "type": "documentation", "url": "https://docs.example.com/runbook"}]},
                "x_region": "eu-west-1"
            })
        })
        .collect();
    rows.insert(1, json!({"id": "res_evil", "type": "repository", "display_name": "\u{1b}[31mred\u{1b}[0m\u{1b}]0;pwned\u{7} \u{202e}evil", "status": 5}));
    rows.insert(2, json!("not an object"));
    rows
}

fn page(rows: Vec<Value>, next: Option<&str>) -> ListResponse {
    ListResponse::from_value(json!({"response_type": "resources", "resources": rows, "next": next}))
        .unwrap()
}

/// A page (or its failure) as the executor would deliver it.
fn page_reply(result: Result<ListResponse, ApiError>) -> Box<ApiReply> {
    Box::new(Exchange::local(result.map(Reply::page)))
}

fn first_request(commands: &[Command]) -> RequestId {
    commands
        .iter()
        .find_map(|c| match c {
            Command::Api { id, .. } => Some(*id),
            _ => None,
        })
        .expect("a request")
}

fn new_app(size: (u16, u16)) -> (App, RequestId) {
    let session = Session {
        origin: "demo".into(),
        host: "127.0.0.1:8080".into(),
        warnings: Vec::new(),
    };
    let (app, commands) = App::new(session, Rect::new(0, 0, size.0, size.1), None);
    let id = first_request(&commands);
    (app, id)
}

/// [`loaded_app`] with `keys` pressed one after another.
fn loaded_then(size: (u16, u16), keys: &str) -> App {
    let mut app = loaded_app(size);
    for key in keys.chars() {
        press(&mut app, KeyCode::Char(key));
    }
    app
}

fn loaded_app(size: (u16, u16)) -> App {
    let (mut app, id) = new_app(size);
    app.update(Action::reply(
        id,
        page_reply(Ok(page(resources(60), Some("c2")))),
    ));
    app
}

fn draw(app: &App) -> String {
    draw_styled(app, &Theme::COLOR).to_string()
}

/// The screen with its styles, for assertions on what text snapshots cannot see.
fn draw_styled(app: &App, theme: &Theme) -> TestBackend {
    appdeck_tui::harness::draw(app, theme, now())
}

/// Characters that would drive the terminal if they reached it: C0 controls (ESC, BEL, ...),
/// C1 controls and the bidirectional overrides and isolates.
fn is_terminal_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

#[test]
fn the_control_guard_rejects_bel_c1_and_bidi() {
    for c in [
        '\u{1b}', '\u{7}', '\u{9b}', '\u{85}', '\u{202e}', '\u{2067}',
    ] {
        assert!(is_terminal_control(c), "{c:?}");
    }
    assert!(!is_terminal_control('▶') && !is_terminal_control('平'));
}

/// Every view is drawn with and without colour: the text is the same (colour off changes no
/// words), no control character reaches the screen, and the monochrome frame carries no
/// colour at all.
fn snapshot(name: &str, build: impl Fn((u16, u16)) -> App) {
    snapshot_at(name, &SIZES, build);
}

/// [`snapshot`] at the sizes given.
fn snapshot_at(name: &str, sizes: &[(u16, u16)], build: impl Fn((u16, u16)) -> App) {
    for &size in sizes {
        let app = build(size);
        let screen = draw(&app);
        let controls: Vec<char> = screen
            .chars()
            .filter(|&c| c != '\n' && is_terminal_control(c))
            .collect();
        assert!(
            controls.is_empty(),
            "no control character may reach the screen: {controls:?}"
        );
        let mono = draw_styled(&app, &Theme::MONOCHROME);
        assert_eq!(mono.to_string(), screen, "NO_COLOR changes no text");
        for cell in mono.buffer().content() {
            assert_eq!(
                (cell.fg, cell.bg),
                (Color::Reset, Color::Reset),
                "{name} {size:?}: a colour under NO_COLOR at {:?}",
                cell.symbol()
            );
        }
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen);
    }
}

#[test]
fn browser_loading() {
    snapshot("browser_loading", |size| new_app(size).0);
}

#[test]
fn browser_with_rows() {
    snapshot("browser_rows", loaded_app);
}

#[test]
fn browser_first_page_failed() {
    snapshot("browser_failed", |size| {
        let (mut app, id) = new_app(size);
        let error = ApiError::Http {
            status: 401,
            reason: "Unauthorized".into(),
            message: "invalid token".into(),
            request: Box::default(),
        };
        app.update(Action::reply(id, page_reply(Err(error))));
        app
    });
}

#[test]
fn browser_next_page_failed_keeps_rows() {
    snapshot("browser_more_failed", |size| {
        let (mut app, id) = new_app(size);
        let mut commands = app.update(Action::reply(
            id,
            page_reply(Ok(page(resources(60), Some("c2")))),
        ));
        // The first page asks the store for the type's columns, not yet for the next page.
        if !commands.iter().any(|c| matches!(c, Command::Api { .. })) {
            commands = app.update(Action::Move(Move::Bottom));
        }
        let id = first_request(&commands);
        let error = ApiError::Decode {
            problem: "not JSON (expected value at line 1 column 1)".into(),
            excerpt: "<html>".into(),
        };
        app.update(Action::reply(id, page_reply(Err(error))));
        app
    });
}

/// Each character typed, and the jobs it asks for run (`/` searches in a job).
fn type_settled(app: &mut App, text: &str) {
    for c in text.chars() {
        let commands = press(app, KeyCode::Char(c));
        settle(app, commands);
    }
}

#[test]
fn browser_filtered() {
    snapshot("browser_filtered", |size| {
        let mut app = loaded_then(size, "/");
        type_settled(&mut app, "deploy");
        app
    });
}

/// Issue 22 items 1 and 2: `:where` keeps the rows with fewer than 12 stars (the title says
/// so), and `/runbook` finds them by a field the table does not show, named beside each row.
#[test]
fn browser_where_and_searched_every_field() {
    snapshot("browser_where_searched", |size| {
        let mut app = loaded_then(size, ":");
        type_text(&mut app, "where .properties.stars < 12");
        let commands = app.update(Action::Submit);
        settle(&mut app, commands);
        press(&mut app, KeyCode::Char('/'));
        type_settled(&mut app, "runbook");
        press(&mut app, KeyCode::Enter);
        app
    });
}

/// Issue 22 item 3: sorted by name, descending, as a user reads it: the header marks NAME ▼, the
/// title says the sort in words, the rows run from the last name to the first (the malformed
/// item, which has no name, last).
#[test]
fn browser_sorted() {
    snapshot("browser_sorted", |size| {
        let mut app = loaded_then(size, ":");
        type_text(&mut app, "sort name desc");
        press(&mut app, KeyCode::Enter);
        app
    });
    let app = {
        let mut app = loaded_app((120, 40));
        press(&mut app, KeyCode::Char('S'));
        app
    };
    let screen = draw(&app);
    assert!(screen.contains("TYPE ▼"), "{screen}");
    assert!(screen.contains("by type ▼ descending"), "{screen}");
}

#[test]
fn detail_view() {
    snapshot("detail", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn detail_of_a_hostile_resource() {
    snapshot("detail_hostile", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn detail_search_in_the_tree() {
    snapshot("detail_search", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "team");
        app
    });
}

#[test]
fn help_popup() {
    snapshot("help", |size| loaded_then(size, "?"));
}

#[test]
fn command_line_completion() {
    snapshot("command_line", |size| {
        let mut app = loaded_then(size, ":");
        type_text(&mut app, "type ");
        press(&mut app, KeyCode::Tab);
        app
    });
}

/// A command that failed closes the line and says why in the status bar (the line stayed open
/// and empty under the error, and the `:` typed next made `::`).
#[test]
fn command_line_after_a_failure() {
    snapshot("command_line_failed", |size| {
        let mut app = loaded_then(size, ":");
        type_text(&mut app, "frob");
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn type_picker() {
    snapshot("type_picker", |size| loaded_then(size, "t"));
}

#[test]
fn error_popup() {
    snapshot("error_popup", |size| {
        let (mut app, id) = new_app(size);
        let error = ApiError::Network("cannot connect: Connection refused (os error 111)".into());
        app.update(Action::reply(id, page_reply(Err(error))));
        press(&mut app, KeyCode::Char('!'));
        app
    });
}

/// Issue 9 item 7: `!` after an error status shows the request (method and URL, never the
/// token), the HTTP status and the start of the answer's body.
#[test]
fn error_popup_of_an_error_status() {
    snapshot("error_popup_http", |size| {
        let (mut app, id) = new_app(size);
        let error = ApiError::Http {
            status: 500,
            reason: "Internal Server Error".into(),
            message: "database unavailable".into(),
            request: Box::new(appdeck_core::api::error::FailedRequest {
                method: "POST".into(),
                url: "http://127.0.0.1:8080/api/v1/resources.list".into(),
                body_start: r#"{"status":"error","error":"database unavailable","trace":"db-7"}"#
                    .into(),
            }),
        };
        app.update(Action::reply(id, page_reply(Err(error))));
        press(&mut app, KeyCode::Char('!'));
        let screen = draw(&app);
        if size == (120, 40) {
            for part in [
                "POST http://127.0.0.1:8080/api/v1/resources.list",
                "HTTP 500 Internal Server Error",
                r#""trace":"db-7""#,
            ] {
                assert!(screen.contains(part), "{part} missing:\n{screen}");
            }
        }
        app
    });
}

/// The list loaded, the demo's known types arrived (and a type name no payload defines).
fn with_types(size: (u16, u16)) -> App {
    let mut app = loaded_app(size);
    let mut rows = resources(3);
    rows.push(json!({"id": "m1", "type": "mystery"}));
    let mut app2 = {
        let (mut app2, id) = new_app(size);
        app2.update(Action::reply(id, page_reply(Ok(page(rows, None)))));
        app2
    };
    std::mem::swap(&mut app, &mut app2);
    let known = appdeck_tui::KnownTypes {
        catalog: appdeck_core::catalog::Catalog::from_versions(vec![appdeck_core::catalog::demo()]),
        problems: Vec::new(),
    };
    app.update(Action::reply(
        RequestId(9999),
        Delivery::Types(std::sync::Arc::new(known)),
    ));
    press(&mut app, KeyCode::Char('2'));
    app
}

#[test]
fn types_list() {
    snapshot("types_list", with_types);
}

#[test]
fn types_filtered() {
    snapshot("types_filtered", |size| {
        let mut app = with_types(size);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "dep");
        app
    });
}

/// `repository`: description, links, capabilities, instructions (with a table), actions.
fn repository(size: (u16, u16)) -> App {
    let mut app = with_types(size);
    type_text(&mut app, "jjj");
    press(&mut app, KeyCode::Enter);
    app
}

#[test]
fn type_detail() {
    snapshot("type_detail", repository);
}

#[test]
fn type_schemas() {
    snapshot("type_schemas", |size| {
        let mut app = repository(size);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Tab);
        type_text(&mut app, "jj");
        app
    });
}

#[test]
fn type_raw_json() {
    snapshot("type_raw_json", |size| {
        let mut app = repository(size);
        for _ in 0..3 {
            press(&mut app, KeyCode::Tab);
        }
        app
    });
}

/// The cells of row `y` from column `x0` to `x1` (exclusive).
fn row_cells(backend: &TestBackend, y: u16, x0: u16, x1: u16) -> Vec<ratatui::buffer::Cell> {
    (x0..x1).map(|x| backend.buffer()[(x, y)].clone()).collect()
}

#[test]
fn the_selected_row_carries_the_selection_style_with_and_without_colour() {
    let mut app = loaded_app((80, 24));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    // Status bar, border, header, then rows: the third row is on line 5.
    let (y, other) = (5, 4);
    let colour = draw_styled(&app, &Theme::COLOR);
    assert_eq!(colour.buffer()[(1, y)].symbol(), "▶");
    assert_eq!(colour.buffer()[(1, other)].symbol(), " ");
    for cell in row_cells(&colour, y, 1, 79) {
        // One readable pair for the whole row: no light-blue or dark-grey cell on the blue.
        assert_eq!((cell.fg, cell.bg), (Color::White, Color::Blue), "{cell:?}");
    }
    assert!(
        row_cells(&colour, other, 1, 79)
            .iter()
            .all(|c| c.bg != Color::Blue)
    );
    let mono = draw_styled(&app, &Theme::MONOCHROME);
    for cell in row_cells(&mono, y, 1, 79) {
        assert!(cell.modifier.contains(Modifier::REVERSED), "{cell:?}");
    }
    assert!(
        row_cells(&mono, other, 1, 79)
            .iter()
            .all(|c| !c.modifier.contains(Modifier::REVERSED))
    );
}

#[test]
fn the_focused_pane_and_its_selection_show_with_and_without_colour() {
    let mut app = loaded_app((120, 40));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    for theme in [Theme::COLOR, Theme::MONOCHROME] {
        let screen = draw_styled(&app, &theme);
        let text = screen.to_string();
        let lines: Vec<&str> = text.lines().collect();
        // Fields on the left (plain border), the properties tree focused on the right (thick).
        assert!(lines[1].starts_with("\"┌"), "{}", lines[1]);
        assert!(lines[1].contains("┏"), "{}", lines[1]);
        let tree_x = lines[1].chars().position(|c| c == '┏').unwrap() as u16 - 1;
        let marker = screen.buffer()[(tree_x + 1, 2)].clone();
        assert_eq!(marker.symbol(), "▶");
        let title = screen.buffer()[(tree_x + 2, 1)].clone();
        let unfocused_title = screen.buffer()[(2, 1)].clone();
        if theme.color {
            assert_eq!(marker.bg, Color::Blue);
            assert_ne!(title.fg, unfocused_title.fg);
        } else {
            assert!(marker.modifier.contains(Modifier::REVERSED));
            assert!(title.modifier.contains(Modifier::REVERSED));
            assert!(!unfocused_title.modifier.contains(Modifier::REVERSED));
            assert!(!unfocused_title.modifier.contains(Modifier::BOLD));
        }
    }
}

#[test]
fn search_hits_are_marked_with_and_without_colour() {
    let mut app = loaded_app((120, 40));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "team");
    for theme in [Theme::COLOR, Theme::MONOCHROME] {
        let screen = draw_styled(&app, &theme);
        let buffer = screen.buffer();
        let mut hits = 0;
        for y in 0..buffer.area.height {
            let row: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            let Some(at) = row.find("team") else { continue };
            let x = row[..at].chars().count() as u16;
            let cell = &buffer[(x, y)];
            // The focused tree marks its hits; the raw pane beside it shows the word plainly.
            let marked = if theme.color {
                cell.bg == Color::Yellow
            } else {
                cell.modifier.contains(Modifier::UNDERLINED)
            };
            hits += usize::from(marked);
        }
        assert!(hits > 0, "the hit is marked on screen");
    }
}

/// Issue 9 item 5: at 80x24 (and 30x8) the help was cut (`!`, `q`, `^c` missing) and could not
/// scroll; it also lists the `:` commands and the mouse.
#[test]
fn help_scrolls_to_every_key_command_and_mouse_gesture() {
    for size in [(80, 24), (30, 8)] {
        let mut app = loaded_then(size, "?");
        let first = draw(&app);
        let mut seen = first.clone();
        for _ in 0..60 {
            press(&mut app, KeyCode::Down);
            seen.push_str(&draw(&app));
        }
        assert_ne!(draw(&app), first, "{size:?}: ↓ scrolls the help");
        for needle in ["the last", "^c", ":quit", ":type", "wheel", "click"] {
            assert!(seen.contains(needle), "{size:?}: {needle:?} never shows");
        }
        for _ in 0..20 {
            press(&mut app, KeyCode::PageUp);
        }
        assert_eq!(draw(&app), first, "{size:?}: PgUp goes back to the top");
    }
}

#[test]
fn help_at_the_bottom() {
    snapshot("help_bottom", |size| {
        let mut app = loaded_then(size, "?");
        for _ in 0..3 {
            press(&mut app, KeyCode::PageDown);
        }
        app
    });
}

/// The composer opened with `R` on the first row, with the demo's types known; its resource's
/// `stars` made a string so the schema has something to say.
fn composer_app(size: (u16, u16)) -> App {
    composing_on(loaded_app(size))
}

/// `R` on `app`, with the demo's types known, and a message typed.
fn composing_on(mut app: App) -> App {
    use appdeck_tui::ReportContext;
    app.report = std::sync::Arc::new(ReportContext {
        base_url: "http://127.0.0.1:8080/api/v1".into(),
        types: Some(std::sync::Arc::new(
            serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).unwrap(),
        )),
        types_text: None,
        run_tag: "20261121-120000".into(),
    });
    press(&mut app, KeyCode::Char('R'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Char('j'));
    }
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "synced by hand");
    press(&mut app, KeyCode::Esc);
    app
}

fn sent_report(app: &mut App) -> RequestId {
    press(app, KeyCode::Char('s'));
    press(app, KeyCode::Enter);
    first_request(&press(app, KeyCode::Enter))
}

fn report_answer(status: u16, body: Value) -> Box<ApiReply> {
    let answer = appdeck_core::api::Answer {
        response: appdeck_core::api::ReportResponse::from_map(body.as_object().cloned().unwrap()),
        text: body.to_string(),
        raw: body,
        http_error: None,
    };
    Box::new(Exchange {
        status: Some(status),
        elapsed: std::time::Duration::from_millis(87),
        result: Ok(Reply::Answer(Box::new(answer))),
    })
}

/// `R` over three marked rows (`res_0000`, `res_0001`, `res_0002`; the row between that is
/// not an object cannot be marked): one report, a message typed, as [`composer_app`] does.
fn marked_composer_app(size: (u16, u16)) -> App {
    composing_on(loaded_then(size, " jj  "))
}

/// The review over marks says first that the request shown goes to each marked resource.
#[test]
fn composer_marked_review() {
    snapshot_at("composer_marked_review", &SIZES[..2], |size| {
        let mut app = marked_composer_app(size);
        press(&mut app, KeyCode::Char('s'));
        app
    });
}

/// The results of a report over marks, a row a resource: two accepted, one refused (still
/// marked in the list), in the words `report --each` prints.
#[test]
fn composer_marked_results() {
    snapshot("composer_marked_results", |size| {
        let mut app = marked_composer_app(size);
        press(&mut app, KeyCode::Char('s'));
        // With findings, the first Enter only arms the send.
        let mut commands = press(&mut app, KeyCode::Enter);
        if commands.is_empty() {
            commands = press(&mut app, KeyCode::Enter);
        }
        let ok = |id: &str| {
            report_answer(
                200,
                json!({"status": "ok", "message": format!("updated resource {id}")}),
            )
        };
        let more = app.update(Action::reply(first_request(&commands), ok("res_0000")));
        let ids: Vec<RequestId> = more
            .iter()
            .filter_map(|c| match c {
                Command::Api { id, .. } => Some(*id),
                _ => None,
            })
            .collect();
        assert_eq!(ids.len(), 2, "{more:?}");
        app.update(Action::reply(ids[0], ok("res_0001")));
        let refused = json!({"status": "error", "error": "properties do not match the type's schema: /stars: \"x\" is not of type integer"});
        app.update(Action::reply(ids[1], report_answer(422, refused)));
        app
    });
}

#[test]
fn composer_with_findings() {
    snapshot("composer_findings", composer_app);
}

/// The review names each finding the checks reject, wrapped, in at most half of it so that the
/// request stays in sight: all six at 80x24, at 40x12 the first and how many more.
#[test]
fn composer_review() {
    let review = |size| {
        let mut app = composer_app(size);
        press(&mut app, KeyCode::Char('s'));
        app
    };
    snapshot("composer_review", review);
    snapshot_at("composer_review", &[(40, 12)], review);
}

#[test]
fn composer_ok_answer() {
    snapshot("composer_ok_answer", |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": "ok", "message": "updated resource res_0000",
                          "metadata": {"platform_app_url": "http://127.0.0.1:8080/app/resources/res_0000"}});
        app.update(Action::reply(id, report_answer(200, body)));
        app
    });
}

/// An answer whose `status` is `["ok"]` is taken, but its verdict and the status bar say it
/// does not say so, and its status shows as written (it read "answered ok", `status —`).
#[test]
fn composer_unclear_answer() {
    let answered = |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": ["ok"], "metadata": {"platform_app_url": 42}});
        app.update(Action::reply(id, report_answer(200, body)));
        app
    };
    let screen = draw(&answered((80, 24)));
    assert!(!screen.contains("answered ok"), "{screen}");
    assert!(screen.contains(r#"["ok"]"#), "{screen}");
    snapshot_at("composer_unclear_answer", &[(80, 24)], answered);
}

#[test]
fn composer_error_answer() {
    snapshot("composer_error_answer", |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": "error", "error": "properties do not match the type's schema: /stars: \"x\" is not of type integer"});
        app.update(Action::reply(id, report_answer(422, body)));
        app
    });
}

/// Issue 35 item 13: the review warns while `task_id` is the provisional one, and not once the
/// task's own id is written.
#[test]
fn composer_review_warns_of_a_provisional_task_id() {
    let mut app = composer_app((120, 40));
    press(&mut app, KeyCode::Char('s'));
    let warning = "warning: task_id is still the provisional one appdeck made up";
    assert!(draw(&app).contains(warning), "{}", draw(&app));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('g'));
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "task-9");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('s'));
    let screen = draw(&app);
    assert!(screen.contains("Review: the exact request"), "{screen}");
    assert!(!screen.contains(warning), "{screen}");
}

/// `End` in the review goes to its last lines and `k` then scrolls up at once: the review's
/// scroll stops where its drawing does (it ran on to half of `usize::MAX`, and `k` looked dead).
#[test]
fn the_review_scrolls_back_up_at_once_after_end() {
    let mut app = composer_app((80, 24));
    press(&mut app, KeyCode::Char('s'));
    let top = draw(&app);
    press(&mut app, KeyCode::End);
    let end = draw(&app);
    assert_ne!(top, end, "End scrolls a review longer than the screen");
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(draw(&app), end, "nothing past the end");
    press(&mut app, KeyCode::Char('k'));
    let up = draw(&app);
    assert_ne!(up, end, "k after End scrolls up:\n{up}");
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(draw(&app), end);
}

/// A task id of 1,200-odd characters (accents, wide characters, words), as the tester's was.
fn long_task_id() -> String {
    (0..150)
        .map(|i| format!("w{i:03}-é漢"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The review of a report whose `task_id` is [`long_task_id`], pasted into the field.
fn review_of_a_long_task_id(size: (u16, u16)) -> App {
    let mut app = composer_app(size);
    press(&mut app, KeyCode::Char('g'));
    press(&mut app, KeyCode::Enter);
    app.update(Action::InsertText(long_task_id()));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('s'));
    app
}

/// The review wraps a long line, as the connect's does, rather than cut it with `…`: the user
/// reads the whole of what they confirm (the tester saw `"task_id": "w000-é漢 … w011…`).
#[test]
fn composer_review_wraps_a_long_task_id() {
    let screen = draw(&review_of_a_long_task_id((80, 24)));
    assert!(!screen.contains('…'), "{screen}");
    snapshot_at(
        "composer_review_long_task_id",
        &[(80, 24)],
        review_of_a_long_task_id,
    );
}

/// The rows of the review in view, inside its border.
fn review_rows(screen: &str) -> Vec<String> {
    (screen.lines())
        .filter(|l| l.starts_with("\"│"))
        .map(|l| l.trim_matches(['│', '"']).trim_end().to_owned())
        .collect()
}

/// `j` scrolls a wrapped review a row at a time, so that every part of a long line comes into
/// view, in order, and `End` stops where the drawing does (the request's last row in view).
#[test]
fn a_wrapped_review_scrolls_row_by_row_through_the_whole_line() {
    let mut app = review_of_a_long_task_id((80, 24));
    let mut seen = review_rows(&draw(&app));
    assert!(seen.len() > 2, "{seen:?}");
    for _ in 0..200 {
        let before = review_rows(&draw(&app));
        press(&mut app, KeyCode::Char('j'));
        let after = review_rows(&draw(&app));
        if after == before {
            break;
        }
        assert_eq!(after[..after.len() - 1], before[1..], "one row up");
        seen.push(after[after.len() - 1].clone());
    }
    let shown = seen.join("\n");
    for i in 0..150 {
        let word = format!("w{i:03}-é漢");
        assert_eq!(shown.matches(&word).count(), 1, "{word} in\n{shown}");
    }
    assert!(shown.contains("\"status\": \"ok\","), "{shown}");
    let end = {
        press(&mut app, KeyCode::End);
        review_rows(&draw(&app))
    };
    let last = end.iter().rev().find(|row| !row.is_empty());
    assert_eq!(last.map(String::as_str), Some("}"), "{end:?}");
    press(&mut app, KeyCode::Char('k'));
    let up = review_rows(&draw(&app));
    assert_eq!(up[1..], end[..end.len() - 1], "k after End: one row down");
}

/// Issue 35 item 14: under a read-only profile the review says that `Enter` sends nothing.
#[test]
fn composer_review_read_only() {
    let review = |size| {
        let mut app = composer_app(size);
        app.read_only = Some(appdeck_core::config::ReadOnly::Profile("prod".into()));
        press(&mut app, KeyCode::Char('s'));
        app
    };
    let screen = draw(&review((120, 40)));
    assert!(
        screen.contains("profile \"prod\" is read-only: Enter sends nothing"),
        "{screen}"
    );
    assert!(!screen.contains("Enter sends,"), "{screen}");
    // Its findings line offers no send either (it said "Enter twice sends it anyway").
    assert!(!screen.contains("Enter twice"), "{screen}");
    snapshot_at("composer_review_read_only", &[(120, 40)], review);
}

/// Issue 35 item 14: an answer without a `platform_app_url` offers neither `o` nor `y`.
#[test]
fn composer_answer_without_a_link() {
    let answered = |size| {
        let mut app = composer_app(size);
        let id = sent_report(&mut app);
        let body = json!({"status": "ok", "message": "updated resource res_0000"});
        app.update(Action::reply(id, report_answer(200, body)));
        app
    };
    let screen = draw(&answered((120, 40)));
    assert!(screen.contains("Esc back to the report"), "{screen}");
    assert!(!screen.contains("o opens"), "{screen}");
    assert!(
        !screen.contains(" o open ") && !screen.contains(" y copy "),
        "{screen}"
    );
    snapshot_at("composer_answer_without_a_link", &[(120, 40)], answered);
}

/// The request id of the first command of `kind` among `commands`.
fn request_of(commands: &[appdeck_tui::Command], kind: &str) -> RequestId {
    commands
        .iter()
        .find(|c| format!("{c:?}").starts_with(kind))
        .and_then(|c| c.request_id())
        .unwrap_or_else(|| panic!("no {kind} among {commands:?}"))
}

#[test]
fn composer_restored_draft() {
    snapshot("composer_restored_draft", |size| {
        let mut app = composer_app(size);
        let body = match app.stack.top() {
            Some(appdeck_tui::Screen::Report(c)) => serde_json::to_string(&c.draft_body()).unwrap(),
            _ => panic!("no composer"),
        };
        press(&mut app, KeyCode::Esc);
        let id = request_of(&press(&mut app, KeyCode::Char('R')), "LoadDraft");
        app.update(Action::reply(
            id,
            Delivery::DraftLoaded(Ok(Some(appdeck_tui::StoredDraft {
                body,
                age: std::time::Duration::from_secs(180),
                revision: appdeck_store::DraftRevision {
                    row: 1,
                    revision: 1,
                },
                sent: None,
            }))),
        ));
        app
    });
}

#[test]
fn composer_edit_not_json() {
    snapshot("composer_edit_not_json", |size| {
        let mut app = composer_app(size);
        let id = request_of(&press(&mut app, KeyCode::Char('e')), "EditExternally");
        app.update(Action::reply(
            id,
            Delivery::Edited(Ok("{\n  \"task_id\": oops,\n  \"status\": \"ok\"\n}".into())),
        ));
        app
    });
}

/// Sends as the store lists them, newest first: a refused report (with hostile text), a network
/// failure, a connect, an ok report.
fn history_entries() -> Vec<appdeck_store::HistoryEntry> {
    use appdeck_store::{HistoryEntry, SendKind, Sent};
    let report = |task: &str, id: &str| {
        json!({"task_id": task, "status": "ok", "message": "synced by hand",
               "response": {"response_type": "resource",
                            "resource": {"id": id, "type": "repository", "external_id": "ext-1",
                                         "name": "one", "properties": {"stars": 3}}}})
        .to_string()
    };
    let at = |minute: i64| now() - chrono::Duration::minutes(minute);
    let base = |kind, body: String, minute| Sent {
        sent_at: at(minute),
        base_url: "http://127.0.0.1:8080/api/v1".into(),
        kind,
        body,
        answer: Some(r#"{"status":"ok","message":"updated resource res_0000"}"#.into()),
        http_status: Some(200),
        duration: Some(std::time::Duration::from_millis(87)),
        error: None,
        resource_before: None,
        resource_after: None,
    };
    let refused = Sent {
        answer: Some(
            json!({"status": "error", "error": "properties do not match \u{1b}[31m/stars"})
                .to_string(),
        ),
        http_status: Some(422),
        error: Some("HTTP 422 Unprocessable Entity: properties do not match".into()),
        ..base(
            SendKind::Report,
            report("task-\u{1b}]0;pwned\u{7}42", "res_0001"),
            2,
        )
    };
    let network = Sent {
        answer: None,
        http_status: None,
        duration: Some(std::time::Duration::from_millis(3)),
        error: Some("network error: cannot connect to http://127.0.0.1:9/api/v1".into()),
        ..base(SendKind::Report, report("task-41", "res_0002"), 5)
    };
    let connect = base(
        SendKind::Connect,
        json!({"app_id": "acme-devtools", "version": "1.5.0", "resources": [{}, {}, {}]})
            .to_string(),
        60,
    );
    let ok = base(SendKind::Report, report("task-40", "res_0000"), 180);
    [refused, network, connect, ok]
        .into_iter()
        .zip([4, 3, 2, 1])
        .map(|(sent, id)| HistoryEntry { id, sent })
        .collect()
}

/// `3` on the loaded list, and the store's answer delivered.
fn history_app(size: (u16, u16)) -> App {
    let mut app = loaded_app(size);
    let id = press(&mut app, KeyCode::Char('3'))
        .iter()
        .find_map(|c| match c {
            Command::LoadHistory { id, .. } => Some(*id),
            _ => None,
        })
        .expect("the history loads");
    app.update(Action::reply(
        id,
        Delivery::History(Box::new(Ok(history_entries()))),
    ));
    app
}

#[test]
fn history_list() {
    snapshot("history_list", history_app);
}

#[test]
fn history_filtered() {
    snapshot("history_filtered", |size| {
        let mut app = history_app(size);
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "422");
        app
    });
}

#[test]
fn history_entry_in_full() {
    snapshot("history_entry", |size| {
        let mut app = history_app(size);
        press(&mut app, KeyCode::Enter);
        app
    });
}

/// A draft not sent yet, listed above the sends (a warning colour, "not sent").
#[test]
fn history_with_a_draft() {
    snapshot("history_draft", |size| {
        let mut app = loaded_app(size);
        let commands = press(&mut app, KeyCode::Char('3'));
        for command in commands {
            match command {
                Command::LoadHistory { id, .. } => {
                    app.update(Action::reply(
                        id,
                        Delivery::History(Box::new(Ok(history_entries()))),
                    ));
                }
                Command::ListDrafts { id } => {
                    let body = json!({"task_id": "deploy-2291", "status": "ok", "message": "",
                        "response_type": "resource", "resource": "{\"id\": \"res_7\"}"});
                    app.update(Action::reply(
                        id,
                        Delivery::Drafts(Ok(vec![appdeck_tui::UnsentDraft {
                            subject: appdeck_tui::DraftSubject {
                                kind: "report".into(),
                                subject: "res_7".into(),
                            },
                            revision: appdeck_store::DraftRevision {
                                row: 1,
                                revision: 1,
                            },
                            body: body.to_string(),
                            saved_at: now() - chrono::Duration::minutes(4),
                            age: std::time::Duration::from_secs(240),
                        }])),
                    ));
                }
                _ => {}
            }
        }
        app
    });
}

/// Issue 9 item 2: a long string cut at the edge of the tree and raw panes ends in `…`, so a
/// cut value never passes for a whole one.
#[test]
fn long_values_cut_in_the_tree_and_raw_panes_end_with_an_ellipsis() {
    let (mut app, id) = new_app((80, 24));
    let long = format!("start {} end", "x".repeat(200));
    let resource = serde_json::json!({
        "id": "res_long", "type": "repository", "display_name": "long",
        "properties": {"description": long}
    });
    app.update(Action::reply(
        id,
        page_reply(Ok(page(vec![resource], None))),
    ));
    press(&mut app, KeyCode::Enter);
    let screen = draw(&app);
    let tree = screen.lines().find(|l| l.contains("description: \"start"));
    let raw = screen
        .lines()
        .find(|l| l.contains("\"description\": \"start"));
    for (pane, line) in [("tree", tree), ("raw", raw)] {
        let line = line.unwrap_or_else(|| panic!("no {pane} line:\n{screen}"));
        let inner = line.trim_end_matches(['│', '┃', '"']);
        assert!(inner.ends_with('…'), "{pane}: {line}");
        assert!(!line.contains(" end"), "{pane}: {line}");
    }
}

// Remapped keys (issue 11): the config file's `[keys]` reach the footer and the `?` help, which
// read the same keymap as the dispatch.

/// `loaded_app` with `?` on F1, quit on `Q`, and the list's filter and type picker on `f` / `T`.
fn remapped_app(size: (u16, u16)) -> App {
    let settings = appdeck_tui::ui_settings(Some(&appdeck_core::config::ConfigText {
        path: "config.toml".into(),
        text: "[keys]\nhelp = [\"F1\"]\nquit = [\"Q\"]\n[keys.browser]\nsearch = [\"f\"]\ntype_picker = [\"T\"]\n"
            .to_owned(),
        shared: false,
    }))
    .expect("valid [keys]");
    let mut app = loaded_app(size);
    app.keymap = settings.keys;
    app
}

#[test]
fn footer_with_remapped_keys() {
    snapshot("remapped_footer", remapped_app);
}

#[test]
fn help_with_remapped_keys() {
    snapshot("remapped_help", |size| {
        let mut app = remapped_app(size);
        press(&mut app, KeyCode::F(1));
        assert!(
            matches!(app.overlay, Some(appdeck_tui::Overlay::Help(_))),
            "F1 opens the help"
        );
        app
    });
}

// ---- Reading long values in the detail view, and the types view kept current (issues 9, 6) ----

/// A resource with a long description (and a hostile line in it), open in the detail view.
fn long_value_app(size: (u16, u16)) -> App {
    let (mut app, id) = new_app(size);
    let description = format!(
        "Mirrors the upstream repository every hour. {}Contact: https://wiki.example.com/teams/platform/oncall?rotation=primary \u{1b}]0;pwned\u{7} end.",
        "The mirror keeps every branch and tag, and prunes nothing. ".repeat(6)
    );
    let resource = json!({
        "id": "res_long", "type": "repository", "display_name": "long values",
        "updated_at": "2026-11-20T09:30:00Z",
        "external_url": "https://code.example.com/acme/platform/mirror/tree/main/docs/operations",
        "properties": {"description": description, "stars": 12, "owner": {"team": "platform"}}
    });
    app.update(Action::reply(
        id,
        page_reply(Ok(page(vec![resource], None))),
    ));
    press(&mut app, KeyCode::Enter);
    app
}

/// Issue 9 item 2: `Enter` on a leaf of the tree shows the value whole, wrapped, with where it
/// is and the keys; the escape sequence in it is shown, not obeyed.
#[test]
fn detail_value_popup() {
    snapshot("detail_value_popup", |size| {
        let mut app = long_value_app(size);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Enter);
        app
    });
}

/// The popup scrolled to its end with `G`.
#[test]
fn detail_value_popup_at_its_end() {
    snapshot("detail_value_popup_end", |size| {
        let mut app = long_value_app(size);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('v'));
        press(&mut app, KeyCode::Char('G'));
        app
    });
}

/// `w` in the raw JSON: the long line wraps instead of being cut.
#[test]
fn detail_raw_json_wrapped() {
    snapshot("detail_raw_wrapped", |size| {
        let mut app = long_value_app(size);
        press(&mut app, KeyCode::BackTab);
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Char('w'));
        app
    });
}

/// `a`: the raw JSON of the whole resource, its title saying so.
#[test]
fn detail_raw_json_of_the_whole_resource() {
    snapshot("detail_raw_whole", |size| {
        let mut app = loaded_app(size);
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Char('a'));
        app
    });
}

/// Issue 6: `b` on a type lists its resources over the type; the list's first page arrived.
#[test]
fn the_resources_of_a_type_over_the_type() {
    snapshot("type_resources_pushed", |size| {
        let mut app = repository(size);
        let commands = press(&mut app, KeyCode::Char('b'));
        let rows: Vec<Value> = resources(9)
            .into_iter()
            .filter(|r| r["type"] == "repository")
            .collect();
        app.update(Action::reply(
            first_request(&commands),
            page_reply(Ok(page(rows, None))),
        ));
        app
    });
}

// ---- The connect composer (issue 8): the composer, its outline, its diff and the review. ----

/// `C` with the demo's app known, then `$EDITOR` left the payload with the version bumped to
/// 1.5.0 and the `repository` type removed (a breaking change).
fn connect_app(size: (u16, u16)) -> App {
    use appdeck_tui::KnownTypes;
    let mut app = loaded_app(size);
    app.report = std::sync::Arc::new(appdeck_tui::ReportContext {
        base_url: "http://127.0.0.1:8080/api/v1".into(),
        ..Default::default()
    });
    app.update(Action::reply(
        RequestId(u64::MAX),
        Delivery::Types(std::sync::Arc::new(KnownTypes {
            catalog: appdeck_core::catalog::Catalog::from_versions(vec![
                appdeck_core::catalog::demo(),
            ]),
            problems: Vec::new(),
        })),
    ));
    let opened = press(&mut app, KeyCode::Char('C'));
    settle(&mut app, opened);
    let mut payload: Value = serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).unwrap();
    payload["version"] = json!("1.5.0");
    payload["resources"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["type"] != "repository");
    let edit = press(&mut app, KeyCode::Char('e'));
    let id = edit
        .iter()
        .find_map(|c| match c {
            Command::EditExternally { id, .. } => Some(*id),
            _ => None,
        })
        .expect("e asks for the external editor");
    let text = serde_json::to_string_pretty(&payload).unwrap();
    let checked = app.update(Action::reply(id, Delivery::Edited(Ok(text))));
    settle(&mut app, checked);
    app.notice = None;
    app
}

#[test]
fn connect_composer() {
    snapshot("connect_composer", connect_app);
}

#[test]
fn connect_outline() {
    snapshot("connect_outline", |size| {
        let mut app = connect_app(size);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('j'));
        app
    });
}

#[test]
fn connect_diff() {
    snapshot("connect_diff", |size| {
        let mut app = connect_app(size);
        for _ in 0..3 {
            press(&mut app, KeyCode::Tab);
        }
        app
    });
}

#[test]
fn connect_review() {
    snapshot("connect_review", |size| {
        let mut app = connect_app(size);
        press(&mut app, KeyCode::Char('s'));
        press(&mut app, KeyCode::Enter);
        app
    });
}

#[test]
fn connect_inferring() {
    // `C` with no app known: the composer opens at once while the rows' types are inferred in
    // the background (the inference is not run here).
    snapshot("connect_inferring", |size| {
        let mut app = loaded_app(size);
        let opened = press(&mut app, KeyCode::Char('C'));
        assert!(
            opened.iter().any(|c| c.job::<InferJob>().is_some()),
            "{opened:?}"
        );
        app
    });
}

/// `:connect new` (here `C` with no app known) once the types are inferred: the app_id and
/// version are `appdeck infer`'s placeholders, marked on their lines and listed as findings, the
/// cursor on the first (issue 20 item 8).
fn connect_new_app(size: (u16, u16)) -> App {
    let mut app = loaded_app(size);
    app.report = std::sync::Arc::new(appdeck_tui::ReportContext {
        base_url: "http://127.0.0.1:8080/api/v1".into(),
        ..Default::default()
    });
    let opened = press(&mut app, KeyCode::Char('C'));
    settle(&mut app, opened);
    app
}

#[test]
fn connect_new_app_placeholders() {
    snapshot("connect_new_app_placeholders", connect_new_app);
}

/// Its review names what the checks reject: what to replace before sending.
#[test]
fn connect_new_app_review() {
    snapshot("connect_new_app_review", |size| {
        let mut app = connect_new_app(size);
        press(&mut app, KeyCode::Char('s'));
        app
    });
}

/// `Enter` on the outline's last type: its definition from the top of the editor (issue 20
/// item 8; it was its opening line on the editor's last row).
#[test]
fn connect_outline_enter_on_the_last_type() {
    snapshot("connect_outline_enter_on_the_last_type", |size| {
        let mut app = connect_app(size);
        draw(&app);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('G'));
        press(&mut app, KeyCode::Enter);
        app
    });
}

/// The overview (`4`): the loaded rows by type and by status (the status chart focused, its
/// first bar selected), and when they were updated over three weeks.
#[test]
fn overview() {
    snapshot("overview", |size| {
        let (mut app, id) = new_app(size);
        let mut rows = resources(60);
        for (i, row) in rows.iter_mut().enumerate() {
            if let Some(fields) = row.as_object_mut()
                && fields.contains_key("updated_at")
            {
                let at = format!("2026-11-{:02}T{:02}:00:00Z", 1 + (i * i) % 21, i % 24);
                fields.insert("updated_at".into(), json!(at));
            }
        }
        app.update(Action::reply(id, page_reply(Ok(page(rows, Some("c2"))))));
        press(&mut app, KeyCode::Char('4'));
        press(&mut app, KeyCode::Tab);
        app
    });
}

/// `:watch 5`, then a look that finds one row new, one changed and one gone (issue 22 item 5):
/// the title says it is live, when it looked and what it marked; each marked name starts with
/// its mark (`+`, `~`, `x`), readable without colour; the gone row stays, struck through.
#[test]
fn browser_watched() {
    let build = |size: (u16, u16)| {
        let mut app = loaded_app(size);
        app.update(Action::CommandLine);
        type_text(&mut app, "watch 5");
        let look = press(&mut app, KeyCode::Enter);
        let mut after = resources(60);
        after[4]["status"] = json!("rolled_back");
        after.remove(6);
        after.insert(
            3,
            json!({"id": "res_new", "type": "incident", "display_name": "a new incident", "status": "open"}),
        );
        let more = app.update(Action::reply(
            first_request(&look),
            page_reply(Ok(page(after, Some("c2")))),
        ));
        settle(&mut app, more);
        app
    };
    snapshot("browser_watched", build);
    let screen = draw_styled(&build((120, 40)), &Theme::MONOCHROME);
    let gone = screen
        .buffer()
        .content()
        .chunks(120)
        .find(|line| {
            line.iter()
                .map(|c| c.symbol())
                .collect::<String>()
                .contains("x deployment number 4")
        })
        .expect("the gone row is shown");
    assert!(
        gone.iter()
            .filter(|c| c.symbol() != " ")
            .any(|c| c.modifier.contains(Modifier::CROSSED_OUT)),
        "the gone row is struck through, also without colour"
    );
}

/// `:watch 5`, `Enter` on the first row, then a look that finds it changed (tester's MED 2): the
/// detail follows it, what changed at the top of its fields, its title saying a look changed it
/// and when. Before, it kept showing the row as it opened, and `R` sent that.
#[test]
fn detail_followed_by_a_look() {
    let build = |size: (u16, u16)| {
        let mut app = loaded_app(size);
        app.update(Action::CommandLine);
        type_text(&mut app, "watch 5");
        let look = press(&mut app, KeyCode::Enter);
        let more = app.update(Action::reply(
            first_request(&look),
            page_reply(Ok(page(resources(60), Some("c2")))),
        ));
        settle(&mut app, more);
        press(&mut app, KeyCode::Enter);
        app.now = app.wake_at().expect("the next look is due");
        let look = app.update(Action::Tick);
        let mut after = resources(60);
        after[0]["status"] = json!("rolled_back");
        let more = app.update(Action::reply(
            first_request(&look),
            page_reply(Ok(page(after, Some("c2")))),
        ));
        settle(&mut app, more);
        app.now += std::time::Duration::from_secs(2);
        app
    };
    snapshot("detail_followed_by_a_look", build);
}

/// `:sort updated_at desc`, a long `:where` and `:watch 5`, then a look (issue 22 item 5, the
/// audit: at 80 columns the title ended `by updated_at ▼ descendin┐`, the count and the watch
/// gone): the `:where` is cut, the sort left to the column's arrow and the counts said short,
/// so that the counts and the watch segment stay whole at the title's end.
#[test]
fn browser_watched_sorted_and_narrowed() {
    let build = |size: (u16, u16)| {
        let mut app = loaded_app(size);
        for command in [
            "sort updated_at desc",
            "where .status == \"active\" and .properties.stars > 3",
            "watch 5",
        ] {
            press(&mut app, KeyCode::Char(':'));
            type_text(&mut app, command);
            let commands = app.update(Action::Submit);
            let look = settle(&mut app, commands);
            if command.starts_with("watch") {
                let more = app.update(Action::reply(
                    first_request(&look),
                    page_reply(Ok(page(resources(60), Some("c2")))),
                ));
                settle(&mut app, more);
            }
        }
        app
    };
    snapshot("browser_watched_sorted_and_narrowed", build);
    let title = appdeck_tui::harness::line(&draw_styled(&build((80, 24)), &Theme::COLOR), 1);
    assert!(
        title.starts_with("┌ where .status")
            && title.contains("62 loaded · L loads all · watching 5s · 12:00:00 "),
        "{title}"
    );
}

/// Issue 35 item 11: `q` with a draft the store did not take. The question was cut off the
/// status bar at 120 columns; a popup says it whole, and what each answer does.
#[test]
fn quit_popup_with_a_draft_not_saved() {
    snapshot("quit_popup", |size| {
        let mut app = composer_app(size);
        app.now = app.wake_at().expect("a save is due");
        let save = request_of(&app.update(Action::Tick), "SaveDraft");
        let refused =
            "attempt to write a readonly database: /home/zoe/.local/share/appdeck/appdeck.db";
        app.update(Action::reply(
            save,
            Delivery::DraftSaved(Err(refused.to_owned())),
        ));
        press(&mut app, KeyCode::Char('q'));
        app
    });
    let mut app = composer_app((120, 40));
    app.now = app.wake_at().unwrap();
    let save = request_of(&app.update(Action::Tick), "SaveDraft");
    app.update(Action::reply(
        save,
        Delivery::DraftSaved(Err("disk I/O error".into())),
    ));
    press(&mut app, KeyCode::Char('q'));
    let screen = draw(&app);
    assert!(screen.contains("disk I/O error"), "{screen}");
    assert!(screen.contains("kept in a file"), "{screen}");
}

/// Issue 35 item 14: the row of commands above an empty `:` line was cut at the screen's edge
/// without a sign (`quit` never showed). It says how many are left out.
#[test]
fn command_line_lists_the_commands_it_has_room_for() {
    snapshot("command_line_commands", |size| loaded_then(size, ":"));
}

/// Tab cycled to a candidate past the screen's edge: the row scrolls to show it.
#[test]
fn command_line_shows_the_candidate_tab_chose() {
    use appdeck_tui::Overlay;
    snapshot("command_line_quit_chosen", |size| {
        let mut app = loaded_then(size, ":");
        for _ in 0..40 {
            press(&mut app, KeyCode::Tab);
            if matches!(&app.overlay, Some(Overlay::CommandLine(l)) if l.input.text() == "quit") {
                break;
            }
        }
        app
    });
}

/// Issue 35 item 14: a `/` that matched nothing said no more than "the filter"; it names the
/// query and the way out. The footer offers no key that acts on a row.
#[test]
fn browser_search_that_matches_nothing() {
    let searched = |size| {
        let mut app = loaded_then(size, "/");
        type_settled(&mut app, "zzz-nowhere");
        press(&mut app, KeyCode::Enter);
        app
    };
    snapshot("browser_search_empty", searched);
    let app = searched((120, 40));
    let screen = draw(&app);
    assert!(
        screen.contains("No loaded row matches /zzz-nowhere."),
        "{screen}"
    );
    let footer = appdeck_tui::harness::line(&draw_styled(&app, &Theme::COLOR), 39);
    assert!(
        !footer.contains("open") && !footer.contains("report"),
        "{footer}"
    );
}

/// Issue 35 item 14: at 60 columns or less the title dropped the counts and the watch; the
/// README says they stay.
#[test]
fn browser_title_at_sixty_columns_keeps_the_counts_and_the_watch() {
    let build = |size: (u16, u16)| {
        let mut app = loaded_app(size);
        for command in ["where .status == \"active\"", "watch 5"] {
            press(&mut app, KeyCode::Char(':'));
            type_text(&mut app, command);
            let commands = app.update(Action::Submit);
            let look = settle(&mut app, commands);
            if command.starts_with("watch") {
                let more = app.update(Action::reply(
                    first_request(&look),
                    page_reply(Ok(page(resources(60), Some("c2")))),
                ));
                settle(&mut app, more);
            }
        }
        app
    };
    snapshot_at("browser_title_narrow", &[(60, 20), (50, 16)], build);
    for width in [60, 50, 44] {
        let title = appdeck_tui::harness::line(&draw_styled(&build((width, 16)), &Theme::COLOR), 1);
        assert!(
            title.contains("loaded") && title.contains("watching"),
            "{width}: {title}"
        );
    }
}
