//! `appdeck types` and `appdeck types show` end to end: types from `--types` files, from the
//! demo, and from connects recorded by `appdeck connect` against the sandbox.

use crate::common;

use common::{TestSandbox, appdeck, run};
use serde_json::{Value, json};

/// A connect payload with every awkward thing: `$ref` (one a cycle), `oneOf`, arrays of arrays,
/// optional fields left out, fields the spec does not name, and escape sequences in its text.
fn tricky_connect() -> Value {
    json!({
        "app_id": "tricky-app", "version": "2.0.0", "vendor_note": {"extra": true},
        "resources": [{
            "type": "ticket",
            "display_name": "Ticket\u{1b}[31m red",
            "description": "A ticket.\u{1b}]0;pwned\u{7} Done.",
            "list_supported": true, "read_supported": true,
            "lifecycle_stage": "beta",
            "future_field": [1, 2, 3],
            "instructions_markdown": "# Tickets\n\nUse **care**.\u{1b}[2J",
            "property_json_schema": {
                "type": "object",
                "required": ["title"],
                "properties": {
                    "title": {"type": "string", "maxLength": 80, "description": "Title\u{9b}31m"},
                    "assignee": {"$ref": "#/$defs/person"},
                    "thread": {"$ref": "#/$defs/comment"},
                    "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "minimum": 0}}},
                    "target": {"oneOf": [
                        {"type": "string", "format": "uri"},
                        {"type": "object", "properties": {"id": {"type": "integer"}}}
                    ]}
                },
                "$defs": {
                    "person": {"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"]},
                    "comment": {"type": "object", "properties": {
                        "text": {"type": "string"},
                        "replies": {"type": "array", "items": {"$ref": "#/$defs/comment"}}
                    }}
                }
            },
            "actions": [{"name": "close", "description": "Close it\u{1b}[H.",
                         "input_json_schema": {"type": "object", "properties": {"reason": {"enum": ["done", "dup"]}}}}]
        }, {
            "type": "bare"
        }]
    })
}

fn write_json(dir: &std::path::Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.display().to_string()
}

fn assert_no_escape(text: &str) {
    for bad in ['\u{1b}', '\u{9b}', '\u{7}'] {
        assert!(!text.contains(bad), "{bad:?} reached the output:\n{text}");
    }
}

#[test]
fn types_lists_a_files_types_with_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_json(dir.path(), "tricky.json", &tricky_connect());
    let out = run(appdeck(dir.path()).args(["types", "--types", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_no_escape(&out.stdout);
    let lines = out.lines();
    assert!(
        lines[0].starts_with("TYPE") && lines[0].contains("SOURCE"),
        "{}",
        lines[0]
    );
    let ticket = lines
        .iter()
        .find(|l| l.starts_with("ticket"))
        .expect("ticket row");
    for cell in [
        "Ticket␛[31m red",
        "tricky-app",
        "2.0.0",
        "beta",
        "LR----",
        &file,
    ] {
        assert!(ticket.contains(cell), "{cell:?} missing in {ticket}");
    }
    let bare = lines
        .iter()
        .find(|l| l.starts_with("bare"))
        .expect("bare row");
    assert!(bare.contains(" 0 "), "no actions: {bare}");

    let out = run(appdeck(dir.path()).args(["types", "-o", "json", "--types", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_no_escape(&out.stdout);
    let items: Vec<Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[1]["type"], "ticket");
    assert_eq!(
        items[1]["display_name"], "Ticket\u{1b}[31m red",
        "JSON keeps the data exact"
    );
    assert_eq!(items[1]["capabilities"]["list"], true);
    assert_eq!(items[1]["capabilities"]["create"], Value::Null);
    assert_eq!(items[1]["source_kind"], "file");
}

#[test]
fn types_show_prints_the_explain_tree_of_every_schema() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_json(dir.path(), "tricky.json", &tricky_connect());
    let out = run(appdeck(dir.path()).args(["types", "show", "ticket", "--types", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_no_escape(&out.stdout);
    let text = &out.stdout;
    for expected in [
        "type: ticket\n",
        "app: tricky-app 2.0.0\n",
        "description:\n  A ticket.␛]0;pwned␇ Done.\n",
        "  list         yes\n",
        "  create       not said\n",
        "actions (1):\n  close\n    Close it␛[H.\n",
        "instructions:\n  # Tickets\n",
        "schema property_json_schema:\nproperty_json_schema <object>\n",
        "  title <string>, required\n      maxLength: 80\n      Title�31m\n",
        "  assignee <object> → #/$defs/person\n    login <string>, required\n",
        "      [] <object> → #/$defs/comment (cycle: not followed)\n",
        "  grid <array>\n    [] <array>\n      [] <integer>\n          minimum: 0\n",
        "    oneOf 1 <string>\n        format: uri\n",
        "    oneOf 2 <object>\n      id <integer>\n",
        "schema actions/close/input_json_schema:\n",
        "\n  reason <string>\n      enum: \"done\", \"dup\"\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }

    let out =
        run(appdeck(dir.path()).args(["types", "show", "ticket", "-o", "json", "--types", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_no_escape(&out.stdout);
    let value: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        value["definition"]["future_field"],
        json!([1, 2, 3]),
        "unknown fields kept"
    );
    let schemas = value["schemas"].as_array().unwrap();
    assert_eq!(schemas[0]["name"], "property_json_schema");
    assert_eq!(schemas[0]["tree"]["root"]["types"], json!(["object"]));

    // A type with nothing but its name.
    let out = run(appdeck(dir.path()).args(["types", "show", "bare", "--types", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("actions (0):"), "{}", out.stdout);
    assert!(!out.stdout.contains("schema "), "{}", out.stdout);
}

#[test]
fn an_unknown_type_exits_2_and_names_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_json(dir.path(), "tricky.json", &tricky_connect());
    let out = run(appdeck(dir.path()).args(["types", "show", "nope", "--types", &file]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("no type named nope; known types: bare, ticket"),
        "{}",
        out.stderr
    );
}

#[test]
fn with_no_type_known_it_says_how_to_add_some() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).arg("types"));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains("no resource types known"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--types FILE") && out.stderr.contains("appdeck connect"));
    let out = run(appdeck(dir.path()).args(["types", "-o", "json"]));
    assert_eq!(out.stdout.trim(), "[]");
    let out = run(appdeck(dir.path()).args(["types", "show", "ticket"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("--types FILE"), "{}", out.stderr);
}

#[test]
fn a_file_that_is_not_a_valid_connect_payload_gets_validates_findings() {
    let dir = tempfile::tempdir().unwrap();
    let bad = json!({"app_id": "", "version": "1", "resources": [
        {"type": "t", "property_json_schema": {"type": "nope"}}
    ]});
    let file = write_json(dir.path(), "bad.json", &bad);
    let out = run(appdeck(dir.path()).args(["types", "--types", &file]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains(&format!("{file}: error at /app_id")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("error at /resources/0/property_json_schema"),
        "{}",
        out.stderr
    );
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"app_id\": ").unwrap();
    let out = run(appdeck(dir.path())
        .args(["types", "show", "t", "--types"])
        .arg(&broken));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("broken.json:2:"), "{}", out.stderr);
}

#[test]
fn demo_types_come_from_the_demo_payload() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).args(["--demo", "types"]));
    assert_eq!(out.code, 0, "{out:?}");
    let repository = out
        .lines()
        .into_iter()
        .find(|l| l.starts_with("repository"))
        .unwrap();
    assert!(repository.ends_with("demo"), "{repository}");
    let out = run(appdeck(dir.path()).args(["--demo", "list"]));
    assert_eq!(
        out.code, 2,
        "--demo still takes no other subcommand: {out:?}"
    );
}

#[test]
fn a_connect_sent_is_known_afterwards_without_types() {
    let sandbox = TestSandbox::demo();
    let payload = json!({"app_id": "sent-app", "version": "3.1.0", "resources": [
        {"type": "gadget", "display_name": "Gadget", "list_supported": true,
         "property_json_schema": {"type": "object", "properties": {"size": {"type": "integer"}}}}
    ]});
    let file = write_json(sandbox.dir.path(), "connect.json", &payload);
    let before = chrono::Utc::now();
    let out = run(sandbox.appdeck().args(["connect", &file]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.is_empty(), "no warning: {}", out.stderr);

    let out = run(sandbox.appdeck().arg("types"));
    assert_eq!(out.code, 0, "{out:?}");
    let gadget = out
        .lines()
        .into_iter()
        .find(|l| l.starts_with("gadget"))
        .expect("gadget");
    assert!(
        gadget.contains("sent-app") && gadget.contains("3.1.0"),
        "{gadget}"
    );
    let sent = format!("sent {}", before.format("%Y-%m-%d"));
    assert!(gadget.contains(&sent), "{gadget}");
    let out = run(sandbox.appdeck().args(["types", "show", "gadget"]));
    assert!(out.stdout.contains("  size <integer>\n"), "{}", out.stdout);

    // Recorded per base URL: another service does not know it.
    let out = run(sandbox
        .appdeck()
        .env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1")
        .arg("types"));
    assert!(!out.stdout.contains("gadget"), "{}", out.stdout);
}

/// Issue 20 item 7: a type that the newest version of its app no longer defines says which
/// version removed it, in the table and in the JSON; a type still defined says nothing.
#[test]
fn types_marks_a_type_the_newest_version_removed() {
    let dir = tempfile::tempdir().unwrap();
    let old = json!({"app_id": "acme", "version": "1.4.0",
                     "resources": [{"type": "repo"}, {"type": "team"}]});
    let new = json!({"app_id": "acme", "version": "1.5.0", "resources": [{"type": "repo"}]});
    let old = write_json(dir.path(), "old.json", &old);
    let new = write_json(dir.path(), "new.json", &new);
    // The newer file was written later.
    let earlier = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(earlier)
        .unwrap();
    let out = run(appdeck(dir.path()).args(["types", "--types", &old, "--types", &new]));
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    let team = lines.iter().find(|l| l.starts_with("team")).expect("team");
    assert!(team.contains("1.4.0, removed in 1.5.0"), "{team}");
    for repo in lines.iter().filter(|l| l.starts_with("repo")) {
        assert!(!repo.contains("removed"), "{repo}");
    }
    let out =
        run(appdeck(dir.path()).args(["types", "-o", "json", "--types", &old, "--types", &new]));
    let items: Value = serde_json::from_str(&out.stdout).unwrap();
    let team = items
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "team")
        .unwrap();
    assert_eq!(team["removed_in"], "1.5.0");
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "repo")
            .all(|t| t.get("removed_in").is_none())
    );
}
