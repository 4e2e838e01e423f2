//! Issue 21 item 3, `appdeck report --each`: many reports, one a line, each checked and sent,
//! one result a line, every send in the history; run as the real binary against the sandbox and
//! a small faulty server of its own on loopback.

use crate::common;

use common::faulty::{Reply, faulty};
use common::{Output, TestSandbox};
use serde_json::{Value, json};

/// The example report with its own `task_id` and resource (so each send adds a resource to the
/// sandbox), on one line.
pub(crate) fn report_line(task_id: &str) -> String {
    let mut report: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/examples/report.json"
    )))
    .unwrap();
    report["task_id"] = json!(task_id);
    report["response"]["resource"]["external_id"] = json!(format!("ext-{task_id}"));
    report.to_string()
}

fn results(out: &Output) -> Vec<Value> {
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The history's sends, oldest first, as `[task_id, http_status]`.
fn history(data: &std::path::Path, home: &std::path::Path) -> Vec<(String, Value)> {
    let out = common::run(
        common::appdeck(home)
            .env("APPDECK_DATA_DIR", data)
            .args(["history", "--limit", "100000", "-o", "ndjson"]),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let mut sends: Vec<(String, Value)> = results(&out)
        .into_iter()
        .map(|send| {
            let body: Value = send["body"].clone();
            let task = body["task_id"].as_str().unwrap_or_default().to_owned();
            (task, send["http_status"].clone())
        })
        .collect();
    sends.reverse();
    sends
}

#[test]
fn each_line_is_checked_and_sent_with_a_result_a_line_and_every_send_recorded() {
    let sandbox = TestSandbox::demo();
    let lines = [
        report_line("t-1"),
        String::new(), // blank: skipped without a result
        r#"{"task_id": "t-bad"}"#.to_owned(),
        "{not json".to_owned(),
        report_line("t-2"),
        "   ".to_owned(),
        report_line("t-3"),
    ];
    let file = sandbox.path("reports.ndjson");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let data = sandbox.path("data");
    let out = common::run(
        sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", &data)
            .args(["report", "-o", "ndjson", "-j", "3", "--each"])
            .arg(&file),
    );
    assert_eq!(out.code, 1, "an invalid line fails the run: {out:?}");
    let got = results(&out);
    let summary: Vec<(Value, Value, Value, Value)> = got
        .iter()
        .map(|r| {
            (
                r["line"].clone(),
                r["task_id"].clone(),
                r["http_status"].clone(),
                r["status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (json!(1), json!("t-1"), json!(200), json!("ok")),
            (json!(3), json!("t-bad"), Value::Null, Value::Null),
            (json!(4), Value::Null, Value::Null, Value::Null),
            (json!(5), json!("t-2"), json!(200), json!("ok")),
            (json!(7), json!("t-3"), json!(200), json!("ok")),
        ],
        "one result a line, in the lines' order: {}",
        out.stdout
    );
    let bad = got[1]["error"].as_str().unwrap();
    assert!(bad.starts_with("invalid: "), "{bad}");
    let not_json = got[2]["error"].as_str().unwrap();
    assert!(not_json.starts_with("not JSON: column 2"), "{not_json}");
    assert!(got[0]["error"].is_null());
    assert!(
        got[0]["answer"]["metadata"]["platform_app_url"].is_string(),
        "the answer as it came: {}",
        got[0]
    );
    assert!(
        out.stderr
            .contains("3 sent (3 accepted, 0 refused or not answered), 2 skipped"),
        "{}",
        out.stderr
    );
    // Sent ones only, each once.
    let mut sent = history(&data, sandbox.dir.path());
    sent.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        sent,
        [
            ("t-1".to_owned(), json!(200)),
            ("t-2".to_owned(), json!(200)),
            ("t-3".to_owned(), json!(200))
        ]
    );
}

#[test]
fn force_sends_a_line_that_fails_the_checks_and_text_results_read_from_stdin() {
    let sandbox = TestSandbox::demo();
    let data = sandbox.path("data");
    let input = format!("{}\n{{\"task_id\": \"t-bad\"}}\n", report_line("t-1"));
    let out = common::run_with_stdin(
        sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", &data)
            .args(["report", "--each", "-", "--force"]),
        Some(&input),
    );
    assert_eq!(out.code, 1, "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert_eq!(lines[0], "line 1: t-1: HTTP 200, status ok");
    // The refusal names its status itself: said once, with its reason.
    assert!(
        lines[1].starts_with("line 2: t-bad: HTTP 400 Bad Request: "),
        "{}",
        lines[1]
    );
    assert_eq!(lines[1].matches("HTTP 400").count(), 1, "{}", lines[1]);
    assert!(
        out.stderr
            .contains("appdeck: warning: line 2: sent all the same (--force): invalid: "),
        "{}",
        out.stderr
    );
    assert_eq!(history(&data, sandbox.dir.path()).len(), 2);
}

#[test]
fn jq_runs_on_each_result_and_json_is_one_array() {
    let sandbox = TestSandbox::demo();
    let file = sandbox.path("reports.ndjson");
    std::fs::write(
        &file,
        format!("{}\n{}\n", report_line("a"), report_line("b")),
    )
    .unwrap();
    let out = common::run(
        sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", sandbox.path("data"))
            .args([
                "report",
                "--jq",
                "[.line, .task_id, .http_status]",
                "--each",
            ])
            .arg(&file),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines(), [r#"[1,"a",200]"#, r#"[2,"b",200]"#]);
    let out = common::run(
        sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", sandbox.path("data"))
            .args(["report", "-o", "json", "--each"])
            .arg(&file),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let array: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(array.len(), 2);
    assert_eq!(array[1]["task_id"], "b");
}

#[test]
fn a_read_only_profile_sends_nothing() {
    let sandbox = TestSandbox::demo();
    let file = sandbox.path("reports.ndjson");
    std::fs::write(&file, report_line("a")).unwrap();
    let out = common::run(
        sandbox
            .appdeck()
            .args(["report", "--read-only", "--each"])
            .arg(&file),
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("nothing sent"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

// ---------------------------------------------------------------- a faulty server

#[test]
fn the_run_goes_on_past_a_server_that_fails_some_and_none_is_retried() {
    let (url, requests) = faulty(20, |request| {
        let body = &request.body;
        if body.contains("t-busy") {
            Reply::Answer("503 Service Unavailable", r#"{"error":"busy"}"#.into())
        } else if body.contains("t-drop") {
            Reply::Drop
        } else if body.contains("t-refused") {
            Reply::Answer(
                "200 OK",
                r#"{"status":"error","error":"no such task"}"#.into(),
            )
        } else {
            Reply::Answer("200 OK", r#"{"status":"ok","n":1.50}"#.into())
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reports.ndjson");
    let tasks = ["t-1", "t-busy", "t-2", "t-drop", "t-refused", "t-3"];
    let lines: Vec<String> = tasks.iter().map(|t| report_line(t)).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let data = dir.path().join("data");
    let file = file.to_string_lossy();
    let args = ["report", "-o", "ndjson", "-j", "4", "--each", &file];
    let out = common::run_against(dir.path(), &url, &args);
    assert_eq!(out.code, 1, "{out:?}");
    let got = results(&out);
    let verdicts: Vec<(&str, Value, Value)> = got
        .iter()
        .map(|r| {
            (
                r["task_id"].as_str().unwrap(),
                r["http_status"].clone(),
                r["status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("t-1", json!(200), json!("ok")),
            ("t-busy", json!(503), Value::Null),
            ("t-2", json!(200), json!("ok")),
            ("t-drop", Value::Null, Value::Null),
            ("t-refused", json!(200), json!("error")),
            ("t-3", json!(200), json!("ok")),
        ]
    );
    assert_eq!(got[1]["error"], "HTTP 503 Service Unavailable: busy");
    assert!(got[3]["error"].is_string(), "{}", got[3]);
    assert_eq!(
        got[4]["error"],
        "the service answered with an error: no such task"
    );
    assert_eq!(
        got[0]["answer"].to_string(),
        r#"{"status":"ok","n":1.50}"#,
        "the answer's numbers as they came"
    );
    // Each line sent once: a write is never retried, not even after a 503 or a reset.
    assert_eq!(
        requests.lock().unwrap().len(),
        tasks.len(),
        "{}",
        out.stderr
    );
    let mut sent = history(&data, dir.path());
    sent.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected = vec![
        ("t-1".to_owned(), json!(200)),
        ("t-busy".to_owned(), json!(503)),
        ("t-2".to_owned(), json!(200)),
        ("t-drop".to_owned(), Value::Null),
        ("t-refused".to_owned(), json!(200)),
        ("t-3".to_owned(), json!(200)),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(sent, expected, "every send recorded, whatever came of it");
}

/// `--rate` holds the sends of every job together to the rate: with `-j 4` and `--rate 10`, the
/// requests come 100 ms apart, where without it four come at once.
#[test]
fn rate_spaces_the_sends_of_all_the_jobs() {
    let arrivals = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = arrivals.clone();
    let (url, _) = faulty(20, move |_| {
        seen.lock().unwrap().push(std::time::Instant::now());
        Reply::Answer("200 OK", r#"{"status":"ok"}"#.into())
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reports.ndjson");
    let lines: Vec<String> = (0..6).map(|i| report_line(&format!("t-{i}"))).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let file = file.to_string_lossy();
    let args = ["report", "-j", "4", "--rate", "10", "--each", &file];
    let out = common::run_against(dir.path(), &url, &args);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines().len(), 6, "{}", out.stdout);
    let mut arrivals = arrivals.lock().unwrap().clone();
    arrivals.sort();
    let span = arrivals[5] - arrivals[0];
    // Five slots of 100 ms after the first; a loaded machine only spreads them further (a
    // limiter per job instead of one for all would let four come at once: 200 ms at most).
    assert!(span >= std::time::Duration::from_millis(400), "{span:?}");
}

// ---------------------------------------------------------------- in a terminal

/// In a real terminal (tmux) with stdout to a file: the progress bar shows on stderr, ctrl-c
/// stops taking lines, the sends under way finish, every send made is in the history, exit 130.
#[test]
fn a_terminal_shows_the_bar_and_ctrl_c_stops_with_every_send_recorded() {
    let sandbox = TestSandbox::demo();
    let tmux = common::tmux::Tmux::start(120, 12);
    let home = tmux.home.path();
    let lines: Vec<String> = (0..5000).map(|i| report_line(&format!("t-{i}"))).collect();
    std::fs::write(home.join("reports.ndjson"), lines.join("\n")).unwrap();
    tmux.type_line(&format!(
        "APPDECK_BASE_URL={} APPDECK_TOKEN={} APPDECK_DATA_DIR=data {} report --each \
         reports.ndjson --rate 400 -o ndjson > results.ndjson; echo EXIT=$?",
        sandbox.base_url,
        common::TOKEN,
        common::tmux::binary().display()
    ));
    let screen = tmux.wait_for("the progress bar", |s| {
        s.contains("% ") && s.contains(" sent, 0 failed, 0 skipped")
    });
    let ended = |s: &str| s.lines().any(|l| l.starts_with("EXIT="));
    assert!(!ended(&screen), "{screen}");
    tmux.send(&["C-c"]);
    let screen = tmux.wait_for("the end", ended);
    assert!(screen.lines().any(|l| l == "EXIT=130"), "{screen}");
    assert!(screen.contains("appdeck: warning: stopping"), "{screen}");
    assert!(
        !screen.contains(" sent, 0 failed, 0 skipped"),
        "the bar is gone, even with the ^C the terminal echoed on its line: {screen}"
    );
    let results = std::fs::read_to_string(home.join("results.ndjson")).unwrap();
    let sent = results.lines().count();
    assert!(sent > 0 && sent < 5000, "{sent}");
    assert!(
        screen.contains(&format!("reports.ndjson: {sent} sent ({sent} accepted")),
        "{screen}"
    );
    assert_eq!(
        history(&home.join("data"), home).len(),
        sent,
        "every send made is recorded"
    );
}

/// Issue 35 item 1: `--each FIFO` opened the path twice: a writer let in by the first open lost
/// what it wrote before the second, and the second waited for ever once that writer was gone.
/// A writer that writes its lines and leaves at once, and one that pauses between lines, both
/// get every line sent, numbered as written, exit 0.
#[cfg(unix)]
#[test]
fn each_from_a_fifo_sends_every_line_whenever_the_writer_writes() {
    use std::io::Write;
    let sandbox = TestSandbox::demo();
    for pause in [false, true] {
        let fifo = common::mkfifo(&sandbox.path(&format!("each-{pause}.fifo")));
        let tasks: Vec<String> = (1..=7).map(|i| format!("f-{pause}-{i}")).collect();
        let lines: Vec<String> = tasks.iter().map(|t| report_line(t)).collect();
        let writer_path = fifo.clone();
        // Not joined: if appdeck never opens the FIFO the test fails by its time-out, not here.
        std::thread::spawn(move || {
            // Blocks until appdeck opens the FIFO to read.
            let mut w = std::fs::OpenOptions::new()
                .write(true)
                .open(&writer_path)
                .unwrap();
            w.write_all((lines[..5].join("\n") + "\n").as_bytes())
                .unwrap();
            if pause {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            w.write_all((lines[5..].join("\n") + "\n").as_bytes())
                .unwrap();
        });
        let out = common::run_within(
            sandbox
                .appdeck()
                .env("APPDECK_DATA_DIR", sandbox.path("data"))
                .args(["report", "-o", "ndjson", "--each"])
                .arg(&fifo),
            std::time::Duration::from_secs(30),
        )
        .unwrap_or_else(|| panic!("report --each on a FIFO hangs (pause: {pause})"));
        assert_eq!(out.code, 0, "{out:?}");
        let got: Vec<(Value, Value)> = results(&out)
            .iter()
            .map(|r| (r["line"].clone(), r["task_id"].clone()))
            .collect();
        let want: Vec<(Value, Value)> = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (json!(i + 1), json!(t)))
            .collect();
        assert_eq!(got, want, "{}", out.stderr);
    }
}

/// Issue 35 item 9: `--each /dev/null` sends nothing and succeeds, as `cat /dev/null` would.
#[test]
fn each_from_dev_null_sends_nothing() {
    let sandbox = TestSandbox::demo();
    let out = common::run(
        sandbox
            .appdeck()
            .env("APPDECK_DATA_DIR", sandbox.path("data"))
            .args(["report", "--each", "/dev/null"]),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("0 sent"), "{}", out.stderr);
}
