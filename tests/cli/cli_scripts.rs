//! Issue 21, "scripts against a real service": the flags a script writer uses (`--jq`, csv and
//! tsv, `--columns`, retries, `--from`, `report --each`, `--trace`, `api`, `--watch`), run as
//! the real binary against the sandbox or a small faulty server on loopback.

use crate::common;

use appdeck_core::api::Resource;
use common::{TestSandbox, run};
use serde_json::{Value, json};

fn resource(value: Value) -> Resource {
    serde_json::from_value(value).unwrap()
}

/// An empty sandbox holding the given resources, in order.
fn sandbox_with(resources: &[Value]) -> TestSandbox {
    let sandbox = TestSandbox::start(false, 0, None);
    let store = sandbox.store();
    for r in resources {
        store.insert(resource(r.clone()));
    }
    sandbox
}

/// Resources whose values test the quoting: commas, quotes, newlines, tabs, exact numbers.
fn awkward() -> Vec<Value> {
    vec![
        serde_json::from_str(
            r#"{"id": "r1", "type": "repository", "name": "a, b", "status": "active",
                "properties": {"stars": 123456789012345678901234567890, "ratio": 1.50}}"#,
        )
        .unwrap(),
        json!({"id": "r2", "type": "repository", "name": "say \"hi\"\nand\tgo",
               "properties": {}}),
        json!({"id": "r3", "type": "user", "name": "plain"}),
    ]
}

// ---------------------------------------------------------------- --jq

#[test]
fn jq_runs_on_each_resource_and_keeps_numbers_exact() {
    let sandbox = sandbox_with(&awkward());
    let out = run(sandbox.appdeck().args([
        "list",
        "--jq",
        "select(.type == \"repository\") | [.id, .properties.stars, .properties.ratio]",
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.lines(),
        [
            r#"["r1",123456789012345678901234567890,1.50]"#,
            r#"["r2",null,null]"#
        ]
    );
    // A string result prints raw, as with `gh --jq`.
    let out = run(sandbox.appdeck().args(["list", "--jq", ".name"]));
    assert_eq!(out.stdout, "a, b\nsay \"hi\"\nand\tgo\nplain\n");
}

#[test]
fn a_bad_jq_expression_is_a_usage_error_before_any_request() {
    let sandbox = sandbox_with(&awkward());
    let out = run(sandbox.appdeck().args(["list", "--jq", ".id |"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("not a valid jq expression"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

/// A jq program's `env` has neither `APPDECK_TOKEN` nor a variable holding its value:
/// `list --jq 'env.APPDECK_TOKEN'` printed the token (a tester's finding), and `--where` could
/// tell it character by character. `api --jq` runs the same programs.
#[test]
fn jq_programs_never_see_the_token() {
    let sandbox = sandbox_with(&awkward());
    let token = common::TOKEN;
    let looks_for_it = format!("env | tostring | contains(\"{token}\")");
    let runs: [&[&str]; 4] = [
        &["list", "--jq", "env.APPDECK_TOKEN, env.COPY_OF_IT"],
        &["list", "--jq", "env | tostring"],
        &["list", "--where", &looks_for_it],
        &["api", "resources.list", "--jq", "env | tostring"],
    ];
    for args in runs {
        let out = run(sandbox.appdeck().env("COPY_OF_IT", token).args(args));
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert!(
            !out.stdout.contains(token) && !out.stderr.contains(token),
            "{args:?}: {out:?}"
        );
        if args[1] == "--where" {
            assert!(
                !out.stdout.contains("r1"),
                "no row holds it: {}",
                out.stdout
            );
        }
    }
    // `env` itself still works.
    let out = run(sandbox
        .appdeck()
        .env("COPY_OF_IT", token)
        .args(["list", "--jq", "env.HOME"]));
    assert!(
        out.stdout.starts_with(sandbox.dir.path().to_str().unwrap()),
        "{out:?}"
    );
}

/// jaq ends the process on `halt` unless told otherwise: the lines before it were lost and the
/// exit status was 0. And a long chain of terms (a pasted list of ids) overflowed the stack.
#[test]
fn halt_is_an_error_after_the_lines_before_it_and_a_long_chain_runs() {
    let sandbox = sandbox_with(&awkward());
    let halt = ".id, (if .id == \"r2\" then halt else empty end)";
    let out = run(sandbox.appdeck().args(["list", "--jq", halt]));
    // Issue 35 item 2: an error on one resource is that resource's; the listing goes on.
    assert_eq!(out.code, 5, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("line 2 (id r2): --jq: halt(0) is not supported"),
        "{}",
        out.stderr
    );
    assert_eq!(
        out.lines(),
        ["r1", "r2", "r3"],
        "the lines before it are written"
    );

    let ids: Vec<String> = (0..5000).map(|i| format!("\"x{i}\"")).collect();
    let long = format!(".id as $i | [{},\"r2\"] | any(. == $i)", ids.join(","));
    let out = run(sandbox.appdeck().args(["list", "--jq", &long]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines()[..2], ["false", "true"]);
    let pipes = format!(".id{}", " | .".repeat(15_000));
    let out = run(sandbox.appdeck().args(["list", "--jq", &pipes]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines()[0], "r1");
}

#[test]
fn jq_shapes_the_answer_of_report_and_history() {
    let sandbox = TestSandbox::demo();
    let report = sandbox.path("report.json");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/report.json"),
        &report,
    )
    .unwrap();
    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", sandbox.path("data"))
        .args(["report", "--jq", ".status"])
        .arg(&report));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "ok\n");
    let out = run(sandbox
        .appdeck()
        .env_remove("APPDECK_BASE_URL")
        .env_remove("APPDECK_TOKEN")
        .env("APPDECK_DATA_DIR", sandbox.path("data"))
        .args(["history", "--jq", ".[] | [.kind, .http_status]"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "[\"report\",200]\n");
}

// ---------------------------------------------------------------- csv, tsv, --columns

/// Splits CSV text into records of fields (RFC 4180), as a spreadsheet would read it.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted && field.is_empty() && record.is_empty(), "{text:?}");
    records
}

#[test]
fn csv_quotes_commas_quotes_and_newlines_and_columns_go_by_path() {
    let sandbox = sandbox_with(&awkward());
    let out = run(sandbox.appdeck().args([
        "list",
        "-o",
        "csv",
        "--columns",
        "id,name,properties.stars,properties.missing.deeper",
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        read_csv(&out.stdout),
        [
            vec![
                "id",
                "name",
                "properties.stars",
                "properties.missing.deeper"
            ],
            vec!["r1", "a, b", "123456789012345678901234567890", ""],
            vec!["r2", "say \"hi\"\nand\tgo", "", ""],
            vec!["r3", "plain", "", ""],
        ]
    );
    let out =
        run(sandbox
            .appdeck()
            .args(["list", "-o", "tsv", "--no-headers", "--columns", "id,name"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "r1\ta, b\nr2\tsay \"hi\"\\nand\\tgo\nr3\tplain\n"
    );
}

#[test]
fn the_table_takes_chosen_columns_and_can_drop_its_header() {
    let sandbox = sandbox_with(&awkward());
    let out = run(sandbox
        .appdeck()
        .args(["list", "--columns", "id,properties.ratio,nope"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = out.lines();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["ID", "PROPERTIES.RATIO", "NOPE"]
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["r1", "1.50"]
    );
    assert_eq!(lines.len(), 4);
    let out = run(sandbox
        .appdeck()
        .args(["list", "--columns", "id", "--no-headers"]));
    assert_eq!(out.lines(), ["r1", "r2", "r3"]);
    let out = run(sandbox
        .appdeck()
        .args(["list", "-o", "ndjson", "--columns", "id"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
}

// ---------------------------------------------------------------- list --all, bytes through

/// Items are written as the bytes that came: a pretty-printed item is joined onto one line (its
/// line breaks lie between tokens), an escape stays the escape it was, and a C1 control the
/// server sent raw is escaped for the terminal; the type filter still applies.
#[test]
fn ndjson_passes_each_items_bytes_through_on_one_line() {
    let body = "{\"resources\": [\n  {\n    \"id\": \"a\",\n    \"type\": \"t\",\n    \"n\": 1.0E+2\n  },\n  {\"id\": \"b\\u00e9\", \"type\": \"t\", \"s\": \"x\u{9b}y\"},\n  {\"id\": \"c\", \"type\": \"other\"}\n]}";
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run(common::appdeck(dir.path())
        .env("APPDECK_TOKEN", "t")
        .args(["list", "-o", "ndjson", "--type", "t", "--base-url"])
        .arg(common::answer_once_raw(answer)));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.lines(),
        [
            r#"{    "id": "a",    "type": "t",    "n": 1.0E+2  }"#,
            r#"{"id": "b\u00e9", "type": "t", "s": "x\u009by"}"#,
        ]
    );
}

// ---------------------------------------------------------------- a faulty server of our own

/// What the scripted server does with one request.
enum Step {
    /// Answers with this status line, extra header lines and JSON body.
    Answer(&'static str, String, String),
    /// Reads the request and closes the connection without a word.
    Hang,
}

fn page(ids: &[&str], next: Option<&str>) -> Step {
    let resources: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "type": "t"}))
        .collect();
    let mut body = json!({"resources": resources});
    if let Some(next) = next {
        body["next"] = json!(next);
    }
    Step::Answer("200 OK", String::new(), body.to_string())
}

fn status(line: &'static str, headers: &str) -> Step {
    Step::Answer(line, headers.to_owned(), r#"{"error":"busy"}"#.to_owned())
}

/// A server on loopback that takes one request a connection and does the script's steps in
/// order, then stops listening (bounded: never more requests than steps). Returns its base URL
/// and the request bodies it received.
fn scripted(steps: Vec<Step>) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = bodies.clone();
    std::thread::spawn(move || {
        for step in steps {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(10)));
            let mut reader = BufReader::new(stream);
            let (mut length, mut line) = (0, String::new());
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line.trim() != "" {
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            seen.lock()
                .unwrap()
                .push(String::from_utf8_lossy(&body).into_owned());
            if let Step::Answer(status, headers, body) = step {
                let answer = format!(
                    "HTTP/1.1 {status}\r\n{headers}content-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = reader.get_mut().write_all(answer.as_bytes());
            }
        }
    });
    (format!("http://{addr}/api/v1"), bodies)
}

fn list_against(base_url: &str, args: &[&str]) -> common::Output {
    let args = [&["list", "-o", "ndjson", "--all"], args].concat();
    common::run_against(tempfile::tempdir().unwrap().path(), base_url, &args)
}

fn ids(out: &common::Output) -> Vec<String> {
    out.stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn list_retries_honouring_retry_after_in_seconds_and_as_a_date() {
    // Whole seconds: at least 3 s away when sent, about 1 s after the start.
    let date =
        httpdate::fmt_http_date(std::time::SystemTime::now() + std::time::Duration::from_secs(4));
    let (url, bodies) = scripted(vec![
        status("503 Service Unavailable", "retry-after: 1\r\n"),
        page(&["a", "b"], Some("c2")),
        status("429 Too Many Requests", &format!("retry-after: {date}\r\n")),
        Step::Hang,
        page(&["c"], None),
    ]);
    let started = std::time::Instant::now();
    let out = list_against(&url, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ids(&out), ["a", "b", "c"], "every row exactly once");
    assert!(
        out.stderr.contains("HTTP 503 Service Unavailable: busy; retry 1 of 3 in 1.0s (as the server's Retry-After asks)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("HTTP 429 Too Many Requests: busy; retry 1 of 3 in"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("retry 2 of 3"), "{}", out.stderr);
    // Both waits were honoured: 1 s, then until the date (about 2 s more); the backoff alone
    // would have waited at most 2 s in all.
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(2900),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(bodies.lock().unwrap().len(), 5);
}

#[test]
fn a_failed_listing_gives_the_cursor_and_from_resumes_without_repeating_a_row() {
    let (url, _) = scripted(vec![
        page(&["a", "b"], Some("c2")),
        status("503 Service Unavailable", ""),
    ]);
    let first = list_against(&url, &["--retries", "0"]);
    assert_eq!(first.code, 1, "{first:?}");
    assert!(
        first.stderr.contains("resume with: --from c2"),
        "{}",
        first.stderr
    );
    assert!(
        !first.stderr.contains("retry"),
        "--retries 0 never retries: {}",
        first.stderr
    );

    let (url, bodies) = scripted(vec![page(&["c", "d"], None)]);
    let second = list_against(&url, &["--from", "c2"]);
    assert_eq!(second.code, 0, "{second:?}");
    assert_eq!(bodies.lock().unwrap()[0], r#"{"next":"c2"}"#);
    let mut all = ids(&first);
    all.extend(ids(&second));
    assert_eq!(all, ["a", "b", "c", "d"]);
}

/// Tester 2026-12-03d LOW 6: a 20 MiB cursor went to stderr whole, on one line, where no
/// command line could take it back. Past 128 KiB the hint says its size and start instead.
#[test]
fn a_cursor_too_long_to_pass_back_is_not_printed_whole() {
    let cursor = format!("{}{}", "c".repeat(128 * 1024), "TAIL");
    let (url, _) = scripted(vec![
        page(&["a"], Some(&cursor)),
        status("503 Service Unavailable", ""),
    ]);
    let out = list_against(&url, &["--retries", "0"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(ids(&out), ["a"]);
    assert!(!out.stderr.contains("TAIL"), "{}", out.stderr);
    assert!(!out.stderr.contains("resume with"), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "the cursor to resume from is 131076 bytes, too long to print or to pass as --from"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.len() < 1000, "{} bytes", out.stderr.len());
}

/// Tester 2026-12-03d LOW 7: a redirect read `HTTP 307 Temporary Redirect` alone. It names
/// where it points and, for the same operation elsewhere, the base URL to set; it is not
/// followed (one request, not retried).
#[test]
fn a_redirect_names_where_it_points_and_the_base_url_to_set() {
    let (url, bodies) = scripted(vec![Step::Answer(
        "307 Temporary Redirect",
        "location: https://user:pw@127.0.0.1:9/api/v1/resources.list\r\n".to_owned(),
        String::new(),
    )]);
    let out = list_against(&url, &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr.contains(
            "HTTP 307 Temporary Redirect: redirects are not followed; it points to \
             https://***@127.0.0.1:9/api/v1/resources.list: set the base URL to \
             https://***@127.0.0.1:9/api/v1"
        ),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("pw"), "{}", out.stderr);
    assert_eq!(bodies.lock().unwrap().len(), 1);
}

/// The retry goal, small: through a proxy that resets one connection in ten and answers 503 with
/// `Retry-After: 1` to one request in five, `list --all` gives every row exactly once, in the
/// order and with the bytes of a listing without faults.
#[test]
fn list_all_through_resets_and_503s_gives_every_row_exactly_once() {
    let sandbox = TestSandbox::start(false, 300, None);
    let direct = run(sandbox
        .appdeck()
        .args(["list", "--all", "--limit", "20", "-o", "ndjson"]));
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    assert_eq!(direct.lines().len(), 300);

    let proxy = common::flaky_proxy::FlakyProxy::start(&sandbox.base_url, 7, 200);
    // Bounded by the proxy: past 200 requests it answers none, and the retries run out.
    let out = run(sandbox.appdeck().args([
        "list",
        "--all",
        "--limit",
        "20",
        "-o",
        "ndjson",
        "--retries",
        "10",
        "--base-url",
        &proxy.base_url,
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout, direct.stdout,
        "every row once, as without faults"
    );
    let (resets, unavailable) = (proxy.count(|c| &c.resets), proxy.count(|c| &c.unavailable));
    assert!(
        resets > 0 && unavailable > 0,
        "{resets} resets, {unavailable} 503s"
    );
    assert_eq!(
        out.stderr.matches("; retry ").count() as u64,
        resets + unavailable,
        "each retry is said: {}",
        out.stderr
    );
    assert_eq!(
        out.stderr
            .matches("(as the server's Retry-After asks)")
            .count() as u64,
        unavailable
    );
}

#[test]
fn retries_come_from_the_profile_unless_the_flag_says() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "default_profile = \"flaky\"\n[profiles.flaky]\ntoken = \"t\"\nretries = 0\n",
    )
    .unwrap();
    let list = |url: &str, extra: &[&str]| {
        common::run_within(
            common::appdeck(dir.path())
                .args(["list", "-o", "ndjson", "--base-url", url])
                .args(extra),
            std::time::Duration::from_secs(30),
        )
        .expect("appdeck finishes")
    };
    let busy = || status("503 Service Unavailable", "retry-after: 0\r\n");
    let (url, bodies) = scripted(vec![busy(), busy()]);
    let out = list(&url, &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(!out.stderr.contains("retry"), "{}", out.stderr);
    assert_eq!(
        bodies.lock().unwrap().len(),
        1,
        "the profile's 0: never retried"
    );

    let (url, bodies) = scripted(vec![busy(), page(&["a"], None)]);
    let out = list(&url, &["--retries", "1"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("retry 1 of 1"), "{}", out.stderr);
    assert_eq!(
        bodies.lock().unwrap().len(),
        2,
        "--retries overrides the profile"
    );

    let shown = run(common::appdeck(dir.path()).args(["config", "show"]));
    assert!(
        shown
            .stdout
            .contains("0 (from profile flaky; list's --retries overrides it)"),
        "{}",
        shown.stdout
    );
}

/// A long listing shows its progress only on a terminal: with stderr a pipe, stderr stays
/// empty (the terminal case is in tests/e2e/e2e_list_progress.rs).
#[test]
fn a_long_listing_says_nothing_on_a_stderr_that_is_no_terminal() {
    let sandbox = TestSandbox::start(false, 120, None);
    let out = run(sandbox.appdeck().args([
        "list", "--all", "--limit", "10", "--rate", "20", "-o", "ndjson",
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines().len(), 120);
    assert_eq!(out.stderr, "", "nothing on a stderr that is no terminal");
}

#[test]
fn max_items_stops_mid_page() {
    let (url, _) = scripted(vec![page(&["a", "b"], Some("c2")), page(&["c", "d"], None)]);
    let out = list_against(&url, &["--max-items", "3"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ids(&out), ["a", "b", "c"]);
}

/// Issue 35 item 9: `--max-items 800` at 100 a page sent a 9th request, for nothing.
#[test]
fn max_items_asks_for_no_page_past_the_one_that_brings_them() {
    let (url, bodies) = scripted(vec![
        page(&["a", "b"], Some("c2")),
        page(&["c", "d"], Some("c3")),
        page(&["e", "f"], None),
    ]);
    let out = list_against(&url, &["--max-items", "4"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(ids(&out), ["a", "b", "c", "d"]);
    assert_eq!(bodies.lock().unwrap().len(), 2, "no third request");
}

/// Issue 35 item 9: the `resume with:` hint came before its error, named a cursor the server had
/// just refused, and a csv resume wrote the header line again.
#[test]
fn the_resume_hint_follows_its_error_and_is_offered_only_when_it_can_help() {
    let (url, _) = scripted(vec![
        page(&["a", "b"], Some("c2")),
        status("503 Service Unavailable", ""),
    ]);
    let args = ["list", "-o", "csv", "--all", "--retries", "0"];
    let out = common::run_against(tempfile::tempdir().unwrap().path(), &url, &args);
    assert_eq!(out.code, 1, "{out:?}");
    let error = out.stderr.find("appdeck: HTTP 503").expect("the error");
    let hint = out
        .stderr
        .find("appdeck: resume with: --from c2 --no-headers")
        .unwrap_or_else(|| panic!("the hint: {}", out.stderr));
    assert!(error < hint, "{}", out.stderr);
    assert!(!out.stderr.contains("sorted"), "{}", out.stderr);

    // Under --sort, the rows written were sorted apart from the rest: the hint says so.
    let (url, _) = scripted(vec![
        page(&["b", "a"], Some("c2")),
        status("503 Service Unavailable", ""),
    ]);
    let out = list_against(&url, &["--retries", "0", "--sort", "id"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(ids(&out), ["a", "b"], "what was listed is written, sorted");
    assert!(
        out.stderr.contains(
            "resume with: --from c2 (each run is sorted on its own: sort the rows of both together)"
        ),
        "{}",
        out.stderr
    );

    let (url, _) = scripted(vec![
        page(&["a", "b"], Some("c2")),
        status("400 Bad Request", ""),
    ]);
    let out = list_against(&url, &["--retries", "0"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("HTTP 400"), "{}", out.stderr);
    assert!(!out.stderr.contains("resume with"), "{}", out.stderr);
}

#[test]
fn a_report_is_never_retried() {
    let (url, bodies) = scripted(vec![
        status("503 Service Unavailable", "retry-after: 0\r\n"),
        status("503 Service Unavailable", "retry-after: 0\r\n"),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/report.json"),
        &report,
    )
    .unwrap();
    let out = common::run_against(dir.path(), &url, &["report", &report.to_string_lossy()]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(bodies.lock().unwrap().len(), 1, "sent once: {}", out.stderr);
}

// ---------------------------------------------------------------- --watch

/// A running `appdeck list --watch`: its stdout lines as they come, read by a thread.
struct Watching {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Watching {
    fn start(cmd: &mut std::process::Command) -> Watching {
        use std::io::BufRead;
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("appdeck runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Watching {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads lines until `done` holds of those read so far, for at most 30 s.
    fn until(&mut self, what: &str, done: impl Fn(&[String]) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !done(&self.seen) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("no {what} within 30 s; stdout so far: {:#?}", self.seen),
            }
        }
    }

    /// Sends SIGINT (ctrl-c) and returns the exit status and stderr, within 10 s.
    fn interrupt(mut self) -> (i32, String) {
        use std::io::Read;
        let pid = i32::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("--watch did not stop within 10 s of SIGINT");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        let mut stderr = String::new();
        let _ = self
            .child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr);
        (status.code().unwrap_or(-1), stderr)
    }
}

fn event(line: &str) -> (String, Value) {
    let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    (
        value["event"].as_str().unwrap().to_owned(),
        value["resource"].clone(),
    )
}

#[test]
fn watch_adds_everything_then_reports_a_report_sent_meanwhile() {
    let sandbox = TestSandbox::demo();
    let listed = run(sandbox.appdeck().args(["list", "--all", "-o", "ndjson"]));
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let current: Vec<&str> = listed.lines();
    assert!(current.len() > 5);

    let mut watching = Watching::start(sandbox.appdeck().args(["list", "--watch", "0.2"]));
    let count = current.len();
    watching.until("first look", |seen| seen.len() >= count);
    // The first look: every resource added, its bytes exactly as `list -o ndjson` gives them.
    let expected: Vec<String> = current
        .iter()
        .map(|r| format!(r#"{{"event":"added","resource":{r}}}"#))
        .collect();
    assert_eq!(watching.seen, expected);

    // A report of a resource the sandbox lacks adds it; a second one, renaming it, changes it.
    let report = sandbox.path("report.json");
    let mut sent: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/examples/report.json"
        ))
        .unwrap(),
    )
    .unwrap();
    for (name, expected) in [
        ("first name", "added"),
        ("renamed while watched", "changed"),
    ] {
        sent["response"]["resource"]["name"] = json!(name);
        std::fs::write(&report, sent.to_string()).unwrap();
        let out = run(sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", sandbox.path("data"))
            .arg("report")
            .arg(&report));
        assert_eq!(out.code, 0, "{}", out.stderr);
        let before = watching.seen.len();
        watching.until(&format!("{expected} event for the report"), |seen| {
            seen.len() > before
        });
        let (kind, resource) = event(&watching.seen[before]);
        assert_eq!(
            (kind.as_str(), &resource["external_id"], &resource["name"]),
            (expected, &json!("gh-481516"), &json!(name)),
            "{:#?}",
            &watching.seen[count..]
        );
    }
    assert!(
        !current.iter().any(|r| r.contains("gh-481516")),
        "the demo lacks the report's resource"
    );
    let (code, stderr) = watching.interrupt();
    assert_eq!(code, 0, "ctrl-c ends a watch as asked: {stderr}");
}

/// `list --watch 0.1` against `url`, without retries (a look that fails is said at once).
fn watch_every_tenth(dir: &std::path::Path, url: &str) -> Watching {
    Watching::start(common::appdeck(dir).env("APPDECK_TOKEN", "t").args([
        "list",
        "--watch",
        "0.1",
        "--retries",
        "0",
        "--base-url",
        url,
    ]))
}

#[test]
fn watch_says_what_was_removed_and_goes_on_after_a_failed_look() {
    let (url, bodies) = scripted(vec![
        page(&["a", "b"], None),
        status("500 Internal Server Error", ""),
        page(&["a"], None),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let mut watching = watch_every_tenth(dir.path(), &url);
    watching.until("removal", |seen| seen.len() >= 3);
    assert_eq!(
        watching.seen,
        [
            r#"{"event":"added","resource":{"id":"a","type":"t"}}"#,
            r#"{"event":"added","resource":{"id":"b","type":"t"}}"#,
            r#"{"event":"removed","resource":{"id":"b","type":"t"}}"#,
        ]
    );
    // The script is spent: the server is gone, so the looks fail from now on; the watch goes on.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while bodies.lock().unwrap().len() < 3 {
        assert!(std::time::Instant::now() < deadline, "three looks");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (code, stderr) = watching.interrupt();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("appdeck: watch: the look failed: HTTP 500 Internal Server Error: busy; looking again in"),
        "{stderr}"
    );
}

/// Tester 2026-12-03d LOW 9: a wrong token made `--watch` retry for ever, saying nothing on
/// stdout. A 401 on the first look ends it as `list` ends, with the hint.
#[test]
fn watch_ends_when_its_first_look_is_refused() {
    let (url, _) = scripted(vec![status("401 Unauthorized", "")]);
    let dir = tempfile::tempdir().unwrap();
    let out = common::run_within(
        common::appdeck(dir.path()).env("APPDECK_TOKEN", "t").args([
            "list",
            "--watch",
            "0.1",
            "--retries",
            "0",
            "--base-url",
            &url,
        ]),
        std::time::Duration::from_secs(20),
    )
    .expect("the watch ends on its own");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stderr
            .starts_with("appdeck: HTTP 401 Unauthorized: busy\nhint: check the token"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("looking again"), "{}", out.stderr);
}

/// An event carries its resource as the service sent it (`1E400`, `-0`, spaces, escapes, key
/// order), only its line breaks dropped and a bidi mark escaped, as `list -o ndjson` writes it.
#[test]
fn watch_events_carry_each_resource_as_it_came() {
    let a = r#"{"id": "q\"\\\u0001", "n": 1E400, "z": -0}"#;
    let b = "{\"id\":\"b\",\n\"s\":\"\u{202e}x\"}";
    let body = |items: &[&str]| format!(r#"{{"resources": [{}]}}"#, items.join(", "));
    let (url, _) = scripted(vec![
        Step::Answer("200 OK", String::new(), body(&[a, b])),
        Step::Answer("200 OK", String::new(), body(&[a])),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let mut watching = watch_every_tenth(dir.path(), &url);
    watching.until("the removal", |seen| seen.len() >= 3);
    let seen = watching.seen.clone();
    let (code, stderr) = watching.interrupt();
    assert_eq!(code, 0, "{stderr}");
    let b_shown = r#"{"id":"b","s":"\u202ex"}"#;
    assert_eq!(
        seen,
        [
            format!(r#"{{"event":"added","resource":{a}}}"#),
            format!(r#"{{"event":"added","resource":{b_shown}}}"#),
            format!(r#"{{"event":"removed","resource":{b_shown}}}"#),
        ]
    );
}

#[test]
fn watch_ends_quietly_at_the_next_event_once_its_reader_is_gone() {
    use std::io::BufRead;
    let sandbox = sandbox_with(&[json!({"id": "a", "type": "t"})]);
    let mut child = sandbox
        .appdeck()
        .args(["list", "--watch", "0.1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("appdeck runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains(r#""event":"added""#), "{first}");
    // The reader is gone (the pipe closed with it); the next event finds no one.
    sandbox
        .store()
        .insert(resource(json!({"id": "b", "type": "t"})));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("--watch went on writing to a closed pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

// ---------------------------------------------------------------- --where and --sort

/// Resources `res_{n}` over two pages of 4, in the order given, `stars` = n.
fn numbered(order: &[u32]) -> TestSandbox {
    let rows: Vec<Value> = (order.iter())
        .map(|n| {
            json!({"id": format!("r{n}"), "type": "repo", "name": format!("res_{n}"),
                        "properties": {"stars": n}})
        })
        .collect();
    sandbox_with(&rows)
}

#[test]
fn sort_orders_every_page_as_the_tui_does_and_where_keeps_what_it_is_true_of() {
    let sandbox = numbered(&[10, 2, 1, 100, 20, 3, 30, 9]);
    let list = |extra: &[&str]| {
        let mut args = vec!["list", "--all", "--limit", "4", "--jq", ".id"];
        args.extend_from_slice(extra);
        run(sandbox.appdeck().args(&args))
    };
    let out = list(&["--sort", "name"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.lines(),
        ["r1", "r2", "r3", "r9", "r10", "r20", "r30", "r100"],
        "res_2 before res_10, across pages"
    );
    let out = list(&[
        "--sort",
        "properties.stars:desc",
        "--where",
        ".properties.stars > 5",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.lines(), ["r100", "r30", "r20", "r10", "r9"]);
    // An expression that fails on a resource leaves it out, says so, and ends with status 5.
    let out = list(&[
        "--where",
        "(.properties.stars | if . == 3 then error(\"three\") else . end) > 20",
    ]);
    assert_eq!(out.lines(), ["r100", "r30"]);
    assert_eq!(out.code, 5, "{}", out.stderr);
    assert!(
        out.stderr.contains("--where failed on 1 resource"),
        "{}",
        out.stderr
    );
    let out = list(&["--sort", "a,b"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

/// A flag refuses what the profile's key refuses, before any request: `--sort id:desc:desc`
/// printed the service's order, `--retries 100000` was taken (the profile's `retries` stops at
/// 100). Both were accepted (a tester's finding).
#[test]
fn sort_and_retries_refuse_what_the_config_refuses() {
    let sandbox = numbered(&[1, 2]);
    let list = |extra: &[&str]| {
        let mut args = vec!["list", "--jq", ".id"];
        args.extend_from_slice(extra);
        run(sandbox.appdeck().args(&args))
    };
    let refused = [
        (["--sort", "id:desc:desc"], "then one :asc or :desc"),
        (["--sort", "id:asc:desc"], "then one :asc or :desc"),
        (["--retries", "100000"], "100000 is not in 0..=100"),
        (["--retries", "101"], "101 is not in 0..=100"),
    ]
    .map(|(args, said)| (args, said, list(&args)));
    let taken: Vec<_> = (refused.iter())
        .filter(|(_, said, out)| {
            out.code != 2 || !out.stderr.contains(said) || !out.stdout.is_empty()
        })
        .collect();
    assert!(taken.is_empty(), "not refused as usage errors: {taken:?}");
    let out = list(&["--retries", "100", "--sort", "name:desc"]);
    assert_eq!(
        (out.code, out.lines()),
        (0, vec!["r2", "r1"]),
        "{}",
        out.stderr
    );
}

/// A tester's finding: a service that lists an id twice had `list --watch` print only the first
/// copy, drop the second without a word, and never say a change to it. Every copy is watched
/// (the n-th compared with the n-th of the next look), and stderr says why there are two.
#[test]
fn watch_keeps_every_copy_of_an_id_listed_twice_and_says_so() {
    let body = |second: &str| {
        let resources = json!([
            {"id": "a", "type": "t", "name": "first"},
            {"id": "b", "type": "t"},
            {"id": "a", "type": "t", "name": second},
        ]);
        json!({"resources": resources}).to_string()
    };
    let look = |second: &str| Step::Answer("200 OK", String::new(), body(second));
    let (base_url, _) = scripted(vec![look("second"), look("second"), look("renamed")]);
    let dir = tempfile::tempdir().unwrap();
    let mut watching = Watching::start(
        common::appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", common::TOKEN)
            .env("APPDECK_DATA_DIR", dir.path().join("data"))
            .args(["list", "--watch", "0.2", "--retries", "0"]),
    );
    watching.until("the change to the second copy", |seen| seen.len() >= 4);
    let events: Vec<(String, Value)> = watching.seen.iter().map(|l| event(l)).collect();
    let (code, stderr) = watching.interrupt();
    assert_eq!(code, 0, "{stderr}");
    let said: Vec<(&str, &str)> = (events.iter())
        .map(|(kind, r)| (kind.as_str(), r["name"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        said,
        [
            ("added", "first"),
            ("added", ""),
            ("added", "second"),
            ("changed", "renamed")
        ],
        "nothing flaps on the second look"
    );
    let warnings = stderr.matches("lists 1 resource more than once (the first: id a)");
    assert_eq!(
        warnings.count(),
        1,
        "said once, not at every look: {stderr}"
    );
}
