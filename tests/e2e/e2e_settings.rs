//! End to end in tmux, for the settings that bend appdeck to its user: read-only profiles,
//! switching profiles, remapped keys. Against in-process sandboxes on loopback.

use crate::common;

use common::tmux::{Tmux, binary};
use common::{TOKEN, TestSandbox, write_file};

/// Starts the TUI in the tmux shell with `config` as its config file and a private data
/// directory, and waits for its first rows.
fn launch(tmux: &Tmux, config: &str, args: &str) -> String {
    let dir = tmux.home.path();
    let config_path = write_file(&dir.join("config.toml"), config, 0o600);
    tmux.type_line(&format!(
        "APPDECK_CONFIG={} APPDECK_DATA_DIR={} {} {args}",
        config_path.display(),
        dir.join("data").display(),
        binary().display()
    ));
    tmux.wait_for("the first rows", |s| s.contains("loaded"))
}

fn profile(name: &str, sandbox: &TestSandbox, extra: &str) -> String {
    format!(
        "[profiles.{name}]\nbase_url = \"{}\"\ntoken = \"{TOKEN}\"\n{extra}\n",
        sandbox.base_url
    )
}

/// A sandbox holding one resource, stamped long ago: any report about it would restamp it.
fn one_resource() -> (TestSandbox, appdeck_core::api::Resource) {
    let sandbox = TestSandbox::start(false, 0, None);
    let resource = serde_json::from_value(serde_json::json!({
        "id": "res_kept", "type": "team", "external_id": "t-1", "name": "untouched",
        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z"
    }))
    .expect("a resource");
    let stored = sandbox.store().insert(resource);
    (sandbox, stored)
}

#[test]
fn a_read_only_profile_shows_a_banner_and_refuses_a_report_that_never_reaches_the_sandbox() {
    let (sandbox, stored) = one_resource();
    let tmux = Tmux::start(120, 40);
    let screen = launch(
        &tmux,
        &profile("prod", &sandbox, "read_only = true"),
        "--profile prod",
    );
    let status = screen.lines().next().unwrap_or_default();
    assert!(status.contains(" read-only "), "{screen}");
    assert!(status.contains("prod"), "{screen}");

    tmux.send(&["R"]);
    tmux.wait_for("the composer", |s| s.contains("Task report about"));
    tmux.send(&["s"]);
    tmux.wait_for("the review", |s| s.contains("Review: the exact request"));
    tmux.send(&["Enter"]);
    let refused = tmux.wait_for("the refusal", |s| {
        s.contains("profile \"prod\" is read-only: the report is not sent")
    });
    assert!(
        refused.contains("Review: the exact request"),
        "the report stays under review: {refused}"
    );
    assert!(!refused.contains("answer · HTTP"), "{refused}");
    assert_eq!(sandbox.store().len(), 1, "the sandbox received nothing");
    assert_eq!(
        sandbox.store().get("res_kept"),
        Some(stored),
        "the resource was not reported on"
    );
    assert!(sandbox.store().failures().is_empty());

    tmux.send(&["Escape", "Escape", "q"]);
    tmux.wait_for_prompt("the shell after quitting");
}

#[test]
fn a_bad_colour_stops_the_tui_and_config_show_with_the_file_the_line_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_file(
        &dir.path().join("config.toml"),
        "theme = \"light\"\n\n[theme]\n",
        0o600,
    );
    // Not even TOML: a key given twice. Then a real colour mistake.
    let out = common::run(common::appdeck(dir.path()).arg("--demo"));
    assert_eq!(out.code, 2, "{out:?}");
    let text = "[theme]\nname = \"light\"\nselection = \"#12345g\"\n";
    std::fs::write(&config, text).unwrap();
    for args in [&["--demo"][..], &["config", "show"]] {
        let mut cmd = common::appdeck(dir.path());
        if args[0] == "config" {
            cmd.env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1")
                .env("APPDECK_TOKEN", "t");
        }
        let out = common::run(cmd.args(args));
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        let expected = format!(
            "appdeck: {}:3: [theme]: `selection` is not a colour; write a colour name",
            config.display()
        );
        assert!(
            out.stderr.starts_with(&expected),
            "{args:?}: {}",
            out.stderr
        );
        assert!(out.stderr.contains("\"#rrggbb\""), "{}", out.stderr);
    }

    // A good theme is shown by `config show`, with the read-only flag.
    std::fs::write(&config, "[theme]\nname = \"light\"\nborder = 244\n").unwrap();
    let out = common::run(
        common::appdeck(dir.path())
            .args(["config", "show", "--read-only"])
            .env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1")
            .env("APPDECK_TOKEN", "t"),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("theme            light (border = 244)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "read_only        yes: reports and connects are refused (from flag --read-only)"
        ),
        "{}",
        out.stdout
    );
}

/// A sandbox holding one resource named `name`.
fn sandbox_with(name: &str) -> TestSandbox {
    let sandbox = TestSandbox::start(false, 0, None);
    let resource = serde_json::from_value(serde_json::json!({
        "id": format!("res_{name}"), "type": "team", "external_id": name, "name": name,
        "display_name": name
    }))
    .expect("a resource");
    sandbox.store().insert(resource);
    sandbox
}

#[test]
fn profile_switches_between_two_sandboxes_and_the_rows_change() {
    let alpha = sandbox_with("alpha-row");
    let beta = sandbox_with("beta-row");
    let config = format!(
        "{}{}",
        profile("alpha", &alpha, ""),
        profile("beta", &beta, "read_only = true")
    );
    let tmux = Tmux::start(120, 30);
    let screen = launch(&tmux, &config, "--profile alpha");
    assert!(screen.contains("alpha-row"), "{screen}");
    assert!(
        !screen
            .lines()
            .next()
            .unwrap_or_default()
            .contains("read-only")
    );

    // Tab completes the command and the profile's name.
    tmux.send(&[":"]);
    tmux.send(&["-l", "prof"]);
    tmux.send(&["Tab"]);
    tmux.send(&["-l", " b"]);
    tmux.send(&["Tab"]);
    tmux.wait_for("the completed line", |s| s.contains(":profile beta"));
    tmux.send(&["Enter"]);
    let switched = tmux.wait_for("the rows of the other sandbox", |s| {
        s.contains("beta-row") && !s.contains("alpha-row")
    });
    let status = switched.lines().next().unwrap_or_default();
    assert!(status.contains("│ beta │"), "{switched}");
    let host = beta
        .base_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    assert!(status.contains(host), "the new host {host}: {switched}");
    assert!(
        status.contains(" read-only "),
        "beta is read-only: {switched}"
    );

    // An unknown profile names the known ones; the rows stay.
    tmux.send(&[":"]);
    tmux.send(&["-l", "profile gamma"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the refusal", |s| {
        s.contains("unknown profile \"gamma\"; the profiles: alpha, beta") && s.contains("beta-row")
    });

    tmux.send(&[":"]);
    tmux.send(&["-l", "profile alpha"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("back on the first sandbox", |s| {
        s.contains("alpha-row") && !s.contains("beta-row") && !s.contains(" read-only ")
    });

    // A profile added to the config file while appdeck runs is found by `:profile`.
    let gamma = sandbox_with("gamma-row");
    write_file(
        &tmux.home.path().join("config.toml"),
        &format!("{config}{}", profile("gamma", &gamma, "")),
        0o600,
    );
    tmux.send(&[":"]);
    tmux.send(&["-l", "profile gamma"]);
    tmux.send(&["Enter"]);
    tmux.wait_for("the rows of the profile added since the start", |s| {
        s.contains("gamma-row") && !s.contains("alpha-row")
    });
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell after quitting");
}

/// `:profile` onto a profile whose token file is a FIFO with no writer: reading it used to block
/// the UI thread for ever (keys, ctrl-c and SIGTERM did nothing). The switch is refused, saying
/// why, the rows of the service in use stay, and the keys still work.
#[cfg(unix)]
#[test]
fn profile_onto_a_fifo_token_file_is_refused_and_the_ui_keeps_answering() {
    let alpha = sandbox_with("alpha-row");
    // Wide enough for the whole refusal, temporary path included.
    let tmux = Tmux::start(240, 30);
    common::mkfifo(&tmux.home.path().join("stuck.token"));
    let config = format!(
        "{}[profiles.stuck]\nbase_url = \"{}\"\ntoken_file = \"stuck.token\"\n",
        profile("alpha", &alpha, ""),
        alpha.base_url
    );
    launch(&tmux, &config, "--profile alpha");

    tmux.send(&[":"]);
    tmux.send(&["-l", "profile stuck"]);
    tmux.send(&["Enter"]);
    let refused = tmux.wait_for("the refusal", |s| {
        s.contains("cannot switch to profile \"stuck\"") && s.contains("alpha-row")
    });
    assert!(refused.contains("named pipe (FIFO)"), "{refused}");
    tmux.send(&["?"]);
    tmux.wait_for("the help, drawn", |s| s.contains("Keys · resource list"));
    tmux.send(&["Escape"]);
    tmux.wait_for("the help, closed", |s| !s.contains("Keys · resource list"));
    tmux.send(&["q"]);
    tmux.wait_for_prompt("the shell after quitting");
}
