//! Issue 21 items 4 and 5: `-v`/`--trace` shows the wire without the token, and `appdeck api`
//! reaches any operation; run as the real binary against the sandbox and a small faulty server
//! on loopback.

use crate::common;

use common::faulty::{Reply, faulty};
use common::{Output, TestSandbox, run};

fn against(url: &str, args: &[&str]) -> Output {
    common::run_against(tempfile::tempdir().unwrap().path(), url, args)
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
            .contains(&format!("authorization: Bearer {}", common::TOKEN)),
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

// ---------------------------------------------------------------- -v / --trace

/// Every command that talks to the service traces its requests and answers on stderr, and the
/// token appears nowhere in what it prints.
#[test]
fn trace_shows_each_exchange_of_every_command_and_never_the_token() {
    let sandbox = TestSandbox::demo();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");
    let reports = sandbox.path("reports.ndjson");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{examples}/report.json")).unwrap())
            .unwrap();
    std::fs::write(&reports, format!("{report}\n")).unwrap();
    let reports = reports.display().to_string();
    let runs: [(Vec<String>, &str); 7] = [
        (vec!["list".into(), "-v".into()], "resources.list"),
        (
            vec!["list".into(), "--all".into(), "--trace".into()],
            "resources.list",
        ),
        (
            vec![
                "report".into(),
                format!("{examples}/report.json"),
                "-v".into(),
            ],
            "apps.operations.report",
        ),
        (
            vec!["report".into(), "--each".into(), reports, "-v".into()],
            "apps.operations.report",
        ),
        (
            vec![
                "connect".into(),
                format!("{examples}/connect.json"),
                "-v".into(),
            ],
            "apps.version.connect",
        ),
        (vec!["infer".into(), "-v".into()], "resources.list"),
        (
            vec!["api".into(), "resources.list".into(), "-v".into()],
            "resources.list",
        ),
    ];
    for (args, operation) in runs {
        let out = run(sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", sandbox.path("data"))
            .args(&args));
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        let err = &out.stderr;
        for part in [
            format!("> #1 POST {}/{operation} (", sandbox.base_url),
            "> authorization: Bearer ••••\n".to_owned(),
            "> content-type: application/json\n".to_owned(),
            "< #1 HTTP 200 OK (".to_owned(),
            "< content-length: ".to_owned(),
        ] {
            assert!(err.contains(&part), "{args:?}: no {part:?} in\n{err}");
        }
        assert!(
            !out.stdout.contains(common::TOKEN) && !err.contains(common::TOKEN),
            "{args:?}: the token is printed:\n{err}"
        );
    }
    let quiet = run(sandbox.appdeck().args(["list"]));
    assert!(!quiet.stderr.contains("> #1"), "no trace without -v");
}

#[test]
fn trace_cuts_bodies_at_v_shows_them_whole_at_vv_and_neutralises_them() {
    let body = format!(
        "{{\"resources\": [], \"note\": \"\u{1b}]0;pwned\u{7}\u{1b}[2J{}\"}}",
        "x".repeat(5000)
    );
    let answer = body.clone();
    let (url, _) = faulty(2, move |_| Reply::Answer("200 OK", answer.clone()));
    // `api`: the answer, not JSON with its raw controls, is a bad answer (issue 45 item 3),
    // traced all the same.
    let cut = against(&url, &["api", "resources.list", "-v"]);
    assert_eq!(cut.code, 1, "{cut:?}");
    assert_eq!(cut.stdout, "", "nothing of it printed");
    assert!(
        cut.stderr.contains(&format!(
            "< … (2000 of {} characters shown; -vv shows all)",
            body.chars().count()
        )),
        "{}",
        cut.stderr
    );
    assert!(cut.stderr.contains("␛]0;pwned␇␛[2J"), "{}", cut.stderr);
    let whole = against(&url, &["api", "resources.list", "-vv"]);
    assert_eq!(whole.code, 1, "{whole:?}");
    assert!(whole.stderr.contains(&"x".repeat(5000)), "{}", whole.stderr);
    for out in [&cut, &whole] {
        assert!(
            !out.stderr.chars().any(|c| c.is_control() && c != '\n'),
            "a control character reached stderr: {:?}",
            out.stderr
        );
    }
}

/// A server that echoes the request (its headers, the token among them) in its answer: the
/// trace masks the token there too; a failed connection is traced as no answer.
#[test]
fn trace_masks_the_token_a_server_echoes_and_says_when_no_answer_came() {
    let (url, _) = faulty(1, |request| {
        Reply::Answer(
            "200 OK",
            serde_json::json!({"echo": request.head}).to_string(),
        )
    });
    let out = against(&url, &["api", "echo.me", "-vv"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("Bearer ••••"), "{}", out.stderr);
    assert!(!out.stderr.contains(common::TOKEN), "{}", out.stderr);
    let refused = common::RefusedPort::bind();
    let out = against(&refused.base_url(), &["list", "-v", "--retries", "0"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("* #1 no answer ("), "{}", out.stderr);
}
