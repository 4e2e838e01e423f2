//! A service that repeats the token (in a 401's body, a message, a URL, a header) never gets it
//! shown, printed or stored: the client masks every answer where it enters. Each run talks to a
//! loopback server that answers once with the token in it.

use crate::common;

use std::path::Path;

use appdeck_core::api::{Client, ClientSettings, Operation, Token};
use appdeck_tui::Theme;
use appdeck_tui::{Action, App, Session};
use common::{TOKEN, answer_once_raw, run_against};
use crossterm::event::KeyCode;
use ratatui::layout::Rect;

const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/report.json");

/// What stands for the token.
const MASK: &str = "••••";

/// A server answering once with `status`, the token in a header, and `body`.
fn echoing(status: &str, body: &str) -> String {
    answer_once_raw(format!(
        "HTTP/1.1 {status}\r\nx-echo: {TOKEN}\r\nwww-authenticate: Bearer error=\"{TOKEN}\"\r\n\
         content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ))
}

fn refusal() -> String {
    format!(
        r#"{{"status": "error", "error": "bad token {TOKEN}", "message": "see https://h/{TOKEN}"}}"#
    )
}

fn assert_masked(what: &str, text: &str) {
    assert!(!text.contains(TOKEN), "{what} shows the token: {text}");
}

#[test]
fn list_and_its_resume_hint_mask_a_token_the_server_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let url = echoing("401 Unauthorized", &refusal());
    // A cursor the user gave that is the token's text is masked in the hint too.
    let out = run_against(dir.path(), &url, &["list", "--from", TOKEN]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_masked("list's stderr", &out.stderr);
    assert_masked("list's stdout", &out.stdout);
    assert!(
        out.stderr.contains(&format!("bad token {MASK}")),
        "{}",
        out.stderr
    );
    // No resume hint after a 401 (the request itself was refused): nothing to mask there.
    assert!(!out.stderr.contains("--from"), "{}", out.stderr);

    // A header the answer depends on (an encoding appdeck cannot read) is masked as well.
    let url = answer_once_raw(format!(
        "HTTP/1.1 200 OK\r\ncontent-encoding: {TOKEN}\r\ncontent-length: 2\r\n\
         connection: close\r\n\r\n{{}}"
    ));
    let out = run_against(dir.path(), &url, &["list"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_masked("list's stderr", &out.stderr);
    assert!(out.stderr.contains(MASK), "{}", out.stderr);
}

#[test]
fn api_masks_the_token_in_the_url_and_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let url = echoing("404 Not Found", &refusal());
    let out = run_against(dir.path(), &url, &["api", TOKEN]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_masked("api's stderr", &out.stderr);
    assert!(
        out.stderr.contains(&format!("/{MASK}: HTTP 404")),
        "{}",
        out.stderr
    );

    let url = echoing("200 OK", &format!(r#"{{"seen": "Bearer {TOKEN}"}}"#));
    let out = run_against(dir.path(), &url, &["api", "resources.list"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_masked("api's stdout", &out.stdout);
    assert!(
        out.stdout.contains(&format!("Bearer {MASK}")),
        "{}",
        out.stdout
    );
}

#[test]
fn report_and_the_history_never_hold_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let accepted = format!(
        r#"{{"status": "ok", "message": "accepted for {TOKEN}", "metadata": {{"url": "https://h/{TOKEN}"}}}}"#
    );
    let out = run_against(
        dir.path(),
        &echoing("200 OK", &accepted),
        &["report", REPORT],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_masked("report's stdout", &out.stdout);
    assert_masked("report's stderr", &out.stderr);
    assert!(out.stdout.contains(MASK), "{}", out.stdout);

    let out = run_against(
        dir.path(),
        &echoing("401 Unauthorized", &refusal()),
        &["report", REPORT],
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_masked("report's stdout", &out.stdout);
    assert_masked("report's stderr", &out.stderr);

    for id in ["1", "2"] {
        let out = run_against(
            dir.path(),
            "http://127.0.0.1:9/api/v1",
            &["history", "show", id],
        );
        assert_eq!(out.code, 0, "{out:?}");
        assert_masked("history show", &out.stdout);
        assert!(out.stdout.contains(MASK), "{}", out.stdout);
    }
    assert_file_masked(&dir.path().join("data"));
}

/// No file of the store (the database, its journal) holds the token's bytes, or its spellings.
fn assert_file_masked(data: &Path) {
    let mut seen = 0;
    for entry in std::fs::read_dir(data).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        seen += bytes.len();
        for spelling in [TOKEN, ESCAPED, ENCODED] {
            assert!(
                memchr::memmem::find(&bytes, spelling.as_bytes()).is_none(),
                "{} holds the token as {spelling}",
                path.display()
            );
        }
    }
    assert!(seen > 0, "the store was written");
}

#[test]
fn the_status_bar_and_the_error_popup_mask_the_token() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = echoing("401 Unauthorized", &refusal());
    let client = Client::new(&ClientSettings::new(url, Token::new(TOKEN))).unwrap();
    // What the executor hands the list for its first page.
    let exchange =
        runtime.block_on(client.exchange(Operation::ResourcesList, &serde_json::json!({})));
    let session = Session {
        origin: "demo".into(),
        host: "127.0.0.1:8080".into(),
        warnings: Vec::new(),
    };
    let (mut app, commands) = App::new(session, Rect::new(0, 0, 100, 24), None);
    let id = appdeck_tui::harness::api_request(&commands).expect("the first page is asked");
    app.update(Action::reply(id, Box::new(exchange)));
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
        .unwrap()
        .to_utc();
    let screen = appdeck_tui::harness::draw(&app, &Theme::MONOCHROME, now);
    let screen = screen.to_string();
    assert_masked("the screen", &screen);
    assert!(screen.contains(MASK), "{screen}");
    insta::assert_snapshot!("token_masked_screen", screen);

    appdeck_tui::harness::press(&mut app, KeyCode::Char('!'));
    let popup = appdeck_tui::harness::draw(&app, &Theme::MONOCHROME, now).to_string();
    assert_masked("the ! popup", &popup);
    assert!(popup.contains(&format!("bad token {MASK}")), "{popup}");
}

/// The token as a JSON writer escaping characters spells it, and as a URL percent-encoding it.
const ESCAPED: &str = r"\u0074est\u002Dto\u006ben";
const ENCODED: &str = "test%2dtoken";

/// A server answering once with `status` and `body`, nothing else holding the token.
fn answering(status: &str, body: &str) -> String {
    answer_once_raw(format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    ))
}

#[test]
fn a_token_the_server_spells_with_escapes_is_masked_before_it_is_decoded() {
    // A 401 whose JSON message escapes the token: the error the client gives (what the status
    // bar, `!` and stderr show) reads it decoded, so it must hold the mask instead.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let refusal = format!(
        r#"{{"status": "error", "error": "bad token {ESCAPED}", "message": "see https://h/{ENCODED}"}}"#
    );
    let client = Client::new(&ClientSettings::new(
        answering("401 Unauthorized", &refusal),
        Token::new(TOKEN),
    ))
    .unwrap();
    let exchange =
        runtime.block_on(client.exchange(Operation::ResourcesList, &serde_json::json!({})));
    let error = exchange.result.expect_err("a 401 is an error").to_string();
    assert_masked("the client's error", &error);
    assert!(error.contains(&format!("bad token {MASK}")), "{error}");

    let dir = tempfile::tempdir().unwrap();
    let out = run_against(
        dir.path(),
        &answering("401 Unauthorized", &refusal),
        &["list"],
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_masked("list's stderr", &out.stderr);
    assert!(
        out.stderr.contains(&format!("bad token {MASK}")),
        "{}",
        out.stderr
    );

    // `--jq` decodes the answer's strings: made from the masked body, it prints the mask.
    let seen = format!(r#"{{"seen": "Bearer {ESCAPED}", "url": "https://h/{ENCODED}"}}"#);
    let out = run_against(
        dir.path(),
        &answering("200 OK", &seen),
        &["api", "resources.list", "--jq", ".seen, .url"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_masked("api --jq", &out.stdout);
    assert_eq!(out.stdout, format!("Bearer {MASK}\nhttps://h/{MASK}\n"));

    // The history keeps the masked answer: neither `history show` nor the store holds it.
    let accepted = format!(
        r#"{{"status": "ok", "message": "accepted for {ESCAPED}", "metadata": {{"url": "https://h/{ENCODED}"}}}}"#
    );
    let out = run_against(
        dir.path(),
        &answering("200 OK", &accepted),
        &["report", REPORT],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_masked("report's stdout", &out.stdout);
    let out = run_against(
        dir.path(),
        "http://127.0.0.1:9/api/v1",
        &["history", "show", "1"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_masked("history show", &out.stdout);
    assert!(
        !out.stdout.contains(ESCAPED) && !out.stdout.contains(ENCODED),
        "{}",
        out.stdout
    );
    assert_file_masked(&dir.path().join("data"));
}
