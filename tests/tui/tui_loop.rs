//! The whole TUI loop against the sandbox over real HTTP on loopback: a `TestBackend` for the
//! screen and scripted terminal events for the keyboard, as DESIGN.md's testing notes ask.

use std::io;
use std::time::Duration;

use appdeck_core::api::{Client, ClientSettings, Token};
use appdeck_sandbox::{Fault, Sandbox, SandboxOptions};
use appdeck_tui::EventLoop;
use appdeck_tui::RecordedEffects;
use appdeck_tui::Screen;
use appdeck_tui::{App, Session};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures_util::Stream;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

const DEADLINE: Duration = Duration::from_secs(10);

type Events = std::pin::Pin<Box<dyn Stream<Item = io::Result<Event>> + Send>>;

struct Harness {
    event_loop: EventLoop<TestBackend, Events>,
    keys: UnboundedSender<io::Result<Event>>,
    sandbox: Sandbox,
}

async fn harness(
    options: SandboxOptions,
    page_size: Option<u32>,
    request_timeout: Duration,
) -> Harness {
    let sandbox = Sandbox::start(options).await.expect("sandbox");
    let mut settings = ClientSettings::new(sandbox.base_url(), Token::new(sandbox.token()));
    settings.request_timeout = request_timeout;
    let client = Client::new(&settings).expect("client");
    let (keys, mut rx) = unbounded_channel();
    let events: Events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let size = Rect::new(0, 0, 100, 30);
    let session = Session {
        origin: "test".into(),
        host: sandbox.addr().to_string(),
        warnings: Vec::new(),
    };
    let (app, initial) = App::new(session, size, page_size);
    let terminal = Terminal::new(TestBackend::new(size.width, size.height)).expect("terminal");
    let event_loop = EventLoop::new(
        terminal,
        app,
        initial,
        events,
        client,
        Box::new(RecordedEffects::default()),
    );
    Harness {
        event_loop,
        keys,
        sandbox,
    }
}

impl Harness {
    fn press(&self, code: KeyCode) {
        self.keys
            .send(Ok(Event::Key(KeyEvent::new(code, KeyModifiers::NONE))))
            .expect("loop alive");
    }

    fn screen(&self) -> String {
        self.event_loop.terminal.backend().to_string()
    }

    /// Steps the loop until `ready` holds for the app, or fails with the screen.
    async fn until(&mut self, what: &str, ready: impl Fn(&App) -> bool) {
        let result = tokio::time::timeout(DEADLINE, async {
            while !ready(&self.event_loop.app) {
                assert!(
                    self.event_loop.step().await.expect("step"),
                    "the loop stopped"
                );
            }
        })
        .await;
        assert!(
            result.is_ok(),
            "timed out waiting for {what}; screen:\n{}",
            self.screen()
        );
    }
}

fn loaded(app: &App) -> usize {
    app.browser.rows().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_arrive_pages_follow_the_cursor_and_enter_opens_the_detail() {
    let mut h = harness(SandboxOptions::default(), Some(25), Duration::from_secs(5)).await;
    h.until("the first page", |app| loaded(app) > 0).await;
    assert!(h.screen().contains("Resources"));
    // Hold j across several page boundaries (pages of 25 rows). Prefetch keeps ahead: once the
    // cursor is within a page of the last loaded row, the next page has already been asked for.
    // (Whether it also arrives in time depends on the machine, so that is not asserted.)
    for row in 1..=120 {
        let app = &h.event_loop.app;
        let selected = app.browser.cursor.selected;
        if loaded(app) <= selected + 25 {
            assert!(
                app.browser.in_flight().is_some(),
                "row {selected} of {} loaded, and no page asked for",
                loaded(app)
            );
        }
        if loaded(app) <= selected + 1 {
            h.until("the next row", |app| {
                loaded(app) > app.browser.cursor.selected + 1
            })
            .await;
        }
        h.press(KeyCode::Char('j'));
        h.until("the cursor to move", |app| {
            app.browser.cursor.selected == row
        })
        .await;
    }
    assert!(loaded(&h.event_loop.app) > 121);
    h.press(KeyCode::Enter);
    h.until("the detail", |app| {
        matches!(app.stack.top(), Some(Screen::Detail(_)))
    })
    .await;
    let screen = h.screen();
    assert!(
        screen.contains("Properties") && screen.contains("Raw JSON"),
        "{screen}"
    );
    h.press(KeyCode::Char('q'));
    let more = tokio::time::timeout(DEADLINE, h.event_loop.step())
        .await
        .expect("quits")
        .expect("step");
    assert!(!more, "q stops the loop");
}

/// The first page on screen, the prefetch that fills the screen and the known types loaded:
/// from here on, nothing is due unless a timer is.
async fn settled() -> Harness {
    let mut h = harness(SandboxOptions::default(), None, Duration::from_secs(5)).await;
    h.until("the first page", |app| loaded(app) > 0).await;
    h.until("nothing in flight", |app| app.browser.in_flight().is_none())
        .await;
    h.until("the known types", |app| app.known_types.is_some())
        .await;
    h
}

/// One step of the loop with tokio's clock paused: whether it woke within a day, and how long
/// it waited. With the clock paused, tokio jumps straight to the next timer whenever nothing
/// else can run: a timer or tick of any period (not only one shorter than a wait in real time)
/// ends the step.
async fn step_paused(h: &mut Harness) -> (bool, Duration) {
    tokio::time::pause();
    let paused = tokio::time::Instant::now();
    let woke = tokio::time::timeout(Duration::from_secs(24 * 3600), h.event_loop.step()).await;
    let waited = paused.elapsed();
    tokio::time::resume();
    (woke.is_ok(), waited)
}

#[tokio::test]
async fn idle_means_no_frames() {
    let mut h = settled().await;
    let frames = h.event_loop.frames;
    let (woke, _) = step_paused(&mut h).await;
    assert!(!woke, "the loop woke up with nothing to do");
    assert_eq!(h.event_loop.frames, frames, "no frame drawn while idle");
}

/// Under `L` the frames of pages are paced (`runtime/frame_pace.rs`), yet the page that ends it
/// is drawn at once: the screen says all is loaded in the same step the list does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_load_all_the_last_page_is_drawn_at_once() {
    let options = SandboxOptions {
        seed_demo: false,
        generate: 400,
        ..SandboxOptions::default()
    };
    let mut h = harness(options, Some(10), Duration::from_secs(5)).await;
    h.until("the first page", |app| loaded(app) > 0).await;
    h.press(KeyCode::Char('L'));
    h.until("L to start", |app| app.browser.loading_all).await;
    h.until("every page", |app| !app.browser.loading_all).await;
    assert_eq!(loaded(&h.event_loop.app), 400);
    let screen = h.screen();
    assert!(screen.contains("400 loaded · all loaded"), "{screen}");
}

/// `:watch 2` (issue 22 item 5): the loop's one timer wakes it at the interval, no sooner and
/// no later (with the clock paused, time jumps to the next timer: without a watch the loop
/// above sleeps a whole day), and each wake-up looks at the list again.
#[tokio::test]
async fn with_watch_on_the_loop_wakes_at_the_interval() {
    let mut h = settled().await;
    h.press(KeyCode::Char(':'));
    for c in "watch 2".chars() {
        h.press(KeyCode::Char(c));
    }
    h.press(KeyCode::Enter);
    let looked = |app: &App| app.browser.watch.as_ref().and_then(|w| w.looked);
    h.until("the first look", |app| {
        looked(app).is_some() && app.browser.reloading.is_none()
    })
    .await;
    let first = looked(&h.event_loop.app);
    assert!(h.screen().contains("watching every 2s"), "{}", h.screen());

    let (woke, waited) = step_paused(&mut h).await;
    assert!(woke, "the watch never woke the loop");
    assert!(
        // Timers fire on the millisecond after their deadline.
        waited <= Duration::from_millis(2010) && waited > Duration::from_secs(1),
        "woke after {waited:?}, not at the 2 s interval"
    );
    h.until("the next look", |app| {
        looked(app) > first && app.browser.reloading.is_none()
    })
    .await;
}

#[tokio::test]
async fn q_quits_at_once_with_a_slow_request_in_flight_and_esc_cancels() {
    let options = SandboxOptions {
        fault: Some(Fault::Slow(Duration::from_secs(20))),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, None, Duration::from_secs(30)).await;
    h.event_loop.draw().expect("first frame");
    assert!(h.screen().contains("Loading resources"));
    h.press(KeyCode::Esc);
    h.until("the load to be cancelled", |app| {
        app.browser.in_flight().is_none()
    })
    .await;
    assert_eq!(
        h.event_loop.in_flight(),
        0,
        "the loop no longer waits for it"
    );
    // The task itself is gone, not only forgotten: were it still running, its 20 s request
    // would hold this past the deadline.
    let aborted = tokio::time::timeout(DEADLINE, async {
        while h.event_loop.requests_alive() > 0 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(aborted.is_ok(), "the request task was aborted");
    h.event_loop.draw().expect("frame");
    assert!(
        h.screen().contains("r loads the first page"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('r'));
    h.until("a new load", |app| app.browser.in_flight().is_some())
        .await;
    h.press(KeyCode::Char('q'));
    let more = tokio::time::timeout(Duration::from_secs(2), h.event_loop.step())
        .await
        .expect("quits without waiting for the slow request")
        .expect("step");
    assert!(!more);
}

#[tokio::test]
async fn a_timeout_shows_in_the_pane_with_a_way_to_retry() {
    let options = SandboxOptions {
        fault: Some(Fault::Slow(Duration::from_secs(5))),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, None, Duration::from_millis(300)).await;
    h.until("the error", |app| app.browser.error().is_some())
        .await;
    let screen = h.screen();
    assert!(
        screen.contains("Could not load resources") && screen.contains("timed out"),
        "{screen}"
    );
    assert!(screen.contains("r retry"), "{screen}");
}

#[tokio::test]
async fn a_body_that_is_not_json_is_an_error_not_a_crash() {
    let options = SandboxOptions {
        fault: Some(Fault::NotJson),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, None, Duration::from_secs(5)).await;
    h.until("the error", |app| app.browser.error().is_some())
        .await;
    assert!(h.screen().contains("unreadable answer"), "{}", h.screen());
}

#[tokio::test]
async fn a_repeating_cursor_stops_paging_and_says_so() {
    let options = SandboxOptions {
        fault: Some(Fault::RepeatCursor),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, Some(10), Duration::from_secs(5)).await;
    h.until("the server fault", |app| app.browser.error().is_some())
        .await;
    assert!(loaded(&h.event_loop.app) > 0, "the rows that came are kept");
    let screen = h.screen();
    assert!(screen.contains("stopped: server fault"), "{screen}");
    assert!(screen.contains("r reload"), "{screen}");
}

/// A server that sends empty pages for ever, each with a new cursor, over real HTTP: the list
/// stops after 20 in a row and shows the error with `r` to go on; `r` asks for 20 more, no more.
#[tokio::test]
async fn endless_empty_pages_stop_with_an_error_and_r_goes_on() {
    let options = SandboxOptions {
        fault: Some(Fault::EmptyPages),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, Some(10), Duration::from_secs(5)).await;
    h.until("the stop", |app| app.browser.error().is_some())
        .await;
    let pages = |app: &App| app.browser.listing.loaded().map_or(0, |l| l.pages);
    assert_eq!(
        pages(&h.event_loop.app),
        21,
        "the first page, then 20 empty"
    );
    assert_eq!(loaded(&h.event_loop.app), 10, "the first page's rows stay");
    h.event_loop.draw().expect("frame");
    let screen = h.screen();
    assert!(screen.contains("20 empty pages in a row"), "{screen}");
    assert!(screen.contains("r go on"), "{screen}");

    h.press(KeyCode::Char('r'));
    h.until("the next stop", |app| {
        pages(app) > 21 && app.browser.error().is_some()
    })
    .await;
    assert_eq!(pages(&h.event_loop.app), 41);
    assert_eq!(h.event_loop.in_flight(), 0, "nothing more asked for");
}

#[tokio::test]
async fn a_malformed_item_is_marked_and_the_rest_is_shown() {
    let options = SandboxOptions {
        fault: Some(Fault::MalformedItem),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, Some(10), Duration::from_secs(5)).await;
    h.until("the first page", |app| loaded(app) > 1).await;
    let app = &h.event_loop.app;
    assert!(
        app.browser.rows().iter().any(|r| r.malformed()),
        "a malformed row is kept"
    );
    assert!(app.browser.rows().iter().filter(|r| !r.malformed()).count() >= 1);
    h.event_loop.draw().expect("frame");
    assert!(h.screen().contains("malformed item"), "{}", h.screen());
}

#[tokio::test]
async fn an_error_status_shows_the_server_message() {
    let options = SandboxOptions {
        fault: Some(Fault::Status(503)),
        ..SandboxOptions::default()
    };
    let mut h = harness(options, None, Duration::from_secs(5)).await;
    h.until("the error", |app| app.browser.error().is_some())
        .await;
    assert!(h.screen().contains("HTTP 503"), "{}", h.screen());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_with_megabytes_of_properties_opens_without_freezing_the_loop() {
    let options = SandboxOptions {
        seed_demo: false,
        ..SandboxOptions::default()
    };
    let mut h = harness(options, None, Duration::from_secs(10)).await;
    let properties: serde_json::Map<String, serde_json::Value> = (0..20_000)
        .map(|i| {
            (
                format!("key_{i:05}"),
                serde_json::json!({"text": "x".repeat(200), "n": i}),
            )
        })
        .collect();
    let resource = serde_json::json!({"type": "blob", "name": "big", "properties": properties});
    h.sandbox
        .store()
        .insert(serde_json::from_value(resource).expect("a resource"));
    h.press(KeyCode::Char('r'));
    h.until("the big row", |app| loaded(app) == 1).await;
    h.press(KeyCode::Enter);
    h.until("the detail to be prepared", |app| {
        app.browser.opening.is_some()
    })
    .await;
    // While it is prepared, the loop still takes keys.
    h.press(KeyCode::Char('?'));
    h.until("the help", |app| app.overlay.is_some()).await;
    h.press(KeyCode::Esc);
    h.until("the detail", |app| {
        matches!(app.stack.top(), Some(Screen::Detail(_)))
    })
    .await;
    let screen = h.screen();
    assert!(screen.contains("key_00000"), "{screen}");
}

/// Issue 12 item 19: the mouse wheel and a bracketed paste go through the real event mapping.
#[tokio::test]
async fn the_mouse_wheel_scrolls_and_a_paste_fills_the_filter_at_once() {
    use crossterm::event::{MouseEvent, MouseEventKind};
    let mut h = harness(SandboxOptions::default(), None, Duration::from_secs(5)).await;
    h.until("the first page", |app| loaded(app) > 3).await;
    let wheel = |kind| {
        Ok(Event::Mouse(MouseEvent {
            kind,
            column: 10,
            row: 5,
            modifiers: KeyModifiers::NONE,
        }))
    };
    // The wheel scrolls the view (the selection follows when it would leave it).
    h.keys.send(wheel(MouseEventKind::ScrollDown)).unwrap();
    h.until("the wheel to scroll down", |app| {
        app.browser.cursor.offset > 0 && app.browser.cursor.selected >= app.browser.cursor.offset
    })
    .await;
    h.keys.send(wheel(MouseEventKind::ScrollUp)).unwrap();
    h.until("the wheel to scroll back up", |app| {
        app.browser.cursor.offset == 0
    })
    .await;
    // A paste outside a text input does nothing; inside the `/` filter it is the filter.
    h.press(KeyCode::Char('/'));
    h.until("the filter to open", |app| app.browser.filtering)
        .await;
    h.keys
        .send(Ok(Event::Paste("number 1\u{1b}[31m".into())))
        .unwrap();
    h.until("the pasted filter", |app| {
        app.browser.filter.text() == "number 1[31m"
    })
    .await;
    assert!(h.screen().contains("/number 1[31m"), "{}", h.screen());
}

/// Typing in the composer asks for one draft save, a quiet second later, through the loop's
/// only timer; once it is in the store, the loop sleeps again with nothing to wake it.
#[tokio::test]
async fn a_draft_is_saved_once_after_typing_and_then_the_loop_sleeps() {
    use appdeck_store::{DraftKey, Store};
    use appdeck_tui::DraftPlace;
    let mut h = harness(SandboxOptions::default(), None, Duration::from_secs(5)).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("appdeck.db");
    h.event_loop.keep_drafts(Some(DraftPlace {
        store: store.clone(),
        base_url: "http://service.example/api/v1".into(),
    }));
    h.until("the first page", |app| loaded(app) > 0).await;
    h.until("nothing in flight", |app| app.browser.in_flight().is_none())
        .await;
    h.press(KeyCode::Char('R'));
    h.until("the composer", |app| {
        matches!(app.stack.top(), Some(Screen::Report(_)))
    })
    .await;
    for code in [KeyCode::Char('j'), KeyCode::Char('j'), KeyCode::Enter] {
        h.press(code);
    }
    for c in "kept".chars() {
        h.press(KeyCode::Char(c));
    }
    h.press(KeyCode::Esc);
    let composer = |app: &App| match app.stack.top() {
        Some(Screen::Report(composer)) => Some(composer.as_ref().clone()),
        _ => None,
    };
    h.until("the draft saved", |app| {
        composer(app).is_some_and(|c| c.message.text() == "kept" && c.draft.saved == Some(Ok(())))
    })
    .await;
    let id = composer(&h.event_loop.app)
        .and_then(|c| c.resource_id.clone())
        .expect("a resource");
    let key = DraftKey::report("http://service.example/api/v1", Some(&id));
    let draft = Store::open(&store)
        .expect("the store")
        .load_draft(&key)
        .expect("readable")
        .expect("the draft is in the store");
    assert!(
        draft.body.contains("\"message\":\"kept\""),
        "{}",
        draft.body
    );
    assert_eq!(h.event_loop.app.wake_at(), None);
    let frames = h.event_loop.frames;
    let idle = tokio::time::timeout(Duration::from_millis(1500), h.event_loop.step()).await;
    assert!(idle.is_err(), "the loop woke up with nothing to do");
    assert_eq!(h.event_loop.frames, frames, "no frame drawn while idle");

    // The history lists it at the top, read from the store through the drafts' queue.
    h.press(KeyCode::Esc);
    h.press(KeyCode::Char('3'));
    h.until("the draft in the history", |app| match app.stack.top() {
        Some(Screen::History(view)) => view.rows.first().is_some_and(|r| r.kind == "draft"),
        _ => false,
    })
    .await;
    assert!(h.screen().contains("not sent"), "{}", h.screen());
}
