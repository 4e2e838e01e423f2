//! `appdeck diff` (exit 0, 3 and 2 with what it prints) and `appdeck infer` against the sandbox
//! over loopback, whose payload `appdeck validate` then accepts.

use crate::common;

use common::{TestSandbox, appdeck, run};
use serde_json::{Value, json};

const DEMO_CONNECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/connect.json");

fn demo_connect() -> Value {
    serde_json::from_str(&std::fs::read_to_string(DEMO_CONNECT).unwrap()).unwrap()
}

/// Writes `value` as `name` in `dir` and returns the path as a string.
fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn diff_of_a_payload_with_itself_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, DEMO_CONNECT]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with("not breaking: 0"), "{}", out.stdout);
}

#[test]
fn diff_with_only_safe_changes_exits_0_and_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut new = demo_connect();
    new["version"] = json!("1.5.0");
    new["resources"][0]["lifecycle_stage"] = json!("deprecated");
    new["resources"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "brand_new", "list_supported": true}));
    let new = write(&dir, "new.json", &new.to_string());
    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, &new]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("/resources/0/lifecycle_stage"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("type added"), "{}", out.stdout);
    assert!(!out.stdout.contains("BREAKING"), "{}", out.stdout);
}

#[test]
fn diff_with_breaking_changes_exits_3_and_lists_them_first() {
    let dir = tempfile::tempdir().unwrap();
    let old = demo_connect();
    let mut new = old.clone();
    new["version"] = json!("2.0.0");
    let removed = new["resources"].as_array_mut().unwrap().pop().unwrap();
    let schema = &mut new["resources"][0]["property_json_schema"];
    schema["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("stars"));
    // A hostile type name must not reach the terminal raw.
    new["resources"][0]["lifecycle_stage"] = json!("ga\u{1b}[2J");
    let new = write(&dir, "new.json", &new.to_string());
    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, &new]));
    assert_eq!(out.code, 3, "{out:?}");
    let lines = out.lines();
    assert!(lines[0].starts_with("breaking: 2 "), "{}", out.stdout);
    assert!(
        lines[1].starts_with("BREAKING") && lines[2].starts_with("BREAKING"),
        "{}",
        out.stdout
    );
    let removed_name = removed["type"].as_str().unwrap();
    assert!(
        out.stdout
            .contains(&format!("(type \"{removed_name}\"): type removed")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("/resources/0/property_json_schema/required (type \"repository\", property_json_schema): `stars` is now required"),
        "{}",
        out.stdout
    );
    assert!(
        lines[3..].iter().all(|l| l.starts_with("ok ")),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains('\u{1b}'), "{}", out.stdout);

    let json_out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, &new, "--output", "json"]));
    assert_eq!(json_out.code, 3, "{json_out:?}");
    let body: Value = serde_json::from_str(&json_out.stdout).unwrap();
    assert_eq!(body["breaking"], true);
    assert_eq!(body["changes"][0]["impact"], "breaking");
    assert!(
        body["changes"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with("/resources/")
    );
}

#[test]
fn diff_of_bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let not_json = write(&dir, "broken.json", "{\n  \"app_id\": ");
    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, &not_json]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("broken.json:2:"), "{}", out.stderr);
    assert!(out.stdout.is_empty());

    let report = write(&dir, "report.json", r#"{"task_id": "t", "status": "ok"}"#);
    let out = run(appdeck(dir.path()).args(["diff", &report, DEMO_CONNECT]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("not a version-connect payload"),
        "{}",
        out.stderr
    );

    let invalid = write(
        &dir,
        "invalid.json",
        r#"{"app_id": "a", "version": "1", "resources": [{"type": "x", "property_json_schema": {"type": "nope"}}]}"#,
    );
    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, &invalid]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("/resources/0/property_json_schema"),
        "{}",
        out.stderr
    );

    let out = run(appdeck(dir.path()).args(["diff", DEMO_CONNECT, "/nonexistent/x.json"]));
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
fn diff_help_documents_the_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).args(["diff", "--help"]));
    assert_eq!(out.code, 0);
    for code in ["0  nothing breaks", "2  bad input", "3  something breaks"] {
        assert!(out.stdout.contains(code), "{code}: {}", out.stdout);
    }
}

#[test]
fn infer_prints_a_payload_that_validate_accepts() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox
        .appdeck()
        .args(["infer", "--app-id", "acme", "--version", "9.9.9"]));
    assert_eq!(out.code, 0, "{out:?}");
    let payload: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(payload["app_id"], "acme");
    assert_eq!(payload["version"], "9.9.9");
    let types = payload["resources"].as_array().unwrap();
    assert!(types.len() >= 2, "{payload:#}");
    for definition in types {
        assert_eq!(definition["list_supported"], true);
        assert_eq!(definition["create_supported"], false);
        assert!(
            definition["property_json_schema"]["x-appdeck-samples"]
                .as_u64()
                .unwrap()
                > 0
        );
    }
    assert!(out.stderr.contains("inferred"), "{}", out.stderr);

    let file = sandbox.path("inferred.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let checked = run(sandbox.appdeck().args(["validate", file.to_str().unwrap()]));
    assert_eq!(checked.code, 0, "{checked:?}");
    assert!(
        checked.stdout.contains("valid: no errors"),
        "{}",
        checked.stdout
    );
}

#[test]
fn infer_samples_one_type_up_to_the_limit() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox
        .appdeck()
        .args(["infer", "--type", "repository", "--limit", "3"]));
    assert_eq!(out.code, 0, "{out:?}");
    let payload: Value = serde_json::from_str(&out.stdout).unwrap();
    let types = payload["resources"].as_array().unwrap();
    assert_eq!(types.len(), 1, "{payload:#}");
    assert_eq!(types[0]["type"], "repository");
    assert_eq!(types[0]["property_json_schema"]["x-appdeck-samples"], 3);
    assert!(payload["app_id"].as_str().unwrap().contains("REPLACE-ME"));
    assert!(out.stderr.contains("from 3 resources"), "{}", out.stderr);

    // The placeholders are never sent as they are: validate (and connect, whose checks they
    // are) refuses them, naming each (issue 20 item 8).
    let file = sandbox.path("skeleton.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let checked = run(sandbox.appdeck().args(["validate", file.to_str().unwrap()]));
    assert_eq!(checked.code, 2, "{checked:?}");
    for key in ["app_id", "version"] {
        let said = format!("error at /{key}: `{key}` is a placeholder: replace it with");
        assert!(checked.stdout.contains(&said), "{}", checked.stdout);
    }
}
