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
        out.stderr
            .contains("warning: the service accepted the connect (HTTP 200) with an empty answer"),
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
    let first = run(sandbox
        .appdeck()
        .args(["connect", &format!("{EXAMPLES}/connect.json")]));
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

/// Item 11: `--curl` applies the checks and exit status of a send, and prints the command anyway
/// (the findings on stderr).
#[test]
fn curl_has_the_checks_and_exit_status_of_a_send() {
    let sandbox = TestSandbox::demo();
    let invalid = run(sandbox.appdeck().args([
        "report",
        &format!("{EXAMPLES}/report-invalid.json"),
        "--curl",
    ]));
    assert_eq!(invalid.code, 2, "{invalid:?}");
    assert!(
        invalid.stdout.starts_with("curl "),
        "printed anyway: {invalid:?}"
    );
    assert!(
        invalid.stderr.contains("error at /task_id"),
        "{}",
        invalid.stderr
    );
    assert!(
        invalid.stderr.contains("the checks fail")
            && invalid.stderr.contains("printed all the same"),
        "{}",
        invalid.stderr
    );

    // A connect that breaks the version sent before: exit 2 unless --allow-breaking, as a send.
    let connect = format!("{EXAMPLES}/connect.json");
    assert_eq!(run(sandbox.appdeck().args(["connect", &connect])).code, 0);
    let mut breaking: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&connect).unwrap()).unwrap();
    breaking["version"] = "2.0.0".into();
    breaking["resources"].as_array_mut().unwrap().pop();
    let file = sandbox.path("breaking.json");
    std::fs::write(&file, breaking.to_string()).unwrap();
    let file = file.to_str().unwrap();
    let refused = run(sandbox.appdeck().args(["connect", file, "--curl"]));
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(refused.stdout.starts_with("curl "), "{refused:?}");
    assert!(refused.stderr.contains("BREAKING"), "{}", refused.stderr);
    let allowed = run(sandbox
        .appdeck()
        .args(["connect", file, "--curl", "--allow-breaking"]));
    assert_eq!(allowed.code, 0, "{allowed:?}");
}

/// Item 11: the command reads `$APPDECK_TOKEN`; with the token in a file and that variable unset,
/// appdeck says how to set it; with no token configured at all, `--curl` still works.
#[test]
fn curl_says_the_command_needs_appdeck_token_and_works_without_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let token = common::write_file(&dir.path().join("token"), "t0k3n\n", 0o600);
    let report = format!("{EXAMPLES}/report.json");
    let base = || {
        let mut cmd = common::appdeck(dir.path());
        cmd.env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1");
        cmd
    };
    let out = run(base()
        .args(["report", &report, "--curl", "--token-file"])
        .arg(&token));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with("curl "), "{out:?}");
    assert!(!out.stdout.contains("t0k3n"), "never the token");
    assert!(
        out.stderr
            .contains("the command reads the token from $APPDECK_TOKEN, which is not set here")
            && out.stderr.contains("export APPDECK_TOKEN=\"$(cat '"),
        "{}",
        out.stderr
    );

    let out = run(base().args(["report", &report, "--curl"]));
    assert_eq!(out.code, 0, "no token configured: {out:?}");
    assert!(out.stdout.starts_with("curl "), "{out:?}");
    assert!(
        out.stderr.contains("set it to your token first"),
        "{}",
        out.stderr
    );
}
