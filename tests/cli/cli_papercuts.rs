//! Issue 20's CLI and sandbox items, end to end over real HTTP on loopback: what a new user and a
//! script writer tripped over. Each test names its item.

use crate::common;

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

/// Audit of item 11: with `--token-file` and `$APPDECK_TOKEN` holding another token, the command
/// (which reads `$APPDECK_TOKEN`) would use another token than appdeck, whose flag beats the
/// environment: said, without either token. The same token in both says nothing.
#[test]
fn curl_warns_when_appdeck_token_is_not_the_token_files() {
    let dir = tempfile::tempdir().unwrap();
    let token = common::write_file(&dir.path().join("token"), "file-s3cret\n", 0o600);
    let report = format!("{EXAMPLES}/report.json");
    let curl = |env_token: &str| {
        run(common::appdeck(dir.path())
            .env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1")
            .env("APPDECK_TOKEN", env_token)
            .args(["report", &report, "--curl", "--token-file"])
            .arg(&token))
    };
    let out = curl("env-s3cret");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .contains("warning: the command uses $APPDECK_TOKEN, which differs from the token in ")
            && out
                .stderr
                .contains("(flag --token-file), the one appdeck itself would use"),
        "{}",
        out.stderr
    );
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(!all.contains("s3cret"), "no token printed: {all}");
    let same = curl("file-s3cret");
    assert_eq!(same.code, 0, "{same:?}");
    assert!(same.stderr.is_empty(), "{}", same.stderr);
}

/// Item 14: `appdeck` with no terminal says the TUI needs one and names `appdeck list`.
#[test]
fn the_terminal_ui_without_a_terminal_points_at_appdeck_list() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(common::appdeck(dir.path())
        .env("APPDECK_BASE_URL", "http://127.0.0.1:9/api/v1")
        .env("APPDECK_TOKEN", "t"));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr,
        "appdeck: the terminal UI needs a terminal, and stdout is not one; for scripts, \
         `appdeck list` lists the resources (`appdeck --help` shows every command)\n"
    );
}

/// Item 14: a report answered `200 {}` warns that `status` is missing; one answered
/// `"status": "OK"` (not the spec's `ok`), that its status is neither, as written. Both passed in
/// silence, exit 0.
#[test]
fn a_report_answer_without_an_ok_status_is_warned_about() {
    let cases = [
        ("{}", "no `status`"),
        (
            r#"{"status": "OK"}"#,
            r#"the `status` "OK", neither "ok" nor "error""#,
        ),
    ];
    for (answer, said) in cases {
        let base_url = common::answer_once("200 OK", answer);
        let dir = tempfile::tempdir().unwrap();
        let out = run(common::appdeck(dir.path())
            .env("APPDECK_BASE_URL", &base_url)
            .env("APPDECK_TOKEN", "t")
            .args(["report", &format!("{EXAMPLES}/report.json")]));
        assert_eq!(out.code, 0, "{out:?}");
        let warning = format!("warning: the service's answer has {said}");
        assert!(out.stderr.contains(&warning), "{}", out.stderr);
    }
}

/// Item 14: validate catches unknown top-level fields and control characters in `task_id`,
/// takes several files, and has `-o json`.
#[test]
fn validate_takes_several_files_has_json_and_catches_more() {
    let dir = tempfile::tempdir().unwrap();
    let odd = common::write_file(
        &dir.path().join("odd.json"),
        &serde_json::json!({
            "task_id": "t-1\u{1b}[2J", "status": "OK", "taskid": "typo",
            "response": {"response_type": "resource", "resource": {"type": "t", "external_id": "e", "name": "n"}}
        })
        .to_string(),
        0o644,
    );
    let good = format!("{EXAMPLES}/report.json");
    let out = run(common::appdeck(dir.path())
        .arg("validate")
        .arg(&good)
        .arg(&odd));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout
            .contains("warning at /task_id: `task_id` holds the control character U+001B"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("warning at /taskid: unknown field `taskid`"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("report.json:\nkind: task report"),
        "{}",
        out.stdout
    );

    let out = run(common::appdeck(dir.path())
        .args(["validate", "-o", "json"])
        .arg(&good)
        .arg(&odd));
    assert_eq!(out.code, 2, "{out:?}");
    let results: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(results[0]["valid"], true, "{results}");
    assert_eq!(results[0]["kind"], "report");
    assert_eq!(results[1]["valid"], false);
    let pointers: Vec<&str> = results[1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/taskid", "/task_id", "/status"], "{results}");
}

/// Item 14: `config show` hides the token's length and shows the profile's `types`; `config path`
/// prints the config file's path alone.
#[test]
fn config_show_hides_the_token_length_and_shows_the_profiles_types() {
    let dir = tempfile::tempdir().unwrap();
    let config = common::write_file(
        &dir.path().join("config.toml"),
        "[profiles.p]\nbase_url = \"http://127.0.0.1:9/api/v1\"\ntoken = \"abc\"\ntypes = [\"t.json\"]\n",
        0o600,
    );
    std::fs::copy(
        format!("{EXAMPLES}/connect.json"),
        dir.path().join("t.json"),
    )
    .unwrap();
    let out = run(common::appdeck(dir.path()).args(["config", "show", "--profile", "p"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("characters"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("token            ******** (from profile p)"),
        "{}",
        out.stdout
    );
    let types = dir.path().join("t.json").display().to_string();
    assert!(
        out.stdout
            .contains(&format!("types            {types} (from the profile)")),
        "{}",
        out.stdout
    );
    let path = run(common::appdeck(dir.path()).args(["config", "path"]));
    assert_eq!(path.stdout, format!("{}\n", config.display()));
}

/// Audit of item 14: `config show` checks the profile's `types` files as `appdeck types` reads
/// them: one that cannot be read is named, with why, and exits 2 (it was listed, exit 0).
#[test]
fn config_show_says_which_types_file_cannot_be_used() {
    let dir = tempfile::tempdir().unwrap();
    common::write_file(
        &dir.path().join("config.toml"),
        "[profiles.prod]\nbase_url = \"http://127.0.0.1:9/api/v1\"\ntoken = \"abc\"\n\
         types = [\"connect.json\", \"nosuch.json\"]\n",
        0o600,
    );
    std::fs::copy(
        format!("{EXAMPLES}/connect.json"),
        dir.path().join("connect.json"),
    )
    .unwrap();
    let nosuch = dir.path().join("nosuch.json").display().to_string();
    let out = run(common::appdeck(dir.path()).args(["config", "show", "--profile", "prod"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout.contains(&format!(
            "types            (unusable: {nosuch}: cannot read it: "
        )),
        "{}",
        out.stdout
    );
    let connect = dir.path().join("connect.json").display().to_string();
    assert!(
        !out.stdout.contains(&format!("(unusable: {connect}")),
        "{}",
        out.stdout
    );
    let types = run(common::appdeck(dir.path()).args(["types", "--profile", "prod"]));
    assert_eq!(types.code, 2, "as config show: {types:?}");
}

/// Item 14: `sandbox --generate` past the bound is refused, naming the memory it would need.
#[test]
fn sandbox_generate_is_refused_past_a_bound() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(common::appdeck(dir.path()).args(["sandbox", "--generate", "100000000"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains(
            "100000000 generated resources would need about 95.4 GiB of memory; at most 5000000"
        ),
        "{}",
        out.stderr
    );
}

/// Item 14: bash completion offers no files for --type, --profile and --fault, and offers files
/// after `report ` (it offered the flags there).
#[test]
fn bash_completion_offers_files_only_where_files_go() {
    let dir = tempfile::tempdir().unwrap();
    let script = run(common::appdeck(dir.path()).args(["completions", "bash"]));
    assert_eq!(script.code, 0);
    std::fs::write(dir.path().join("appdeck.bash"), &script.stdout).unwrap();
    std::fs::write(dir.path().join("payload.json"), "{}").unwrap();
    let complete_word = |line: &str, cur: &str| {
        let probe = format!(
            "source appdeck.bash; read -ra COMP_WORDS <<< '{line}'; COMP_WORDS+=('{cur}'); \
             COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMPREPLY=(); \
             _appdeck appdeck '{cur}' \"${{COMP_WORDS[COMP_CWORD-1]}}\"; echo \"${{COMPREPLY[*]}}\""
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &probe])
            .current_dir(dir.path())
            .output()
            .expect("bash runs");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let complete = |line: &str| complete_word(line, "");
    for line in [
        "appdeck list --type",
        "appdeck list --profile",
        "appdeck sandbox --fault",
        // Audit: these offered files too.
        "appdeck list --limit",
        "appdeck list --base-url",
        "appdeck list --jq",
        "appdeck sandbox --listen",
        "appdeck sandbox --header-timeout",
    ] {
        assert!(
            !complete(line).contains("payload.json"),
            "{line}: {}",
            complete(line)
        );
    }
    // Every flag of every command: files only where a file goes.
    let mut flag = "";
    for line in script.stdout.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('-') && trimmed.ends_with(')') {
            flag = trimmed.trim_end_matches(')');
        } else if trimmed.contains("compgen -f") && !trimmed.contains("compgen -f --") {
            assert!(
                ["--config", "--token-file", "--types", "--each", "--input"].contains(&flag),
                "{flag} offers files"
            );
        }
    }
    // --fault offers its faults.
    let faults = complete("appdeck sandbox --fault");
    for fault in ["not-json", "repeat-cursor", "nulls", "spaced", "slow:1000"] {
        assert!(faults.split(' ').any(|f| f == fault), "{fault}: {faults}");
    }
    assert!(
        complete("appdeck report").contains("payload.json"),
        "{}",
        complete("appdeck report")
    );
    assert!(
        complete_word("appdeck report", "-").contains("--curl"),
        "flags after a dash"
    );
}

/// Item 13: `infer -t nosuch` says plainly that nothing matched.
#[test]
fn infer_with_a_type_that_matches_nothing_says_so() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["infer", "-t", "nosuch"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .starts_with("no resources of type nosuch were listed, so nothing was inferred"),
        "{}",
        out.stderr
    );
}

/// Tester 2026-12-03d LOW 13: `infer` counts the resources its types came from; those without a
/// type were counted in too ("from 7 resources" of which 6 were then skipped).
#[test]
fn infer_counts_only_the_resources_its_types_came_from() {
    let page = r#"{"resources": [{"id": "1", "type": "repository"}, {"id": "2"},
        {"id": "3", "type": 7}, "not an object"]}"#;
    let base_url = common::answer_once("200 OK", page);
    let dir = tempfile::tempdir().unwrap();
    let out = run(common::appdeck(dir.path())
        .env("APPDECK_BASE_URL", &base_url)
        .env("APPDECK_TOKEN", "t")
        .args(["infer"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.starts_with(
            "inferred 1 type (repository) from 1 resource\n\
             skipped 2 without a type and 1 malformed\n"
        ),
        "{}",
        out.stderr
    );
}

/// The stderr line `validate` gives for a `task_id` written twice at the top of a report.
const TASK_ID_TWICE: &str = "warning: the key \"task_id\" appears more than once in this object: \
                             only the last one is read, the others are lost";

/// Audit of item 14 (duplicate keys): every send path (`report`, `report --each` per line,
/// `connect`, and their `--curl`) says validate's warning for a key written twice, and sends all
/// the same (a warning, as in `validate`, whose exit status it does not change).
#[test]
fn every_send_warns_about_a_key_written_twice_as_validate_does() {
    let sandbox = TestSandbox::demo();
    let read = |name: &str| std::fs::read_to_string(format!("{EXAMPLES}/{name}")).unwrap();
    // On one line (JSON strings hold no raw line break), for --each too.
    let report =
        read("report.json")
            .replace('\n', " ")
            .replacen('{', "{\"task_id\": \"first\",", 1);
    let report_file = sandbox.path("dup-report.json");
    std::fs::write(&report_file, format!("{report}\n")).unwrap();
    let connect = read("connect.json").replacen('{', "{\"app_id\": \"first\",", 1);
    let connect_file = sandbox.path("dup-connect.json");
    std::fs::write(&connect_file, &connect).unwrap();
    let (report_file, connect_file) = (
        report_file.to_str().unwrap(),
        connect_file.to_str().unwrap(),
    );

    let validated = run(sandbox.appdeck().args(["validate", report_file]));
    assert_eq!(validated.code, 0, "{validated:?}");
    assert!(validated.stdout.contains(TASK_ID_TWICE), "{validated:?}");

    for args in [
        vec!["report", report_file],
        vec!["report", report_file, "--curl"],
        vec!["report", "--each", report_file],
    ] {
        let out = run(sandbox.appdeck().args(&args));
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert!(
            out.stderr.contains(TASK_ID_TWICE),
            "{args:?}: {}",
            out.stderr
        );
    }
    let app_id_twice = TASK_ID_TWICE.replace("task_id", "app_id");
    for args in [
        vec!["connect", connect_file],
        vec!["connect", connect_file, "--curl"],
    ] {
        let out = run(sandbox.appdeck().args(&args));
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert!(
            out.stderr.contains(&app_id_twice),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// Audit of item 14 (a report answered `200 {}`): `report --each` warns per line, as a single
/// `report` does, whatever `-o`.
#[test]
fn report_each_warns_about_an_answer_without_status() {
    let dir = tempfile::tempdir().unwrap();
    let lines = std::fs::read_to_string(format!("{EXAMPLES}/report.json"))
        .unwrap()
        .replace('\n', " ");
    let file = common::write_file(&dir.path().join("reports.ndjson"), &lines, 0o644);
    let file = file.to_str().unwrap();
    for output in ["text", "ndjson"] {
        let base_url = common::answer_once("200 OK", "{}");
        let out = common::run_against(
            dir.path(),
            &base_url,
            &["report", "--each", file, "-o", output],
        );
        assert_eq!(out.code, 0, "{output}: {out:?}");
        assert!(
            out.stderr.contains(
                "appdeck: warning: line 1: the service's answer has no `status` (the spec \
                 requires one)"
            ),
            "{output}: {}",
            out.stderr
        );
    }
}

/// The names under the `Commands:` heading of a `--help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A description wrapped onto the next line is indented further.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Audit of item 13: every example of a `--help` that runs on `--demo` prints something (`types
/// show`'s `| jq .trees` printed `null`: the key is `schemas`). A `| jq EXPR` is run as appdeck's
/// own `--jq EXPR`, so the test needs no jq.
#[test]
fn the_help_examples_that_run_on_the_demo_print_something() {
    let dir = tempfile::tempdir().unwrap();
    let help = |path: &[String]| {
        let out = run(common::appdeck(dir.path()).args(path).arg("--help"));
        assert_eq!(out.code, 0, "{path:?}: {out:?}");
        out.stdout
    };
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    let mut examples = Vec::new();
    while let Some(path) = paths.pop() {
        let text = help(&path);
        for name in subcommands(&text) {
            paths.push([path.clone(), vec![name]].concat());
        }
        examples.extend(
            text.lines()
                .map(|line| line.split(" #").next().unwrap_or(line).trim().to_owned())
                .filter(|line| line.starts_with("appdeck --demo ")),
        );
    }
    assert!(
        examples
            .iter()
            .any(|e| e.contains("types show") && e.contains("| jq")),
        "{examples:?}"
    );
    for example in &examples {
        let (command, jq) = match example.split_once(" | jq ") {
            Some((command, jq)) => (command, Some(jq)),
            None => (example.as_str(), None),
        };
        assert!(!command.contains(['\'', '"']), "split on spaces: {example}");
        let mut args: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(str::to_owned)
            .collect();
        if let Some(jq) = jq {
            let expr = jq.strip_prefix("-r ").unwrap_or(jq).trim_matches('\'');
            args.extend(["--jq".to_owned(), expr.to_owned()]);
        }
        let out = run(common::appdeck(dir.path()).args(&args));
        assert_eq!(out.code, 0, "{example}: {out:?}");
        assert!(
            !out.stdout.trim().is_empty() && out.lines().iter().all(|l| l.trim() != "null"),
            "{example} prints nothing useful: {:?}",
            out.stdout
        );
    }
}

/// Audit of item 14 (validate): `-o json` gives every file the same keys, a file that cannot be
/// read or parsed included (`kind` null, the reason its one error finding); in text such a file
/// has its heading too.
#[test]
fn validate_gives_every_file_the_same_shape() {
    let dir = tempfile::tempdir().unwrap();
    let broken = common::write_file(&dir.path().join("broken.json"), "{\"task_id\": }", 0o644);
    let missing = dir.path().join("nosuch.json");
    let good = format!("{EXAMPLES}/report.json");
    let validate = |args: &[&str]| {
        run(common::appdeck(dir.path())
            .arg("validate")
            .args(args)
            .arg(&good)
            .arg(&broken)
            .arg(&missing))
    };
    let out = validate(&["-o", "json"]);
    assert_eq!(out.code, 2, "{out:?}");
    let results: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), 3, "{results:?}");
    for result in results {
        let keys: Vec<&String> = result.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["file", "kind", "valid", "findings"], "{result}");
    }
    assert_eq!(results[1]["kind"], serde_json::Value::Null);
    assert_eq!(results[1]["valid"], false);
    assert_eq!(results[1]["findings"][0]["severity"], "error");
    let syntax = results[1]["findings"][0]["message"].as_str().unwrap();
    assert!(syntax.contains(":1:13: syntax error"), "{syntax}");
    let unreadable = results[2]["findings"][0]["message"].as_str().unwrap();
    assert!(unreadable.starts_with("cannot read "), "{unreadable}");

    let text = validate(&[]);
    assert_eq!(text.code, 2, "{text:?}");
    for file in [broken.display().to_string(), missing.display().to_string()] {
        assert!(
            text.stdout
                .contains(&format!("{file}:\nkind: unknown\nerror: ")),
            "{}",
            text.stdout
        );
    }
}

/// Audit of item 14 (validate, smaller): `-` twice is refused: stdin is read once (the second
/// read found it empty).
#[test]
fn validate_refuses_stdin_twice() {
    let dir = tempfile::tempdir().unwrap();
    let twice = run(common::appdeck(dir.path()).args(["validate", "-", "-"]));
    assert_eq!(twice.code, 2, "{twice:?}");
    assert!(
        twice.stderr.contains("- (stdin) is given more than once"),
        "{}",
        twice.stderr
    );
}

/// Audit of item 14 (smaller): `--page-size` names the command it does not apply to; a blank
/// `APPDECK_SANDBOX_TOKEN` is refused as `--token ''` is (it was ignored).
#[test]
fn page_size_and_a_blank_sandbox_token_are_refused_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(common::appdeck(dir.path()).args(["--page-size", "3", "validate", "f.json"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr,
        "appdeck: `appdeck validate` does not take --page-size, the terminal UI's flag\n"
    );
    // `--offline` is the terminal UI's too: `list` would ask the service all the same.
    let out = run(common::appdeck(dir.path()).args(["--offline", "list"]));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr,
        "appdeck: `appdeck list` does not take --offline, the terminal UI's flag\n"
    );
    // Before, it served with a random token until stopped.
    let out = common::run_within(
        common::appdeck(dir.path())
            .env("APPDECK_SANDBOX_TOKEN", "")
            .args(["sandbox", "--listen", "127.0.0.1:0"]),
        std::time::Duration::from_secs(20),
    )
    .expect("refused at once, not served");
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("invalid value '' for APPDECK_SANDBOX_TOKEN: a token must not be empty"),
        "{}",
        out.stderr
    );
}
