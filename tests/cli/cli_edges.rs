//! Where the CLI's features meet the world's edges (tester report 2026-12-03c): a reader that
//! closes the pipe under `report --each`, and more; run as the real binary against the sandbox
//! on loopback.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::cli_bulk::report_line;
use crate::common;

use appdeck_core::api::Resource;
use common::TestSandbox;

/// How many sends the history in `data` holds.
fn sends_recorded(data: &std::path::Path, home: &std::path::Path) -> usize {
    let out = common::run(
        common::appdeck(home)
            .env("APPDECK_DATA_DIR", data)
            .args(["history", "--limit", "100000", "-o", "ndjson"]),
    );
    assert_eq!(out.code, 0, "{out:?}");
    out.stdout.lines().count()
}

/// The `N` of the summary's `N sent (`.
fn said_sent(stderr: &str) -> usize {
    let before = stderr
        .split(" sent (")
        .next()
        .filter(|_| stderr.contains(" sent ("))
        .unwrap_or_else(|| panic!("no summary: {stderr}"));
    let number = before.rsplit(' ').next().unwrap();
    number.parse().unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

/// MED 4: `yes "$L" | appdeck report --each - -j 8 | head -1` said `2 sent` while the service
/// got 9 and the history held 9: the sends under way when the pipe closed were recorded but
/// not counted. The summary counts every send that went out, and no line is taken after the
/// pipe closed (a writer with lines to spare is not emptied).
#[test]
fn each_whose_reader_closes_the_pipe_counts_every_send_that_went_out() {
    const LINES: usize = 2000;
    let sandbox = TestSandbox::demo();
    let resources_before = sandbox.store().len();
    let data = sandbox.path("data");
    let mut child = sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .args(["report", "-o", "ndjson", "-j", "8", "--each", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("appdeck runs");
    let mut stdin = child.stdin.take().unwrap();
    // Not joined: it ends when appdeck closes its end (or has every line).
    std::thread::spawn(move || {
        for i in 0..LINES {
            if writeln!(stdin, "{}", report_line(&format!("pipe-{i}"))).is_err() {
                break;
            }
        }
    });
    // `head -1`: one line, then the pipe is closed.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    assert!(first.contains(r#""task_id":"pipe-0""#), "{first}");

    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "report --each goes on after the pipe closed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");

    let said = said_sent(&stderr);
    let received = sandbox.store().len() - resources_before;
    assert_eq!(said, received, "the summary against the service: {stderr}");
    assert_eq!(said, sends_recorded(&data, sandbox.dir.path()), "{stderr}");
    assert!(
        stderr.contains(&format!("{said} sent ({said} accepted, 0 refused")),
        "{stderr}"
    );
    assert!(
        said < LINES,
        "lines were taken after the pipe closed: {stderr}"
    );
}

/// LOW 4: `list --columns +properties.a` (the TUI's `:columns` words) was read as a path:
/// header `+PROPERTIES.A`, every cell empty, exit 0. `+PATH` adds to the default columns and
/// `-NAME` removes one, as `:columns` does, through its parser; a column not there is refused.
#[test]
fn columns_take_the_tuis_words_to_add_and_remove() {
    let sandbox = TestSandbox::start(false, 0, None);
    let resource: Resource = serde_json::from_str(
        r#"{"id": "r1", "type": "t", "name": "n", "external_id": "e1",
            "updated_at": "2026-12-01T00:00:00Z", "properties": {"a": 7, "b": "x"}}"#,
    )
    .unwrap();
    sandbox.store().insert(resource);
    let csv = |columns: &str| {
        common::run(
            sandbox
                .appdeck()
                .args(["list", "-o", "csv", "--columns", columns]),
        )
    };
    let out = csv("+properties.a,-external_id,+B:properties.b");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.lines(),
        [
            "type,id,name,display_name,status,updated_at,properties.a,B",
            "t,r1,n,,,2026-12-01T00:00:00Z,7,x"
        ]
    );
    // Words as `:columns` spells them, space-separated.
    assert_eq!(
        csv("+properties.a -external_id +B:properties.b").stdout,
        out.stdout
    );

    let out = csv("-nosuch");
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains(r#"no column "nosuch" to remove"#),
        "{}",
        out.stderr
    );

    let table = common::run(
        sandbox
            .appdeck()
            .args(["list", "--columns", "+properties.a"]),
    );
    assert_eq!(table.code, 0, "{table:?}");
    assert!(table.lines()[0].ends_with("PROPERTIES.A"), "{table:?}");
    assert!(table.lines()[1].ends_with('7'), "{table:?}");
}

/// LOW 10: `api resources.list --paginate --jq` over a page holding a lone surrogate exited 2
/// (the usage code) after the requests went out, and the pages after it were not printed. Now
/// as `list --jq`: the page is named on stderr, the others printed, exit 5.
#[test]
fn api_jq_failing_on_a_page_says_so_and_goes_on_with_exit_5() {
    use common::faulty::{Reply, faulty};
    let (base_url, requests) = faulty(8, |request| {
        let page = if request.body.contains("\"c2\"") {
            r#"{"resources": [{"id": "b"}, {"id": "c"}]}"#
        } else if request.body.contains("\"c1\"") {
            r#"{"resources": [{"id": "\ud800"}], "next": "c2"}"#
        } else {
            r#"{"resources": [{"id": "a"}], "next": "c1"}"#
        };
        Reply::Answer("200 OK", page.to_owned())
    });
    let dir = tempfile::tempdir().unwrap();
    let jq = [
        "api",
        "resources.list",
        "--paginate",
        "--jq",
        ".resources|length",
    ];
    let out = common::run_against(dir.path(), &base_url, &jq);
    assert_eq!(out.code, 5, "{out:?}");
    assert_eq!(out.lines(), ["1", "2"], "{}", out.stderr);
    assert!(
        out.stderr.contains("appdeck: page 2: --jq: "),
        "{}",
        out.stderr
    );
    assert_eq!(requests.lock().unwrap().len(), 3);

    // One page, no --paginate: the same code.
    let (base_url, _) = faulty(1, |_| {
        Reply::Answer("200 OK", r#"{"resources": [{"id": "\ud800"}]}"#.to_owned())
    });
    let out = common::run_against(
        dir.path(),
        &base_url,
        &jq[..2].iter().chain(&jq[3..]).copied().collect::<Vec<_>>(),
    );
    assert_eq!(out.code, 5, "{out:?}");
    assert!(out.stderr.contains("appdeck: --jq: "), "{}", out.stderr);
}

/// LOW 16: a connect answered `200 {"message":"hi"}` (no `status`) printed `message: hi` and
/// exit 0 without a word, where `appdeck report` warns on the same answer. It warns in the same
/// words as the TUI (core's), and, as a report's such answer, is still taken as accepted: the
/// version is recorded, and the warning says so.
#[test]
fn a_connect_answered_2xx_without_a_status_is_warned_about() {
    let base_url = common::answer_once("200 OK", r#"{"message":"hi"}"#);
    let dir = tempfile::tempdir().unwrap();
    let connect = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/connect.json");
    let out = common::run_against(dir.path(), &base_url, &["connect", connect]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("message: hi"), "{out:?}");
    assert!(
        out.stderr.contains(
            "warning: the service's answer has no `status`: it does not say whether the connect \
             was taken; recorded "
        ),
        "{}",
        out.stderr
    );
}
