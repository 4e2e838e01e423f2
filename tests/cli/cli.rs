//! The `appdeck` binary end to end, over real HTTP on loopback against the sandbox: every
//! command's good path and its bad paths, with the exit status and the messages a user sees.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use appdeck_core::api::Resource;
use appdeck_sandbox::Fault;
use common::{RefusedPort, TOKEN, TestSandbox, appdeck, run, run_with_stdin, write_file};
use serde_json::{Value, json};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");

fn parse_ndjson(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn resource(value: Value) -> Resource {
    serde_json::from_value(value).unwrap()
}

/// A connect payload registering `widget`, whose properties need an integer `size`.
fn widget_connect() -> String {
    json!({
        "app_id": "cli-tests", "version": "1.0.0",
        "resources": [{
            "type": "widget", "display_name": "Widget", "list_supported": true,
            "property_json_schema": {
                "type": "object",
                "properties": {"size": {"type": "integer", "minimum": 0}},
                "required": ["size"]
            }
        }]
    })
    .to_string()
}

fn widget_report(size: Value) -> String {
    json!({
        "task_id": "task-1", "status": "ok", "message": "made a widget",
        "response": {"response_type": "resource", "resource": {
            "type": "widget", "external_id": "w-1", "name": "widget-one",
            "properties": {"size": size}
        }}
    })
    .to_string()
}

// ---------------------------------------------------------------- list

#[test]
fn list_prints_a_fitted_table_of_the_first_page_and_a_footer() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["list", "--limit", "20"]));
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    assert!(lines[0].starts_with("!  TYPE"), "{}", lines[0]);
    assert_eq!(lines.len(), 21, "a header and 20 rows");
    assert!(lines.iter().all(|l| unicode_width(l) <= 100), "{lines:#?}");
    assert!(
        out.stderr
            .contains("20 resources shown; more pages exist: use --all"),
        "{}",
        out.stderr
    );

    let narrow = run(sandbox
        .appdeck()
        .env("COLUMNS", "60")
        .args(["list", "--limit", "20"]));
    assert!(
        narrow.lines().iter().all(|l| unicode_width(l) <= 60),
        "{}",
        narrow.stdout
    );
}

fn unicode_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

#[test]
fn list_all_returns_every_resource_once_in_ndjson_and_json() {
    let sandbox = TestSandbox::demo();
    let total = sandbox.store().len();
    assert!(total > 100, "the demo spans several pages");

    let out = run(sandbox
        .appdeck()
        .args(["list", "--all", "--output", "ndjson"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let items = parse_ndjson(&out.stdout);
    assert_eq!(items.len(), total);
    let mut ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), total, "no resource repeated");

    let out = run(sandbox
        .appdeck()
        .args(["list", "--all", "-o", "json", "--limit", "500"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let array: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(array.len(), total);
    assert_eq!(array, items, "json and ndjson agree");
}

#[test]
fn list_pages_and_type_filter() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox
        .appdeck()
        .args(["list", "--pages", "2", "--limit", "7", "-o", "ndjson"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(parse_ndjson(&out.stdout).len(), 14);

    let all = parse_ndjson(&run(sandbox.appdeck().args(["list", "--all", "-o", "ndjson"])).stdout);
    let deployments = all.iter().filter(|i| i["type"] == "deployment").count();
    assert!(deployments > 0);
    let out =
        run(sandbox
            .appdeck()
            .args(["list", "--all", "--type", "deployment", "-o", "ndjson"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let items = parse_ndjson(&out.stdout);
    assert_eq!(items.len(), deployments);
    assert!(items.iter().all(|i| i["type"] == "deployment"));

    let out = run(sandbox.appdeck().args(["list", "-t", "no-such-type"]));
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.contains("no resources of type no-such-type"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_table_never_passes_escape_sequences_through() {
    let sandbox = TestSandbox::demo();
    sandbox.store().insert(resource(json!({
        "type": "zz-hostile", "display_name": "\u{1b}]52;c;cGF5bG9hZA==\u{7}\u{1b}[2Jwipe\u{202e}txt",
        "status": "\u{9b}31m", "external_id": "line\nbreak"
    })));
    let out = run(sandbox
        .appdeck()
        .env("COLUMNS", "200")
        .args(["list", "--all"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (what, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(!text.contains('\u{1b}'), "ESC on {what}");
        assert!(
            !text.contains('\u{9b}') && !text.contains('\u{202e}'),
            "C1 or bidi on {what}"
        );
    }
    assert!(
        out.stdout.contains("␛[31mred␛[0m␛]0;pwned␇ alert-bot"),
        "the demo's hostile row is shown, defused"
    );
    assert!(
        out.stdout.contains("␛]52;c;cGF5bG9hZA==␇␛[2Jwipe�txt"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("line␊break"));
}

#[test]
fn json_output_escapes_c1_controls_and_bidi_marks_and_keeps_the_data() {
    let sandbox = TestSandbox::start(false, 0, None);
    let name = "a\u{9b}31mb\u{202e}c\u{7f}\u{2067}\u{feff}";
    sandbox.store().insert(resource(json!({
        "type": "zz-hostile", "display_name": name, "external_id": "\u{1b}[2J"
    })));
    for format in ["ndjson", "json"] {
        let out = run(sandbox.appdeck().args(["list", "-o", format]));
        assert_eq!(out.code, 0, "{format}: {out:?}");
        assert!(
            !out.stdout.chars().any(|c| matches!(c,
                '\u{1b}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')),
            "{format}: {:?}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains(r#""display_name":"a\u009b31mb\u202ec\u007f\u2067\ufeff""#),
            "{format}: {}",
            out.stdout
        );
        let items = if format == "json" {
            serde_json::from_str::<Vec<Value>>(&out.stdout).unwrap()
        } else {
            parse_ndjson(&out.stdout)
        };
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["display_name"], name, "{format}: the same value");
        assert_eq!(items[0]["external_id"], "\u{1b}[2J");
    }
}

/// `appdeck list` against a base URL (a one-shot server), in a clean directory.
/// `list` against a server that answers once: retries off, since a retry would meet no server.
fn list_against(base_url: &str) -> common::Output {
    let dir = tempfile::tempdir().unwrap();
    run(appdeck(dir.path())
        .env("APPDECK_BASE_URL", base_url)
        .env("APPDECK_TOKEN", "t")
        .args(["list", "--retries", "0"]))
}

#[test]
fn a_page_that_is_json_but_not_a_page_is_quoted_in_the_error() {
    let base_url = common::answer_once("200 OK", r#"{"resources": 5, "next": null}"#);
    let out = list_against(&base_url);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(
        out.stderr,
        "appdeck: unreadable answer: `resources` should be an array, found a number \
         (body starts: {\"resources\": 5, \"next\": null})\n"
    );
}

/// An answer with no `resources` is no page (a wrong base URL answers so), not an empty last
/// page: `list` and `infer` say so and fail, as the terminal UI does, in the same words.
#[test]
fn an_answer_without_resources_is_a_bad_answer_not_an_empty_listing() {
    let base_url = common::answer_once("200 OK", r#"{"status":"ok"}"#);
    let out = list_against(&base_url);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("no `resources`"), "{}", out.stderr);
    let base_url = common::answer_once("200 OK", r#"{"status":"ok"}"#);
    let dir = tempfile::tempdir().unwrap();
    let infer = run(appdeck(dir.path())
        .env("APPDECK_BASE_URL", &base_url)
        .env("APPDECK_TOKEN", "t")
        .args(["infer"]));
    assert_eq!(infer.code, 1, "{infer:?}");
    assert!(infer.stderr.contains("no `resources`"), "{}", infer.stderr);
}

#[test]
fn an_error_status_with_an_empty_body_shows_the_status_line_alone() {
    let base_url = common::answer_once("502 Bad Gateway", "");
    let out = list_against(&base_url);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stderr, "appdeck: HTTP 502 Bad Gateway\n");
}

#[test]
fn a_redirect_is_an_error_not_followed() {
    // Following it would turn the POST into a GET elsewhere; the server answers only once, so a
    // followed redirect would end in a network error instead of this message.
    let base_url = common::answer_once_with("302 Found", "location: /elsewhere\r\n", "");
    let out = list_against(&base_url);
    assert_eq!(out.code, 1, "{out:?}");
    let origin = base_url.trim_end_matches("/api/v1");
    assert_eq!(
        out.stderr,
        format!(
            "appdeck: HTTP 302 Found: redirects are not followed; it points to {origin}/elsewhere\n"
        )
    );
}

#[test]
fn a_malformed_item_is_marked_in_the_table_and_kept_raw_in_ndjson() {
    let sandbox = TestSandbox::with_fault(Fault::MalformedItem);
    sandbox
        .store()
        .insert(resource(json!({"type": "zz", "name": "odd", "status": 7})));
    let out = run(sandbox.appdeck().args(["list", "--all"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.lines().iter().any(|l| l.starts_with("!  ")),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains("expected an object"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("/status: expected a string, found a number"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("marked !"), "{}", out.stderr);

    let out = run(sandbox.appdeck().args(["list", "-o", "ndjson"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(parse_ndjson(&out.stdout).iter().any(|v| !v.is_object()));
}

#[test]
fn a_wrong_or_missing_token_is_refused_clearly() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().env("APPDECK_TOKEN", "wrong").arg("list"));
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.starts_with("appdeck: HTTP 401"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("hint: check the token"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("wrong"), "the token is not echoed");

    let out = run(sandbox.appdeck().env_remove("APPDECK_TOKEN").arg("list"));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("no token: set APPDECK_TOKEN or pass --token-file"),
        "{}",
        out.stderr
    );

    let out = run(sandbox.appdeck().env_remove("APPDECK_BASE_URL").arg("list"));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("no base URL: pass --base-url URL or set APPDECK_BASE_URL")
    );

    let out = run(sandbox
        .appdeck()
        .args(["list", "--base-url", "ftp://x/api/v1"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("base URL \"ftp://x/api/v1\": only http and https are supported"),
        "the usage error names the bad scheme: {}",
        out.stderr
    );

    for url in [
        "ftp://user:hunter2@x/api/v1",
        "https://user:hunter2@/api/v1",
    ] {
        let out = run(sandbox.appdeck().args(["list", "--base-url", url]));
        assert_eq!(out.code, 2, "{out:?}");
        assert!(!out.stderr.contains("hunter2"), "{}", out.stderr);
        assert!(out.stderr.contains("://***@"), "{}", out.stderr);
    }
}

#[test]
fn server_faults_exit_1_with_the_reason() {
    for (fault, expected) in [
        (Fault::NotJson, "not JSON"),
        (Fault::Status(503), "HTTP 503"),
    ] {
        let sandbox = TestSandbox::with_fault(fault);
        let out = run(sandbox.appdeck().arg("list"));
        assert_eq!(out.code, 1, "{fault:?}: {out:?}");
        assert!(out.stderr.contains(expected), "{fault:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn a_repeating_cursor_stops_the_listing_and_keeps_what_was_printed() {
    let sandbox = TestSandbox::with_fault(Fault::RepeatCursor);
    let out = run(sandbox
        .appdeck()
        .args(["list", "--all", "-o", "ndjson", "--limit", "10"]));
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.contains("already used in this listing"),
        "{}",
        out.stderr
    );
    let printed = parse_ndjson(&out.stdout);
    assert!(!printed.is_empty() && printed.len() < sandbox.store().len());

    let out = run(sandbox
        .appdeck()
        .args(["list", "--all", "-o", "json", "--limit", "10"]));
    assert_eq!(out.code, 1);
    assert!(out.stdout.starts_with("[\n"));
    assert!(
        serde_json::from_str::<Value>(&out.stdout).is_err(),
        "left open: not a complete array"
    );
}

/// `args` against a sandbox sending empty pages for ever: it ends within 30 s, exit 1, saying
/// it stopped after 20 empty pages in a row.
fn stopped_by_empty_pages(sandbox: &TestSandbox, args: &[&str]) -> common::Output {
    let out = common::run_within(sandbox.appdeck().args(args), Duration::from_secs(30))
        .expect("the paging ends");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr
            .starts_with("appdeck: server fault: 20 empty pages in a row"),
        "{}",
        out.stderr
    );
    out
}

/// A server that sends empty pages for ever, each with a new cursor, used to be followed for
/// ever without a word: `list --all` stops after the first page and 20 empty ones, keeps what it
/// printed, says why and exits 1 (the pager's own test counts the requests).
#[test]
fn endless_empty_pages_stop_the_listing_with_exit_1() {
    let sandbox = TestSandbox::with_fault(Fault::EmptyPages);
    let out = stopped_by_empty_pages(
        &sandbox,
        &["list", "--all", "-o", "ndjson", "--limit", "10"],
    );
    assert_eq!(parse_ndjson(&out.stdout).len(), 10, "the first page stays");
}

/// `api resources.list --paginate` follows `next` by the rule `list` stops by: after the first
/// page and 20 empty ones it says why and exits 1, where it used to follow them for ever.
#[test]
fn api_paginate_stops_after_endless_empty_pages_as_list_does() {
    let sandbox = TestSandbox::with_fault(Fault::EmptyPages);
    let out = stopped_by_empty_pages(
        &sandbox,
        &["api", "resources.list", "-F", "limit=10", "--paginate"],
    );
    assert_eq!(
        out.stdout.lines().count(),
        21,
        "every page printed: {}",
        out.stdout
    );
}

#[test]
fn a_server_slower_than_the_timeout_is_abandoned() {
    let sandbox = TestSandbox::with_fault(Fault::Slow(Duration::from_secs(20)));
    let started = Instant::now();
    let out = run(sandbox.appdeck().args(["--timeout", "1", "list"]));
    assert_eq!(out.code, 1, "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(out.stderr.contains("timed out after 1s"), "{}", out.stderr);
    assert!(out.stderr.contains("raise --timeout"), "{}", out.stderr);
}

#[test]
fn an_unreachable_service_is_a_network_error() {
    let closed = RefusedPort::bind();
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).env("APPDECK_TOKEN", "t").args([
        "list",
        "--base-url",
        &closed.base_url(),
    ]));
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("network error"), "{}", out.stderr);
    assert!(
        out.stderr.contains("hint: check the base URL"),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------- report, connect, validate

#[test]
fn report_and_connect_send_checked_payloads() {
    let sandbox = TestSandbox::demo();
    let connect = write_file(&sandbox.path("connect.json"), &widget_connect(), 0o644);
    let out = run(sandbox.appdeck().arg("connect").arg(&connect));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with("status: ok"), "{}", out.stdout);

    let before = sandbox.store().len();
    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-"]),
        Some(&widget_report(json!(3))),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("status: ok\n"), "{}", out.stdout);
    assert!(
        out.stdout.contains("platform_app_url: http"),
        "{}",
        out.stdout
    );
    assert_eq!(sandbox.store().len(), before + 1);

    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-", "--output", "json"]),
        Some(&widget_report(json!(4))),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(answer["status"], "ok");
}

#[test]
fn a_refused_report_exits_1_with_the_services_reason() {
    let sandbox = TestSandbox::demo();
    let connect = write_file(&sandbox.path("connect.json"), &widget_connect(), 0o644);
    assert_eq!(run(sandbox.appdeck().arg("connect").arg(&connect)).code, 0);
    // Valid offline (no --types), but the sandbox checks the schema registered above.
    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-"]),
        Some(&widget_report(json!("big"))),
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with("appdeck: HTTP 422"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("/size"), "{}", out.stderr);
}

#[test]
fn a_2xx_answer_with_status_error_is_shown_and_exits_1() {
    let body = r#"{"status":"error","error":"task \u001b[31munknown","message":"m"}"#;
    let base_url = common::answer_once("200 OK", body);
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_stdin(
        appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t")
            .args(["report", "-"]),
        Some(&widget_report(json!(1))),
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(
        out.stdout,
        "status: error\nmessage: m\nerror: task ␛[31munknown\n"
    );
    assert_eq!(
        out.stderr,
        "appdeck: the service answered with an error: task ␛[31munknown\n"
    );
}

#[test]
fn report_output_json_is_the_answer_with_c1_and_bidi_escaped() {
    let body = "{\"status\":\"ok\",\"message\":\"saved \u{9b}2J\u{202e}\",\"x\":[1]}";
    let base_url = common::answer_once("200 OK", body);
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_stdin(
        appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t")
            .args(["report", "-", "--output", "json"]),
        Some(&widget_report(json!(1))),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(r#""message": "saved \u009b2J\u202e""#),
        "{}",
        out.stdout
    );
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(answer, serde_json::from_str::<Value>(body).unwrap());
}

#[test]
fn a_report_answer_that_is_not_an_object_is_unreadable() {
    let base_url = common::answer_once("200 OK", "[1]");
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_stdin(
        appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t")
            .args(["report", "-", "--output", "json"]),
        Some(&widget_report(json!(1))),
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "appdeck: unreadable answer: expected a JSON object, found an array (body starts: [1])\n"
    );
}

#[test]
fn broken_payloads_are_not_sent() {
    let sandbox = TestSandbox::demo();
    let before = sandbox.store().len();

    let broken = write_file(
        &sandbox.path("broken.json"),
        "{\n  \"task_id\": \"t\",\n  \"status\": ok\n}",
        0o644,
    );
    let out = run(sandbox.appdeck().arg("report").arg(&broken));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("broken.json:3:"),
        "line and column: {}",
        out.stderr
    );
    assert!(out.stderr.contains("syntax error"), "{}", out.stderr);

    let out = run(sandbox
        .appdeck()
        .arg("report")
        .arg(format!("{EXAMPLES}/report-invalid.json")));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("error at /status"), "{}", out.stderr);
    assert!(
        out.stderr.contains("not sent (invalid: 5 errors"),
        "{}",
        out.stderr
    );

    let out = run(sandbox
        .appdeck()
        .arg("report")
        .arg(format!("{EXAMPLES}/connect.json")));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("send it with `appdeck connect`"),
        "{}",
        out.stderr
    );

    let out = run(sandbox.appdeck().args(["connect", "/no/such/file.json"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("cannot read /no/such/file.json"),
        "{}",
        out.stderr
    );

    assert_eq!(sandbox.store().len(), before, "nothing reached the sandbox");
}

#[test]
fn validate_reports_findings_and_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let good = run(appdeck(dir.path()).args(["validate", &format!("{EXAMPLES}/report.json")]));
    assert_eq!(good.code, 0, "{good:?}");
    assert_eq!(
        good.stdout,
        "kind: task report\nvalid: no errors, no warnings\n"
    );

    let bad =
        run(appdeck(dir.path()).args(["validate", &format!("{EXAMPLES}/report-invalid.json")]));
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stdout.contains("error at /task_id:"), "{}", bad.stdout);
    assert!(bad.stdout.contains("warning at "), "{}", bad.stdout);
    assert!(
        bad.stdout.ends_with("invalid: 5 errors, 3 warnings\n"),
        "{}",
        bad.stdout
    );

    let syntax = run_with_stdin(
        appdeck(dir.path()).args(["validate", "-"]),
        Some("{\"a\": [1,,2]}"),
    );
    assert_eq!(syntax.code, 2, "{syntax:?}");
    assert!(
        syntax.stderr.starts_with("appdeck: stdin:1:"),
        "{}",
        syntax.stderr
    );

    let connect = run(appdeck(dir.path()).args(["validate", &format!("{EXAMPLES}/connect.json")]));
    assert_eq!(connect.code, 0, "{connect:?}");
    assert!(connect.stdout.starts_with("kind: version-connect payload"));
}

#[test]
fn validate_checks_properties_against_types() {
    let dir = tempfile::tempdir().unwrap();
    let types = write_file(&dir.path().join("types.json"), &widget_connect(), 0o644);
    let report = write_file(&dir.path().join("r.json"), &widget_report(json!(-1)), 0o644);
    let out = run(appdeck(dir.path())
        .arg("validate")
        .arg(&report)
        .arg("--types")
        .arg(&types));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout
            .contains("error at /response/resource/properties/size"),
        "{}",
        out.stdout
    );

    let mut boolean: Value = serde_json::from_str(&widget_connect()).unwrap();
    boolean["resources"][0]["property_json_schema"] = json!(true);
    let boolean = write_file(
        &dir.path().join("boolean.json"),
        &boolean.to_string(),
        0o644,
    );
    let fine = write_file(&dir.path().join("ok.json"), &widget_report(json!(1)), 0o644);
    let out = run(appdeck(dir.path())
        .arg("validate")
        .arg(&fine)
        .arg("--types")
        .arg(&boolean));
    assert_eq!(
        out.code, 2,
        "a boolean schema is unusable, as for connect: {out:?}"
    );
    assert!(
        out.stdout.contains(
            "error at /response/resource/properties: not checked: the property_json_schema"
        ) && out.stdout.contains("found the boolean schema `true`"),
        "{}",
        out.stdout
    );

    let out = run(appdeck(dir.path())
        .arg("validate")
        .arg(&fine)
        .arg("--types")
        .arg(&types));
    assert_eq!(out.code, 0, "{out:?}");
}

// ---------------------------------------------------------------- configuration

#[test]
fn profiles_follow_flag_env_profile_precedence() {
    let sandbox = TestSandbox::demo();
    let token_file = write_file(&sandbox.path("good.token"), TOKEN, 0o600);
    let config = format!(
        "default_profile = \"good\"\n\
         [profiles.good]\nbase_url = \"{url}\"\ntoken_file = \"{file}\"\n\
         [profiles.bad]\nbase_url = \"{url}\"\ntoken = \"not-the-token\"\n",
        url = sandbox.base_url,
        file = token_file.display()
    );
    write_file(&sandbox.path("config.toml"), &config, 0o600);
    let bare = || {
        let mut cmd = appdeck(sandbox.dir.path());
        cmd.args(["list", "--limit", "1", "-o", "ndjson"]);
        cmd
    };

    let out = run(&mut bare());
    assert_eq!(out.code, 0, "the default profile works: {out:?}");
    assert_eq!(out.stderr, "", "no warning for private files");
    assert_eq!(
        run(bare().env("APPDECK_PROFILE", "bad")).code,
        1,
        "env picks the bad profile"
    );
    let out = run(bare()
        .env("APPDECK_PROFILE", "bad")
        .args(["--profile", "good"]));
    assert_eq!(out.code, 0, "the flag beats the env: {out:?}");
    let out = run(bare()
        .env("APPDECK_PROFILE", "bad")
        .env("APPDECK_TOKEN", TOKEN));
    assert_eq!(out.code, 0, "the env token beats the profile's: {out:?}");
    let closed = RefusedPort::bind();
    let out = run(bare().env("APPDECK_BASE_URL", closed.base_url()));
    assert_eq!(out.code, 1, "the env URL beats the profile's: {out:?}");
    assert!(
        out.stderr.contains("network error"),
        "the refused port was tried: {}",
        out.stderr
    );
    let out = run(bare()
        .env("APPDECK_BASE_URL", closed.base_url())
        .args(["--base-url", &sandbox.base_url]));
    assert_eq!(out.code, 0, "the flag URL beats the env's: {out:?}");

    let out = run(bare().args(["--profile", "staging"]));
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("unknown profile \"staging\""),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("bad, good"), "{}", out.stderr);
}

#[test]
fn config_show_masks_the_token_and_names_sources() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path())
        .env("APPDECK_TOKEN", "super-secret-token")
        .args([
            "config",
            "show",
            "--base-url",
            "http://127.0.0.1:9/api/v1",
            "--timeout",
            "2.5",
        ]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("super-secret-token"));
    assert!(
        out.stdout
            .contains("token            ******** (from env APPDECK_TOKEN)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("base_url         http://127.0.0.1:9/api/v1 (from flag --base-url)")
    );
    assert!(
        out.stdout
            .contains("request_timeout  2.5s (from flag --timeout)")
    );
    assert!(out.stdout.contains("connect_timeout  10s (from default)"));
    assert!(
        out.stdout.contains("[not found] (from env APPDECK_CONFIG)"),
        "{}",
        out.stdout
    );

    let out = run(appdeck(dir.path())
        .env("APPDECK_TOKEN", "t")
        .env("APPDECK_BASE_URL", "https://ci:hunter2@example.com/api/v1")
        .args(["config", "show"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("hunter2"), "{}", out.stdout);
    assert!(
        out.stdout.contains(
            "base_url         https://***@example.com/api/v1 (from env APPDECK_BASE_URL)"
        ),
        "{}",
        out.stdout
    );

    let out = run(appdeck(dir.path()).args(["config", "show"]));
    assert_eq!(out.code, 2, "incomplete settings: {out:?}");
    assert!(
        out.stdout.contains("(not set: set APPDECK_TOKEN"),
        "{}",
        out.stdout
    );

    let out = run(appdeck(dir.path()).args(["config", "path"]));
    assert_eq!(out.code, 0);
    // Issue 20 item 14: the config file's path alone, as its help says.
    assert_eq!(
        out.lines(),
        [dir.path().join("config.toml").display().to_string()],
        "the config file only"
    );
}

#[test]
fn shared_secrets_are_warned_about() {
    let sandbox = TestSandbox::demo();
    let shared = write_file(&sandbox.path("shared.token"), &format!("{TOKEN}\n"), 0o644);
    let out = run(sandbox
        .appdeck()
        .env_remove("APPDECK_TOKEN")
        .arg("--token-file")
        .arg(&shared)
        .args(["list", "--limit", "1"]));
    assert_eq!(out.code, 0, "{out:?}");
    if cfg!(unix) {
        assert!(
            out.stderr.contains("appdeck: warning: token file"),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("chmod 600"), "{}", out.stderr);
    }

    let config = write_file(
        &sandbox.path("config.toml"),
        "[profiles.p]\ntoken = \"x\"\n",
        0o644,
    );
    let out = run(sandbox.appdeck().args(["config", "show"]));
    if cfg!(unix) {
        assert!(
            out.stderr
                .contains(&format!("{} holds a token", config.display())),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn help_documents_exit_codes_environment_and_log() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).arg("--help"));
    assert_eq!(out.code, 0);
    for needle in [
        "Exit status",
        "1  API or network error",
        "APPDECK_TOKEN",
        "appdeck.log",
    ] {
        assert!(out.stdout.contains(needle), "{needle}: {}", out.stdout);
    }
    let out = run(appdeck(dir.path()).args(["list", "--token", "x"]));
    assert_eq!(out.code, 2, "no flag takes the token: {out:?}");
}

// ---------------------------------------------------------------- sandbox subprocess

/// Kills the child if the test fails before it is stopped.
struct Reap(std::process::Child);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_sandbox_command_prints_its_settings_and_serves_until_terminated() {
    let dir = tempfile::tempdir().unwrap();
    let child = appdeck(dir.path())
        .args([
            "sandbox",
            "--listen",
            "127.0.0.1:0",
            "--token",
            "sub-token",
            "--empty",
            "--generate",
            "120",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut child = Reap(child);
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut settings = Vec::new();
    while settings.len() < 2 {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the sandbox prints its settings");
        settings.push(line);
    }
    let base_url = settings[0]
        .strip_prefix("export APPDECK_BASE_URL=")
        .expect("base URL line");
    assert!(base_url.ends_with("/api/v1"), "{base_url}");
    assert_eq!(settings[1], "export APPDECK_TOKEN=sub-token");

    let out = run(appdeck(dir.path())
        .env("APPDECK_BASE_URL", base_url)
        .env("APPDECK_TOKEN", "sub-token")
        .args(["list", "--all", "-o", "ndjson"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(parse_ndjson(&out.stdout).len(), 120);

    #[cfg(unix)]
    {
        let pid = child.0.id().to_string();
        // The only test of the graceful stop: if the signal cannot be sent, it fails rather
        // than passing without having tested anything.
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(killed.success(), "kill -TERM {pid} failed: {killed}");
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = child.0.try_wait().unwrap() {
                break Some(status);
            }
            if Instant::now() > deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(
            status.expect("stops on SIGTERM").success(),
            "graceful stop exits 0"
        );
    }
}

#[test]
fn report_curl_prints_a_command_without_the_token_that_the_sandbox_accepts() {
    let sandbox = TestSandbox::demo();
    let before = sandbox.store().len();
    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-", "--curl"]),
        Some(&widget_report(json!(3))),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(sandbox.store().len(), before, "--curl sends nothing");
    let line = out.stdout.trim_end();
    assert!(line.starts_with("curl "), "{line}");
    assert!(!line.contains(common::TOKEN), "the token is never printed");
    assert!(line.contains("$APPDECK_TOKEN"), "{line}");
    // Run as printed, in a shell, with the token only in the environment.
    let ran = run(std::process::Command::new("sh")
        .args(["-c", line])
        .env("APPDECK_TOKEN", common::TOKEN));
    assert_eq!(ran.code, 0, "{ran:?}");
    let answer: Value = serde_json::from_str(&ran.stdout).expect("a JSON answer");
    assert_eq!(answer["status"], "ok", "{answer}");
    assert_eq!(sandbox.store().len(), before + 1);
}

/// With stdout closed (`appdeck list >&-`), the output cannot go anywhere: `list`, `report` and
/// `validate` say so on stderr and exit 1, where they used to exit 0 having lost it (Rust's
/// stdout takes EBADF for done). Only a closed pipe is a quiet end (tested with `| head`).
#[test]
fn a_closed_stdout_is_an_error_not_a_quiet_success() {
    use std::os::unix::process::CommandExt;
    let sandbox = TestSandbox::demo();
    let report = sandbox.path("report.json");
    std::fs::write(&report, include_str!("../../assets/examples/report.json")).unwrap();
    let report = report.to_str().unwrap();
    for args in [
        vec!["list"],
        vec!["report", report],
        vec!["validate", report],
    ] {
        let mut cmd = sandbox.appdeck();
        cmd.args(&args);
        // SAFETY: close(2) only, in the child between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                libc::close(1);
                Ok(())
            });
        }
        let out = run(&mut cmd);
        assert_eq!(out.code, 1, "{args:?}: {out:?}");
        assert!(
            out.stderr.contains("cannot write the output") && out.stderr.contains("os error 9"),
            "{args:?}: {}",
            out.stderr
        );
    }
}
