//! Issue 20's CLI and sandbox items, end to end over real HTTP on loopback: what a new user and a
//! script writer tripped over. Each test names its item.

mod common;

use common::{TestSandbox, run};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");

/// Item 9: the table has the id column, in the terminal UI's order (type, name, status, id,
/// external id, update), and a default-width table shows every demo id whole.
#[test]
fn list_shows_the_id_column_in_the_terminal_uis_order() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["list", "--limit", "20"]));
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    let header: Vec<&str> = lines[0]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        [
            "!",
            "TYPE",
            "NAME",
            "STATUS",
            "ID",
            "EXTERNAL ID",
            "UPDATED"
        ],
        "{}",
        lines[0]
    );
    let ids = sandbox.store();
    for line in &lines[1..] {
        let id = line
            .split_whitespace()
            .find(|word| word.starts_with("res_"))
            .unwrap_or_else(|| panic!("no id on {line:?}"));
        assert!(
            ids.get(id).is_some(),
            "{id} on {line:?} is a stored id, uncut"
        );
    }
}

/// Item 10: a connect answered 2xx with an empty body is accepted with a warning and recorded
/// (`appdeck types` knows its types afterwards; the history has the send, its answer empty).
#[test]
fn a_connect_answered_2xx_with_an_empty_body_is_accepted_and_recorded() {
    let base_url = common::answer_once("200 OK", "");
    let dir = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut cmd = common::appdeck(dir.path());
        cmd.env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t");
        cmd
    };
    let out = run(cmd().args(["connect", &format!("{EXAMPLES}/connect.json")]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.contains("warning: the service accepted the connect (HTTP 200) with an empty answer"),
        "{}",
        out.stderr
    );
    let types = run(cmd().arg("types"));
    assert_eq!(types.code, 0, "{types:?}");
    assert!(types.stdout.contains("sent "), "recorded: {}", types.stdout);
    let history = run(cmd().args(["history", "show", "1"]));
    assert_eq!(history.code, 0, "{history:?}");
    assert!(history.stdout.contains("connect"), "{}", history.stdout);
}

/// Item 14: the CLI warns when a connect goes back a version, as the terminal UI does (and still
/// sends it: going back may be intended).
#[test]
fn a_connect_that_goes_back_a_version_is_warned_about() {
    let sandbox = TestSandbox::demo();
    let first = run(sandbox.appdeck().args(["connect", &format!("{EXAMPLES}/connect.json")]));
    assert_eq!(first.code, 0, "{first:?}");
    assert!(!first.stderr.contains("goes back"), "{}", first.stderr);
    let mut older: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{EXAMPLES}/connect.json")).unwrap())
            .unwrap();
    older["version"] = "1.1.0".into();
    let out = common::run_with_stdin(
        sandbox.appdeck().args(["connect", "-"]),
        Some(&older.to_string()),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.contains(
            "appdeck: warning: version 1.1.0 goes back from 1.2.0 (the newest version of \
             example-git-host sent to this service"
        ),
        "{}",
        out.stderr
    );
}
