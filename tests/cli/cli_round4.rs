//! Issue 35's CLI items (and 36's that are the CLI's), end to end: the release binary against the
//! sandbox on loopback, as a script writer with kubectl, gh, curl and jq habits runs it. Each test
//! names its item.

use crate::common;

use std::path::{Path, PathBuf};

use appdeck_core::api::Resource;
use common::{TestSandbox, run};
use serde_json::{Value, json};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/examples");

/// An empty sandbox holding the given resources (JSON texts, numbers as written), in order.
fn sandbox_with(resources: &[&str]) -> TestSandbox {
    let sandbox = TestSandbox::start(false, 0, None);
    let store = sandbox.store();
    for text in resources {
        let resource: Resource = serde_json::from_str(text).unwrap();
        store.insert(resource);
    }
    sandbox
}

/// Item 2: an expression that fails on one resource says so for that one (its line and id), and
/// the listing goes on over the pages after it; the exit status is jq's 5, not the usage 2.
#[test]
fn a_jq_error_on_one_resource_is_said_and_the_listing_goes_on() {
    let sandbox = sandbox_with(&[
        r#"{"id": "r1", "type": "t", "properties": {"n": 1}}"#,
        r#"{"id": "r2", "type": "t", "properties": {"n": "many"}}"#,
        r#"{"id": "r3", "type": "t", "properties": {"n": 3}}"#,
    ]);
    let out =
        run(sandbox
            .appdeck()
            .args(["list", "--all", "--limit", "1", "--jq", ".properties.n + 1"]));
    assert_eq!(out.code, 5, "{out:?}");
    assert_eq!(out.lines(), ["2", "4"], "{}", out.stderr);
    assert!(
        out.stderr.contains("appdeck: line 2 (id r2): --jq: "),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("--jq failed on 1 of 3 resources"),
        "{}",
        out.stderr
    );
}

/// Item 3: the widths came from the first page: from `res_100` on every id read `res_1…` with
/// 200 columns free. A wider cell on a later page widens its column while there is room.
#[test]
fn an_id_on_a_later_page_is_never_cut_while_there_is_room() {
    let sandbox = TestSandbox::start(false, 150, None);
    let out = run(sandbox
        .appdeck()
        .env("COLUMNS", "200")
        .args(["list", "--all", "--limit", "50"]));
    assert_eq!(out.code, 0, "{out:?}");
    let mut ids: Vec<u32> = out
        .stdout
        .split_whitespace()
        .filter_map(|word| word.strip_prefix("res_")?.parse().ok())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids, (1..=150).collect::<Vec<u32>>(), "{}", out.stdout);
    assert!(out.lines().iter().all(|l| l.chars().count() <= 200));
}

/// Item 8: piped with no `COLUMNS`, the table was cut at 100 columns, so `grep` for a value
/// found nothing; as gh does, a pipe gets every value whole.
#[test]
fn a_table_to_a_pipe_without_columns_has_every_value_whole() {
    let name = format!("payments-api v2.30.9 → staging {}", "x".repeat(120));
    let sandbox = sandbox_with(&[&json!({"id": "r1", "type": "deployment", "name": name,
        "status": "active"})
    .to_string()]);
    let out = run(sandbox.appdeck().env_remove("COLUMNS").arg("list"));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains(&name), "{}", out.stdout);
    // An explicit COLUMNS is still a width to fit.
    let out = run(sandbox.appdeck().env("COLUMNS", "80").arg("list"));
    assert!(!out.stdout.contains(&name), "{}", out.stdout);
    assert!(out.lines().iter().all(|l| l.chars().count() <= 80));
}

/// Item 6: a resume loop with an empty variable (`--from "$cursor"`) listed from the start and
/// appended the whole listing a second time: an empty cursor is a usage error, before any request.
#[test]
fn an_empty_cursor_is_a_usage_error() {
    let sandbox = TestSandbox::demo();
    for empty in ["", " "] {
        let out = run(sandbox
            .appdeck()
            .args(["list", "-o", "ndjson", "--from", empty]));
        assert_eq!(out.code, 2, "{out:?}");
        assert!(out.stdout.is_empty(), "{}", out.stdout);
        assert!(out.stderr.contains("must not be empty"), "{}", out.stderr);
    }
}

/// Item 4: jaq read the integer `-0` as 0: `--jq .` changed the service's bytes.
#[test]
fn jq_keeps_the_integer_minus_zero() {
    let item = r#"{"id":"z","type":"t","properties":{"n":-0,"m":[-0,-0.0,0]}}"#;
    let sandbox = sandbox_with(&[item]);
    let out = run(sandbox.appdeck().args(["list", "--jq", "."]));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains(r#""properties":{"n":-0,"m":[-0,-0.0,0]}"#),
        "{}",
        out.stdout
    );
    let out = run(sandbox.appdeck().args(["list", "--jq", ".properties.n"]));
    assert_eq!(out.stdout, "-0\n");
}

/// Item 5: a base URL with `user:pass@` sent a Basic header beside the bearer one (every request
/// refused), and `--curl` printed the password: such a URL is refused, naming neither.
#[test]
fn a_base_url_with_credentials_is_refused_and_never_printed() {
    let sandbox = TestSandbox::demo();
    let url = sandbox.base_url.replace("http://", "http://ci:hunter2@");
    let report = format!("{EXAMPLES}/report.json");
    for args in [
        vec!["list"],
        vec!["report", "--curl", &report],
        vec!["api", "resources.list"],
    ] {
        let out = run(sandbox.appdeck().env("APPDECK_BASE_URL", &url).args(&args));
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(!all.contains("hunter2"), "{args:?}: {all}");
        assert!(
            out.stderr.contains("holds a user name or password"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// A FIFO at `path` that a thread fills with `text` once appdeck opens it, as a shell's `<(…)`
/// would: the writer comes after the open and leaves when done.
#[cfg(unix)]
fn pipe_with(path: PathBuf, text: String) -> PathBuf {
    let fifo = common::mkfifo(&path);
    std::thread::spawn(move || {
        use std::io::Write;
        // Blocks until appdeck opens the FIFO; not joined, so a hang shows as the run's time-out.
        let mut w = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let (head, tail) = text.split_at(text.len() / 2);
        w.write_all(head.as_bytes()).unwrap();
        w.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        w.write_all(tail.as_bytes()).unwrap();
    });
    fifo
}

fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(EXAMPLES).join(name)).unwrap()
}

/// Item 7: `validate <(…)`, `report <(…)`, `diff <(…) b.json` and `api @<(…)` were refused as
/// "a named pipe, not a regular file", though `report --each <(…)` took one: a pipe the user names
/// is read, whole, as kubectl, gh and jq read it.
#[cfg(unix)]
#[test]
fn a_pipe_the_user_names_is_read_by_every_command_that_takes_a_file() {
    let sandbox = TestSandbox::demo();
    let within = std::time::Duration::from_secs(30);
    let go = |args: Vec<String>| {
        common::run_within(
            sandbox
                .appdeck()
                .env("APPDECK_DATA_DIR", sandbox.path("data"))
                .args(&args),
            within,
        )
        .unwrap_or_else(|| panic!("appdeck {args:?} hangs"))
    };
    let fifo = |name: &str, text: String| pipe_with(sandbox.path(name), text).display().to_string();

    let out = go(vec![
        "validate".into(),
        fifo("v.json", example("report.json")),
    ]);
    assert_eq!(out.code, 0, "{out:?}");

    let out = go(vec![
        "report".into(),
        "-o".into(),
        "ndjson".into(),
        fifo("r.json", example("report.json")),
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    let answer: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(answer["status"], "ok", "{answer}");

    let connect = sandbox.path("connect.json");
    std::fs::write(&connect, example("connect.json")).unwrap();
    let out = go(vec![
        "diff".into(),
        fifo("d.json", example("connect.json")),
        connect.display().to_string(),
    ]);
    assert_eq!(out.code, 0, "{out:?}");

    let body = fifo("a.json", r#"{"limit": 1}"#.to_owned());
    let out = go(vec![
        "api".into(),
        "resources.list".into(),
        format!("@{body}"),
        "--jq".into(),
        ".resources | length".into(),
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "1\n");
}

/// Item 9: `--jq` ignored `-o csv|table|json|tsv` and `-o ndjson --no-headers` was taken: a flag
/// is never silently ignored. `--watch -o ndjson`, which says what the watch writes, is taken.
#[test]
fn flags_that_would_be_ignored_are_refused() {
    let sandbox = TestSandbox::demo();
    for args in [
        &["list", "--jq", ".id", "-o", "csv"][..],
        &["list", "--jq", ".id", "-o", "table"],
        &["list", "-o", "ndjson", "--no-headers"],
        &["list", "-o", "json", "--no-headers"],
        &["list", "--watch", "-o", "csv"],
    ] {
        let out = run(sandbox.appdeck().args(args));
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
    let out = run(sandbox
        .appdeck()
        .args(["list", "--jq", ".id", "-o", "ndjson", "--limit", "2"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines().len(), 2);
}

/// Item 9: `list --watch … | head -1` ran until the data changed: the closed pipe is noticed
/// between looks. `-o ndjson` is taken with `--watch`.
#[test]
fn a_watch_ends_when_its_reader_goes_even_between_looks() {
    use std::io::BufRead;
    use std::process::Stdio;
    let sandbox = TestSandbox::demo();
    let mut child = sandbox
        .appdeck()
        .args(["list", "--watch", "600", "-o", "ndjson"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with(r#"{"event":"added""#), "{first}");
    // The reader is dropped: the pipe is closed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the watch went on after its reader closed the pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

/// Item 9: `--columns ID:id` gave a blank column: kubectl's `NAME:path` names the header.
#[test]
fn columns_take_a_header_before_the_path() {
    let sandbox = sandbox_with(&[r#"{"id": "r1", "type": "t", "properties": {"stars": 7}}"#]);
    let out = run(sandbox.appdeck().args([
        "list",
        "-o",
        "csv",
        "--columns",
        "ID:id,Stars:properties.stars",
    ]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "ID,Stars\nr1,7\n");
}

/// Issue 36 item 9: `appdeck api .` posted to the base URL itself.
#[test]
fn api_refuses_the_base_url_itself() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["api", "."]));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("base URL itself"), "{}", out.stderr);
}

/// Item 10: what a gh user reaches for in `appdeck api`: `--paginate` follows `next`, `-F` adds
/// a typed field and `-f` a string, `-H` a header, `--input` reads the body from a file.
#[test]
fn api_paginates_and_takes_fields_headers_and_an_input_file() {
    let sandbox = TestSandbox::start(false, 7, None);
    let out = run(sandbox.appdeck().args([
        "api",
        "resources.list",
        "-F",
        "limit=2",
        "--paginate",
        "--jq",
        ".resources[].id",
    ]));
    assert_eq!(out.code, 0, "{out:?}");
    let want: Vec<String> = (1..=7).map(|i| format!("res_{i}")).collect();
    assert_eq!(out.lines(), want);

    // Without --jq, each page's answer on its own line.
    let out = run(sandbox
        .appdeck()
        .args(["api", "resources.list", "-F", "limit=3", "--paginate"]));
    assert_eq!(out.code, 0, "{out:?}");
    let pages: Vec<Value> = out
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(pages.len(), 3, "{}", out.stdout);

    let body = sandbox.path("body.json");
    std::fs::write(&body, r#"{"limit": 1}"#).unwrap();
    let out = run(sandbox
        .appdeck()
        .args([
            "api",
            "resources.list",
            "-v",
            "-H",
            "X-Request-Id: 42",
            "--input",
        ])
        .arg(&body)
        .args(["-f", "type=nosuch", "--jq", ".resources | length"]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "0\n", "the -f type filtered: {}", out.stderr);
    assert!(
        out.stderr.contains("x-request-id: 42"),
        "the header went out: {}",
        out.stderr
    );
    assert!(
        // The file's text as written, the field spliced in.
        out.stderr.contains(r#"{"limit": 1,"type":"nosuch"}"#),
        "{}",
        out.stderr
    );

    let out =
        run(sandbox
            .appdeck()
            .args(["api", "resources.list", "-H", "Authorization: Basic eA=="]));
    assert_eq!(out.code, 2, "{out:?}");
}

/// Item 10: `--jq --slurp` runs once over the whole listing, as gh's `--jq` sees one document.
#[test]
fn jq_slurp_sees_the_whole_listing_as_one_array() {
    let sandbox = TestSandbox::start(false, 5, None);
    let out = run(sandbox.appdeck().args([
        "list",
        "--all",
        "--limit",
        "2",
        "--slurp",
        "--jq",
        "[length, (map(.id) | join(\",\"))]",
    ]));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stdout, "[5,\"res_1,res_2,res_3,res_4,res_5\"]\n");
    let out = run(sandbox.appdeck().args(["list", "--slurp"]));
    assert_eq!(out.code, 2, "--slurp needs --jq: {out:?}");
}

/// Issue 36 item 6: `--jq` had no memory bound: `[range(1e9)] | length` grew past 3-5 GB and
/// aborted under a ulimit with a backtrace. It is stopped at the `:where` worker's 1 GiB, with an
/// error (exit 5), and the results before it are written.
#[test]
fn jq_that_grows_without_end_is_stopped_at_its_memory_bound() {
    let sandbox = sandbox_with(&[
        r#"{"id": "r1", "type": "t"}"#,
        r#"{"id": "r2", "type": "t"}"#,
    ]);
    let out = common::run_within(
        sandbox.appdeck().args([
            "list",
            "--jq",
            "if .id == \"r2\" then [range(1e10)] | length else .id end",
        ]),
        std::time::Duration::from_secs(120),
    )
    .expect("the expression is stopped");
    assert_eq!(out.code, 5, "{out:?}");
    assert_eq!(out.stdout, "r1\n", "{}", out.stderr);
    assert!(
        out.stderr.contains("needed more than 1 GiB of memory"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("memory allocation of"),
        "{}",
        out.stderr
    );
}

/// Item 10: completion offers the names of now: `--type` the types appdeck knows, `--profile`
/// the config file's profiles, and `api` the operations (the bash script asks `appdeck
/// complete-names` at each TAB).
#[test]
fn bash_completion_offers_types_profiles_and_operations() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.staging]\nbase_url = \"http://127.0.0.1:9/api/v1\"\ntypes = [{:?}]\n\
             [profiles.prod]\nbase_url = \"http://127.0.0.1:9/api/v1\"\n",
            format!("{EXAMPLES}/connect.json")
        ),
    )
    .unwrap();
    let script = run(common::appdeck(dir.path()).args(["completions", "bash"]));
    assert_eq!(script.code, 0);
    assert!(
        script
            .stdout
            .lines()
            .filter(|l| l.trim_start().starts_with("opts="))
            .all(|l| !l.contains("complete-names")),
        "a hidden command is not offered"
    );
    std::fs::write(dir.path().join("appdeck.bash"), &script.stdout).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_appdeck")).parent().unwrap();
    let complete = |line: &str| {
        let probe = format!(
            "source appdeck.bash; read -ra COMP_WORDS <<< '{line}'; COMP_WORDS+=(''); \
             COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMPREPLY=(); \
             _appdeck appdeck '' \"${{COMP_WORDS[COMP_CWORD-1]}}\"; echo \"${{COMPREPLY[*]}}\""
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &probe])
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("HOME", dir.path())
            .env("APPDECK_CONFIG", &config)
            .env("APPDECK_PROFILE", "staging")
            .output()
            .expect("bash runs");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let words =
        |line: &str| -> Vec<String> { complete(line).split(' ').map(str::to_owned).collect() };
    assert!(words("appdeck list --type").contains(&"repository".to_owned()));
    assert!(words("appdeck list -t").contains(&"repository".to_owned()));
    let mut profiles = words("appdeck list --profile");
    profiles.sort();
    assert_eq!(profiles, ["prod", "staging"]);
    assert_eq!(
        words("appdeck api"),
        [
            "resources.list",
            "apps.operations.report",
            "apps.version.connect"
        ]
    );
}
