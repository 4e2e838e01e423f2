//! Issue 21 items 4 and 5: `-v`/`--trace` shows the wire without the token, and `appdeck api`
//! reaches any operation; run as the real binary against the sandbox and a small faulty server
//! on loopback.

mod common;

use std::time::Duration;

use common::faulty::{Reply, faulty};
use common::{Output, TestSandbox, run};

fn against(url: &str, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    common::run_within(
        common::appdeck(dir.path())
            .env("APPDECK_TOKEN", "t0ken-never-shown")
            .env("APPDECK_BASE_URL", url)
            .args(args),
        Duration::from_secs(30),
    )
    .expect("appdeck finishes")
}

// ---------------------------------------------------------------- appdeck api

#[test]
fn api_on_an_unknown_operation_shows_the_404_on_stderr() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["api", "apps.nosuch.operation"]));
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.starts_with(&format!(
            "appdeck: POST {}/apps.nosuch.operation: HTTP 404 Not Found\n{{",
            sandbox.base_url
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("apps.nosuch.operation"),
        "the body: {}",
        out.stderr
    );
}

#[test]
fn api_sends_the_body_as_written_and_prints_the_answer_as_it_came() {
    let answer = r#"{"z": 1.50, "a": 123456789012345678901234567890, "e": 1E2, "s": "x"}"#;
    let (url, requests) = faulty(4, move |_| Reply::Answer("200 OK", answer.to_owned()));
    let out = against(
        &url,
        &["api", "things.get", r#"{"limit": 2.0, "b": 1, "a": 2}"#],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, answer, "byte for byte");
    let out = against(&url, &["api", "things.get", "--jq", ".a"]);
    assert_eq!(out.stdout, "123456789012345678901234567890\n");
    let requests = requests.lock().unwrap();
    assert_eq!(requests[0].line, "POST /api/v1/things.get HTTP/1.1");
    assert_eq!(requests[0].body, r#"{"limit": 2.0, "b": 1, "a": 2}"#);
    assert!(
        requests[0]
            .head
            .contains("authorization: Bearer t0ken-never-shown"),
        "the profile's auth: {}",
        requests[0].head
    );
    assert_eq!(requests[1].body, "{}", "the default body");
}

#[test]
fn api_reads_the_body_from_a_file_or_stdin_and_jq_shapes_the_answer() {
    let sandbox = TestSandbox::demo();
    let body = sandbox.path("body.json");
    std::fs::write(&body, r#"{"limit": 2}"#).unwrap();
    let from_file = run(sandbox.appdeck().args([
        "api",
        "resources.list",
        &format!("@{}", body.display()),
        "--jq",
        ".resources | length",
    ]));
    assert_eq!(from_file.code, 0, "{from_file:?}");
    assert_eq!(from_file.stdout, "2\n");
    let from_stdin = common::run_with_stdin(
        sandbox
            .appdeck()
            .args(["api", "resources.list", "-", "--jq", ".resources | length"]),
        Some(r#"{"limit": 1}"#),
    );
    assert_eq!(from_stdin.code, 0, "{from_stdin:?}");
    assert_eq!(from_stdin.stdout, "1\n");
}

#[test]
fn api_refuses_an_operation_that_leaves_the_base_url_and_a_body_that_is_not_json() {
    let (url, requests) = faulty(4, |_| Reply::Answer("200 OK", "{}".to_owned()));
    for operation in ["a/b", "../x", "x?y=1", "x#y", "..", "%2e%2e"] {
        let out = against(&url, &["api", operation]);
        assert_eq!(out.code, 2, "{operation}: {out:?}");
        assert!(out.stderr.starts_with("appdeck: "), "{}", out.stderr);
    }
    let out = against(&url, &["api", "x.y", "{not json"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("syntax error"), "{}", out.stderr);
    let out = against(&url, &["api", "apps.operations.report", "--read-only"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("resources.list only"), "{}", out.stderr);
    assert!(requests.lock().unwrap().is_empty(), "nothing sent");
}

#[test]
fn api_is_never_retried() {
    let (url, requests) = faulty(4, |_| {
        Reply::Answer("503 Service Unavailable", r#"{"error":"busy"}"#.to_owned())
    });
    let out = against(&url, &["api", "apps.operations.report", "{}"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr
            .contains("HTTP 503 Service Unavailable\n{\"error\":\"busy\"}"),
        "{}",
        out.stderr
    );
    assert_eq!(requests.lock().unwrap().len(), 1, "sent once");
}
