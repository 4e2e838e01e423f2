//! A read-only profile (or `--read-only`) refuses `report` and `connect` with exit 2 before
//! anything reaches the service, and still lists.

use crate::common;

use common::{TOKEN, TestSandbox, run, write_file};
use serde_json::json;

fn config(sandbox: &TestSandbox) {
    let text = format!(
        "[profiles.prod]\nbase_url = \"{url}\"\ntoken = \"{TOKEN}\"\nread_only = true\n\n\
         [profiles.dev]\nbase_url = \"{url}\"\ntoken = \"{TOKEN}\"\n",
        url = sandbox.base_url
    );
    write_file(&sandbox.path("config.toml"), &text, 0o600);
}

fn report(sandbox: &TestSandbox) -> String {
    let report = json!({
        "task_id": "ro-1", "status": "ok", "message": "must not arrive",
        "response": {"response_type": "resource", "resource": {
            "type": "team", "external_id": "read-only-check", "name": "never-written"
        }}
    });
    let path = write_file(&sandbox.path("report.json"), &report.to_string(), 0o644);
    path.display().to_string()
}

fn connect(sandbox: &TestSandbox) -> String {
    let connect = json!({
        "app_id": "read-only-tests", "version": "1.0.0",
        "resources": [{"type": "gizmo", "display_name": "Gizmo", "list_supported": true,
                       "property_json_schema": {"type": "object"}}]
    });
    let path = write_file(&sandbox.path("connect.json"), &connect.to_string(), 0o644);
    path.display().to_string()
}

fn appdeck(sandbox: &TestSandbox, profile: &str) -> std::process::Command {
    let mut cmd = common::appdeck(sandbox.dir.path());
    cmd.args(["--profile", profile]);
    cmd
}

#[test]
fn a_read_only_profile_refuses_report_and_connect_and_the_sandbox_receives_nothing() {
    let sandbox = TestSandbox::demo();
    config(&sandbox);
    let (report, connect) = (report(&sandbox), connect(&sandbox));
    let before = sandbox.store().len();

    let out = run(appdeck(&sandbox, "prod").args(["report", &report]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("profile \"prod\" is read-only: "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("not sent"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "no answer: {}", out.stdout);

    let out = run(appdeck(&sandbox, "prod").args(["connect", &connect]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("\"prod\" is read-only"),
        "{}",
        out.stderr
    );

    assert_eq!(
        sandbox.store().len(),
        before,
        "no report reached the sandbox"
    );
    assert!(
        sandbox.store().resource_type("gizmo").is_none(),
        "no connect reached the sandbox"
    );

    // A list is a read: it works under the same profile.
    let out = run(appdeck(&sandbox, "prod").arg("list"));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("TYPE"), "{}", out.stdout);

    // The same commands under a writable profile do reach it (so the checks above can fail).
    let out = run(appdeck(&sandbox, "dev").args(["report", &report]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(sandbox.store().len(), before + 1);
    let out = run(appdeck(&sandbox, "dev").args(["connect", &connect]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(sandbox.store().resource_type("gizmo").is_some());
}

#[test]
fn the_read_only_flag_refuses_writes_without_any_profile() {
    let sandbox = TestSandbox::demo();
    let report = report(&sandbox);
    let before = sandbox.store().len();
    let out = run(sandbox.appdeck().args(["--read-only", "report", &report]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("appdeck: read-only (--read-only): "),
        "{}",
        out.stderr
    );
    assert_eq!(sandbox.store().len(), before, "nothing reached the sandbox");

    // Printing the curl command sends nothing, so it is allowed.
    let out = run(sandbox
        .appdeck()
        .args(["report", &report, "--curl", "--read-only"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with("curl"), "{}", out.stdout);
    assert_eq!(sandbox.store().len(), before);
}
