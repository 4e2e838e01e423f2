//! What the service sent is what appdeck shows and sends: numbers keep their text and keys their
//! order, through a report sent, the sandbox's store, `list`, the curl export and the history
//! (the real binary over loopback against the sandbox).

use crate::common;

use common::{TestSandbox, run, run_with_stdin, write_file};
use serde_json::Value;

/// Numbers an `f64` would rewrite (`1.2345678901234568e+22`, `100.0`, `-0.0`, `0.0`...), and one
/// past its range: one a line, shared with `src/app/exact_tests.rs`.
fn numbers() -> Vec<&'static str> {
    include_str!("../common/exact_numbers.txt")
        .lines()
        .collect()
}

/// A report whose resource holds [`numbers`] (as `n0`..`n8`), its keys out of the spec's order.
fn report() -> String {
    let properties: Vec<String> = numbers()
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""n{i}": {n}"#))
        .collect();
    format!(
        r#"{{"task_id": "t-exact", "status": "ok", "message": "exact",
            "response": {{"response_type": "resource", "resource": {{
                "properties": {{{}}}, "name": "exact-one", "zeta": [1.50, 2E+3], "s": "\u202E\/",
                "type": "exactness", "external_id": "x-1"
            }}}}}}"#,
        properties.join(", ")
    )
}

/// Where each of `keys` first appears in `text`, which must hold them all.
fn positions(text: &str, keys: &[&str]) -> Vec<usize> {
    keys.iter()
        .map(|k| {
            text.find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} missing from {text}"))
        })
        .collect()
}

fn assert_exact(text: &str) {
    for (i, n) in numbers().iter().enumerate() {
        assert!(
            text.contains(&format!(r#""n{i}":{n}"#)) || text.contains(&format!(r#""n{i}": {n}"#)),
            "n{i} is not {n} in {text}"
        );
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(compact.contains("[1.50,2E+3]"), "{text}");
    // A string's escapes as written, not unescaped and escaped again.
    assert!(
        text.contains(r#""s": "\u202E\/""#) || text.contains(r#""s":"\u202E\/""#),
        "{text}"
    );
}

#[test]
fn numbers_and_key_order_survive_a_report_the_sandbox_and_list() {
    let sandbox = TestSandbox::demo();
    let data = sandbox.path("data");
    let file = write_file(&sandbox.path("report.json"), &report(), 0o644);

    // The file passes the offline checks as it is.
    let out = run(sandbox.appdeck().arg("validate").arg(&file));
    assert_eq!(out.code, 0, "{out:?}");

    // The curl export carries the numbers as written.
    let out = run(sandbox.appdeck().arg("report").arg(&file).arg("--curl"));
    assert_eq!(out.code, 0, "{out:?}");
    assert_exact(&out.stdout);

    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .arg("report")
        .arg(&file));
    assert_eq!(out.code, 0, "{out:?}");

    for output in ["ndjson", "json"] {
        let out = run(sandbox
            .appdeck()
            .args(["list", "--type", "exactness", "-o", output]));
        assert_eq!(out.code, 0, "{out:?}");
        let line = out
            .stdout
            .lines()
            .find(|l| l.contains("exact-one"))
            .unwrap_or_else(|| panic!("the reported resource is listed: {}", out.stdout));
        assert_exact(line);
        // The keys the report sent come back in the order it sent them.
        let sent = ["properties", "name", "zeta", "type", "external_id"];
        let at = positions(line, &sent);
        assert!(at.is_sorted(), "keys reordered: {line}");
        let keys: Vec<String> = (0..numbers().len()).map(|i| format!("n{i}")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        assert!(positions(line, &keys).is_sorted(), "{line}");
    }

    // Issue 45 item 1: a column's cell is the number as the service wrote it, in the table,
    // csv and tsv alike (read through a parsed value, `1e2` came out `1e+2`, `1E-400`
    // `1e-400`), and an object the item's own text, compact.
    let columns: Vec<String> = (0..numbers().len())
        .map(|i| format!("properties.n{i}"))
        .chain(["zeta".to_owned()])
        .collect();
    for output in ["table", "csv", "tsv"] {
        // Wide enough for the table to cut no cell.
        let out = run(sandbox.appdeck().env("COLUMNS", "1000").args([
            "list",
            "--type",
            "exactness",
            "-o",
            output,
            "--no-headers",
            "--columns",
            &columns.join(","),
        ]));
        assert_eq!(out.code, 0, "{out:?}");
        let cells: Vec<&str> = match output {
            "csv" => out.stdout.trim_end().split(',').collect(),
            "tsv" => out.stdout.trim_end().split('\t').collect(),
            _ => out.stdout.split_whitespace().collect(),
        };
        let mut wanted = numbers();
        wanted.push("[1.50,2E+3]");
        if output == "csv" {
            // csv quotes the array for its comma.
            wanted = wanted[..wanted.len() - 1].to_vec();
            assert!(
                out.stdout.trim_end().ends_with(",\"[1.50,2E+3]\""),
                "{out:?}"
            );
        }
        assert_eq!(cells[..wanted.len()], wanted, "-o {output}: {}", out.stdout);
    }

    // The history holds the body exactly as sent, and prints it so.
    for args in [
        &["history", "show", "1", "-o", "json"][..],
        &["history", "-o", "json"],
        &["history", "-o", "ndjson"],
    ] {
        let out = run(sandbox.appdeck().env("APPDECK_DATA_DIR", &data).args(args));
        assert_eq!(out.code, 0, "{out:?}");
        assert_exact(&out.stdout);
    }
}

/// A connect whose `exactness` type bounds `n` below at 0: the sandbox's schema check compares
/// numbers past `f64`'s range too.
#[test]
fn schema_checks_compare_numbers_past_f64() {
    let sandbox = TestSandbox::demo();
    let connect = r#"{"app_id": "exact", "version": "1.0.0", "resources": [{
        "type": "exactness", "display_name": "Exactness", "list_supported": true,
        "property_json_schema": {"type": "object",
            "properties": {"n": {"type": "number", "minimum": 0, "maximum": 1e401}}}
    }]}"#;
    let connect = write_file(&sandbox.path("connect.json"), connect, 0o644);
    let out = run(sandbox.appdeck().arg("connect").arg(&connect));
    assert_eq!(out.code, 0, "{out:?}");
    let report = |n: &str| {
        format!(
            r#"{{"task_id": "t", "status": "ok", "response": {{"response_type": "resource",
                "resource": {{"type": "exactness", "external_id": "e", "name": "e",
                "properties": {{"n": {n}}}}}}}}}"#
        )
    };
    let validate = |n: &str| {
        let file = write_file(&sandbox.path("report.json"), &report(n), 0o644);
        run(sandbox
            .appdeck()
            .arg("validate")
            .arg(&file)
            .arg("--types")
            .arg(&connect))
    };
    let out = validate("1e400");
    assert_eq!(out.code, 0, "1e400 is within [0, 1e401]: {out:?}");
    for outside in ["-1e400", "1e402"] {
        let out = validate(outside);
        assert_eq!(
            out.code, 2,
            "{outside} is refused by the offline check: {out:?}"
        );
        assert!(out.stdout.contains("/n"), "{out:?}");
    }
    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-"]),
        Some(&report("1e400")),
    );
    assert_eq!(out.code, 0, "{out:?}");
    // Sent anyway, the sandbox refuses it by the same schema.
    let out = run_with_stdin(
        sandbox.appdeck().args(["report", "-"]),
        Some(&report("-1e400")),
    );
    assert_eq!(out.code, 1, "{out:?}");
    let listed = run(sandbox
        .appdeck()
        .args(["list", "--type", "exactness", "-o", "ndjson"]));
    let items: Vec<Value> = listed
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), 1, "{}", listed.stdout);
    assert!(listed.stdout.contains(r#""n":1e400"#), "{}", listed.stdout);
}

/// A page whose middle item is nested 1,000 levels deep: the other items list, the deep one is
/// marked and written back as it came.
#[test]
fn an_item_too_deep_to_read_marks_only_itself() {
    let deep = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
    let body = format!(
        r#"{{"resources": [{{"id": "a", "type": "t"}}, {{"id": "deep", "properties": {{"x": {deep}}}}}, {{"id": "c", "type": "t"}}]}}"#
    );
    let answer = |body: &str| {
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let listed = |output: &str| {
        run(common::appdeck(dir.path())
            .env("APPDECK_TOKEN", "t")
            .args(["list", "-o", output, "--base-url"])
            .arg(common::answer_once_raw(answer(&body))))
    };
    let out = listed("ndjson");
    assert_eq!(out.code, 0, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out.stdout);
    // Every item's bytes as they came, the server's spacing included (issue 21 item 7).
    assert_eq!(lines[0], r#"{"id": "a", "type": "t"}"#);
    assert_eq!(
        lines[1],
        format!(r#"{{"id": "deep", "properties": {{"x": {deep}}}}}"#)
    );
    assert_eq!(lines[2], r#"{"id": "c", "type": "t"}"#);

    let out = listed("table");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .contains("nested deeper than 128 levels, more than appdeck reads"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("3 resources"), "{}", out.stderr);
    // The row shows the item's text as it came, not quoted as a JSON string.
    assert!(out.stdout.contains(r#"{"id": "deep""#), "{}", out.stdout);

    // Issue 45 item 4: csv wrote the deep item as `,,,,,,`, its id lost, and said nothing.
    let out = listed("csv");
    assert_eq!(out.code, 0, "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        ["t,a,,,,,", ",deep,,,,,", "t,c,,,,,"],
        "{out:?}"
    );
    assert!(
        out.stderr
            .contains("1 of 3 rows malformed (marked ! in the table)"),
        "{}",
        out.stderr
    );
}

/// `-f`/`-F` add a field by splicing it into the body's text: every other byte of the body goes
/// as written, `-F`'s number as typed (a parsed value would send `1e+400` and `1.0e+2`), and a
/// `--paginate` page after the first keeps them too.
#[test]
fn api_fields_keep_the_bodys_text_and_a_typed_number_as_typed() {
    let answer = r#"{"resources": [], "next": "c2"}"#;
    let (url, requests) = common::faulty::faulty(4, move |request| {
        let last = request.body.contains("\"c2\"");
        common::faulty::Reply::Answer(
            "200 OK",
            if last {
                "{}".to_owned()
            } else {
                answer.to_owned()
            },
        )
    });
    let body = r#"{"z": 1.0e2, "a": 1E400, "s": "\u202e", "limit": 2}"#;
    let out = common::run_against(
        tempfile::tempdir().unwrap().path(),
        &url,
        &[
            "api",
            "things.get",
            body,
            "-F",
            "x=1E400",
            "-F",
            "limit=3",
            "-f",
            "k=v\u{202e}",
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let out = common::run_against(
        tempfile::tempdir().unwrap().path(),
        &url,
        &[
            "api",
            "resources.list",
            r#"{"a": 1E400}"#,
            "-F",
            "n=-0.10e-1",
            "--paginate",
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let requests = requests.lock().unwrap();
    assert_eq!(
        requests[0].body,
        r#"{"z": 1.0e2, "a": 1E400, "s": "\u202e", "limit": 3,"k":"v\u202e","x":1E400}"#
    );
    assert_eq!(requests[1].body, r#"{"a": 1E400,"n":-0.10e-1}"#);
    assert_eq!(requests[2].body, r#"{"a": 1E400,"n":-0.10e-1,"next":"c2"}"#);
}

/// The service's answer to a report is printed (`-o json`, `-o ndjson`) and recorded in the
/// history as it came: a parsed value would print `1e+400` for `1E400` and `\u202e` for
/// `\u202E`.
#[test]
fn a_reports_answer_is_printed_and_recorded_as_it_came() {
    let answer = r#"{"status": "ok", "n": 1E400, "m": 1.0e2, "s": "\u202E\/"}"#;
    let (url, _) = common::faulty::faulty(4, move |_| {
        common::faulty::Reply::Answer("200 OK", answer.to_owned())
    });
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(&dir.path().join("report.json"), &report(), 0o644);
    let file = file.to_str().unwrap();
    let compact = r#"{"status":"ok","n":1E400,"m":1.0e2,"s":"\u202E\/"}"#;
    let out = common::run_against(dir.path(), &url, &["report", file, "-o", "ndjson"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout.trim_end(), compact);
    let out = common::run_against(dir.path(), &url, &["report", file, "-o", "json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "{\n  \"status\": \"ok\",\n  \"n\": 1E400,\n  \"m\": 1.0e2,\n  \"s\": \"\\u202E\\/\"\n}\n"
    );
    let out = common::run_against(dir.path(), &url, &["history", "-o", "ndjson"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(&format!(r#""answer":{compact}"#)),
        "{}",
        out.stdout
    );
}

/// `report --each`: each result carries the service's answer as it came.
#[test]
fn each_result_carries_the_answer_as_it_came() {
    let answer = r#"{"status": "ok", "n": 1E400, "s": "\u202E\/"}"#;
    let (url, _) = common::faulty::faulty(4, move |_| {
        common::faulty::Reply::Answer("200 OK", answer.to_owned())
    });
    let dir = tempfile::tempdir().unwrap();
    let line = report().replace('\n', " ");
    let file = write_file(
        &dir.path().join("reports.ndjson"),
        &format!("{line}\n"),
        0o644,
    );
    let file = file.to_str().unwrap();
    let compact = r#""answer":{"status":"ok","n":1E400,"s":"\u202E\/"}"#;
    for output in ["ndjson", "json"] {
        let out = common::run_against(dir.path(), &url, &["report", "--each", file, "-o", output]);
        assert_eq!(out.code, 0, "{out:?}");
        assert!(out.stdout.contains(compact), "{output}: {}", out.stdout);
    }
    let out = common::run_against(
        dir.path(),
        &url,
        &["report", "--each", file, "--jq", ".answer.n"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "1E400\n");
}

/// `report --each`: each result's `task_id` is the line's as written, and its `status` the
/// answer's (escapes kept: a parsed value prints `\u202E` as the character and `\/` as `/`); a
/// task id that is not a string (a line refused) as written too (`1E2`, not `1e+2`).
#[test]
fn each_result_carries_the_task_id_and_the_status_as_written() {
    let answer = r#"{"status": "\u006fk", "n": 1}"#;
    let (url, _) = common::faulty::faulty(4, move |_| {
        common::faulty::Reply::Answer("200 OK", answer.to_owned())
    });
    let dir = tempfile::tempdir().unwrap();
    let line = report()
        .replace('\n', " ")
        .replace(r#""task_id": "t-exact""#, r#""task_id": "t\u202E\/""#);
    let refused = line.replace(r#""task_id": "t\u202E\/""#, r#""task_id": 1E2"#);
    let file = write_file(
        &dir.path().join("reports.ndjson"),
        &format!("{line}\n{refused}\n"),
        0o644,
    );
    let file = file.to_str().unwrap();
    let out = common::run_against(
        dir.path(),
        &url,
        &["report", "--each", file, "-o", "ndjson"],
    );
    let results: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(results.len(), 2, "{out:?}");
    assert!(
        results[0].starts_with(
            r#"{"line":1,"task_id":"t\u202E\/","http_status":200,"status":"\u006fk","#
        ),
        "{}",
        out.stdout
    );
    assert!(
        results[1].starts_with(r#"{"line":2,"task_id":1E2,"#),
        "{}",
        out.stdout
    );
    let out = common::run_against(dir.path(), &url, &["report", "--each", file]);
    assert!(
        out.stdout.contains("line 2: 1E2: not sent"),
        "{}",
        out.stdout
    );
}
