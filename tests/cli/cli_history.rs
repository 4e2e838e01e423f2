//! `appdeck history` end to end: `report` and `connect` (the real binary, over loopback against
//! the sandbox) record every send, whatever the answer, and `history` lists and shows them.

use crate::common;

use std::path::PathBuf;
use std::process::Stdio;

use common::{RefusedPort, TOKEN, TestSandbox, appdeck, run, run_with_stdin, write_file};
use serde_json::{Value, json};

const REPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/report.json");
const CONNECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples/connect.json");

fn report_with_task(task_id: &str) -> String {
    json!({
        "task_id": task_id, "status": "ok", "message": "by hand",
        "response": {"response_type": "resource", "resource": {
            "type": "repository", "external_id": "ext-h", "name": "history-test",
            "properties": {"full_name": "acme/history", "visibility": "public",
                           "default_branch": "main", "stars": 1}
        }}
    })
    .to_string()
}

/// The sandbox, and a data directory of its own for the store.
fn setup() -> (TestSandbox, PathBuf) {
    let sandbox = TestSandbox::demo();
    let data = sandbox.path("data");
    (sandbox, data)
}

fn history(sandbox: &TestSandbox, data: &PathBuf, args: &[&str]) -> common::Output {
    run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", data)
        .arg("history")
        .args(args))
}

fn listed(sandbox: &TestSandbox, data: &PathBuf, args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.extend(["--output", "json"]);
    let out = history(sandbox, data, &args);
    assert_eq!(out.code, 0, "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

#[test]
fn a_report_sent_is_listed_and_shown_in_full() {
    let (sandbox, data) = setup();
    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .args(["report", REPORT]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.is_empty(), "no warning: {}", out.stderr);

    let out = history(&sandbox, &data, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    assert!(lines[0].starts_with("ID  TIME (UTC)"), "{}", out.stdout);
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[1].starts_with("1 ")
            && lines[1].contains("report")
            && lines[1].contains("task-7f3c2a · ok · repository")
            && lines[1].contains("200")
            && lines[1].ends_with("ok"),
        "{}",
        lines[1]
    );
    assert!(
        out.stderr.contains("1 send, newest first"),
        "{}",
        out.stderr
    );

    let items = listed(&sandbox, &data, &[]);
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert_eq!(item["kind"], "report");
    assert_eq!(item["http_status"], 200);
    assert_eq!(item["base_url"], sandbox.base_url.as_str());
    assert_eq!(item["answer"]["status"], "ok");
    assert!(item["duration_ms"].is_u64());
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(REPORT).unwrap()).unwrap();
    assert_eq!(item["body"], sent, "the body exactly as sent");

    let out = history(&sandbox, &data, &["--output", "ndjson"]);
    assert_eq!(out.code, 0, "{out:?}");
    let line: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(&line, item, "ndjson and json agree");

    let out = history(&sandbox, &data, &["show", "1"]);
    assert_eq!(out.code, 0, "{out:?}");
    let request = format!("request: POST {}/apps.operations.report", sandbox.base_url);
    assert!(out.stdout.contains(&request), "{}", out.stdout);
    assert!(
        out.stdout.contains("answer:  HTTP 200 · "),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("\"task_id\": \"task-7f3c2a\""),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("answer body:\n{\n  \"status\": \"ok\",\n  \"message\": \"created"),
        "{}",
        out.stdout
    );
    let out = history(&sandbox, &data, &["show", "1", "-o", "json"]);
    assert_eq!(
        &serde_json::from_str::<Value>(&out.stdout).unwrap(),
        item,
        "show -o json is the listing's object"
    );

    let db = [
        std::fs::read(data.join("appdeck.db")).unwrap(),
        std::fs::read(data.join("appdeck.db-wal")).unwrap_or_default(),
    ]
    .concat();
    assert!(
        !String::from_utf8_lossy(&db).contains(TOKEN),
        "the history never holds the token"
    );
}

#[test]
fn an_unknown_id_is_a_clear_error_with_exit_2() {
    let (sandbox, data) = setup();
    let out = history(&sandbox, &data, &["show", "42"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "appdeck: no send with id 42 in the history; `appdeck history` lists them\n"
    );
    let out = history(&sandbox, &data, &["show", "one"]);
    assert_eq!(out.code, 2, "{out:?}");
    let out = history(&sandbox, &data, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "no sends recorded yet\n");
}

#[test]
fn refusals_and_network_failures_are_recorded_and_kind_filters() {
    let (sandbox, data) = setup();
    let send = |cmd: &mut std::process::Command, args: &[&str]| {
        run(cmd.env("APPDECK_DATA_DIR", &data).args(args))
    };
    assert_eq!(send(&mut sandbox.appdeck(), &["connect", CONNECT]).code, 0);
    // A wrong token: a 401 with the service's JSON body.
    let mut wrong = sandbox.appdeck();
    wrong.env("APPDECK_TOKEN", "wrong-token");
    assert_eq!(send(&mut wrong, &["report", REPORT]).code, 1);
    // Nothing listens: no answer at all.
    let refused = RefusedPort::bind();
    let mut nowhere = sandbox.appdeck();
    nowhere.env("APPDECK_BASE_URL", refused.base_url());
    let out = send(&mut nowhere, &["report", REPORT]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);

    let items = listed(&sandbox, &data, &[]);
    let kinds: Vec<&str> = items.iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["report", "report", "connect"], "newest first");
    let network = &items[0];
    assert_eq!(network["http_status"], Value::Null);
    assert_eq!(network["answer"], Value::Null);
    assert!(
        network["error"]
            .as_str()
            .unwrap()
            .contains("cannot connect"),
        "{network}"
    );
    let unauthorised = &items[1];
    assert_eq!(unauthorised["http_status"], 401);
    assert!(unauthorised["error"].as_str().unwrap().contains("HTTP 401"));
    assert!(unauthorised["answer"].is_object(), "{unauthorised}");

    let reports = listed(&sandbox, &data, &["--kind", "report"]);
    assert_eq!(reports.len(), 2);
    let last = listed(&sandbox, &data, &["--kind", "report", "--limit", "1"]);
    assert_eq!(last, reports[..1]);
    let connects = listed(&sandbox, &data, &["--kind", "connect"]);
    assert_eq!(connects.len(), 1);
    assert_eq!(connects[0]["body"]["app_id"], "example-git-host");
    let out = history(&sandbox, &data, &["--kind", "connect"]);
    assert!(
        out.stdout.contains("example-git-host 1.2.0 · 2 types"),
        "{}",
        out.stdout
    );
    let out = history(&sandbox, &data, &["show", &network["id"].to_string()]);
    assert!(
        out.stdout.contains("answer:  no answer · "),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("answer body: none came"),
        "{}",
        out.stdout
    );
}

#[test]
fn text_from_payloads_and_answers_never_drives_the_terminal() {
    let body = "{\"status\":\"error\",\"error\":\"bad \u{1b}]0;pwned\u{7} \u{9b}2J \u{202e}x\"}";
    let base_url = common::answer_once("200 OK", body);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = run_with_stdin(
        appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t")
            .env("APPDECK_DATA_DIR", &data)
            .args(["report", "-"]),
        Some(&report_with_task("task \u{1b}[2J\u{202e}evil")),
    );
    assert_eq!(out.code, 1, "{out:?}");
    for args in [
        &["history"][..],
        &["history", "show", "1"],
        &["history", "-o", "json"],
        &["history", "-o", "ndjson"],
    ] {
        let out = run(appdeck(dir.path())
            .env("APPDECK_DATA_DIR", &data)
            .args(args));
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(
            !all.chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{args:?}: {all:?}"
        );
        assert!(all.contains("evil"), "{args:?}: {all}");
    }
    let out = run(appdeck(dir.path())
        .env("APPDECK_DATA_DIR", &data)
        .args(["history", "-o", "json"]));
    let items: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        items[0]["body"]["task_id"], "task \u{1b}[2J\u{202e}evil",
        "json keeps the data, escaped"
    );
}

#[test]
fn a_store_that_cannot_be_used_is_a_warning_for_a_send_and_an_error_for_history() {
    let (sandbox, data) = setup();
    std::fs::create_dir_all(&data).unwrap();
    let garbage = b"not a database\n".repeat(100);
    std::fs::write(data.join("appdeck.db"), &garbage).unwrap();
    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .args(["report", REPORT]));
    assert_eq!(out.code, 0, "the send succeeded: {out:?}");
    assert!(out.stdout.contains("status: ok"), "{}", out.stdout);
    assert_eq!(
        out.stderr.matches("warning").count(),
        1,
        "said once: {}",
        out.stderr
    );
    assert!(out.stderr.contains("corrupt"), "{}", out.stderr);
    let out = history(&sandbox, &data, &[]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("corrupt"), "{}", out.stderr);
    assert_eq!(std::fs::read(data.join("appdeck.db")).unwrap(), garbage);
}

#[test]
fn several_processes_record_their_reports_at_once() {
    let (sandbox, data) = setup();
    let children: Vec<_> = (0..4)
        .map(|n| {
            let file = write_file(
                &sandbox.path(&format!("r{n}.json")),
                &report_with_task(&format!("parallel-{n}")),
                0o644,
            );
            sandbox
                .appdeck()
                .env("APPDECK_DATA_DIR", &data)
                .arg("report")
                .arg(file)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("appdeck runs")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    }
    let mut tasks: Vec<String> = listed(&sandbox, &data, &[])
        .iter()
        .map(|i| i["body"]["task_id"].as_str().unwrap().to_owned())
        .collect();
    tasks.sort();
    assert_eq!(
        tasks,
        ["parallel-0", "parallel-1", "parallel-2", "parallel-3"]
    );
}

#[test]
fn history_works_offline_and_refuses_connection_flags() {
    let (sandbox, data) = setup();
    let out = history(
        &sandbox,
        &data,
        &["--base-url", "http://127.0.0.1:9/api/v1"],
    );
    assert_eq!(out.code, 2, "{out:?}");
    // Not offered (issue 20 item 13): clap's usage error, worded like appdeck's.
    assert!(
        out.stderr
            .starts_with("appdeck: unexpected argument '--base-url' found"),
        "{}",
        out.stderr
    );
}

/// Issue 37 item 2: `report --diff` finds the resource in the listing before and after the send
/// and prints what changed, value by value (text, or JSON with pointers); the history keeps the
/// resource as listed, so `history show` says the same later.
#[test]
fn report_diff_prints_what_the_report_changed_and_the_history_keeps_it() {
    let (sandbox, data) = setup();
    let out = run(sandbox.appdeck().args([
        "list",
        "--type",
        "repository",
        "--limit",
        "1",
        "-o",
        "ndjson",
    ]));
    assert_eq!(out.code, 0, "{out:?}");
    let mut resource: Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    let old_name = resource["name"].clone();
    resource["name"] = json!("renamed by --diff");
    let report = json!({"task_id": "t-diff", "status": "ok",
                        "response": {"response_type": "resource", "resource": resource}});
    let file = write_file(&sandbox.path("diff.json"), &report.to_string(), 0o644);
    let send = |output: &str| {
        run(sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", &data)
            .args(["report", "--diff", "-o", output])
            .arg(&file))
    };

    let out = send("text");
    assert_eq!(out.code, 0, "{out:?}");
    let name_line = format!("changed /name: {old_name} → \"renamed by --diff\"");
    assert!(
        out.stdout
            .contains("(before: as listed · after: listed again)")
            && out.stdout.contains(&name_line),
        "{out:?}"
    );
    let printed = out.stdout;

    // Sent again, the name is already the new one: nothing changed.
    let out = send("json");
    assert_eq!(out.code, 0, "{out:?}");
    let both: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(both["answer"]["status"], "ok", "{both}");
    assert_eq!(both["diff"]["after"], "listed again", "{both}");
    let pointers: Vec<&Value> = both["diff"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["pointer"])
        .collect();
    assert!(!pointers.contains(&&json!("/name")), "{both}");

    let first = listed(&sandbox, &data, &["--limit", "2"])
        .pop()
        .expect("the first send");
    let shown = history(&sandbox, &data, &["show", &first["id"].to_string()]);
    assert!(shown.stdout.contains(&name_line), "{shown:?}");
    // What --diff printed at the send is what the history says of it (the tester's item 15: it
    // said `after: as the report sent it`, other changes against the body).
    let changed = |text: &str| -> Vec<String> {
        let lines = text
            .lines()
            .skip_while(|l| !l.starts_with("what it changed"));
        lines
            .take_while(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    };
    assert!(!changed(&printed).is_empty(), "{printed}");
    assert_eq!(changed(&shown.stdout), changed(&printed));
    assert!(
        first["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["pointer"] == "/name" && c["change"] == "changed"),
        "{first}"
    );
}

/// What the TUI keeps to show at its next start: `appdeck cache` says what, where and how big;
/// `cache clear` erases it from the file; `list` never prints it, even with the service down.
#[test]
fn cache_shows_the_kept_listings_and_clear_erases_them() {
    let (sandbox, data) = setup();
    let secret = r#"{"id":"res_kept","type":"repository","name":"KEPT-ROW-TEXT"}"#;
    {
        let mut store = appdeck_store::Store::open(&data.join("appdeck.db")).unwrap();
        let key = appdeck_store::ListingKey::new("http://svc.test/api/v1", Some("prod"), None);
        store
            .keep_listing(&key, &[secret, secret], true, chrono::Utc::now())
            .unwrap();
    }
    let cache = |args: &[&str]| {
        run(sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", &data)
            .arg("cache")
            .args(args))
    };
    let out = cache(&[]);
    assert_eq!(out.code, 0, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with("SERVICE"), "{}", out.stdout);
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        row[..5],
        ["http://svc.test/api/v1", "prod", "(all)", "2", "120"]
    );
    assert!(
        out.stdout.contains("1 kept, 120 B of rows, in ")
            && out
                .stdout
                .contains("appdeck.db (at most 20 listings, each its first 1,000 rows"),
        "{}",
        out.stdout
    );

    // The CLI never shows kept rows: with the service gone, `list` fails and prints none.
    let down = RefusedPort::bind();
    let out = run(appdeck(&data)
        .env("APPDECK_DATA_DIR", &data)
        .env("APPDECK_BASE_URL", down.base_url())
        .env("APPDECK_TOKEN", TOKEN)
        .args(["list", "-o", "ndjson"]));
    assert_ne!(out.code, 0, "{out:?}");
    assert!(
        !out.stdout.contains("res_kept") && !out.stderr.contains("res_kept"),
        "{out:?}"
    );

    let out = cache(&["clear"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.starts_with("removed 1 kept listing from "),
        "{}",
        out.stdout
    );
    let out = cache(&[]);
    assert!(out.stdout.starts_with("nothing kept in "), "{}", out.stdout);
    let file = std::fs::read(data.join("appdeck.db")).unwrap();
    assert!(
        !file.windows(13).any(|w| w == b"KEPT-ROW-TEXT"),
        "the rows were erased from the file"
    );
}
