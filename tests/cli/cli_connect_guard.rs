//! `appdeck connect` compares a payload with the version of the same app that this service last
//! accepted from appdeck (the local store) and refuses breaking changes unless told otherwise.

use crate::common;

use common::{TestSandbox, run};
use serde_json::{Value, json};

fn write_json(dir: &std::path::Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.display().to_string()
}

fn version(version: &str, types: &[&str]) -> Value {
    let resources: Vec<Value> = types
        .iter()
        .map(|t| {
            json!({"type": t, "display_name": t, "list_supported": true, "read_supported": true,
                   "property_json_schema": {"type": "object",
                       "properties": {"size": {"type": "integer"}}}})
        })
        .collect();
    json!({"app_id": "guarded-app", "version": version, "resources": resources})
}

#[test]
fn a_breaking_connect_is_refused_unless_allowed_and_a_safe_one_goes_through() {
    let sandbox = TestSandbox::demo();
    let dir = sandbox.dir.path();
    let first = write_json(dir, "v1.json", &version("1.0.0", &["gadget", "widget"]));
    let out = run(sandbox.appdeck().args(["connect", &first]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "nothing to compare yet: {}",
        out.stderr
    );

    // Removing a type breaks the users of 1.0.0: refused, the changes listed, nothing sent.
    let removed = write_json(dir, "v2.json", &version("2.0.0", &["gadget"]));
    let out = run(sandbox.appdeck().args(["connect", &removed]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("changes against guarded-app 1.0.0"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("BREAKING"), "{}", out.stderr);
    assert!(out.stderr.contains("widget"), "{}", out.stderr);
    assert!(out.stderr.contains("--allow-breaking"), "{}", out.stderr);
    assert!(
        out.stdout.is_empty(),
        "not sent, so no answer: {}",
        out.stdout
    );
    let types = run(sandbox.appdeck().arg("types"));
    assert!(
        !types.stdout.contains("2.0.0"),
        "a refused connect is not recorded: {}",
        types.stdout
    );

    // Adding a type breaks nobody: listed, and sent.
    let added = write_json(
        dir,
        "v1.1.json",
        &version("1.1.0", &["gadget", "widget", "doohickey"]),
    );
    let out = run(sandbox.appdeck().args(["connect", &added]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("doohickey"), "{}", out.stderr);
    assert!(!out.stderr.contains("BREAKING"), "{}", out.stderr);

    // Now compared with 1.1.0, the newest sent: the removal is still refused without the flag,
    // and sent with it.
    let out = run(sandbox
        .appdeck()
        .args(["connect", &removed, "--allow-breaking"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.contains("changes against guarded-app 1.1.0"),
        "{}",
        out.stderr
    );
    let types = run(sandbox.appdeck().arg("types"));
    assert!(types.stdout.contains("2.0.0"), "{}", types.stdout);
}
