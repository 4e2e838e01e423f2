//! `appdeck keys` and `appdeck config show` with a `[keys]` table, run as the binary; and the
//! README's list of actions, which must match the key tables.

use crate::common;

use appdeck_tui::{Keymap, written_key};
use common::{appdeck, run, write_file};
use serde_json::Value;

#[test]
fn keys_lists_the_actions_their_keys_and_panes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(appdeck(dir.path()).arg("keys"));
    assert_eq!(out.code, 0, "{out:?}");
    let quit = out
        .stdout
        .lines()
        .find(|l| l.starts_with("quit "))
        .expect("a quit row");
    assert!(quit.contains(" q "), "{quit}");
    assert!(quit.contains("browser,detail,types"), "{quit}");
    assert!(out.stdout.starts_with("ACTION "), "{}", out.stdout);
}

#[test]
fn keys_and_config_show_follow_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    write_file(
        &dir.path().join("config.toml"),
        "[keys]\nquit = [\"Q\"]\n[keys.browser]\nsearch = [\"f\", \"F3\"]\n",
        0o600,
    );
    let out = run(appdeck(dir.path()).args(["keys", "--output", "json"]));
    assert_eq!(out.code, 0, "{out:?}");
    let actions: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let find = |action: &str, pane: &str| {
        actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| {
                a["action"] == action && a["panes"].as_array().unwrap().iter().any(|p| p == pane)
            })
            .cloned()
            .unwrap_or_else(|| panic!("{action} in {pane}"))
    };
    assert_eq!(find("quit", "history")["keys"], serde_json::json!(["Q"]));
    assert_eq!(
        find("search", "browser")["keys"],
        serde_json::json!(["f", "F3"])
    );
    assert_eq!(find("search", "browser")["remapped"], Value::Bool(true));
    assert_eq!(find("search", "detail")["keys"], serde_json::json!(["/"]));

    let shown = run(appdeck(dir.path())
        .args(["config", "show", "--base-url", "http://127.0.0.1:9/api/v1"])
        .env("APPDECK_TOKEN", "t"));
    assert_eq!(shown.code, 0, "{shown:?}");
    assert!(
        shown
            .stdout
            .contains("keys             search = f, F3 (default: /) in browser\n"),
        "{}",
        shown.stdout
    );
    assert!(
        shown
            .stdout
            .contains("keys             quit = Q (default: q) in browser, detail"),
        "{}",
        shown.stdout
    );
}

#[test]
fn a_mistake_in_keys_exits_2_with_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    write_file(
        &config,
        "[keys]\nquit = [\"Q\"]\nopen = [\"ctl-o\"]\n",
        0o600,
    );
    for args in [&["keys"][..], &["config", "show"]] {
        let out = run(appdeck(dir.path()).args(args));
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        let expected = format!(
            "appdeck: {}:3: [keys] open: \"ctl-o\" is not a key;",
            config.display()
        );
        assert!(
            out.stderr.starts_with(&expected),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// The README's table of actions, generated from the key tables.
fn reference() -> String {
    let mut text =
        String::from("| Action | Default keys | What it does | Panes |\n|---|---|---|---|\n");
    for action in Keymap::default().actions() {
        let keys: Vec<String> = action
            .keys
            .iter()
            .map(|k| format!("`{}`", written_key(*k)))
            .collect();
        text.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            action.action,
            keys.join(" "),
            action.help.replace('|', "\\|"),
            action.panes.join(", ")
        ));
    }
    text
}

#[test]
fn the_readme_lists_every_action_as_the_tables_define_it() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme.find("<!-- keys:start").expect("the start marker");
    let body_start = start + readme[start..].find("-->\n").expect("the marker's end") + 4;
    let end = readme.find("<!-- keys:end -->").expect("the end marker");
    let expected = reference();
    if readme[body_start..end] != expected {
        if std::env::var_os("APPDECK_UPDATE_README").is_some() {
            let updated = format!("{}{expected}{}", &readme[..body_start], &readme[end..]);
            std::fs::write(path, updated).unwrap();
        } else {
            panic!(
                "README.md's list of actions is out of date; run \
                 APPDECK_UPDATE_README=1 cargo test --release --test cli cli_keys, or paste:\n{expected}"
            );
        }
    }
}
